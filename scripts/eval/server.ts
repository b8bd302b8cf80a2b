/**
 * The Vigil server an evaluation runs against: its own process on a free 127.0.0.1 port with a fresh
 * temp DATA_DIR (embedded SQLite, bundled data, optionally `vigil data import DIR` first), or a
 * running server given by URL and key.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOTSTRAP_FILE } from '../../src/accounts/bootstrap.ts';
import { freePort } from '../../test/helpers/free-port.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

export interface Target {
  base: string;
  key: string;
  /** Stops the server this evaluation started and removes its DATA_DIR; nothing for a given URL. */
  close: () => Promise<void>;
}

/**
 * The environment of the evaluation's own server: the caller's, without anything that would point
 * it at a shared store (DATABASE_URL, REDIS_URL) or let it reach the network (NETWORK=off: email
 * checks in payments never use DNS anyway, and an evaluation must not depend on the internet).
 */
function serverEnv(dataDir: string, port?: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    SECRET_KEY: '',
    SEED_FILE: '',
    NETWORK: 'off',
    LOG_LEVEL: 'warn',
    ...(port === undefined ? {} : { PORT: String(port), HOST: '127.0.0.1' }),
  };
}

/** Starts a fresh server; `importDir` is imported into its DATA_DIR with `vigil data import` first. */
export async function startOwnServer(importDir: string | undefined, log: (line: string) => void): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-eval-'));
  let child: ChildProcess | undefined;
  const close = async (): Promise<void> => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child?.once('exit', () => r()));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child?.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (importDir !== undefined) {
      const dir = resolve(importDir);
      log(`importing ${dir} into ${dataDir}`);
      const r = spawnSync(process.execPath, [...CLI, 'data', 'import', dir], { cwd: ROOT, env: serverEnv(dataDir), encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`vigil data import ${dir} failed (${r.status}): ${r.stderr || r.stdout}`);
      const reports = JSON.parse(r.stdout) as Array<{ name: string; count: number }>;
      log(`imported ${reports.map((x) => `${x.name} ${x.count}`).join(', ')}`);
    }
    const port = await freePort();
    // A process group of its own, so the stop reaches the server and nothing else.
    child = spawn(process.execPath, [...CLI, 'serve'], { cwd: ROOT, env: serverEnv(dataDir, port), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${out}`);
      if (Date.now() > deadline) throw new Error(`server did not answer /healthz in 60 s: ${out}`);
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    // The first start of an empty store creates one premium account and saves its keys here.
    const keys = JSON.parse(readFileSync(join(dataDir, BOOTSTRAP_FILE), 'utf8')) as { liveKey: string };
    log(`server pid ${child.pid} on ${base}, DATA_DIR ${dataDir}`);
    return { base, key: keys.liveKey, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A running server: nothing is started or stopped. */
export function givenServer(url: string, key: string): Target {
  return { base: url.replace(/\/+$/, ''), key, close: () => Promise.resolve() };
}
