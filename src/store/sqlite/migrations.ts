/**
 * SQLite schema, one numbered step per entry. `migrate()` applies the steps whose version is not yet in
 * `schema_migrations`, in order, inside one transaction. Never edit a released step: append a new one.
 * Keep the PostgreSQL list (../postgres/migrations.ts) in step with this one.
 */
export type { Migration } from '../migration.ts';
import type { Migration } from '../migration.ts';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'plans, accounts, keys, usage, request log',
    sql: `
      CREATE TABLE plans (
        id                   TEXT PRIMARY KEY,
        methods              TEXT NOT NULL,   -- JSON array of strings
        modules              TEXT NOT NULL,   -- JSON array of strings
        monthly_quota        INTEGER,         -- NULL: unlimited
        flood_limit          INTEGER NOT NULL,
        flood_window_seconds INTEGER NOT NULL
      ) STRICT;

      -- plan_id has no foreign key on purpose: plans are seeded and replaced independently of accounts.
      CREATE TABLE accounts (
        id                      TEXT PRIMARY KEY,
        status                  TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
        plan_id                 TEXT NOT NULL,
        subscribed              INTEGER NOT NULL CHECK (subscribed IN (0, 1)),
        subscription_expires_at TEXT,
        settings                TEXT NOT NULL, -- JSON object (AccountSettings)
        created_at              TEXT NOT NULL,
        CHECK (subscribed = 1 OR subscription_expires_at IS NULL)
      ) STRICT;

      -- One row per authorized host (in the account's order) so hosts stay queryable.
      CREATE TABLE account_hosts (
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        ordinal    INTEGER NOT NULL,
        host       TEXT NOT NULL,
        PRIMARY KEY (account_id, ordinal)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX account_hosts_host ON account_hosts (host);

      CREATE TABLE api_keys (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        hash       TEXT NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('live', 'test')),
        hint       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
      CREATE INDEX api_keys_account ON api_keys (account_id);

      CREATE TABLE usage (
        account_id TEXT NOT NULL,
        method     TEXT NOT NULL,
        day        TEXT NOT NULL, -- YYYY-MM-DD
        count      INTEGER NOT NULL,
        PRIMARY KEY (account_id, method, day)
      ) STRICT, WITHOUT ROWID;
      -- list() and monthTotal() filter by account and a day range.
      CREATE INDEX usage_account_day ON usage (account_id, day);

      CREATE TABLE request_log (
        id         INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        operation  TEXT NOT NULL,
        ip         TEXT,
        mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
        at         TEXT NOT NULL
      ) STRICT;
      CREATE INDEX request_log_account_user ON request_log (account_id, user_id);
    `,
  },
];
