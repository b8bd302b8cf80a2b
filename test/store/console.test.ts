import { after, before, describe } from 'node:test';
import { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { runConsoleContract } from './console-contract.ts';
import { createTestDatabase, SKIP_PG, type TestDatabase } from './pg-test-database.ts';

runConsoleContract('sqlite (:memory:)', async () => {
  const store = new SqliteStore({ path: ':memory:' });
  await store.migrate();
  return store;
});

describe('console store on PostgreSQL', { skip: SKIP_PG }, () => {
  let db: TestDatabase | undefined;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });
  runConsoleContract('postgres', async () => {
    if (!db) throw new Error('test database was not created');
    const store = new PostgresStore({ connectionString: db.url, max: 2 });
    await store.migrate();
    return store;
  });
});
