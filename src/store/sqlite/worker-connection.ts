import type { Database, Statement } from 'better-sqlite3';
import { settle } from './values.ts';
import { type HostedRequest, replyError, WorkerHost } from './worker-host.ts';

/** Bound parameters of a statement: positional (an array) or named (an object). */
export type Params = readonly unknown[] | Readonly<Record<string, unknown>>;

/** The asynchronous calls a store class makes on a connection, whichever thread runs it. */
export interface StatementRunner {
  /** Runs a write; resolves to the number of rows changed. */
  run(name: string, params: Params): Promise<number>;
  /** Runs a query (or a write with RETURNING); resolves to its rows. */
  all<R>(name: string, params: Params): Promise<R[]>;
  /** Runs a write once per parameter set, all in one transaction (all or none). */
  runEach(name: string, rows: readonly Params[]): Promise<void>;
}

const bind = (params: Params): unknown[] => (Array.isArray(params) ? (params as unknown[]) : [params]);

/** The same calls on a connection of this thread (an in-memory database, which no other thread can open). */
export class LocalStatements implements StatementRunner {
  readonly #prepared = new Map<string, Statement<unknown[], unknown>>();
  readonly #each: (statement: Statement<unknown[], unknown>, rows: readonly Params[]) => void;

  constructor(
    private readonly db: Database,
    private readonly statements: Readonly<Record<string, string>>,
  ) {
    this.#each = db.transaction((statement: Statement<unknown[], unknown>, rows: readonly Params[]) => {
      for (const row of rows) statement.run(...bind(row));
    });
  }

  run(name: string, params: Params): Promise<number> {
    return settle(() => this.#statement(name).run(...bind(params)).changes);
  }

  all<R>(name: string, params: Params): Promise<R[]> {
    return settle(() => this.#statement(name).all(...bind(params)) as R[]);
  }

  runEach(name: string, rows: readonly Params[]): Promise<void> {
    return settle(() => {
      if (rows.length > 0) this.#each(this.#statement(name), rows);
    });
  }

  /** Prepared on first use: the tables exist only after migrate(). */
  #statement(name: string): Statement<unknown[], unknown> {
    let statement = this.#prepared.get(name);
    if (!statement) {
      const sql = this.statements[name];
      if (sql === undefined) throw new Error(`unknown statement ${name}`);
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.#prepared.set(name, statement);
    }
    return statement;
  }
}

interface Request extends HostedRequest {
  op: 'run' | 'all' | 'each';
  name?: string;
  params?: Params | readonly Params[];
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string; code?: string } };

/**
 * The worker's source (see sqliteWorker), given the schema and the statements' SQL. It runs one request
 * at a time, in the order sent, so a write is visible to every request sent after it.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
// Deleted records are overwritten with zeros (sqlite-store.ts).
db.pragma('secure_delete = ON');
db.exec(workerData.schema);
const statements = new Map(Object.entries(workerData.statements).map(([name, sql]) => [name, db.prepare(sql)]));
const bind = (params) => (Array.isArray(params) ? params : [params]);
const each = db.transaction((statement, rows) => {
  for (const row of rows) statement.run(...bind(row));
});
parentPort.on('message', (request) => {
  if (request.op === 'close') {
    db.close();
    parentPort.postMessage({ id: request.id, ok: true, value: null });
    parentPort.close();
    return;
  }
  try {
    const statement = statements.get(request.name);
    if (!statement) throw new Error('unknown statement ' + request.name);
    let value;
    if (request.op === 'each') value = (each(statement, request.params), null);
    else if (request.op === 'all') value = statement.all(...bind(request.params));
    else value = statement.run(...bind(request.params)).changes;
    parentPort.postMessage({ id: request.id, ok: true, value });
  } catch (err) {
    parentPort.postMessage({ id: request.id, ok: false, error: { message: String(err && err.message), code: err && err.code } });
  }
});
parentPort.postMessage({ id: 0, ok: true, value: 'ready' });
`;

export interface WorkerConnectionOptions {
  /** SQL run when the connection opens (CREATE ... IF NOT EXISTS). */
  schema: string;
  /** Every statement the connection runs, by name, prepared once in the worker. */
  statements: Readonly<Record<string, string>>;
  /** How long a write waits for another connection's lock (ms). */
  busyTimeoutMs: number;
}

/**
 * A SQLite connection to its own database file on a worker thread. Writes there never hold the event loop,
 * and, the file being its own, never wait for (nor make wait) the serving connection's write lock. If the
 * worker dies, the calls in flight reject and the next call starts a new one.
 */
export class WorkerConnection extends WorkerHost<{ resolve: (value: unknown) => void; reject: (err: Error) => void }, Reply> implements StatementRunner {
  constructor(path: string, options: WorkerConnectionOptions) {
    const { schema, statements, busyTimeoutMs } = options;
    super(WORKER_SOURCE, { path, schema, statements, busyTimeoutMs }, `SQLite worker of ${path}`);
  }

  run(name: string, params: Params): Promise<number> {
    return this.#call({ id: 0, op: 'run', name, params }) as Promise<number>;
  }

  all<R>(name: string, params: Params): Promise<R[]> {
    return this.#call({ id: 0, op: 'all', name, params }) as Promise<R[]>;
  }

  async runEach(name: string, rows: readonly Params[]): Promise<void> {
    if (rows.length > 0) await this.#call({ id: 0, op: 'each', name, params: rows });
  }

  protected answer(waiting: { resolve: (value: unknown) => void; reject: (err: Error) => void }, reply: Reply): void {
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(replyError(reply.error));
  }

  protected fail(waiting: { reject: (err: Error) => void }, err: Error): void {
    waiting.reject(err);
  }

  #call(request: Request): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the connection is closed'));
    return new Promise((resolve, reject) => this.send(request, { resolve, reject }));
  }
}
