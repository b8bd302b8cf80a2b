/**
 * PostgreSQL schema, one numbered step per entry; the same steps as ../sqlite/migrations.ts in PostgreSQL types.
 * `migrate()` applies the versions not yet in `schema_migrations`, in order, in one transaction under an
 * advisory lock. Never edit a released step: append a new one.
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
        methods              JSONB NOT NULL,
        modules              JSONB NOT NULL,
        monthly_quota        BIGINT,          -- NULL: unlimited
        flood_limit          INTEGER NOT NULL,
        flood_window_seconds INTEGER NOT NULL
      );

      -- plan_id has no foreign key on purpose: plans are seeded and replaced independently of accounts.
      CREATE TABLE accounts (
        id                      TEXT PRIMARY KEY,
        status                  TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
        plan_id                 TEXT NOT NULL,
        subscribed              BOOLEAN NOT NULL,
        subscription_expires_at TIMESTAMPTZ,
        settings                JSONB NOT NULL,
        created_at              TIMESTAMPTZ NOT NULL,
        CHECK (subscribed OR subscription_expires_at IS NULL)
      );

      -- One row per authorized host (in the account's order) so hosts stay queryable.
      CREATE TABLE account_hosts (
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        ordinal    INTEGER NOT NULL,
        host       TEXT NOT NULL,
        PRIMARY KEY (account_id, ordinal)
      );
      CREATE INDEX account_hosts_host ON account_hosts (host);

      CREATE TABLE api_keys (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        hash       TEXT NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('live', 'test')),
        hint       TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ
      );
      CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
      CREATE INDEX api_keys_account ON api_keys (account_id);

      CREATE TABLE usage (
        account_id TEXT NOT NULL,
        method     TEXT NOT NULL,
        day        DATE NOT NULL,
        count      BIGINT NOT NULL,
        PRIMARY KEY (account_id, method, day)
      );
      -- list() and monthTotal() filter by account and a day range.
      CREATE INDEX usage_account_day ON usage (account_id, day);

      CREATE TABLE request_log (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        operation  TEXT NOT NULL,
        ip         TEXT,
        mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
        at         TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX request_log_account_user ON request_log (account_id, user_id);
    `,
  },
  {
    version: 2,
    name: 'custom rules, blacklists, policy versions, decision log',
    sql: `
      -- One row per account that ever saved a rule or a list entry. version: bumped in the transaction of every
      -- change (read on the hot path by primary key); every change locks this row first, so one account's policy
      -- writes run one at a time. last_rule_number: highest CR number ever assigned, so deleted ids are never
      -- handed out again.
      CREATE TABLE policy_versions (
        account_id       TEXT PRIMARY KEY,
        version          BIGINT NOT NULL DEFAULT 0,
        last_rule_number BIGINT NOT NULL DEFAULT 100
      );

      -- number: the numeric part of the id (CR101 -> 101), for id order (CR101 < CR1000).
      CREATE TABLE custom_rules (
        account_id TEXT NOT NULL,
        id         TEXT NOT NULL,
        number     BIGINT NOT NULL,
        title      TEXT NOT NULL,
        rule_group TEXT NOT NULL,
        enabled    BOOLEAN NOT NULL,
        conditions JSONB NOT NULL,
        action     JSONB NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, id),
        CHECK (number >= 101 AND id = 'CR' || number)
      );
      CREATE UNIQUE INDEX custom_rules_account_number ON custom_rules (account_id, number);

      -- COLLATE "C": the primary key index is in code-point order, as SQLite sorts, so ordered pages and keyset
      -- pagination read the index directly whatever the database's collation.
      CREATE TABLE blacklist_entries (
        account_id TEXT NOT NULL,
        type       TEXT COLLATE "C" NOT NULL,
        value      TEXT COLLATE "C" NOT NULL,
        note       TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, type, value)
      );

      CREATE TABLE decision_log (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL,
        rule_group TEXT NOT NULL,
        operation  TEXT NOT NULL,
        user_id    TEXT,
        at         TIMESTAMPTZ NOT NULL,
        input      JSONB NOT NULL,
        result     JSONB NOT NULL
      );
      CREATE INDEX decision_log_account_group_at ON decision_log (account_id, rule_group, at, id);
      CREATE INDEX decision_log_account_user ON decision_log (account_id, user_id) WHERE user_id IS NOT NULL;
      CREATE INDEX decision_log_at ON decision_log (at);
    `,
  },
  {
    version: 3,
    name: 'events, webhooks, deliveries, delivery attempts',
    sql: `
      -- Per-account event counter: insertEvent() upserts it ... RETURNING, which locks the row until commit,
      -- so concurrent inserts of one account get distinct, increasing ids.
      CREATE TABLE event_counters (
        account_id    TEXT PRIMARY KEY,
        last_event_id BIGINT NOT NULL
      );

      -- summary is JSON (not JSONB) so the object comes back exactly as written, key order included.
      CREATE TABLE events (
        account_id TEXT NOT NULL,
        event_id   BIGINT NOT NULL,
        kind       TEXT NOT NULL,
        risk       DOUBLE PRECISION NOT NULL,
        subject    TEXT NOT NULL,
        user_id    TEXT,
        operation  TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        summary    JSON NOT NULL,
        PRIMARY KEY (account_id, event_id)
      );
      CREATE INDEX events_account_user ON events (account_id, user_id, event_id);
      CREATE INDEX events_account_created ON events (account_id, created_at);

      CREATE TABLE webhooks (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        url        TEXT NOT NULL,
        secret     TEXT NOT NULL, -- sealed by the webhook service, never the plaintext
        created_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX webhooks_account ON webhooks (account_id);

      -- The outbox: one job per (event, webhook); delivery order per webhook is id order.
      -- Removing a webhook removes its jobs and their attempts.
      CREATE TABLE deliveries (
        id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id      TEXT NOT NULL,
        webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_id        BIGINT NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TIMESTAMPTZ NOT NULL,
        locked_until    TIMESTAMPTZ, -- lease of the worker sending it; NULL when not leased
        created_at      TIMESTAMPTZ NOT NULL,
        delivered_at    TIMESTAMPTZ,
        FOREIGN KEY (account_id, event_id) REFERENCES events (account_id, event_id) ON DELETE CASCADE
      );
      -- Heads of the queues: the oldest pending job of each webhook, without scanning delivered history.
      CREATE INDEX deliveries_pending_head ON deliveries (webhook_id, id) WHERE status = 'pending';
      CREATE INDEX deliveries_webhook ON deliveries (webhook_id, id);
      CREATE INDEX deliveries_event ON deliveries (account_id, event_id);

      CREATE TABLE delivery_attempts (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id  BIGINT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        attempted_at TIMESTAMPTZ NOT NULL,
        http_status  INTEGER, -- NULL: no answer (refused, timeout)
        latency_ms   INTEGER NOT NULL,
        error        TEXT
      );
      CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, id);
    `,
  },
  {
    version: 4,
    name: 'payment scorings, outcomes, identity evidence, model',
    sql: `
      -- One row per live payment scoring. Identities are keyed hashes (never values); a card is BIN + last four +
      -- hash. amount_log = ln(1 + amount), written by the store, so amount statistics are one aggregate.
      -- outcome_fraud: the outcome counts as fraud (chargeback, fraud_confirmed, declined flagged fraud).
      CREATE TABLE payment_scorings (
        id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id        TEXT NOT NULL,
        transaction_id    TEXT,
        scored_at         TIMESTAMPTZ NOT NULL,
        customer_hash     TEXT,
        user_hash         TEXT,
        email_hash        TEXT,
        email_domain_hash TEXT,
        phone_hash        TEXT,
        ip_hash           TEXT,
        device_hash       TEXT,
        card_hash         TEXT,
        card_bin          TEXT,
        card_last4        TEXT,
        location_hash     TEXT,
        amount            DOUBLE PRECISION,
        amount_log        DOUBLE PRECISION,
        currency          TEXT,
        score             DOUBLE PRECISION NOT NULL,
        rules             JSONB NOT NULL, -- array of rule ids
        features          JSONB NOT NULL, -- array of hashed model features
        rule_set          TEXT NOT NULL,
        data_versions     JSONB NOT NULL, -- object name -> version
        outcome           TEXT CHECK (outcome IN ('approved', 'declined', 'chargeback', 'refunded', 'fraud_confirmed', 'legit_confirmed')),
        outcome_fraud     BOOLEAN NOT NULL DEFAULT false,
        CHECK ((amount IS NULL) = (amount_log IS NULL))
      );
      CREATE INDEX payment_scorings_transaction ON payment_scorings (account_id, transaction_id);
      -- Velocity windows, fraud counts and deletion by identity: one index per identity, time-ordered.
      CREATE INDEX payment_scorings_customer ON payment_scorings (account_id, customer_hash, scored_at);
      CREATE INDEX payment_scorings_user ON payment_scorings (account_id, user_hash, scored_at);
      CREATE INDEX payment_scorings_email ON payment_scorings (account_id, email_hash, scored_at);
      CREATE INDEX payment_scorings_phone ON payment_scorings (account_id, phone_hash, scored_at);
      CREATE INDEX payment_scorings_ip ON payment_scorings (account_id, ip_hash, scored_at);
      CREATE INDEX payment_scorings_device ON payment_scorings (account_id, device_hash, scored_at);
      CREATE INDEX payment_scorings_card ON payment_scorings (account_id, card_hash, scored_at);
      -- Account-wide amount statistics per currency.
      CREATE INDEX payment_scorings_currency ON payment_scorings (account_id, currency, scored_at);

      -- Payment feedback per transaction id; pending until a scoring of the id exists. COLLATE "C" (here and
      -- below): text orders by code point, as SQLite sorts.
      CREATE TABLE payment_outcomes (
        account_id        TEXT NOT NULL,
        transaction_id    TEXT COLLATE "C" NOT NULL,
        outcome           TEXT NOT NULL CHECK (outcome IN ('approved', 'declined', 'chargeback', 'refunded', 'fraud_confirmed', 'legit_confirmed')),
        fraud             BOOLEAN NOT NULL,
        reason            TEXT,
        occurred_at       TIMESTAMPTZ NOT NULL,
        status            TEXT NOT NULL CHECK (status IN ('applied', 'pending')),
        customer_hash     TEXT,
        user_hash         TEXT,
        email_hash        TEXT,
        email_domain_hash TEXT,
        phone_hash        TEXT,
        ip_hash           TEXT,
        device_hash       TEXT,
        card_hash         TEXT,
        updated_at        TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, transaction_id)
      );
      CREATE INDEX payment_outcomes_customer ON payment_outcomes (account_id, customer_hash);
      CREATE INDEX payment_outcomes_user ON payment_outcomes (account_id, user_hash);
      CREATE INDEX payment_outcomes_email ON payment_outcomes (account_id, email_hash);
      CREATE INDEX payment_outcomes_phone ON payment_outcomes (account_id, phone_hash);

      -- Labels and evidence per identity (keyed hash); origin makes writes idempotent (label, payment:<id>, event:<id>).
      CREATE TABLE identity_evidence (
        account_id  TEXT NOT NULL,
        type        TEXT COLLATE "C" NOT NULL CHECK (type IN ('ip', 'email', 'email_domain', 'phone', 'card_bin', 'customer_id', 'device_id', 'text', 'card')),
        value_hash  TEXT COLLATE "C" NOT NULL,
        origin      TEXT COLLATE "C" NOT NULL,
        label       TEXT NOT NULL CHECK (label IN ('fraud', 'legit')),
        masked      TEXT NOT NULL,
        reason      TEXT,
        source      TEXT,
        occurred_at TIMESTAMPTZ NOT NULL,
        updated_at  TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, type, value_hash, origin)
      );
      CREATE INDEX identity_evidence_origin ON identity_evidence (account_id, origin);

      -- FTRL-proximal coordinates of each account's model.
      CREATE TABLE model_weights (
        account_id TEXT NOT NULL,
        feature    TEXT COLLATE "C" NOT NULL,
        z          DOUBLE PRECISION NOT NULL,
        n          DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (account_id, feature)
      );

      CREATE TABLE model_history (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL,
        at         TIMESTAMPTZ NOT NULL,
        origin     TEXT NOT NULL,
        label      SMALLINT NOT NULL CHECK (label IN (0, 1)),
        before     DOUBLE PRECISION NOT NULL,
        weights    JSONB NOT NULL -- object feature -> weight after the update
      );
      CREATE INDEX model_history_account ON model_history (account_id, id);
      CREATE INDEX model_history_origin ON model_history (account_id, origin);
    `,
  },
  {
    version: 5,
    name: 'event identities',
    sql: `
      -- The identity an event is about, as a keyed hash (never the value): labels by event id and user deletion.
      -- Both NULL when the event is about no identity.
      ALTER TABLE events ADD COLUMN identity_type TEXT;
      ALTER TABLE events ADD COLUMN identity_hash TEXT;
      CREATE INDEX events_account_identity ON events (account_id, identity_hash);
    `,
  },
  {
    version: 6,
    name: 'decision identities',
    sql: `
      -- Keyed hashes of the identities a decision is about (space-separated), so deleting a user finds their
      -- records whatever spelling the input had (Jane.Doe+shop@GoogleMail.com is the mailbox janedoe@gmail.com).
      ALTER TABLE decision_log ADD COLUMN identities TEXT NOT NULL DEFAULT '';
    `,
  },
  {
    version: 7,
    name: 'covering payment indexes',
    sql: `
      -- The columns a scoring reads of the customer's and the card's scorings, so those reads can be index-only
      -- (see the SQLite migration of the same number).
      DROP INDEX payment_scorings_customer;
      CREATE INDEX payment_scorings_customer ON payment_scorings (account_id, customer_hash, scored_at)
        INCLUDE (location_hash, card_hash, currency, amount, amount_log, outcome_fraud);
      DROP INDEX payment_scorings_card;
      CREATE INDEX payment_scorings_card ON payment_scorings (account_id, card_hash, scored_at) INCLUDE (customer_hash);
    `,
  },
  {
    version: 8,
    name: 'covering indexes of the textbook patterns',
    sql: `
      -- The emails and IPs of a card, the customers of a device and of an IP (see the SQLite migration of the same number).
      DROP INDEX payment_scorings_card;
      CREATE INDEX payment_scorings_card ON payment_scorings (account_id, card_hash, scored_at) INCLUDE (customer_hash, email_hash, ip_hash);
      DROP INDEX payment_scorings_device;
      CREATE INDEX payment_scorings_device ON payment_scorings (account_id, device_hash, scored_at) INCLUDE (customer_hash);
      DROP INDEX payment_scorings_ip;
      CREATE INDEX payment_scorings_ip ON payment_scorings (account_id, ip_hash, scored_at) INCLUDE (customer_hash);
    `,
  },
  {
    version: 9,
    name: 'card BIN windows',
    sql: `
      -- Card testing across one BIN (PF10027): the distinct cards of a BIN's small payments (test charges) in
      -- the last ten minutes. Partial: ordinary payments add nothing to it (learning-ports.ts).
      CREATE INDEX payment_scorings_bin ON payment_scorings (account_id, card_bin, scored_at) INCLUDE (card_hash) WHERE amount < 5;
    `,
  },
  {
    version: 10,
    name: 'deleted users',
    sql: `
      -- Tombstones of user deletions (keyed hashes only): a record of the user created before the deletion but
      -- still buffered by some instance is dropped when it is written (deleted-users.ts). Pruned after a day.
      CREATE TABLE deleted_users (
        account_id TEXT NOT NULL,
        value_hash TEXT NOT NULL,
        deleted_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (account_id, value_hash, deleted_at)
      );
      CREATE INDEX deleted_users_at ON deleted_users (deleted_at);
    `,
  },
  {
    version: 11,
    name: 'console sessions, users and audit log',
    sql: `
      -- The dashboard (src/dashboard/): sessions keyed by the SHA-256 of their cookie, users with scrypt hashes,
      -- and the audit log of every change made through it.
      CREATE TABLE console_sessions (
        id_hash    TEXT COLLATE "C" PRIMARY KEY,
        role       TEXT NOT NULL CHECK (role IN ('operator', 'analyst')),
        account_id TEXT,
        actor      TEXT NOT NULL,
        key_id     TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX console_sessions_expires ON console_sessions (expires_at);
      CREATE INDEX console_sessions_actor ON console_sessions (actor);

      CREATE TABLE console_users (
        username      TEXT PRIMARY KEY,
        account_id    TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at    TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX console_users_account ON console_users (account_id, username);

      CREATE TABLE console_audit (
        id         BIGSERIAL PRIMARY KEY,
        at         TIMESTAMPTZ NOT NULL,
        actor      TEXT NOT NULL,
        account_id TEXT,
        action     TEXT NOT NULL,
        detail     TEXT NOT NULL
      );
      CREATE INDEX console_audit_account ON console_audit (account_id, id);

      -- The console's charts and searches. Events per UTC day and kind, kept by insertEvent in the event's own
      -- statement: counting a month of a busy account's events at each overview took seconds. Payments by time
      -- (score bands, the newest first) and by card BIN and last four digits.
      CREATE TABLE event_day_counts (
        account_id TEXT NOT NULL,
        day        TEXT COLLATE "C" NOT NULL,
        kind       TEXT NOT NULL,
        n          BIGINT NOT NULL,
        PRIMARY KEY (account_id, day, kind)
      );
      INSERT INTO event_day_counts (account_id, day, kind, n)
        SELECT account_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), kind, count(*) FROM events GROUP BY 1, 2, 3;
      CREATE INDEX payment_scorings_account_time ON payment_scorings (account_id, scored_at, score);
      CREATE INDEX payment_scorings_card_digits ON payment_scorings (account_id, card_bin, card_last4, scored_at);
    `,
  },
  {
    version: 12,
    name: 'card identity scheme',
    sql: `
      -- How card hashes are keyed. 1: under SECRET_KEY only, which a copy of DATA_DIR holds (secret.key) and, with the
      -- BIN and last four kept beside it, lets a script find the number; 2: keyed again under the card key, kept outside
      -- DATA_DIR. The server rewrites scheme 1 hashes at start (src/store/card-rekey.ts), then sets 2.
      CREATE TABLE card_identity (scheme INTEGER NOT NULL CHECK (scheme IN (1, 2)));
      INSERT INTO card_identity (scheme) VALUES (1);
    `,
  },
  {
    version: 13,
    name: 'fraud windows',
    sql: `
      -- The fraud count of a scoring (PF10018: the customer's, else the email's, transactions labelled fraud in 30
      -- days) reads only fraud rows: a customer with thousands of scorings costs what one with none does.
      CREATE INDEX payment_scorings_customer_fraud ON payment_scorings (account_id, customer_hash, scored_at) INCLUDE (transaction_id) WHERE outcome_fraud;
      CREATE INDEX payment_scorings_email_fraud ON payment_scorings (account_id, email_hash, scored_at) INCLUDE (transaction_id) WHERE outcome_fraud;
    `,
  },
  {
    version: 14,
    name: 'data update jobs',
    sql: `
      -- Dataset updates started from the console (src/dashboard/data-updates.ts): kept so the Model and data page
      -- shows their history after a restart. A running job's heartbeat stops when its process dies: it is then
      -- shown, and marked, interrupted. lines: the latest progress lines.
      CREATE TABLE data_update_jobs (
        id           BIGSERIAL PRIMARY KEY,
        dataset      TEXT NOT NULL,
        source       TEXT NOT NULL,
        actor        TEXT NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'interrupted')),
        started_at   TIMESTAMPTZ NOT NULL,
        finished_at  TIMESTAMPTZ,
        heartbeat_at TIMESTAMPTZ NOT NULL,
        lines        JSONB NOT NULL,
        error        TEXT
      );
      CREATE INDEX data_update_jobs_dataset ON data_update_jobs (dataset, id);
      CREATE INDEX data_update_jobs_running ON data_update_jobs (heartbeat_at) WHERE state = 'running';
    `,
  },
  {
    version: 15,
    name: 'card BIN windows of every amount',
    sql: `
      -- A BIN attack with ordinary amounts (PF10033) counts the distinct cards of a BIN in one and ten minutes against
      -- the BIN's usual rate: every payment with a card now enters the BIN's window, index-only (the amount rides along
      -- for the small-amount windows of PF10027, which the partial index of version 9 served alone).
      DROP INDEX payment_scorings_bin;
      CREATE INDEX payment_scorings_bin ON payment_scorings (account_id, card_bin, scored_at) INCLUDE (card_hash, amount) WHERE card_bin IS NOT NULL;
    `,
  },
];
