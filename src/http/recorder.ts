import type { RequestLogEntry, Store, UsageRow } from '../store/ports.ts';
import type { Logger } from 'pino';

/**
 * Buffers usage increments and request-log entries and writes them in batches, off the hot path.
 * Flushed every `intervalMs` and on shutdown; at most one interval of usage rows can be lost if the
 * process is killed hard (quota counters themselves live in the counters store).
 */
export class Recorder {
  private usage = new Map<string, UsageRow>();
  private log: RequestLogEntry[] = [];
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

  /** Writes what is buffered; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async writeBatch(): Promise<void> {
    const rows = [...this.usage.values()];
    const entries = this.log;
    this.usage = new Map();
    this.log = [];
    try {
      if (rows.length > 0) await this.store.usage.add(rows);
      if (entries.length > 0) await this.store.requestLog.append(entries);
    } catch (err) {
      // Put the batch back so the next flush retries it; nothing recorded is dropped on a blip.
      for (const r of rows) {
        const k = `${r.accountId}\u0000${r.method}\u0000${r.day}`;
        const cur = this.usage.get(k);
        if (cur) cur.count += r.count;
        else this.usage.set(k, r);
      }
      this.log.unshift(...entries);
      this.logger.error({ err }, 'failed to write usage and request log; will retry');
    }
  }
}
