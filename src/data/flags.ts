import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Flag images shipped by svg-country-flags (hjnilsson/country-flags, licence "PD": renders of
 * Wikipedia's public-domain flag files; its README notes flags may carry use restrictions other
 * than copyright). Files are `svg/xx.svg` and `png{100,250,1000}px/xx.png` with lower-case
 * alpha-2 names, plus a few non-country extras (eu, gb-eng, ...) that the code check excludes.
 */
export type FlagKind = 'svg' | '100px' | '250px' | '1000px';

export const FLAG_KINDS: readonly FlagKind[] = ['svg', '100px', '250px', '1000px'];

const FLAG_CODE = /^[a-z]{2}$/;

const packageDir = dirname(createRequire(import.meta.url).resolve('svg-country-flags/package.json'));

function folderOf(kind: FlagKind): { dir: string; ext: string } {
  return kind === 'svg' ? { dir: join(packageDir, 'svg'), ext: '.svg' } : { dir: join(packageDir, `png${kind}`), ext: '.png' };
}

// One directory listing per kind, read on first use: existence checks then cost no I/O, and
// only names that were really listed can ever become paths.
const listings = new Map<FlagKind, ReadonlySet<string>>();

function codesWithFile(kind: FlagKind): ReadonlySet<string> {
  let codes = listings.get(kind);
  if (!codes) {
    const { dir, ext } = folderOf(kind);
    codes = new Set(
      readdirSync(dir)
        .filter((name) => name.endsWith(ext))
        .map((name) => name.slice(0, -ext.length))
        .filter((code) => FLAG_CODE.test(code)),
    );
    listings.set(kind, codes);
  }
  return codes;
}

/**
 * Absolute path of the flag file of lower-case alpha-2 `code`, or null when `code` is not two
 * lower-case letters or the package has no such file. Nothing else ever reaches the path, so
 * `..`, slashes and encoded tricks cannot escape the package folder.
 */
export function flagFilePath(kind: FlagKind, code: string): string | null {
  if (!FLAG_CODE.test(code) || !codesWithFile(kind).has(code)) return null;
  const { dir, ext } = folderOf(kind);
  return join(dir, `${code}${ext}`);
}

/** True when every kind of flag file exists for lower-case alpha-2 `code`. */
export function hasAllFlagFiles(code: string): boolean {
  return FLAG_KINDS.every((kind) => flagFilePath(kind, code) !== null);
}
