import type { Database } from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.ts';

/**
 * Applies every migration not yet recorded, in version order, in one IMMEDIATE transaction: the write lock
 * is taken before `schema_migrations` is read, so two processes opening the same file cannot both apply a step
 * (the second waits on busy_timeout, then sees the steps as done).
 */
export function applyMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  const run = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const applied = new Set(
      db
        .prepare<[], number>('SELECT version FROM schema_migrations')
        .pluck()
        .all(),
    );
    const record = db.prepare<[number, string, string]>('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
    for (const migration of pending) {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    }
  });
  run.immediate();
}
