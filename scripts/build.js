// The compiled build (`npm run build`, run by `npm ci` through `prepare`): src/ to plain JavaScript in
// dist/, then the non-TypeScript files the code reads beside itself at run time (bundled JSON and CSV
// data, located with `new URL(..., import.meta.url)`) copied to the same place under dist/, so the
// compiled server finds them where the source one does. Plain JavaScript: it runs before any loader.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

// A clean tree: a file deleted from src/ must not live on in dist/.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

cpSync(join(root, 'src'), dist, {
  recursive: true,
  filter: (src) => {
    const ext = extname(src);
    return ext === '' || (ext !== '.ts' && !src.endsWith('.test.ts'));
  },
});
// Read by test/helpers/build.ts to tell a build older than its sources.
writeFileSync(join(dist, '.build-stamp'), new Date().toISOString() + '\n');
