import type { Worker } from 'node:worker_threads';
import { sqliteWorker } from './worker-host.ts';

/**
 * WAL checkpoints on a thread of their own. SQLite's automatic checkpoint runs inside the commit that
 * takes the WAL past 1,000 pages: it copies the pages into the database file and syncs it on the
 * event loop, stalling every request in flight for milliseconds (payment scorings write a dozen pages
 * each). Here a second connection in a worker thread runs PASSIVE checkpoints every `intervalMs`, which
 * never block the writer, and SQLite restarts the WAL from its start at the first commit after all of
 * it was copied. Under constant writes a single pass rarely finishes between two commits, so while the
 * WAL is large a tick chases: it goes again at once, each pass copying only what the previous one
 * missed, until one finds nothing new (measured 2026-11-25 with 300 payment scorings a second: the WAL
 * restarted a few times a second and peaked at 13-18 MB, against 40 MB and a commit checkpointing it
 * about once a second before). The serving connection keeps an automatic checkpoint at a much larger
 * size (SqliteStore) for writes that never leave a gap; and if the worker dies, `onFailure` lets the
 * store go back to SQLite's default.
 *
 * The worker's source is plain CommonJS, started by sqliteWorker.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
// A PASSIVE checkpoint copies the frames the WAL held when it began, and SQLite restarts the WAL from its start
// only at a commit that finds all of it copied: under constant writes some commit nearly always lands during a
// pass. So while the WAL is large, a tick goes again at once after a pass that copied anything, each pass copying
// only what came during the one before, until one finds nothing new (the next commit restarts the WAL), the WAL
// was restarted meanwhile, or a reader holds frames back (the next tick tries again).
function tick() {
  let copied = -1;
  for (let pass = 0; pass < workerData.maxPasses; pass++) {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (!r || r.busy !== 0 || r.log < workerData.chaseFrames || r.log <= copied || r.checkpointed < r.log) return;
    copied = r.checkpointed;
  }
}
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

/** Passes of one tick at most: each syncs the WAL and the database file when it copies anything. */
const MAX_PASSES = 16;
/** Below this many frames (4 MiB) one pass per tick is enough: a small WAL need not restart at once. */
const CHASE_FRAMES = 1000;

export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #stopping = false;
  /** Resolves once the worker has opened its connection; rejects if it could not. */
  readonly ready: Promise<void>;

  constructor(path: string, intervalMs: number, onFailure: (err: Error) => void) {
    this.#worker = sqliteWorker(WORKER_SOURCE, { path, intervalMs, maxPasses: MAX_PASSES, chaseFrames: CHASE_FRAMES });
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
