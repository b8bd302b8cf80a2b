import type { Pool } from 'pg';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { withTransaction } from './transaction.ts';

/** Advisory lock id reserved for schema migrations: the bytes of "vigilmig" read as a 64-bit integer. */
const MIGRATION_LOCK_ID = '8532464671518452071';

/**
 * Applies every migration not yet recorded, in version order, in one transaction. The transaction-scoped
 * advisory lock (per database) makes a second instance starting at the same moment wait, then find the
 * steps applied; it is released by COMMIT/ROLLBACK, so a crashed migrator cannot leave it held.
 */
export async function applyMigrations(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
  });
}
