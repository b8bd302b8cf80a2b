import type { Worker } from 'node:worker_threads';
import { sqliteWorker } from './worker-connection.ts';

/**
 * WAL checkpoints on a thread of their own. SQLite's automatic checkpoint runs inside the commit that
 * takes the WAL past 1,000 pages: it copies the pages into the database file and syncs it on the
 * event loop, stalling every request in flight for milliseconds (payment scorings write a dozen pages
 * each). Here a second connection in a worker thread runs a
 * PASSIVE checkpoint every `intervalMs`, which never blocks the writer, and SQLite restarts the WAL
 * from its start at the first commit after all of it was copied. The serving connection keeps an
 * automatic checkpoint at a much larger size (SqliteStore), for writes so constant that the WAL is
 * never all copied; and if the worker dies, `onFailure` lets the store go back to SQLite's default.
 *
 * The worker's source is plain CommonJS, started by sqliteWorker.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #stopping = false;
  /** Resolves once the worker has opened its connection; rejects if it could not. */
  readonly ready: Promise<void>;

  constructor(path: string, intervalMs: number, onFailure: (err: Error) => void) {
    this.#worker = sqliteWorker(WORKER_SOURCE, { path, intervalMs });
    this.#worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.#worker.once('message', () => resolve());
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) => reject(new Error(`the WAL checkpoint worker exited with code ${code}`)));
    });
    this.ready.catch(() => undefined);
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()));
    let failed = false;
    const fail = (err: Error) => {
      if (this.#stopping || failed) return;
      failed = true;
      onFailure(err);
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the WAL checkpoint worker exited with code ${code}`)));
  }

  /** Stops the worker and closes its connection (before the store's own connection closes). */
  async close(): Promise<void> {
    if (this.#stopping) return this.#exited;
    this.#stopping = true;
    this.#worker.postMessage('stop');
    const timeout = setTimeout(() => void this.#worker.terminate(), 2000);
    await this.#exited;
    clearTimeout(timeout);
  }

  /** Ends the worker as a crash would (tests of the fallback). */
  async kill(): Promise<void> {
    await this.#worker.terminate();
  }
}
