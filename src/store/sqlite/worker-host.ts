import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const SQLITE_MODULE = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * A worker thread running `source`, plain CommonJS (workers do not inherit the TypeScript loader the server
 * runs under), with `workerData.sqlite` set to better-sqlite3's resolved path. It takes none of the parent's
 * flags: `--input-type=module` would make the source ESM, where `require` does not exist.
 */
export function sqliteWorker(source: string, workerData: Readonly<Record<string, unknown>>): Worker {
  return new Worker(source, { eval: true, execArgv: [], workerData: { ...workerData, sqlite: SQLITE_MODULE } });
}

/** The error a worker sent back (SQLite's message and code), as an Error of this thread. */
export function replyError(error: { message: string; code?: string }): Error {
  return Object.assign(new Error(error.message), error.code === undefined ? {} : { code: error.code });
}

/** Every request to a hosted worker carries the id its reply comes back with; `{ op: 'close' }` closes it. */
export interface HostedRequest {
  id: number;
  op?: string;
}

/**
 * The parent's side of a SQLite worker thread (its source answers each request with a message carrying
 * the request's id): started with the first request, requests waiting for their replies, and on the
 * worker's death every waiting request failed and the next one starting a new worker. An idle worker does
 * not keep the process alive; one with requests in flight does (a command awaiting them).
 */
export abstract class WorkerHost<Waiting, Reply extends { id: number }> {
  readonly #pending = new Map<number, Waiting>();
  #worker: Worker | undefined;
  #nextId = 1;
  #closed = false;
  #generation = 0;

  protected constructor(
    private readonly source: string,
    private readonly workerData: Readonly<Record<string, unknown>>,
    /** What the worker is, for the error of its death. */
    private readonly label: string,
  ) {}

  /** A reply came for a request. */
  protected abstract answer(waiting: Waiting, reply: Reply): void;
  /** The worker died with the request in flight. */
  protected abstract fail(waiting: Waiting, err: Error): void;

  protected get closed(): boolean {
    return this.#closed;
  }

  /**
   * The number of the running worker, starting one when none runs: a number not seen before means a new worker,
   * which knows nothing that was sent to an earlier one.
   */
  protected get generation(): number {
    this.#worker ??= this.#start();
    return this.#generation;
  }

  /** Sends a request (its id is set here); `waiting` is answered or failed later. */
  protected send(request: HostedRequest, waiting: Waiting): void {
    const worker = (this.#worker ??= this.#start());
    request.id = this.#nextId++;
    if (this.#pending.size === 0) worker.ref();
    this.#pending.set(request.id, waiting);
    worker.postMessage(request);
  }

  /** Closes the worker's connection once the requests sent before are answered; later requests are refused by the subclass. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ id: this.#nextId++, op: 'close' } satisfies HostedRequest);
    const timeout = setTimeout(() => void worker.terminate(), 5000);
    await exited;
    clearTimeout(timeout);
  }

  /** Ends the worker as a crash would (tests). */
  async kill(): Promise<void> {
    await this.#worker?.terminate();
  }

  #start(): Worker {
    this.#generation++;
    const worker = sqliteWorker(this.source, this.workerData);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.#pending.get(reply.id);
      if (waiting === undefined) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      this.answer(waiting, reply);
    });
    const died = (err: Error): void => {
      if (this.#worker === worker) this.#worker = undefined;
      const waiting = [...this.#pending.values()];
      this.#pending.clear();
      for (const w of waiting) this.fail(w, err);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the ${this.label} exited with code ${code}`)));
    return worker;
  }
}
