import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { updateAll, type UpdateOutcome, type UpdateOptions } from '../data/import/update.ts';
import { steppedLines, type Progress } from '../data/import/progress.ts';

/**
 * DATA_UPDATE_INTERVAL: the server runs `vigil data update --all` itself, every interval plus a
 * random delay (jitter, up to a tenth of the interval and at most an hour) so that many instances
 * started together do not hit the public list hosts at the same moment.
 *
 * One run at a time per DATA_DIR: the datasets live there, so instances that share it (one volume
 * mounted by several) take a lock file (`datasets/.update.lock`, created exclusively); the others
 * skip that run. A lock older than STALE_LOCK_MS (a process killed mid-update) is taken over.
 * Instances with their own DATA_DIR each update their own copy. The time of the last finished run
 * (`datasets/.last-update`) lets a restarted server wait for the rest of the interval instead of
 * updating on every start.
 */
export const STALE_LOCK_MS = 2 * 3_600_000;
const MAX_JITTER_MS = 3_600_000;

export interface DataUpdateSchedule {
  /** Runs one update now (unless another process holds the lock); null when skipped. */
  runNow(): Promise<UpdateOutcome[] | null>;
  stop(): void;
}

export interface ScheduleOptions {
  dataDir: string;
  intervalMs: number;
  logger: Logger;
  update: Omit<UpdateOptions, 'from' | 'sha256' | 'progress'>;
  /** How an update runs: default in this process; the server runs it as a child process (data-update-process.ts). */
  run?: (progress: Progress) => Promise<UpdateOutcome[]>;
  /** 0..1 (Math.random): the jitter's draw. */
  random?: () => number;
  clock?: () => Date;
}

const lockPath = (dataDir: string): string => join(dataDir, 'datasets', '.update.lock');
const lastRunPath = (dataDir: string): string => join(dataDir, 'datasets', '.last-update');

/** Takes the DATA_DIR's update lock; false when another live process holds it. */
export function takeUpdateLock(dataDir: string, now: Date): boolean {
  const path = lockPath(dataDir);
  mkdirSync(join(dataDir, 'datasets'), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: now.toISOString() }) + '\n');
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let age: number;
      try {
        age = now.getTime() - statSync(path).mtimeMs;
      } catch {
        continue; // released between the two calls: try again
      }
      if (age < STALE_LOCK_MS) return false;
      rmSync(path, { force: true });
    }
  }
  return false;
}

export function releaseUpdateLock(dataDir: string): void {
  rmSync(lockPath(dataDir), { force: true });
}

function lastRun(dataDir: string): number | null {
  try {
    const t = Date.parse(readFileSync(lastRunPath(dataDir), 'utf8').trim());
    return Number.isFinite(t) ? t : null;
  } catch {
    return null;
  }
}

/** Starts the schedule (nothing when intervalMs is 0); the timer never keeps the process alive. */
export function startDataUpdates(opts: ScheduleOptions): DataUpdateSchedule {
  const random = opts.random ?? Math.random;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.logger.child({ job: 'data-update' });
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const runNow = async (): Promise<UpdateOutcome[] | null> => {
    if (!takeUpdateLock(opts.dataDir, clock())) {
      log.info({ lock: lockPath(opts.dataDir) }, 'data update skipped: another process is updating this DATA_DIR');
      return null;
    }
    try {
      log.info('data update started');
      const progress = steppedLines((line) => log.info(line));
      const outcomes = await (opts.run ? opts.run(progress) : updateAll(opts.dataDir, { ...opts.update, progress }));
      writeFileSync(lastRunPath(opts.dataDir), clock().toISOString() + '\n');
      const failed = outcomes.filter((o) => o.status === 'failed');
      for (const f of failed) log.warn({ dataset: f.name, error: f.status === 'failed' ? f.error : undefined }, 'dataset update failed; the current version stays in use');
      log.info({ updated: outcomes.length - failed.length, failed: failed.length }, 'data update finished');
      return outcomes;
    } finally {
      releaseUpdateLock(opts.dataDir);
    }
  };

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      runNow()
        .catch((err: unknown) => log.error({ err }, 'data update failed'))
        .finally(() => schedule(opts.intervalMs + jitter()));
    }, Math.max(0, delayMs));
    timer.unref();
  };
  const jitter = (): number => Math.floor(random() * Math.min(opts.intervalMs / 10, MAX_JITTER_MS));

  if (opts.intervalMs > 0) {
    const last = lastRun(opts.dataDir);
    const due = last === null ? 0 : last + opts.intervalMs - clock().getTime();
    const delay = Math.max(0, due) + jitter();
    log.info({ intervalMs: opts.intervalMs, firstInMs: delay }, 'data updates scheduled (DATA_UPDATE_INTERVAL)');
    schedule(delay);
  }
  return {
    runNow,
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
