import { datasetSources, updateDataset } from '../data/import/update.ts';

export interface UpdateJob {
  name: string;
  startedAt: string;
  state: 'running' | 'done' | 'failed';
  /** Progress lines as `vigil data update` prints them, then the outcome. */
  lines: string[];
  finishedAt: string | null;
}

const KEPT_LINES = 200;

/**
 * Dataset updates started from the console: `vigil data update NAME` (its public sources, or those of
 * DATA_SOURCES_FILE) run in this process, one at a time per dataset, with their progress kept for the page.
 * Jobs live in this process only: a restart forgets them (the dataset store keeps what was imported).
 */
export class DataUpdates {
  readonly #jobs = new Map<string, UpdateJob>();

  constructor(
    private readonly dataDir: string | undefined,
    private readonly sourcesFile: string | undefined,
    private readonly clock: () => Date,
  ) {}

  /** Datasets that can update without a file given: those with sources. */
  updatable(names: readonly string[]): string[] {
    return names.filter((n) => {
      try {
        return datasetSources(n, this.sourcesFile) !== null;
      } catch {
        return false;
      }
    });
  }

  job(name: string): UpdateJob | undefined {
    return this.#jobs.get(name);
  }

  /** Starts an update; the running job when one of that dataset is already running. */
  start(name: string): UpdateJob {
    const running = this.#jobs.get(name);
    if (running?.state === 'running') return running;
    const job: UpdateJob = { name, startedAt: this.clock().toISOString(), state: 'running', lines: [], finishedAt: null };
    this.#jobs.set(name, job);
    const say = (line: string) => {
      job.lines.push(`${this.clock().toISOString().slice(11, 19)} ${line}`);
      if (job.lines.length > KEPT_LINES) job.lines.splice(0, job.lines.length - KEPT_LINES);
    };
    if (!this.dataDir) {
      job.state = 'failed';
      say('no DATA_DIR: nothing can be imported');
      return job;
    }
    say(`update of ${name} started`);
    updateDataset(this.dataDir, name, { sourcesFile: this.sourcesFile, progress: say }).then(
      (report) => {
        say(`imported version ${report.manifest.version}: ${report.manifest.count} records, ${report.rejected} rejected`);
        job.state = 'done';
        job.finishedAt = this.clock().toISOString();
      },
      (err: unknown) => {
        say(`failed: ${err instanceof Error ? err.message : String(err)}`);
        job.state = 'failed';
        job.finishedAt = this.clock().toISOString();
      },
    );
    return job;
  }
}
