import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Set SKIP_PG=1 to skip on purpose; otherwise an unreachable server fails the tests. */
export const SKIP_PG = process.env.SKIP_PG === '1' ? 'SKIP_PG=1' : false;

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_BASE_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database `vigil_test_<random>` on the test server; drop() removes it even with open sessions. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `vigil_test_${randomBytes(6).toString('hex')}`;
  try {
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
  } catch (error) {
    const where = new URL(PG_BASE_URL).host;
    throw new Error(`PostgreSQL test server at ${where} is not usable (set TEST_DATABASE_URL, or SKIP_PG=1 to skip)`, { cause: error });
  }
  const url = new URL(PG_BASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function queryOnce<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}
