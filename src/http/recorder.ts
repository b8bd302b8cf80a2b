import type { DecisionRecord, DeletedUser, PendingDecision, RequestLogEntry, Store, UsageRow } from '../store/ports.ts';
import type { Logger } from 'pino';
import { BatchInterrupted, writeIsolating } from '../store/unwritable.ts';
import { outsideRequests } from '../logger.ts';

/** The batched logs whose records can be dropped as unwritable (the `log` label of vigil_records_dropped_total). */
export type RecordLog = 'decision' | 'request';

/**
 * Decision records written per transaction. A flush at thousands of requests per second holds
 * thousands of records (a few KB of JSON each); written in one synchronous SQLite transaction they
 * stalled every request for 150-200 ms. In chunks with a turn of the event loop between them, requests
 * go on between chunks.
 */
const DECISION_CHUNK = 50;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * How long the first decision of a group waits for others (ms). Each write is a message to the decision log's
 * worker and its reply, a serialisation and a deletion-guard read: at 500 payment scorings a second, written per turn
 * of the event loop (one or two records each), that cost the serving thread 7% of its CPU (docs/benchmarks.md,
 * 2026-11-27, sixth session). Twenty milliseconds groups about ten records there, far short of the second that let
 * records reach old space (below).
 */
export const DECISION_DELAY_MS = 20;

/**
 * Buffers usage increments, request-log entries and policy decisions and writes them off the hot path.
 * Usage and the request log are flushed every `intervalMs` and on shutdown; at most one interval of
 * usage rows can be lost if the process is killed hard (quota counters themselves live in the counters
 * store).
 *
 * Decisions go out sooner: a timer writes them DECISION_DELAY_MS after the first of a group, once its
 * answers are out. Held for a whole second, each record (a few KB of objects: the
 * answer and input it logs) outlived two young-generation GCs and was copied into old space, which
 * made every scavenge slower and old space fill (docs/benchmarks.md, 2026-11-24). After a failed write
 * they wait for the next interval's flush instead, so a store outage costs one retry (and one error
 * line) per interval, not one per request.
 *
 * A record that can never be written (it cannot be serialised, or the store refuses its values) is not
 * retried: the batch holding it is written record by record, that record is dropped, counted (`onDropped`)
 * and logged once, and the rest go on (src/store/unwritable.ts). Retried, it froze the log for ever.
 */
export class Recorder {
  private usage = new Map<string, UsageRow>();
  private log: RequestLogEntry[] = [];
  private decisions: PendingDecision[] = [];

  /** Decisions buffered and not yet written (the decision-log backlog, for /metrics). */
  decisionBacklog(): number {
    return this.decisions.length;
  }
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  #decisionTimer: NodeJS.Timeout | undefined;
  #decisionsFailing = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
    private readonly onDropped: (log: RecordLog) => void = () => undefined,
    /** The keyed hash a user deletion by userID records (deleted users' buffered records are left out). */
    private readonly userHash: (userId: string) => string = (userId) => userId,
  ) {}

  /**
   * Writes records under the store's deletion guard, leaving out those of users deleted since they were
   * made (by any instance, while they waited here). The keyed hashes are computed only when the accounts
   * had a deletion, so a batch costs one tombstone read.
   */
  private guarded<R extends { accountId: string; at: string; userId: string | null }>(
    records: readonly R[],
    hashes: (record: R) => readonly string[],
    write: (kept: R[]) => Promise<void>,
  ): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.store.deletedUsers.guard(records.map((r) => r.accountId), earliest(records), (deleted) => write(deleted.length === 0 ? [...records] : records.filter((r) => !isDeleted(r, hashes(r), deleted))));
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  countUsage(accountId: string, method: string, day: string): void {
    const k = `${accountId}\u0000${method}\u0000${day}`;
    const row = this.usage.get(k);
    if (row) row.count++;
    else this.usage.set(k, { accountId, method, day, count: 1 });
  }

  /** Usage of the account counted here in a `YYYY-MM` month and not written to the store yet (see monthUsage). */
  #unflushedUsage(accountId: string, month: string): number {
    let n = 0;
    for (const row of this.usage.values()) if (row.accountId === accountId && row.day.startsWith(month)) n += row.count;
    return n;
  }

  /**
   * The account's whole usage of a `YYYY-MM` month: the store's total, read while none of this recorder's
   * writes is in flight, plus what is counted here and not written yet. A write takes its rows out of the
   * counts before it commits: read during it, the store did not have them yet and the counts no longer
   * did (a quota counter seeded then started short by a second of calls). Queued with the writes, the
   * read sees every earlier write committed, and the next one starts after it.
   */
  monthUsage(accountId: string, month: string): Promise<number> {
    const total = this.flushing.catch(() => undefined).then(async () => (await this.store.usage.monthTotal(accountId, month)) + this.#unflushedUsage(accountId, month));
    this.flushing = total.then(() => undefined, () => undefined);
    return total;
  }

  logRequest(entry: RequestLogEntry): void {
    this.log.push(entry);
  }

  logDecision(record: PendingDecision): void {
    this.decisions.push(record);
    if (this.#decisionTimer === undefined && !this.#decisionsFailing) {
      // The timer runs after the answers of its turn are written (write-turn.ts), and of the next few turns too.
      // Created outside the request's scope (src/logger.ts): the batch is many requests', its lines none's.
      this.#decisionTimer = outsideRequests(() =>
        setTimeout(() => {
          this.#decisionTimer = undefined;
          this.flushing = this.flushing.then(() => this.writeDecisions());
        }, DECISION_DELAY_MS),
      );
      this.#decisionTimer.unref();
    }
  }

  /** Writes what is buffered; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.#decisionTimer !== undefined) clearTimeout(this.#decisionTimer);
    this.#decisionTimer = undefined;
    await this.flush();
  }

  /**
   * The record as stored, its identity hashes computed now. A thunk that throws must not hold up the
   * log (the batch would be retried for ever): the record is kept without them, and the failure logged;
   * user deletion still finds it by user id and by the values in its input and result.
   */
  private settled({ identities, ...record }: PendingDecision): DecisionRecord {
    if (!identities) return record;
    try {
      return Object.assign(record, { identities: identities() });
    } catch (err) {
      this.logger.error({ err, accountId: record.accountId, operation: record.operation }, 'decision identities could not be hashed; kept without them');
      return record;
    }
  }

  /** Writes the buffered decisions in chunks; after a failure what was not written is first in line for the next flush. */
  private async writeDecisions(): Promise<void> {
    const decisions = this.decisions;
    this.decisions = [];
    if (decisions.length === 0) return;
    let written = 0;
    /** What must go back to the queue when a chunk fails: its records not handled yet. */
    let unwritten: PendingDecision[] = [];
    try {
      // One deletion guard (one tombstone read) for the whole batch; the chunks still yield between them.
      await this.store.deletedUsers.guard(decisions.map((d) => d.accountId), earliest(decisions), async (deleted) => {
        while (written < decisions.length) {
          if (written > 0) await nextTurn();
          const pending = decisions.slice(written, written + DECISION_CHUNK);
          const settled = pending.map((d) => this.settled(d));
          const keep = settled.map((d) => deleted.length === 0 || !isDeleted(d, [...(d.userId === null ? [] : [this.userHash(d.userId)]), ...(d.identities ?? [])], deleted));
          const kept = settled.filter((_, i) => keep[i]);
          unwritten = pending.filter((_, i) => keep[i]);
          await writeIsolating(kept, (records) => this.store.decisions.append(records), (record, err) => this.droppedDecision(record, err));
          unwritten = [];
          written += pending.length;
        }
      });
      this.#decisionsFailing = false;
    } catch (err) {
      // Put back what was not written so the next flush retries it; nothing recorded is dropped on a blip.
      const handled = err instanceof BatchInterrupted ? err.handled : 0;
      this.decisions.unshift(...(written < decisions.length && unwritten.length === 0 ? decisions.slice(written) : [...unwritten.slice(handled), ...decisions.slice(written + DECISION_CHUNK)]));
      this.#decisionsFailing = true;
      this.logger.error({ err: err instanceof BatchInterrupted ? err.cause : err }, 'failed to write the decision log; will retry');
    }
  }

  /** One line per dropped record, with what identifies it and why, without a stack. */
  private droppedDecision(record: DecisionRecord, err: unknown): void {
    this.onDropped('decision');
    const tx = record.input.transaction_id;
    this.logger.error(
      {
        accountId: record.accountId,
        operation: record.operation,
        group: record.group,
        at: record.at,
        userId: record.userId,
        ...(typeof tx === 'string' && { transactionId: tx.slice(0, 100) }),
        reason: reasonOf(err),
      },
      'decision record cannot be written; dropped',
    );
  }

  private async writeBatch(): Promise<void> {
    // Payment scorings the store holds back (sqlite/scoring-buffer.ts) go with the logs: a flush before a deletion
    // or a test's look at the files finds them written. A failure is the store's to retry; the logs go on.
    await this.store.scorings.flush().catch((err: unknown) => this.logger.error({ err }, 'failed to write buffered payment scorings; will retry'));
    const rows = [...this.usage.values()];
    const entries = this.log;
    this.usage = new Map();
    this.log = [];
    let usageWritten = false;
    try {
      if (rows.length > 0) await this.store.usage.add(rows);
      usageWritten = true;
      let writing = entries;
      try {
        await this.guarded(entries, (e) => [this.userHash(e.userId)], (kept) => {
          writing = kept;
          return writeIsolating(kept, (batch) => this.store.requestLog.append(batch), (entry, err) => this.droppedEntry(entry, err));
        });
      } catch (err) {
        // Put back what was not written so the next flush retries it; nothing recorded is dropped on a blip.
        this.log.unshift(...writing.slice(err instanceof BatchInterrupted ? err.handled : 0));
        throw err;
      }
    } catch (err) {
      if (usageWritten) {
        this.logger.error({ err: err instanceof BatchInterrupted ? err.cause : err }, 'failed to write the request log; will retry');
      } else {
        this.log.unshift(...entries);
        for (const r of rows) {
          const k = `${r.accountId}\u0000${r.method}\u0000${r.day}`;
          const cur = this.usage.get(k);
          if (cur) cur.count += r.count;
          else this.usage.set(k, r);
        }
        this.logger.error({ err }, 'failed to write usage and request log; will retry');
      }
      // The store is failing: the decision log waits for the next interval's flush too.
      return;
    }
    await this.writeDecisions();
  }

  private droppedEntry(entry: RequestLogEntry, err: unknown): void {
    this.onDropped('request');
    this.logger.error({ accountId: entry.accountId, operation: entry.operation, at: entry.at, reason: reasonOf(err) }, 'request log entry cannot be written; dropped');
  }
}

/** The earliest `at` of non-empty records. */
function earliest(records: ReadonlyArray<{ at: string }>): string {
  let since = records[0]!.at;
  for (const r of records) if (r.at < since) since = r.at;
  return since;
}

/** Whether a record made at `record.at` belongs to a user deleted at or after that time. */
function isDeleted(record: { accountId: string; at: string }, hashes: readonly string[], deleted: readonly DeletedUser[]): boolean {
  return deleted.some((d) => d.accountId === record.accountId && d.deletedAt >= record.at && hashes.includes(d.valueHash));
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300);
}
