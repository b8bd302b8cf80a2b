/** The compiled build (dist/) for tests that run it as `npm start` or `bin/vigil.js` do. */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.build-stamp');

/** The words of package.json's start script: `node`, its flags, `bin/vigil.js serve` (the benches and a build test read it). */
export function startCommand(): string[] {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  return start.trim().split(/\s+/);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ when it is missing or older than a source (`npm ci` builds it through `prepare`; a
 * checkout where only the sources changed since would otherwise test yesterday's server).
 */
export function ensureBuilt(): void {
  let built = 0;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    // never built
  }
  const sources = Math.max(newestMtime(join(ROOT, 'src')), statSync(join(ROOT, 'scripts', 'build.js')).mtimeMs, statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs);
  if (built >= sources) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.js')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}${r.stderr}`);
}
