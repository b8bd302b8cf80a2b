/**
 * The in-process key cache (src/http/key-cache.ts) over a real SQLite store: keys resolve to their
 * account, unknown and revoked ones to null, changes made elsewhere count after the TTL, and
 * expired entries (keys as sent) do not stay in memory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccountService } from '../../src/accounts/service.ts';
import { CachedKeyResolver } from '../../src/http/key-cache.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';

const TTL_MS = 60;
const dir = mkdtempSync(join(tmpdir(), 'vigil-keycache-'));
let store: SqliteStore;
let accounts: AccountService;

before(async () => {
  store = new SqliteStore({ path: join(dir, 'vigil.db') });
  await store.migrate();
  accounts = new AccountService(store, 'key-cache-secret-0123456789abcdef0123');
  await accounts.ensureBuiltinPlans();
  await accounts.createAccount({ id: 'acct', plan: 'premium' });
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CachedKeyResolver', () => {
  it('resolves a key to its account and plan, and an unknown or malformed key to null', async () => {
    const { key } = await accounts.createKey('acct', 'live');
    const cache = new CachedKeyResolver(accounts, TTL_MS);
    const caller = await cache.resolve(key);
    assert.equal(caller?.account.id, 'acct');
    assert.equal(caller?.plan.id, 'premium');
    assert.equal(caller?.key.kind, 'live');
    assert.equal(await cache.resolve('svc_live_unknown000000000000000000001'), null);
    for (const bad of ['', 'x', 'svc_live_', '\u0000'.repeat(64), 'k'.repeat(10_000)]) assert.equal(await cache.resolve(bad), null);
  });

  it('a key revoked by another instance keeps working until the TTL, then stops', async () => {
    const { key, record } = await accounts.createKey('acct', 'live');
    const cache = new CachedKeyResolver(accounts, TTL_MS);
    assert.ok(await cache.resolve(key));
    // Another instance: its own service over the same database.
    await new AccountService(store, 'key-cache-secret-0123456789abcdef0123').revokeKey(record.id);
    assert.ok(await cache.resolve(key), 'cached within the TTL');
    await sleep(TTL_MS * 2);
    assert.equal(await cache.resolve(key), null);
    cache.clear();
    assert.equal(await cache.resolve(key), null);
  });

  it('drops expired entries, so keys as sent do not stay in memory after their TTL', async () => {
    const keys = await Promise.all([1, 2, 3].map(async () => (await accounts.createKey('acct', 'live')).key));
    const cache = new CachedKeyResolver(accounts, TTL_MS);
    for (const key of keys) await cache.resolve(key);
    await cache.resolve('svc_live_unknown000000000000000000002');
    assert.equal(cache.size, 4);
    await sleep(TTL_MS * 2 + 10);
    await cache.resolve(keys[0]!);
    assert.equal(cache.size, 1, 'only the key just resolved is held');
  });

  it('stays bounded when flooded with different keys', async () => {
    const cache = new CachedKeyResolver(accounts, 60_000, 100);
    for (let i = 0; i < 250; i++) await cache.resolve(`svc_live_guess${String(i).padStart(22, '0')}`);
    assert.ok(cache.size <= 100, String(cache.size));
  });
});
