import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

/** Running the real CLI (`src/cli/main.ts`) as a child process, for the CLI tests. */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHILD_TIMEOUT_MS = 30_000;
export const SECRET = 'cli-test-secret-0123456789abcdefghijklmn';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const dirs: string[] = [];
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs `node --import tsx src/cli/main.ts ...args` with a minimal environment (nothing inherited but PATH and HOME). */
export function vigil(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), SECRET_KEY: SECRET, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CHILD_TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal) reject(new Error(`vigil ${args.join(' ')} killed by ${signal} (timeout ${CHILD_TIMEOUT_MS} ms)\n${stdout}\n${stderr}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** Parsed JSON of a successful run; stderr holds at most progress lines (`vigil: ...`, no failure). */
export function ok<T>(r: Run): T {
  assert.equal(r.code, 0, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  for (const line of r.stderr.split('\n').filter((l) => l !== '')) assert.match(line, /^vigil: (?!.*\b(error|failed|warning)\b)/i, `stderr: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** A failed run: exit 1, a one-line `vigil: ...` message matching `why`, no stack trace, nothing on stdout. */
export function failed(r: Run, why: RegExp): void {
  assert.equal(r.code, 1, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^vigil: /);
  assert.match(r.stderr, why);
  assert.doesNotMatch(r.stderr, /\n\s+at |node_modules|main\.ts:\d+/, 'no stack trace');
}

