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
import type { NewScoring } from '../../src/store/learning-ports.ts';
import { until } from '../helpers/until.ts';

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

describe('SqliteStore: payment scorings written in groups (scoring-buffer.ts)', () => {
  const scoring = (accountId: string, i: number): NewScoring => ({
    accountId, transactionId: `tx-${i}`, scoredAt: new Date(Date.UTC(2026, 0, 1, 12, 0, i)).toISOString(),
    identities: { customer: `c-${i}`, user: null, email: null, emailDomain: null, phone: null, ip: 'ip-1', device: null, card: `k-${i}` },
    cardBin: '411111', cardLast4: '1111', location: null, amount: 10, currency: 'EUR', score: 12.5, rules: ['PF10001'], features: ['f'],
    ruleSet: 'payment-rules/2', dataVersions: {}, outcome: null,
  });
  const rowsOf = (path: string): number => {
    const probe = new Database(path, { readonly: true });
    try {
      return probe.prepare<[], number>('SELECT count(*) FROM payment_scorings').pluck().get()!;
    } finally {
      probe.close();
    }
  };

  it('another connection sees an added scoring once the group is written: after a few ms, at flush(), when 32 are held, at close()', async () => {
    const path = join(root, 'buffer', 'vigil.db');
    const store = new SqliteStore({ path });
    await store.migrate();
    await store.scorings.add(scoring('a', 0));
    assert.equal(rowsOf(path), 0, 'held back');
    await until('the timer\'s write', () => rowsOf(path) === 1);
    assert.equal(rowsOf(path), 1, 'written by the timer');
    await store.scorings.add(scoring('a', 1));
    await store.scorings.flush();
    assert.equal(rowsOf(path), 2, 'written by flush()');
    for (let i = 2; i < 2 + 31; i++) await store.scorings.add(scoring('a', i));
    assert.equal(rowsOf(path), 2, '31 held');
    await store.scorings.add(scoring('a', 33));
    assert.equal(rowsOf(path), 34, 'a full group is written at once');
    await store.scorings.add(scoring('a', 34));
    await store.close();
    assert.equal(rowsOf(path), 35, 'close() writes what is held');
  });

  for (const historyReads of ['load', 'worker'] as const) {
  it(`a group that cannot be written (the file locked by another process) is kept and written once the lock is gone (${historyReads === 'worker' ? 'on the worker' : 'here'})`, async () => {
    const path = join(root, `buffer-locked-${historyReads}`, 'vigil.db');
    const failures: Array<{ rows: number; dropped: boolean }> = [];
    const store = new SqliteStore({ path, historyReads, busyTimeoutMs: 20, onScoringWriteFailure: (_err, detail) => failures.push(detail) });
    await store.migrate();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await store.scorings.add(scoring('b', 0));
    await store.scorings.add(scoring('b', 1));
    // The first try fails after the busy timeout (on the worker, once its thread has started: slower on a loaded
    // machine); the retry comes 1 s later, so the first failure is seen alone.
    await until('the first failure report', () => failures.length > 0);
    assert.deepEqual(failures, [{ rows: 2, dropped: false }]);
    // A read that must see them fails as the write does, and keeps them too.
    await assert.rejects(store.scorings.velocity('b', [{ by: 'ip', hash: 'ip-1', since: '2026-01-01T00:00:00.000Z' }]), /locked|busy/i);
    other.exec('COMMIT');
    other.close();
    assert.deepEqual(await store.scorings.velocity('b', [{ by: 'ip', hash: 'ip-1', since: '2026-01-01T00:00:00.000Z' }]), [2]);
    assert.equal(rowsOf(path), 2);
    await store.close();
  });
  }

  it('on the worker (historyReads: worker): groups are written there, flush() resolves once they are, every other use sees them at once, close() writes all', async () => {
    const path = join(root, 'buffer-worker', 'vigil.db');
    const store = new SqliteStore({ path, historyReads: 'worker' });
    await store.migrate();
    await store.scorings.add(scoring('w', 0));
    assert.equal(rowsOf(path), 0, 'held back');
    // Written by the worker a few ms after its thread has started (which a loaded machine makes slower).
    await until('the worker\'s write', () => rowsOf(path) === 1);
    assert.equal(rowsOf(path), 1, 'written by the worker after a few ms');
    for (let i = 1; i <= 32; i++) await store.scorings.add(scoring('w', i));
    await store.scorings.flush();
    assert.equal(rowsOf(path), 33, 'flush() resolved once the worker wrote them');
    // The ways of the serving connection (outcome, lookup, deletion) see a group just handed to the worker.
    for (let i = 33; i < 40; i++) await store.scorings.add(scoring('w', i));
    assert.equal(await store.scorings.setOutcome('w', 'tx-34', 'fraud_confirmed', true), 1);
    assert.equal((await store.scorings.byTransaction('w', 'tx-35')).length, 1);
    for (let i = 40; i < 72; i++) await store.scorings.add(scoring('w', i)); // a full group: handed over at once
    assert.equal(await store.scorings.deleteByIdentity('w', 'customer', 'c-71'), 1);
    assert.equal((await store.scorings.findByIdentity('w', 'customer', 'c-70')).length, 1);
    // Exact velocity on the worker: every scoring added so far, the deleted one gone.
    assert.deepEqual(await store.scorings.velocity('w', [{ by: 'ip', hash: 'ip-1', since: '2026-01-01T00:00:00.000Z' }]), [71]);
    await store.scorings.add(scoring('w', 72));
    await store.close();
    assert.equal(rowsOf(path), 72, 'close() writes what is held and what the worker was given');
  });
});
