import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * Vigil's version, from package.json (the one the release and CHANGELOG carry). Read on first use:
 * `../package.json` is the project's from src/ (tsx) and from dist/ (the compiled build) alike.
 */
export function vigilVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    cached = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return cached;
}
