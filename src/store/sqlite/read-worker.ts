import type { Database, Statement } from 'better-sqlite3';
import { settle } from './values.ts';
import { type HostedRequest, replyError, WorkerHost } from './worker-host.ts';
import { performance } from 'node:perf_hooks';

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
}

/** Most SQL texts the worker keeps; the texts come from closed maps, so a few dozen in practice. */
const MAX_TEXTS = 1000;

type Outcome = { ok: true; rows: unknown[] } | { ok: false; error: { message: string; code?: string } };
type Reply = { id: number; outcomes: Outcome[] } | { id: number; failed: { message: string } };

/** A call waiting for its turn or its answer. */
interface Call {
  queries: readonly ReadQuery[];
  resolve: (rows: unknown[]) => void;
  reject: (err: Error) => void;
}

/**
 * The worker's source (see sqliteWorker, worker-host.ts): a second connection to the serving database that
 * only reads (`query_only`), each call's queries in one read transaction. WAL mode lets it read while the
 * serving connection writes, and a read started after a commit sees that commit.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('query_only = ON');
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
const outcome = (queries) => {
  try {
    return { ok: true, rows: read(queries) };
  } catch (err) {
    return { ok: false, error: { message: String(err && err.message), code: err && err.code } };
  }
};
parentPort.on('message', (request) => {
  if (request.op === 'close') {
    db.close();
    parentPort.postMessage({ id: request.id, outcomes: [] });
    parentPort.close();
    return;
  }
  try {
    if (request.reset) {
      texts = new Map();
      statements = new Map();
    }
    for (const [n, sql] of request.texts) texts.set(n, sql);
    parentPort.postMessage({ id: request.id, outcomes: request.calls.map(outcome) });
  } catch (err) {
    parentPort.postMessage({ id: request.id, failed: { message: String(err && err.message) } });
  }
});
`;

/**
 * Reads on a worker thread with its own connection to the serving database file, so that the queries a
 * payment scoring makes of its history (velocity windows, amount statistics, fraud counts: a quarter of
 * its main-thread time, docs/benchmarks.md) run beside the serving thread instead of on it. Every write
 * stays on the serving connection and commits before its promise resolves, so a read sent after it sees
 * it. If the worker dies, the reads in flight reject and the next read starts a new one.
 */
export class WorkerReader extends WorkerHost<Call[], Reply> implements SnapshotReader {
  /** Calls made in this job of the event loop so far: sent together in one message (see `firstRows`). */
  #queued: Call[] = [];
  /**
   * The number of each SQL text the running worker was sent (`#generation`: that worker's). A scoring's reads
   * are a dozen texts of up to a few hundred characters: sent once each and then named by number, a message
   * is a fraction of the size (its structured clone was 6-9% of the serving thread at full speed).
   */
  #numbers = new Map<string, number>();
  #generation = -1;

  constructor(path: string, busyTimeoutMs: number) {
    super(WORKER_SOURCE, { path, busyTimeoutMs }, `SQLite read worker of ${path}`);
  }

  /**
   * The calls made before the current job of the event loop ends (a scoring asks for its velocity, amounts
   * and fraud count at once) go to the worker in one message: one wake-up of the worker, one reply.
   */
  firstRows<R>(queries: readonly ReadQuery[]): Promise<Array<R | undefined>> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return new Promise<unknown[]>((resolve, reject) => {
      if (this.#queued.push({ queries, resolve, reject }) === 1) queueMicrotask(this.#flush.bind(this));
    }) as Promise<Array<R | undefined>>;
  }

  /** Waits for the reads asked for before, then closes the worker's connection. */
  override close(): Promise<void> {
    this.#flush();
    return super.close();
  }

  protected answer(calls: Call[], reply: Reply): void {
    if ('failed' in reply) {
      for (const call of calls) call.reject(new Error(reply.failed.message));
      return;
    }
    calls.forEach((call, i) => {
      const outcome = reply.outcomes[i];
      if (outcome?.ok) call.resolve(outcome.rows);
      else call.reject(outcome ? replyError(outcome.error) : new Error('no answer from the read worker'));
    });
  }

  protected fail(calls: Call[], err: Error): void {
    for (const call of calls) call.reject(err);
  }

  #flush(): void {
    const calls = this.#queued;
    if (calls.length === 0) return;
    this.#queued = [];
    const generation = this.generation;
    let reset = false;
    if (generation !== this.#generation || this.#numbers.size >= MAX_TEXTS) {
      // A new worker (or too many texts): everything is sent again.
      this.#numbers.clear();
      this.#generation = generation;
      reset = true;
    }
    const texts: Array<[number, string]> = [];
    const pairs = calls.map((call) => call.queries.map((query): [number, readonly unknown[]] => {
      let n = this.#numbers.get(query.sql);
      if (n === undefined) {
        n = this.#numbers.size + 1;
        this.#numbers.set(query.sql, n);
        texts.push([n, query.sql]);
      }
      return [n, query.params];
    }));
    const request: Request = { id: 0, texts, reset, calls: pairs };
    this.send(request, calls);
  }
}

/** How often the serving thread's load is measured, and the share of busy time from which it counts as saturated. */
const LOAD_SAMPLE_MS = 100;
const SATURATED = 0.9;

/**
 * Reads on this thread, or on the worker while this thread is saturated. On the worker, a scoring's history
 * costs this thread little, but it waits for the message's round trip and for a connection whose page cache
 * each commit here empties (SQLite drops a connection's cache when another connection wrote): a lone
 * scoring took about 0.25 ms longer, and tails at a moderate rate grew (docs/benchmarks.md, 2026-11-25, night).
 * So the reads move to the worker only while the event loop was busy at least 90% of the last ~100 ms,
 * when requests queue for this thread and the worker's core adds capacity. A read the worker fails is made
 * here again, so a worker that dies (or cannot start) costs time, never a scoring.
 */
export class LoadReader implements SnapshotReader {
  #saturated = false;
  #sampledAt = performance.now();
  #since = performance.eventLoopUtilization();

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
    if (now - this.#sampledAt >= LOAD_SAMPLE_MS) {
      const load = performance.eventLoopUtilization(this.#since);
      this.#since = performance.eventLoopUtilization();
      this.#sampledAt = now;
      this.#saturated = load.utilization >= SATURATED;
    }
    if (!this.#saturated) return this.local.firstRows<R>(queries);
    // Reads change nothing: one the worker could not answer (it died, or could not start) is made here.
    return this.worker.firstRows<R>(queries).catch(() => this.local.firstRows<R>(queries));
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.local.close();
  }
}
