/**
 * Telling a record that can never be written from a store that cannot write now, for the batched writers
 * (decision log, request log). A batch that failed for one record's content used to be retried for ever:
 * the log froze behind it and its queue grew. Such a record is now isolated and dropped; an outage still
 * keeps every record for the next try.
 */

/**
 * Thrown by an encoder for a record that cannot be serialised (too deep, not an object, bad identities, bad
 * timestamp). A RangeError, as the stores' other refusals of bad values are.
 */
export class UnwritableRecord extends RangeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnwritableRecord';
  }
}

/**
 * PostgreSQL SQLSTATE classes that a record's values cause, whatever the server's state: 22 data exception
 * (a NUL in a jsonb string, an out-of-range timestamp), 23 integrity constraint, 54 program limit exceeded
 * (a value too large for an index or a row).
 */
const PG_RECORD_CLASSES = new Set(['22', '23', '54']);
/** SQLite result codes that a record's values cause (a busy, full or broken database is not one). */
const SQLITE_RECORD_CODES = /^SQLITE_(TOOBIG|CONSTRAINT|MISMATCH|RANGE)/;

/** Whether the failure comes from the content of what was written, so writing it again would fail again. */
export function isRecordError(err: unknown): boolean {
  if (err instanceof UnwritableRecord) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (/^[0-9A-Z]{5}$/.test(code)) return PG_RECORD_CLASSES.has(code.slice(0, 2));
  return SQLITE_RECORD_CODES.test(code);
}

/** A batch write stopped by an outage after `handled` records were written or dropped. */
export class BatchInterrupted extends Error {
  constructor(
    readonly handled: number,
    cause: unknown,
  ) {
    super(`batch write interrupted after ${handled} records`, { cause });
    this.name = 'BatchInterrupted';
  }
}

/**
 * Writes a batch in one call; if it fails for a record's content, writes the records one at a time and drops
 * each that fails alone for its content (`dropped` is told of it). Any other failure rejects with
 * BatchInterrupted, saying how many records were already handled so the caller keeps the rest.
 */
export async function writeIsolating<T>(batch: readonly T[], write: (records: T[]) => Promise<void>, dropped: (record: T, err: unknown) => void): Promise<void> {
  try {
    await write([...batch]);
    return;
  } catch (err) {
    if (!isRecordError(err)) throw new BatchInterrupted(0, err);
  }
  for (let i = 0; i < batch.length; i++) {
    const record = batch[i] as T;
    try {
      await write([record]);
    } catch (err) {
      if (!isRecordError(err)) throw new BatchInterrupted(i, err);
      dropped(record, err);
    }
  }
}
