/** DATA_DIR checked with the other variables (src/config.ts dataDirProblem), on real paths. */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, dataDirProblem, loadConfig } from '../../src/config.ts';

const root = mkdtempSync(join(tmpdir(), 'vigil-datadir-'));
after(() => {
  chmodSync(join(root, 'locked'), 0o755);
  rmSync(root, { recursive: true, force: true });
});
writeFileSync(join(root, 'file'), 'x');
mkdirSync(join(root, 'locked'), { mode: 0o555 });
const isRoot = process.getuid?.() === 0;

describe('DATA_DIR', () => {
  it('an existing or creatable directory is fine, and nothing is created by looking', () => {
    assert.equal(dataDirProblem(root, true), null);
    assert.equal(dataDirProblem(join(root, 'new', 'deeper'), true), null);
    assert.equal(loadConfig({ DATA_DIR: join(root, 'new') }).dataDir, join(root, 'new'));
    assert.equal(existsSync(join(root, 'new')), false);
  });

  it('a file, or a path below one, is refused whatever the store', () => {
    assert.match(dataDirProblem(join(root, 'file'), false) ?? '', /^is a file, not a directory; set DATA_DIR to a directory this user can write/);
    assert.match(dataDirProblem(join(root, 'file', 'data'), false) ?? '', new RegExp(`^cannot be created: ${join(root, 'file')} is a file, not a directory`));
    assert.throws(() => loadConfig({ DATA_DIR: join(root, 'file'), PORT: '-1' }), (e: unknown) => e instanceof ConfigError && /\(2 variables/.test(e.message) && /DATA_DIR="[^"]+file": is a file/.test(e.message));
  });

  it('a directory this user cannot write: refused for the SQLite store, accepted with PostgreSQL', { skip: isRoot && 'root writes everywhere' }, () => {
    assert.match(dataDirProblem(join(root, 'locked'), true) ?? '', /^is not writable by this user \(uid \d+\)/);
    assert.match(dataDirProblem(join(root, 'locked', 'data'), true) ?? '', /^cannot be created: .*locked is not writable by this user/);
    assert.equal(dataDirProblem(join(root, 'locked'), false), null);
    assert.equal(loadConfig({ DATA_DIR: join(root, 'locked'), DATABASE_URL: 'postgres://db/vigil' }).dataDir, join(root, 'locked'));
  });
});
