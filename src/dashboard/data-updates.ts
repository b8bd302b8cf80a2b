import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import { datasetSources, updateDataset } from '../data/import/update.ts';
import { MAXMIND_EDITIONS, type MaxmindCredentials } from '../data/import/maxmind-download.ts';
import type { ConsolePort, UpdateJob } from '../store/console-port.ts';

export type { UpdateJob } from '../store/console-port.ts';

const KEPT_LINES = 200;
/** A running job writes its progress at most this often, and beats at least this often while it runs. */
const SAVE_MS = 1000;
const HEARTBEAT_MS = 15_000;
/**
 * A running job whose heartbeat is this old is shown, and marked, interrupted: its process died. Long: a large
 * import parses synchronously and beats only between its steps.
 */
export const STALE_UPDATE_MS = 2 * 60_000;

/** A refusal the operator can act on (bad path, no DATA_IMPORT_DIR): shown on the page as it is. */
export class UpdateRefused extends Error {}

/** What an update imports: the dataset's sources, or one local file (a path under DATA_IMPORT_DIR or an upload). */
export interface UpdateRequest {
  name: string;
  actor: string;
  /** A file to import instead of the sources: its path, how the job names it, and what to remove once imported. */
  file?: { path: string; label: string; cleanup?: () => void };
}

/**
 * Dataset updates started from the console: `vigil data update NAME` (its public sources, those of
 * DATA_SOURCES_FILE, or `--from FILE`) run in this process, one at a time per dataset. Each job is a row of
 * the store (data_update_jobs) with its progress lines, state and times, so the Model and data page shows the
 * history after a restart; a job that was running when its process died is interrupted (at once on the
 * embedded store, which one process owns; after STALE_UPDATE_MS without a heartbeat on PostgreSQL, where
 * another instance may be running it).
 */
export class DataUpdates {
  /** Jobs of this process still running: their lines, written to the store as they come. */
  readonly #running = new Map<number, { dataset: string; lines: string[] }>();
  /** Datasets whose job is being created (between the check for a running one and its row). */
  readonly #starting = new Set<string>();
  #ready: Promise<void>;

  constructor(
    private readonly store: ConsolePort,
    private readonly opts: {
      dataDir: string | undefined;
      sourcesFile: string | undefined;
      /** MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY: GeoLite2 editions then update from MaxMind, as `vigil data update` does. */
      maxmind?: MaxmindCredentials | undefined;
      /** DATA_IMPORT_DIR: the only directory whose files an operator may import by path; unset, importing by path is off. */
      importDir: string | undefined;
      clock: () => Date;
      /** True on the embedded store (one process): every job still marked running was this process's before a restart. */
      soleInstance: boolean;
      logger?: Logger | undefined;
    },
  ) {
    const now = opts.clock();
    const staleBefore = opts.soleInstance ? new Date(now.getTime() + 1000) : new Date(now.getTime() - STALE_UPDATE_MS);
    this.#ready = store.interruptStaleUpdateJobs(staleBefore.toISOString(), now.toISOString()).then(
      () => undefined,
      (err: unknown) => opts.logger?.error({ err }, 'dataset update jobs left running could not be marked interrupted'),
    );
  }

  get importDir(): string | undefined {
    return this.opts.importDir;
  }

  /** Datasets that can update without a file given: those with sources. */
  updatable(names: readonly string[]): string[] {
    return names.filter((n) => {
      try {
        return datasetSources(n, this.opts.sourcesFile) !== null || (this.opts.maxmind !== undefined && MAXMIND_EDITIONS[n] !== undefined);
      } catch {
        return false;
      }
    });
  }

  /** The job as the page shows it: a running job whose heartbeat stopped is interrupted. */
  async job(id: number): Promise<UpdateJob | null> {
    await this.#ready;
    const job = await this.store.getUpdateJob(id);
    return job && this.#shown(job);
  }

  /** Newest first. */
  async jobs(limit: number): Promise<UpdateJob[]> {
    await this.#ready;
    return (await this.store.listUpdateJobs({ limit })).map((j) => this.#shown(j));
  }

  #shown(job: UpdateJob): UpdateJob {
    if (job.state !== 'running' || this.#running.has(job.id)) return job;
    const stale = this.opts.clock().getTime() - Date.parse(job.heartbeatAt) > STALE_UPDATE_MS;
    return stale ? { ...job, state: 'interrupted' } : job;
  }

  /**
   * A server file an operator named, checked: inside DATA_IMPORT_DIR once links are followed, and a regular
   * file. Relative paths are taken from DATA_IMPORT_DIR.
   */
  importPath(typed: string): string {
    const dir = this.opts.importDir;
    if (dir === undefined) throw new UpdateRefused('Importing a server file is off: set DATA_IMPORT_DIR to the directory holding the files operators may import, or upload the file.');
    const wanted = typed.trim();
    if (wanted === '' || wanted.includes('\0')) throw new UpdateRefused('Give the path of a file under DATA_IMPORT_DIR.');
    let root: string;
    let real: string;
    try {
      root = realpathSync(dir);
    } catch {
      throw new UpdateRefused(`DATA_IMPORT_DIR (${dir}) does not exist on the server.`);
    }
    try {
      real = realpathSync(resolve(root, wanted));
    } catch {
      throw new UpdateRefused(`There is no file ${wanted} under DATA_IMPORT_DIR (${root}).`);
    }
    const rel = relative(root, real);
    if (rel === '') throw new UpdateRefused(`${wanted} is DATA_IMPORT_DIR itself: give the path of a file in it.`);
    if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
      throw new UpdateRefused(`${wanted} is outside DATA_IMPORT_DIR (${root}): only files under it can be imported from the console.`);
    }
    if (!statSync(real).isFile()) throw new UpdateRefused(`${wanted} is not a file.`);
    return real;
  }

  /** Starts an update; the id of the running job when one of that dataset is already running (in any instance). */
  async start(req: UpdateRequest): Promise<number> {
    for (const [id, job] of this.#running) {
      if (job.dataset !== req.name) continue;
      req.file?.cleanup?.();
      return id;
    }
    if (this.#starting.has(req.name)) {
      req.file?.cleanup?.();
      throw new UpdateRefused(`An update of ${req.name} is starting: follow it in the update history.`);
    }
    this.#starting.add(req.name);
    try {
      return await this.#start(req);
    } catch (err) {
      req.file?.cleanup?.();
      throw err;
    } finally {
      this.#starting.delete(req.name);
    }
  }

  async #start(req: UpdateRequest): Promise<number> {
    await this.#ready;
    const running = (await this.store.listUpdateJobs({ dataset: req.name, limit: 1 })).map((j) => this.#shown(j)).find((j) => j.state === 'running');
    if (running) {
      req.file?.cleanup?.();
      return running.id;
    }
    const clock = this.opts.clock;
    const stamp = (): string => clock().toISOString();
    const source = req.file ? req.file.label : 'sources';
    const lines: string[] = [];
    const at = stamp();
    const id = await this.store.insertUpdateJob({ dataset: req.name, source, actor: req.actor, startedAt: at, heartbeatAt: at, lines });
    this.#running.set(id, { dataset: req.name, lines });

    let saveTimer: NodeJS.Timeout | undefined;
    let saving: Promise<void> = Promise.resolve();
    const save = (change: { state: UpdateJob['state']; finishedAt?: string; error?: string | null }): Promise<void> => {
      saving = saving.then(() => this.store.saveUpdateJob(id, { ...change, lines: [...lines], heartbeatAt: stamp() })).catch((err: unknown) => {
        this.opts.logger?.error({ err, job: id }, 'dataset update progress could not be stored');
      });
      return saving;
    };
    const say = (line: string): void => {
      lines.push(`${stamp().slice(11, 19)} ${line}`);
      if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
      saveTimer ??= setTimeout(() => {
        saveTimer = undefined;
        void save({ state: 'running' });
      }, SAVE_MS).unref();
    };
    const heartbeat = setInterval(() => void save({ state: 'running' }), HEARTBEAT_MS).unref();
    const finish = async (state: 'done' | 'failed', error: string | null): Promise<void> => {
      clearInterval(heartbeat);
      if (saveTimer !== undefined) clearTimeout(saveTimer);
      saveTimer = undefined;
      req.file?.cleanup?.();
      await save({ state, finishedAt: stamp(), error });
      this.#running.delete(id);
    };

    const dataDir = this.opts.dataDir;
    if (!dataDir) {
      say('no DATA_DIR: nothing can be imported');
      await finish('failed', 'no DATA_DIR');
      return id;
    }
    say(`update of ${req.name} from ${source} started by ${req.actor}`);
    updateDataset(dataDir, req.name, { sourcesFile: this.opts.sourcesFile, maxmind: this.opts.maxmind, progress: say, ...(req.file && { from: req.file.path }) }).then(
      (report) => {
        say(`imported version ${report.manifest.version}: ${report.manifest.count} records, ${report.rejected} rejected`);
        return finish('done', null);
      },
      (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        say(`failed: ${message}`);
        return finish('failed', message);
      },
    ).catch((err: unknown) => this.opts.logger?.error({ err, job: id }, 'dataset update job could not be finished'));
    return id;
  }

  /** Waits for the jobs of this process to finish (tests; a server that stops leaves them to be marked interrupted). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await new Promise((r) => setTimeout(r, 20));
  }
}
