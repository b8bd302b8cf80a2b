import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The team's public data folder, beside the project (`../shared/data`), wherever the checkout is. */
export const SHARED_DATA = fileURLToPath(new URL('../../../shared/data', import.meta.url));

/** Temp directories for one test file, removed together by `cleanup` (call it from `after`). */
export function tempDirs(prefix: string): { temp: () => string; cleanup: () => void } {
  const dirs: string[] = [];
  return {
    temp: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    cleanup: () => {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Writes DIR/<dataset>/<path> = content for each entry into `dir`, as `vigil data import DIR` reads it; returns `dir`. */
export function feedDir(dir: string, dataset: string, files: Record<string, string | Buffer>): string {
  for (const [path, content] of Object.entries(files)) {
    const p = join(dir, dataset, path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return dir;
}
