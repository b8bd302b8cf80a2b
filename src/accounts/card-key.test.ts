import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCardKeyFile, resolveCardKey } from './card-key.ts';

const SECRET = 'a-secret-key-from-the-environment-0123456789';

describe('resolveCardKey: the card key is never in DATA_DIR', () => {
  const root = mkdtempSync(join(tmpdir(), 'vigil-cardkey-'));
  const dataDir = join(root, 'data');

  it('CARD_KEY first; then CARD_KEY_FILE; then derived from SECRET_KEY; the derivation is not SECRET_KEY itself', () => {
    assert.deepEqual(resolveCardKey({ cardKey: 'k'.repeat(32), cardKeyFile: join(root, 'x.key'), secretKey: SECRET, dataDir }), { secret: 'k'.repeat(32), source: 'CARD_KEY', generated: undefined });
    const derived = resolveCardKey({ cardKey: undefined, cardKeyFile: undefined, secretKey: SECRET, dataDir });
    assert.equal(derived.source, 'SECRET_KEY');
    assert.notEqual(derived.secret, SECRET);
    assert.equal(resolveCardKey({ cardKey: undefined, cardKeyFile: undefined, secretKey: SECRET, dataDir }).secret, derived.secret);
    const file = resolveCardKey({ cardKey: undefined, cardKeyFile: join(root, 'named.key'), secretKey: SECRET, dataDir });
    assert.equal(file.generated, join(root, 'named.key'));
  });

  it('without any setting: generated beside DATA_DIR (0600) on first start, read back afterwards', () => {
    const first = resolveCardKey({ cardKey: undefined, cardKeyFile: undefined, secretKey: undefined, dataDir });
    assert.equal(first.generated, defaultCardKeyFile(dataDir));
    assert.equal(defaultCardKeyFile(dataDir), `${dataDir}.card-key`);
    assert.equal((statSync(first.generated).mode & 0o777).toString(8), '600');
    assert.equal(readFileSync(first.generated, 'utf8').trim(), first.secret);
    const again = resolveCardKey({ cardKey: undefined, cardKeyFile: undefined, secretKey: undefined, dataDir });
    assert.deepEqual(again, { secret: first.secret, source: first.generated, generated: undefined });
  });

  it('a CARD_KEY_FILE inside DATA_DIR (or DATA_DIR itself) stops the start', () => {
    for (const f of [join(dataDir, 'card.key'), join(dataDir, 'sub', '..', 'card.key'), dataDir]) {
      assert.throws(() => resolveCardKey({ cardKey: undefined, cardKeyFile: f, secretKey: undefined, dataDir }), /inside DATA_DIR/);
    }
    rmSync(root, { recursive: true, force: true });
  });
});
