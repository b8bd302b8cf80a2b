import type { DecisionRecord, PendingDecision, RequestLogEntry, Store, UsageRow } from '../store/ports.ts';
import type { Logger } from 'pino';

/**
 * Buffers usage increments, request-log entries and policy decisions and writes them in batches, off the hot path.
 * Flushed every `intervalMs` and on shutdown; at most one interval of usage rows can be lost if the
 * process is killed hard (quota counters themselves live in the counters store).
 */
/**
 * Decision records written per transaction. A flush at thousands of requests per second holds
 * thousands of records (a few KB of JSON each); written in one synchronous SQLite transaction they
 * stalled every request for 150-200 ms. In chunks with a turn of the event loop between them, requests
 * go on between chunks.
 */
const DECISION_CHUNK = 50;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Recorder {
  private usage = new Map<string, UsageRow>();
  private log: RequestLogEntry[] = [];
  private decisions: PendingDecision[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

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

  logRequest(entry: RequestLogEntry): void {
    this.log.push(entry);
  }

  logDecision(record: PendingDecision): void {
    this.decisions.push(record);
  }

  /** Writes what is buffered; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
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
      return { ...record, identities: identities() };
    } catch (err) {
      this.logger.error({ err, accountId: record.accountId, operation: record.operation }, 'decision identities could not be hashed; kept without them');
      return record;
    }
  }

  private async writeBatch(): Promise<void> {
    const rows = [...this.usage.values()];
    const entries = this.log;
    const decisions = this.decisions;
    this.usage = new Map();
    this.log = [];
    this.decisions = [];
    let written = { usage: false, log: false };
    let decisionsWritten = 0;
    try {
      if (rows.length > 0) await this.store.usage.add(rows);
      written = { usage: true, log: false };
      if (entries.length > 0) await this.store.requestLog.append(entries);
      written = { usage: true, log: true };
      while (decisionsWritten < decisions.length) {
        if (decisionsWritten > 0) await nextTurn();
        const chunk = decisions.slice(decisionsWritten, decisionsWritten + DECISION_CHUNK).map((d) => this.settled(d));
        await this.store.decisions.append(chunk);
        decisionsWritten += chunk.length;
      }
    } catch (err) {
      // Put back what was not written so the next flush retries it; nothing recorded is dropped on a blip.
      this.decisions.unshift(...decisions.slice(decisionsWritten));
      if (written.log) {
        this.logger.error({ err }, 'failed to write the decision log; will retry');
        return;
      }
      this.log.unshift(...entries);
      if (written.usage) {
        this.logger.error({ err }, 'failed to write the request log; will retry');
        return;
      }
      for (const r of rows) {
        const k = `${r.accountId}\u0000${r.method}\u0000${r.day}`;
        const cur = this.usage.get(k);
        if (cur) cur.count += r.count;
        else this.usage.set(k, r);
      }
      this.logger.error({ err }, 'failed to write usage and request log; will retry');
    }
  }
}
