import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { FLAG_KINDS, flagFilePath, hasAllFlagFiles } from './flags.ts';

const packageDir = dirname(createRequire(import.meta.url).resolve('svg-country-flags/package.json'));

describe('flagFilePath', () => {
  for (const kind of FLAG_KINDS) {
    it(`gives an existing absolute ${kind} file inside the package for "de"`, () => {
      const path = flagFilePath(kind, 'de');
      assert.ok(path !== null);
      assert.ok(isAbsolute(path));
      assert.ok(existsSync(path));
      assert.ok(!relative(packageDir, path).startsWith('..'));
      assert.ok(path.endsWith(kind === 'svg' ? `${sep}svg${sep}de.svg` : `${sep}png${kind}${sep}de.png`));
    });
  }

  const rejected: [string, string][] = [
    ['empty', ''],
    ['one letter', 'd'],
    ['three letters', 'deu'],
    ['upper case', 'DE'],
    ['mixed case', 'De'],
    ['digits', '12'],
    ['letter and digit', 'd3'],
    ['parent directory', '..'],
    ['traversal', '../de'],
    ['deep traversal', '../../../../etc/passwd'],
    ['slash', 'd/'],
    ['backslash', 'd\\'],
    ['encoded dots', '%2e%2e'],
    ['trailing newline', 'de\n'],
    ['with extension', 'de.svg'],
    ['NUL byte', 'd\u0000'],
    ['non-ASCII letters', 'dé'],
    ['subdivision file', 'gb-eng'],
    ['unassigned code without file', 'xx'],
    ['very long', 'a'.repeat(10_000)],
  ];
  for (const [label, code] of rejected) {
    it(`returns null for ${label}`, () => {
      for (const kind of FLAG_KINDS) assert.equal(flagFilePath(kind, code), null);
    });
  }

  it('has every kind of file for the sample codes', () => {
    for (const code of ['us', 'gb', 'jp', 'xk', 'aq', 'sj']) assert.ok(hasAllFlagFiles(code), code);
    assert.equal(hasAllFlagFiles('xx'), false);
  });
});
