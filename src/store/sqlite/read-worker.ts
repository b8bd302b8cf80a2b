import type { Database, Statement } from 'better-sqlite3';
import { TRANSIENT_WRITE } from './scoring-buffer.ts';
import { settle } from './values.ts';
import { type HostedRequest, replyError, WorkerHost } from './worker-host.ts';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';

/** One query of a read: SQL text built from the store's closed column maps only, and its bound values. */
export interface ReadQuery {
  sql: string;
  params: readonly unknown[];
}

/**
 * Runs read-only queries: all those of one call from one snapshot (one read transaction), each giving its
 * first row (undefined when it has none).
 */
export interface SnapshotReader {
  firstRows<R>(queries: readonly ReadQuery[]): Promise<Array<R | undefined>>;
  close(): Promise<void>;
  /**
   * Takes a group of rows to write on the reads' connection, before any read asked after it (WorkerReader); false:
   * not taken, the caller writes them on its own connection.
   */
  offerWrite?(write: RowsWrite): boolean;
  /**
   * Blocks until every write taken is settled, so that the caller's connection sees the rows written and the rows
   * not written are handed back. Throws (SQLITE_BUSY) when that takes longer than the busy timeout.
   */
  settleWrites?(): void;
  /** Resolves once every write taken so far is settled, without blocking this thread. */
  writesSettled?(): Promise<void>;
  /** Calls asked for and not answered yet. */
  readonly waiting?: number;
}

/** A group of rows for `offerWrite`: one INSERT text with named parameters, one object of values per row. */
export interface RowsWrite {
  sql: string;
  rows: ReadonlyArray<Record<string, unknown>>;
  /**
   * The write is settled: rows from `unwritten` on were not written (a failure that may pass, `error`) and go back
   * to the caller; `unwritten` equal to the number of rows: all were written (or refused).
   */
  settled(unwritten: number, error?: Error): void;
  /** Row `index` can never be written (SQLite refused its values): it was dropped, the others went on. */
  refused(index: number, error: Error): void;
}

/** Prepared statements by SQL text; the texts come from closed maps, so there are few of them. */
export class StatementCache {
  readonly #statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(private readonly db: Database) {}

  get<R = unknown>(sql: string): Statement<unknown[], R> {
    let statement = this.#statements.get(sql);
    if (!statement) {
      // A bound on what a bug building texts could pile up; the closed maps give a few dozen at most.
      if (this.#statements.size >= 1000) this.#statements.clear();
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.#statements.set(sql, statement);
    }
    return statement as Statement<unknown[], R>;
  }
}

/** The same reads on the serving connection (an in-memory store, which no other thread can open). */
export class LocalReader implements SnapshotReader {
  readonly #statements: StatementCache;
  readonly #read: (queries: readonly ReadQuery[]) => unknown[];

  constructor(db: Database) {
    this.#statements = new StatementCache(db);
    this.#read = db.transaction((queries: readonly ReadQuery[]) => queries.map((q) => this.#statements.get(q.sql).get(...q.params)));
  }

  firstRows<R>(queries: readonly ReadQuery[]): Promise<Array<R | undefined>> {
    return settle(() => this.#read(queries) as Array<R | undefined>);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

interface Request extends HostedRequest {
  /** SQL texts the worker has not been sent yet, with their numbers. */
  texts: Array<[number, string]>;
  /** The worker forgets every text it was sent before these. */
  reset: boolean;
  /** Each call's [statement number, params] pairs. */
  calls: Array<Array<[number, readonly unknown[]]>>;
  /** Groups of rows to write before the calls: [write number, statement number, rows]. */
  writes: Array<[number, number, ReadonlyArray<Record<string, unknown>>]>;
}

/** Most SQL texts the worker keeps; the texts come from closed maps, so a few dozen in practice. */
const MAX_TEXTS = 1000;

type Outcome = { ok: true; rows: unknown[] } | { ok: false; error: { message: string; code?: string } };
/** A write's outcome: rows from `unwritten` on were not written (`error`); `refused`: rows dropped, with SQLite's error. */
type Written = { seq: number; unwritten: number; error?: { message: string; code?: string }; refused: Array<[number, { message: string; code?: string }]> };
type Reply = { id: number; outcomes: Outcome[]; written: Written[] } | { id: number; failed: { message: string } };

/** A call waiting for its turn or its answer. */
interface Call {
  queries: readonly ReadQuery[];
  resolve: (rows: unknown[]) => void;
  reject: (err: Error) => void;
}

/** What one message waits for: its calls, and the numbers of its writes. */
interface Sent {
  calls: Call[];
  writes: number[];
}

/**
 * Writes the worker has been given and not yet settled, at most this many; past them, the caller writes on its own
 * connection. The shared status keeps the outcome of the last RING writes.
 */
const MAX_WRITES_IN_FLIGHT = 256;
const RING = 1024;

/**
 * The worker's source (see sqliteWorker, worker-host.ts): a second connection to the serving database, each call's
 * queries in one read transaction. WAL mode lets it read while the serving connection writes, and a read started
 * after a commit sees that commit. The connection is query-only but for the groups of rows the parent gives it to
 * write (each in one IMMEDIATE transaction, before the calls of the same message); the outcome of each write goes
 * into the shared status (`[0]`: the last write settled; a slot per write: its number and its first row not
 * written) before the reply, so that the parent can wait for it without its event loop (WorkerReader.settleWrites).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
// As the serving connection: durable commits without an fsync each, checkpoints left to the checkpointer.
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('wal_autocheckpoint = ' + workerData.walAutocheckpoint);
db.pragma('query_only = ON');
const status = new Int32Array(workerData.status);
const RING = workerData.ring;
const TRANSIENT = new RegExp(workerData.transient);
// SQL texts by the number the parent gave them (each text is sent once), and their statements once prepared.
let texts = new Map();
let statements = new Map();
const statement = (n) => {
  let s = statements.get(n);
  if (!s) {
    const sql = texts.get(n);
    if (sql === undefined) throw new Error('unknown statement ' + n);
    s = db.prepare(sql);
    statements.set(n, s);
  }
  return s;
};
const read = db.transaction((queries) => queries.map(([n, params]) => statement(n).get(...params)));
const errorOf = (err) => ({ message: String(err && err.message), code: err && err.code });
const outcome = (queries) => {
  try {
    return { ok: true, rows: read(queries) };
  } catch (err) {
    return { ok: false, error: errorOf(err) };
  }
};
const insert = db.transaction((s, rows) => {
  for (const row of rows) s.run(row);
});
const transient = (err) => typeof (err && err.code) === 'string' && TRANSIENT.test(err.code);
// All rows in one transaction; when SQLite refuses one, row by row, the refused ones dropped.
const writeRows = (s, rows) => {
  try {
    insert.immediate(s, rows);
    return { unwritten: rows.length, refused: [] };
  } catch (err) {
    if (transient(err)) return { unwritten: 0, error: errorOf(err), refused: [] };
  }
  const refused = [];
  for (let i = 0; i < rows.length; i++) {
    try {
      insert.immediate(s, [rows[i]]);
    } catch (err) {
      if (transient(err)) return { unwritten: i, error: errorOf(err), refused };
      refused.push([i, errorOf(err)]);
    }
  }
  return { unwritten: rows.length, refused };
};
const write = ([seq, n, rows]) => {
  let result;
  // (A flag pragma takes effect when it is prepared, so each switch is a new statement.)
  db.pragma('query_only = OFF');
  try {
    result = writeRows(statement(n), rows);
  } catch (err) {
    result = { unwritten: 0, error: errorOf(err), refused: [] };
  } finally {
    db.pragma('query_only = ON');
  }
  const slot = 1 + 2 * (seq % RING);
  status[slot] = seq;
  status[slot + 1] = result.unwritten;
  Atomics.store(status, 0, seq);
  Atomics.notify(status, 0);
  return { seq, ...result };
};
parentPort.on('message', (request) => {
  if (request.op === 'close') {
    db.close();
    parentPort.postMessage({ id: request.id, outcomes: [], written: [] });
    parentPort.close();
    return;
  }
  try {
    if (request.reset) {
      texts = new Map();
      statements = new Map();
    }
    for (const [n, sql] of request.texts) texts.set(n, sql);
    const written = request.writes.map(write);
    // A read after a write that failed could miss its rows: it fails with the write's error.
    const failed = written.find((w) => w.error);
    const outcomes = failed ? request.calls.map(() => ({ ok: false, error: failed.error })) : request.calls.map(outcome);
    parentPort.postMessage({ id: request.id, outcomes, written });
  } catch (err) {
    parentPort.postMessage({ id: request.id, failed: { message: String(err && err.message) } });
  }
});
`;

/**
 * Reads on a worker thread with its own connection to the serving database file, so that the queries a
 * payment scoring makes of its history (velocity windows, amount statistics, fraud counts: a quarter of
 * its main-thread time, docs/benchmarks.md) run beside the serving thread instead of on it. A read sent after
 * a commit of the serving connection sees it. The worker also writes the groups of payment scorings it is
 * given (`offerWrite`): in the order of the messages, so a read sent after such a write sees its rows too, and
 * their commits keep this connection's page cache (SQLite empties a connection's cache when another connection
 * wrote). If the worker dies, the reads in flight reject, the writes it had not settled go back to their owner,
 * and the next call starts a new worker.
 */
export class WorkerReader extends WorkerHost<Sent, Reply> implements SnapshotReader {
  /** Calls made in this job of the event loop so far: sent together in one message (see `firstRows`). */
  #queued: Call[] = [];
  /** Writes given in this job of the event loop so far, sent with the calls, before them. */
  #queuedWrites: number[] = [];
  /**
   * The number of each SQL text the running worker was sent (`#generation`: that worker's). A scoring's reads
   * are a dozen texts of up to a few hundred characters: sent once each and then named by number, a message
   * is a fraction of the size (its structured clone was 6-9% of the serving thread at full speed).
   */
  #numbers = new Map<string, number>();
  #generation = -1;
  /** Writes given and not settled, by number (numbers grow, and are never reused). */
  readonly #writes = new Map<number, RowsWrite>();
  #lastWrite = 0;
  /** Shared with the worker: [0] the last write it settled; per write slot, its number and its first row not written. */
  readonly #status: Int32Array;
  /** Calls sent to the worker and not answered yet (`waiting`). */
  #sentCalls = 0;
  /** Callers of writesSettled waiting for the writes in flight. */
  #whenSettled: Array<() => void> = [];
  /** How long settleWrites waits: the worker's own busy timeout and a margin. */
  readonly #settleMs: number;

  /** `settleMs`: how long settleWrites waits (default: the busy timeout and a second). */
  constructor(path: string, busyTimeoutMs: number, options: { walAutocheckpoint?: number; settleMs?: number } = {}) {
    const status = new SharedArrayBuffer(4 * (1 + 2 * RING));
    super(WORKER_SOURCE, { path, busyTimeoutMs, walAutocheckpoint: Math.trunc(options.walAutocheckpoint ?? 1000), status, ring: RING, transient: TRANSIENT_WRITE.source }, `SQLite read worker of ${path}`);
    this.#status = new Int32Array(status);
    this.#settleMs = options.settleMs ?? busyTimeoutMs + 1000;
  }

  /**
   * The calls made before the current job of the event loop ends (a scoring asks for its velocity, amounts
   * and fraud count at once) go to the worker in one message: one wake-up of the worker, one reply.
   */
  firstRows<R>(queries: readonly ReadQuery[]): Promise<Array<R | undefined>> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return new Promise<unknown[]>((resolve, reject) => {
      this.#queued.push({ queries, resolve, reject });
      this.#queuedOne();
    }) as Promise<Array<R | undefined>>;
  }

  /** Takes the write unless the worker is closed or already has MAX_WRITES_IN_FLIGHT writes to settle. */
  offerWrite(write: RowsWrite): boolean {
    if (this.closed || this.#writes.size >= MAX_WRITES_IN_FLIGHT || write.rows.length === 0) return false;
    const seq = ++this.#lastWrite;
    this.#writes.set(seq, write);
    this.#queuedWrites.push(seq);
    this.#queuedOne();
    return true;
  }

  /** The first call or write of this job of the event loop sends them all once the job ends (one message). */
  #queuedOne(): void {
    if (this.#queued.length + this.#queuedWrites.length === 1) queueMicrotask(this.#flush.bind(this));
  }

  /** Sends the writes not sent yet and waits (blocking this thread) until the worker has settled every write. */
  settleWrites(): void {
    if (this.#writes.size === 0) return;
    this.#flush();
    const deadline = performance.now() + this.#settleMs;
    for (;;) {
      const done = Atomics.load(this.#status, 0);
      // Writes of a worker that died are settled by `fail` (on the event loop); what the status holds is settled here.
      for (const seq of [...this.#writes.keys()]) if (seq <= done) this.#settleFromStatus(seq);
      if (this.#writes.size === 0 || done >= this.#lastWrite) return;
      const left = deadline - performance.now();
      if (left <= 0) throw Object.assign(new Error(`the read worker did not settle its writes within ${this.#settleMs} ms`), { code: 'SQLITE_BUSY' });
      Atomics.wait(this.#status, 0, done, left);
    }
  }

  get waiting(): number {
    return this.#queued.length + this.#sentCalls;
  }

  writesSettled(): Promise<void> {
    if (this.#writes.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenSettled.push(resolve));
  }

  /** Removes a write that is settled; with the last one gone, wakes the callers of writesSettled. */
  #settledWrite(seq: number): RowsWrite | undefined {
    const write = this.#writes.get(seq);
    this.#writes.delete(seq);
    if (this.#writes.size === 0 && this.#whenSettled.length > 0) {
      const waiting = this.#whenSettled;
      this.#whenSettled = [];
      // After the write's own callbacks (which may hand rows back): the callers then see the buffer as it is.
      queueMicrotask(() => {
        for (const resolve of waiting) resolve();
      });
    }
    return write;
  }

  /** Waits for the reads asked for and the writes given before, then closes the worker's connection. */
  override close(): Promise<void> {
    this.#flush();
    return super.close();
  }

  protected answer(sent: Sent, reply: Reply): void {
    this.#sentCalls -= sent.calls.length;
    if ('failed' in reply) {
      for (const seq of sent.writes) this.#settleFromStatus(seq);
      for (const call of sent.calls) call.reject(new Error(reply.failed.message));
      return;
    }
    for (const w of reply.written) {
      const write = this.#settledWrite(w.seq);
      for (const [index, error] of w.refused) write?.refused(index, replyError(error));
      write?.settled(w.unwritten, w.error && replyError(w.error));
    }
    const afterFailedWrite = reply.written.some((w) => w.error !== undefined);
    sent.calls.forEach((call, i) => {
      const outcome = reply.outcomes[i];
      if (outcome?.ok) call.resolve(outcome.rows);
      else call.reject(outcome ? Object.assign(replyError(outcome.error), afterFailedWrite ? { afterFailedWrite } : {}) : new Error('no answer from the read worker'));
    });
  }

  protected fail(sent: Sent, err: Error): void {
    this.#sentCalls -= sent.calls.length;
    for (const seq of sent.writes) this.#settleFromStatus(seq, err);
    for (const call of sent.calls) call.reject(err);
  }

  /**
   * Settles a write from the shared status: written as far as it says, or, when it holds nothing of this write (the
   * worker never ran it), not written at all.
   */
  #settleFromStatus(seq: number, error?: Error): void {
    const write = this.#settledWrite(seq);
    if (write === undefined) return;
    const slot = 1 + 2 * (seq % RING);
    const unwritten = Atomics.load(this.#status, slot) === seq ? Atomics.load(this.#status, slot + 1) : 0;
    write.settled(unwritten, unwritten < write.rows.length ? (error ?? new Error('the read worker could not write the rows (a failure that may pass: locked, full or unreadable file)')) : undefined);
  }

  #flush(): void {
    const calls = this.#queued;
    const writes = this.#queuedWrites;
    if (calls.length === 0 && writes.length === 0) return;
    this.#queued = [];
    this.#queuedWrites = [];
    const generation = this.generation;
    let reset = false;
    if (generation !== this.#generation || this.#numbers.size >= MAX_TEXTS) {
      // A new worker (or too many texts): everything is sent again.
      this.#numbers.clear();
      this.#generation = generation;
      reset = true;
    }
    const texts: Array<[number, string]> = [];
    const number = (sql: string): number => {
      let n = this.#numbers.get(sql);
      if (n === undefined) {
        n = this.#numbers.size + 1;
        this.#numbers.set(sql, n);
        texts.push([n, sql]);
      }
      return n;
    };
    const rows: Request['writes'] = [];
    for (const seq of writes) {
      const write = this.#writes.get(seq);
      if (write !== undefined) rows.push([seq, number(write.sql), write.rows]);
    }
    const pairs = calls.map((call) => call.queries.map((query): [number, readonly unknown[]] => [number(query.sql), query.params]));
    const request: Request = { id: 0, texts, reset, calls: pairs, writes: rows };
    this.#sentCalls += calls.length;
    this.send(request, { calls, writes });
  }
}

/**
 * How often the serving thread's load is measured, and the share of busy time from which it counts as saturated.
 * A thread whose reads and writes went to the worker has time to spare while its calls wait there (its load at full
 * speed fell to 0.7-0.9 now and then), and going back to reading here at each such dip cost 10-25% of the
 * throughput (docs/benchmarks.md, 2026-11-28). So it keeps to the worker while at least QUEUED calls waited there at
 * once in the stretch and it was busy at least CALM of it. A moderate steady load (500 scorings a second) rarely
 * has more than one scoring's calls on the worker, and goes back here, where a lone scoring skips the round trip
 * and does not wait behind the worker's writes. On a slow 2-core machine that load still crosses SATURATED often
 * and spends much of its time on the worker, which then costs more CPU in all; requiring several saturated
 * stretches in a row lowered that without changing the paced tail (docs/benchmarks.md, ninth session).
 */
const LOAD_SAMPLE_MS = 100;
const SATURATED = 0.9;
const CALM = 0.5;
/** Calls waiting on the worker at once (at some point of the stretch) for a thread under SATURATED to keep using it. */
const QUEUED = 4;

/**
 * Reads on this thread, or on the worker while this thread is saturated. On the worker, a scoring's history
 * costs this thread little, but it waits for the message's round trip and for a connection whose page cache
 * each commit here empties (SQLite drops a connection's cache when another connection wrote): a lone
 * scoring took about 0.25 ms longer, and tails at a moderate rate grew (docs/benchmarks.md, 2026-11-25, night).
 * So the reads move to the worker only while the event loop was busy at least 90% of the last ~100 ms,
 * when requests queue for this thread and the worker's core adds capacity. A read the worker fails is made
 * here again, so a worker that dies (or cannot start) costs time, never a scoring. The payment scorings' group
 * writes follow the reads: on the worker while saturated (`offerWrite`), and settled before any read here.
 */
export class LoadReader implements SnapshotReader {
  #saturated = false;
  #sampledAt = 0;
  /** The most calls waiting on the worker seen in the stretch being measured. */
  #peakWaiting = 0;
  /** Where the stretch being measured began; none before the first read (the server's start is no load). */
  #since: EventLoopUtilization | undefined;

  constructor(
    private readonly local: SnapshotReader,
    private readonly worker: SnapshotReader,
  ) {}

  /** Whether the last measured stretch found this thread saturated (tests). */
  get saturated(): boolean {
    return this.#saturated;
  }

  firstRows<R>(queries: readonly ReadQuery[]): Promise<Array<R | undefined>> {
    const now = performance.now();
    const waiting = this.worker.waiting ?? 0;
    if (waiting > this.#peakWaiting) this.#peakWaiting = waiting;
    if (this.#since === undefined) {
      this.#since = performance.eventLoopUtilization();
      this.#sampledAt = now;
    } else if (now - this.#sampledAt >= LOAD_SAMPLE_MS) {
      const load = performance.eventLoopUtilization(this.#since);
      this.#since = performance.eventLoopUtilization();
      this.#sampledAt = now;
      // Saturated, or calls still queueing on the worker while this thread has a little time to spare.
      this.#saturated = load.utilization >= SATURATED || (this.#saturated && load.utilization >= CALM && this.#peakWaiting >= QUEUED);
      this.#peakWaiting = 0;
    }
    if (!this.#saturated) {
      // Rows the worker was given to write are settled first, so that this connection sees them.
      try {
        this.worker.settleWrites?.();
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      return this.local.firstRows<R>(queries);
    }
    // Reads change nothing: one the worker could not answer (it died, or could not start) is made here, but not one
    // that followed a failed write (it could miss the write's rows, which went back to their buffer).
    return this.worker.firstRows<R>(queries).catch((err: unknown) => {
      if ((err as { afterFailedWrite?: boolean } | null)?.afterFailedWrite === true) throw err;
      return this.local.firstRows<R>(queries);
    });
  }

  /** Writes go to the worker while this thread is saturated (the reads after them go there too). */
  offerWrite(write: RowsWrite): boolean {
    return this.#saturated && (this.worker.offerWrite?.(write) ?? false);
  }

  settleWrites(): void {
    this.worker.settleWrites?.();
  }

  writesSettled(): Promise<void> {
    return this.worker.writesSettled?.() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.local.close();
  }
}
