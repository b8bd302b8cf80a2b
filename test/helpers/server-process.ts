/** The real server process (`src/cli/main.ts serve`, or the README's `npm start`) for black-box tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.ts';
import { ensureBuilt } from './build.ts';

export interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the server on a free port of 127.0.0.1 (LOG_LEVEL info unless `env` says otherwise) and resolves
 * once /healthz answers. `viaNpm` runs the README's `npm start` (the compiled build in dist/); otherwise the sources run through tsx,
 * without npm in between (for signals). The process has a group of its own, so stopping `npm start`
 * also reaches the server npm started.
 */
export async function startServer(env: Record<string, string>, viaNpm = false): Promise<Running> {
  // `npm start` runs the compiled build.
  if (viaNpm) ensureBuilt();
  const port = await freePort();
  const [cmd, args] = viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve']];
  const child = spawn(cmd, args, {
    // A CARD_KEY of the tests' own, so the server writes no card key file beside their DATA_DIR (a test of that file
    // passes CARD_KEY: '').
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', CARD_KEY: 'blackbox-card-key-0123456789abcdef01234567', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return { child, port, output: () => out, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  throw new Error(`server did not start: ${out}`);
}

/** SIGTERM to the server's process group; resolves with its exit code (at once if it has already ended). */
export async function stop(s: Running | undefined): Promise<number | null> {
  if (!s) return null;
  if (s.child.exitCode === null && s.child.signalCode === null && s.child.pid !== undefined) process.kill(-s.child.pid, 'SIGTERM');
  return s.exited;
}
