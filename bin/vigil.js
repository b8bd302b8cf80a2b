#!/usr/bin/env node
// Entry point for `npx vigil` and `npm start`: the compiled CLI in dist/ (built by `npm ci` through the
// `prepare` script, or `npm run build`). Plain JavaScript, no TypeScript loader at run time; during
// development `npm run dev` runs the sources through tsx instead.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('vigil: the compiled build (dist/) is missing: run `npm run build` (npm ci runs it for you)\n');
  process.exit(1);
}
await import(main.href);
