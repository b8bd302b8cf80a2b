import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { makeAccount, makeKey, makePlan } from './fixtures.ts';
import { runStoreContract } from './store-contract.ts';
import { runEventsContract } from './events-contract.ts';
import { runPolicyContract } from './policy-contract.ts';
import { runLearningContract } from './learning-contract.ts';

const root = mkdtempSync(join(tmpdir(), 'vigil-sqlite-'));
after(() => {
  rmSync(root, { recursive: true, force: true });
});

runStoreContract('sqlite (file)', async () => {
  const store = new SqliteStore({ path: join(root, 'contract', 'vigil.db') });
  await store.migrate();
  return store;
});

runStoreContract('sqlite (:memory:)', async () => {
  const store = new SqliteStore({ path: ':memory:' });
  await store.migrate();
  return store;
});

for (const [label, path] of [['file', join(root, 'events', 'vigil.db')], [':memory:', ':memory:']] as const) {
  runEventsContract(`sqlite (${label})`, async () => {
    const store = new SqliteStore({ path });
    await store.migrate();
    return store;
  });
}

for (const [label, path] of [['file', join(root, 'policy', 'vigil.db')], [':memory:', ':memory:']] as const) {
  runPolicyContract(`sqlite (${label})`, async () => {
    const store = new SqliteStore({ path });
    await store.migrate();
    return store;
  });
}

for (const [label, path, historyReads] of [
  ['file', join(root, 'learning', 'vigil.db'), 'load'],
  ['file, history read on the worker', join(root, 'learning-worker', 'vigil.db'), 'worker'],
  [':memory:', ':memory:', 'load'],
] as const) {
  runLearningContract(`sqlite (${label})`, async () => {
    const store = new SqliteStore({ path, historyReads });
    await store.migrate();
    return store;
  });
}

describe('SqliteStore on a file', () => {
  it('creates the directory and puts the file in WAL mode', async () => {
    const path = join(root, 'fresh', 'nested', 'vigil.db');
    const store = new SqliteStore({ path });
    await store.migrate();
    assert.ok(existsSync(path));
    // WAL is a property of the file, so a second connection sees it.
    const probe = new Database(path, { readonly: true });
    try {
      assert.equal(probe.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      probe.close();
    }
    await store.close();
  });

  it('keeps data across close and reopen', async () => {
    const path = join(root, 'persist', 'vigil.db');
    const plan = makePlan('persisted');
    const account = makeAccount('acct-persisted', { planId: plan.id });
    const key = makeKey(account.id);
    const first = new SqliteStore({ path });
    await first.migrate();
    await first.accounts.upsertPlan(plan);
    await first.accounts.upsertAccount(account);
    await first.accounts.addKey(key);
    await first.usage.add([{ accountId: account.id, method: 'lookup/ip', day: '2024-03-05', count: 3 }]);
    await first.close();

    const second = new SqliteStore({ path });
    await second.migrate();
    assert.deepEqual(await second.accounts.getPlan(plan.id), plan);
    assert.deepEqual(await second.accounts.getAccount(account.id), account);
    assert.deepEqual(await second.accounts.findKeyByHash(key.hash), key);
    assert.equal(await second.usage.monthTotal(account.id, '2024-03'), 3);
    await second.close();
  });

  it('records each migration once, even with two stores on one file', async () => {
    const path = join(root, 'twice', 'vigil.db');
    const a = new SqliteStore({ path });
    const b = new SqliteStore({ path });
    await Promise.all([a.migrate(), b.migrate()]);
    await a.migrate();
    await a.close();
    await b.close();
    const probe = new Database(path, { readonly: true });
    try {
      const versions = probe.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
      assert.deepEqual(
        versions,
        MIGRATIONS.map((m) => m.version),
      );
    } finally {
      probe.close();
    }
  });

  it('close() twice is harmless', async () => {
    const store = new SqliteStore({ path: join(root, 'close', 'vigil.db') });
    await store.close();
    await store.close();
  });

  it('a call before migrate() on an empty file rejects instead of throwing', async () => {
    const store = new SqliteStore({ path: join(root, 'unmigrated', 'vigil.db') });
    await assert.rejects(store.accounts.getPlan('x'), /no such table/);
    await store.close();
  });

  it('openStore() without databaseUrl opens a migrated SQLite store at <dataDir>/vigil.db', async () => {
    const dataDir = join(root, 'open-store', 'data');
    const store = await openStore({ dataDir });
    try {
      assert.equal(store.kind, 'sqlite');
      assert.ok(existsSync(join(dataDir, 'vigil.db')));
      assert.equal(await store.accounts.countAccounts(), 0);
    } finally {
      await store.close();
    }
  });
});

describe('SQLite migrations list', () => {
  it('has unique versions numbered 1, 2, 3... in order', () => {
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      MIGRATIONS.map((_, i) => i + 1),
    );
  });
});
