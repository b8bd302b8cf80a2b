import { IDENTITY_FIELDS } from '../learning-ports.ts';
import { IDENTITY_COLUMNS, type ScoringValues } from '../learning-rows.ts';

/** Most scorings written in one transaction; a full buffer is written at once. */
export const SCORING_BATCH_ROWS = 32;
/** How long the first scoring of a group waits for others before the group is written (ms). */
export const SCORING_BATCH_DELAY_MS = 5;
/** After a write that failed, how long before the next try (ms). */
const RETRY_MS = 1000;

/** SQLite result codes of a write that may succeed later (the rows stay buffered); any other failure is the row's. */
export const TRANSIENT_WRITE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|PROTOCOL|NOMEM|INTERRUPT)/;

export interface ScoringBufferOptions {
  /**
   * Writes rows in one transaction (all or none), on the caller's connection when `here`; otherwise it may hand
   * them to another thread's connection, which settles them later (`giveBack` those it could not write).
   */
  write(rows: readonly ScoringValues[], here: boolean): void;
  /** A write failed; the rows stay buffered and are tried again. */
  onError(err: unknown, rows: number): void;
  /** A row that can never be written (its values are refused): dropped, so the others go on. */
  onDropped(err: unknown, row: ScoringValues): void;
  maxRows?: number;
  delayMs?: number;
}

/**
 * Payment scorings stored but not yet written: they are written in groups, one transaction per group,
 * a few milliseconds after the first (or at once when the group is full), instead of one transaction per
 * scoring inside its request. Every read of the scorings table writes the buffer first when the buffer
 * holds a row the read could see (velocity windows and histories by identity: `holds`) or always (the
 * other reads): no read ever misses a stored scoring, so velocity stays exact. What a crash can lose is
 * what the buffer holds: at most `maxRows` scorings of the last `delayMs` (docs/operations.md).
 */
export class ScoringBuffer {
  #rows: ScoringValues[] = [];
  /** `account \0 column \0 value` of every identity (and BIN) of the buffered rows. */
  readonly #keys = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  readonly #maxRows: number;
  readonly #delayMs: number;

  constructor(private readonly options: ScoringBufferOptions) {
    this.#maxRows = options.maxRows ?? SCORING_BATCH_ROWS;
    this.#delayMs = options.delayMs ?? SCORING_BATCH_DELAY_MS;
  }

  get size(): number {
    return this.#rows.length;
  }

  add(values: ScoringValues): void {
    this.#rows.push(values);
    for (const key of scoringKeys(values)) this.#keys.add(key);
    if (this.#rows.length >= this.#maxRows) this.#written();
    else this.#arm(this.#delayMs);
  }

  /** Whether a buffered row has `key` (see ScoringBufferOptions: account, column, value). */
  holds(key: string): boolean {
    return this.#rows.length > 0 && this.#keys.has(key);
  }

  /**
   * Writes the buffered rows now: synchronously on the caller's connection (`here`), or handed to the write's
   * other connection when it takes them (ScoringBufferOptions.write). A failure that may pass keeps every row not
   * written and throws; a row whose values are refused is dropped and reported.
   */
  flush(here = false): void {
    if (this.#rows.length === 0) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const rows = this.#rows;
    this.#rows = [];
    this.#keys.clear();
    try {
      this.options.write(rows, here);
      return;
    } catch (err) {
      if (transient(err)) {
        this.#restore(rows);
        throw err;
      }
    }
    // One row is refused: the others are written one by one, the refused ones dropped.
    for (let i = 0; i < rows.length; i++) {
      try {
        this.options.write([rows[i]!], true);
      } catch (err) {
        if (transient(err)) {
          this.#restore(rows.slice(i));
          throw err;
        }
        this.options.onDropped(err, rows[i]!);
      }
    }
  }

  /**
   * Rows handed to another connection that it could not write (a failure that may pass): back in front of the
   * buffer, reported, and tried again later.
   */
  giveBack(rows: readonly ScoringValues[], err: unknown): void {
    if (rows.length === 0) return;
    this.#restore(rows);
    this.options.onError(err, rows.length);
    this.#arm(RETRY_MS);
  }

  /** A row handed to another connection that SQLite refused: dropped and reported. */
  refused(row: ScoringValues, err: unknown): void {
    this.options.onDropped(err, row);
  }

  /** Stops the timer; the caller flushes (close). */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(this.#written.bind(this), ms);
    this.#timer.unref();
  }

  /** The timer's (or a full buffer's) write: a failure is reported and tried again later. */
  #written(): void {
    try {
      this.flush();
    } catch (err) {
      this.options.onError(err, this.#rows.length);
      this.#arm(RETRY_MS);
    }
  }

  /** Puts rows that were not written back in front of any added meanwhile. */
  #restore(rows: readonly ScoringValues[]): void {
    this.#rows = [...rows, ...this.#rows];
    this.#keys.clear();
    for (const row of this.#rows) for (const key of scoringKeys(row)) this.#keys.add(key);
  }
}

function transient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_WRITE.test(code);
}

/** The key of one (account, column, value) a read may ask for. */
export function scoringKey(accountId: string, column: string, value: string): string {
  return `${accountId}\u0000${column}\u0000${value}`;
}

/** The identity columns of a scoring row, in ScoringValues.identities order (IDENTITY_FIELDS). */
const IDENTITY_COLUMN_ORDER: readonly string[] = IDENTITY_FIELDS.map((field) => IDENTITY_COLUMNS[field]);

/** Every key a read could ask a row for: its identities and its BIN. */
export function scoringKeys(values: ScoringValues): string[] {
  const keys: string[] = [];
  for (let i = 0; i < values.identities.length; i++) {
    const hash = values.identities[i];
    if (hash !== null && hash !== undefined) keys.push(scoringKey(values.accountId, IDENTITY_COLUMN_ORDER[i]!, hash));
  }
  if (values.cardBin !== null) keys.push(scoringKey(values.accountId, 'card_bin', values.cardBin));
  return keys;
}
