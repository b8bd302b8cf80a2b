import assert from 'node:assert/strict';
import pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/index.ts';
import { MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { createTestDatabase, queryOnce, SKIP_PG, type TestDatabase } from './pg-test-database.ts';
import { runStoreContract } from './store-contract.ts';
import { runEventsContract } from './events-contract.ts';
import { runPolicyContract } from './policy-contract.ts';
import { runLearningContract } from './learning-contract.ts';

describe('PostgresStore', { skip: SKIP_PG }, () => {
  let created: TestDatabase | undefined;
  const db = (): TestDatabase => {
    if (!created) throw new Error('test database was not created');
    return created;
  };

  before(async () => {
    created = await createTestDatabase();
  });

  after(async () => {
    await created?.drop();
  });

  runStoreContract('postgres', async () => {
    const store = new PostgresStore({ connectionString: db().url, max: 4 });
    await store.migrate();
    return store;
  });

  runEventsContract('postgres', async () => {
    const store = new PostgresStore({ connectionString: db().url, max: 4 });
    await store.migrate();
    return store;
  });

  runPolicyContract('postgres', async () => {
    const store = new PostgresStore({ connectionString: db().url, max: 4 });
    await store.migrate();
    return store;
  });

  runLearningContract('postgres', async () => {
    const store = new PostgresStore({ connectionString: db().url, max: 4 });
    await store.migrate();
    return store;
  });

  describe('user deletion tombstones', () => {
    it('a tombstone waits for the transactions of other sessions that began before it', async () => {
      const store = new PostgresStore({ connectionString: db().url, max: 4 });
      const other = new pg.Client({ connectionString: db().url });
      await other.connect();
      try {
        await store.migrate();
        await other.query('BEGIN');
        await other.query('SELECT 1');
        const started = Date.now();
        setTimeout(() => void other.query('COMMIT'), 400);
        await store.deletedUsers.add('tomb-wait', ['h'], new Date().toISOString());
        assert.ok(Date.now() - started >= 380, `waited ${Date.now() - started} ms for the older transaction`);
        const quick = Date.now();
        await store.deletedUsers.add('tomb-wait', ['h2'], new Date().toISOString());
        assert.ok(Date.now() - quick < 380, 'nothing older: no wait');
      } finally {
        await other.end();
        await store.close();
      }
    });
  });

  describe('migrations', () => {
    it('two instances migrating one fresh database at once apply each step exactly once', async () => {
      const fresh = await createTestDatabase();
      const stores = Array.from({ length: 4 }, () => new PostgresStore({ connectionString: fresh.url, max: 2 }));
      try {
        await Promise.all(stores.map((s) => s.migrate()));
        const rows = await queryOnce<{ version: number }>(fresh.url, 'SELECT version FROM schema_migrations ORDER BY version');
        assert.deepEqual(
          rows.map((r) => r.version),
          MIGRATIONS.map((m) => m.version),
        );
        const [a, b] = stores;
        assert.ok(a && b);
        await a.accounts.upsertPlan({ id: 'p', methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 1, windowSeconds: 1 } });
        assert.equal((await b.accounts.getPlan('p'))?.id, 'p');
      } finally {
        await Promise.all(stores.map((s) => s.close()));
        await fresh.drop();
      }
    });

    it('has unique versions numbered 1, 2, 3... in step with the SQLite list', () => {
      assert.deepEqual(
        MIGRATIONS.map((m) => m.version),
        MIGRATIONS.map((_, i) => i + 1),
      );
      assert.deepEqual(
        MIGRATIONS.map((m) => [m.version, m.name]),
        SQLITE_MIGRATIONS.map((m) => [m.version, m.name]),
      );
    });
  });

  describe('connection handling', () => {
    it('close() twice is harmless', async () => {
      const store = new PostgresStore({ connectionString: db().url });
      await store.ping();
      await store.close();
      await store.close();
    });

    it('ping rejects quickly when the server is unreachable', async () => {
      const store = new PostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 1000 });
      const started = Date.now();
      await assert.rejects(store.ping());
      assert.ok(Date.now() - started < 2000);
      await store.close();
    });

    it('openStore() with databaseUrl opens a migrated PostgreSQL store', async () => {
      const store = await openStore({ databaseUrl: db().url, dataDir: '/nonexistent-unused' });
      try {
        assert.equal(store.kind, 'postgres');
        await store.ping();
        assert.equal(typeof (await store.accounts.countAccounts()), 'number');
      } finally {
        await store.close();
      }
    });

    it('openStore() rejects when PostgreSQL is unreachable', async () => {
      await assert.rejects(openStore({ databaseUrl: 'postgres://postgres@127.0.0.1:1/postgres', dataDir: '/nonexistent-unused' }));
    });
  });
});
