import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError } from '../config.ts';
import { resolveSecret, SECRET_FILE } from './secret.ts';

const dir = mkdtempSync(join(tmpdir(), 'vigil-secret-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveSecret', () => {
  it('uses SECRET_KEY when set, else generates one into DATA_DIR once and reads it back', () => {
    assert.deepEqual(resolveSecret('k'.repeat(40), join(dir, 'unused')), { secret: 'k'.repeat(40), generated: false });
    const data = join(dir, 'data');
    const first = resolveSecret(undefined, data);
    assert.equal(first.generated, true);
    assert.equal(readFileSync(join(data, SECRET_FILE), 'utf8').trim(), first.secret);
    assert.deepEqual(resolveSecret(undefined, data), { secret: first.secret, generated: false });
  });

  it('a DATA_DIR where the secret cannot be written: a configuration error naming SECRET_KEY, the path and the fix', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    assert.throws(() => resolveSecret(undefined, join(file, 'data')), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /^SECRET_KEY is not set and its generated copy cannot be written to .*a-file\/data\/secret\.key \((ENOTDIR|EEXIST)\): set SECRET_KEY/);
      assert.match(e.message, /DATA_DIR/);
      return true;
    });
  });

  it('a stored secret that is too short is refused with the fix', () => {
    const data = join(dir, 'short');
    resolveSecret(undefined, data);
    writeFileSync(join(data, SECRET_FILE), 'short\n');
    assert.throws(() => resolveSecret(undefined, data), (e: unknown) => e instanceof ConfigError && /shorter than 32 characters; remove it or set SECRET_KEY/.test(e.message));
  });
});
