import type { Pool } from 'pg';
import type { EventKind } from '../../policy/types.ts';
import type { ClaimedDelivery, Delivery, DeliveryAttempt, DeliveryStatus, EventFilter, EventsPort, NewEvent, StoredEvent, Webhook } from '../ports.ts';
import {
  type AttemptRow,
  type DeliveryRow,
  type EventRow,
  type WebhookRow,
  countsByKind,
  deliveryStatus,
  eventConditions,
  eventQuery,
  filterMask,
  latencyMs,
  newEventValues,
  pageLimit,
  rowInteger,
  storedEvent,
  toAttempt,
  toDelivery,
  toStoredEvent,
  toWebhook,
  userDeletion,
} from '../event-rows.ts';
import { withTransaction } from './transaction.ts';
import { UserDeletedError } from '../ports.ts';
import { isoSql, isoTimestamp } from './values.ts';

const eventColumns = (t: string): string =>
  `${t}.account_id, ${t}.event_id, ${t}.kind, ${t}.risk, ${t}.subject, ${t}.user_id, ${t}.operation, ` +
  `${isoSql(`${t}.created_at`)} AS created_at, ${t}.summary::text AS summary, ${t}.identity_type, ${t}.identity_hash`;

const deliveryColumns = (t: string): string =>
  `${t}.id, ${t}.account_id, ${t}.webhook_id, ${t}.event_id, ${t}.status, ${t}.attempts, ` +
  `${isoSql(`${t}.next_attempt_at`)} AS next_attempt_at, ${isoSql(`${t}.created_at`)} AS created_at, ` +
  `${isoSql(`${t}.delivered_at`)} AS delivered_at`;

const WEBHOOK_COLUMNS = `id, account_id, url, secret, ${isoSql('created_at')} AS created_at`;

const ATTEMPT_SELECT = `
  SELECT a.delivery_id, d.webhook_id, d.event_id, ${isoSql('a.attempted_at')} AS attempted_at, a.http_status, a.latency_ms, a.error
  FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id`;

/** The head of each webhook's queue: its lowest pending id. */
const HEADS = `SELECT DISTINCT ON (webhook_id) id FROM deliveries WHERE status = 'pending' ORDER BY webhook_id, id`;

interface ClaimRow extends DeliveryRow {
  w_url: string;
  w_secret: string;
  w_created_at: string;
  e_kind: string;
  e_risk: number;
  e_subject: string;
  e_user_id: string | null;
  e_operation: string;
  e_created_at: string;
  e_summary: string;
  e_identity_type: string | null;
  e_identity_hash: string | null;
}

// Named statements are parsed once per pooled connection.
const Q = {
  // One statement, so one implicit transaction: the counter upsert locks the account's counter row until
  // commit, so a concurrent insert of the same account waits and takes the next id; the event and one job
  // per webhook (in webhook id order) are written with it or not at all.
  insertEvent: {
    name: 'vigil_events_insert',
    text: `
      WITH counter AS (
        -- Nothing (and no id used) when the event's user was deleted after it was raised ($11: their keyed hashes).
        INSERT INTO event_counters (account_id, last_event_id)
        SELECT $1, 1 WHERE NOT EXISTS (
          SELECT 1 FROM deleted_users d WHERE d.account_id = $1 AND d.value_hash = ANY($11::text[]) AND d.deleted_at >= $7::timestamptz)
        ON CONFLICT (account_id) DO UPDATE SET last_event_id = event_counters.last_event_id + 1
        RETURNING last_event_id
      ), event AS (
        INSERT INTO events (account_id, event_id, kind, risk, subject, user_id, operation, created_at, summary, identity_type, identity_hash)
        SELECT $1, counter.last_event_id, $2, $3, $4, $5, $6, $7, $8::json, $9, $10 FROM counter
        RETURNING event_id
      ), jobs AS (
        INSERT INTO deliveries (account_id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
        SELECT w.account_id, w.id, event.event_id, 'pending', 0, $7, $7
        FROM webhooks w CROSS JOIN event
        WHERE w.account_id = $1
        ORDER BY w.id
      ), daily AS (
        -- The console's events per day and kind (src/store/console-port.ts), kept with the event.
        INSERT INTO event_day_counts (account_id, day, kind, n)
        SELECT $1, to_char($7::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD'), $2, 1 FROM event
        ON CONFLICT (account_id, day, kind) DO UPDATE SET n = event_day_counts.n + 1
      )
      SELECT event_id FROM event`,
  },
  getEvent: { name: 'vigil_events_get', text: `SELECT ${eventColumns('e')} FROM events e WHERE e.account_id = $1 AND e.event_id = $2` },

  addWebhook: {
    name: 'vigil_webhooks_add',
    text: 'INSERT INTO webhooks (id, account_id, url, secret, created_at) VALUES ($1, $2, $3, $4, $5)',
  },
  listWebhooks: {
    name: 'vigil_webhooks_list',
    text: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = $1 ORDER BY webhooks.created_at, id COLLATE "C"`,
  },
  getWebhook: { name: 'vigil_webhooks_get', text: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE account_id = $1 AND id = $2` },
  removeWebhook: { name: 'vigil_webhooks_remove', text: 'DELETE FROM webhooks WHERE account_id = $1 AND id = $2' },
  setWebhookSecret: { name: 'vigil_webhooks_set_secret', text: 'UPDATE webhooks SET secret = $1 WHERE account_id = $2 AND id = $3' },

  // Heads are found from the statement's snapshot, then locked with SKIP LOCKED: a head another instance is
  // claiming is skipped, and a head another instance leased or finished since the snapshot fails the re-check
  // of the conditions on d (status, lease) that PostgreSQL makes on the locked row. So no job is claimed twice,
  // and a later job of a webhook is never claimed while an earlier one is pending.
  claimDue: {
    name: 'vigil_deliveries_claim',
    text: `
      WITH heads AS (${HEADS}),
      picked AS (
        SELECT d.id FROM deliveries d JOIN heads h ON h.id = d.id
        WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until < $1)
        ORDER BY d.id
        LIMIT $3
        FOR UPDATE OF d SKIP LOCKED
      ),
      leased AS (
        UPDATE deliveries d SET locked_until = $2 FROM picked WHERE d.id = picked.id
        RETURNING d.*
      )
      SELECT ${deliveryColumns('l')},
             w.url AS w_url, w.secret AS w_secret, ${isoSql('w.created_at')} AS w_created_at,
             e.kind AS e_kind, e.risk AS e_risk, e.subject AS e_subject, e.user_id AS e_user_id,
             e.operation AS e_operation, ${isoSql('e.created_at')} AS e_created_at, e.summary::text AS e_summary,
             e.identity_type AS e_identity_type, e.identity_hash AS e_identity_hash
      FROM leased l
      JOIN webhooks w ON w.id = l.webhook_id
      JOIN events e ON e.account_id = l.account_id AND e.event_id = l.event_id
      ORDER BY l.id`,
  },
  // Locks the job so a concurrent removal of its webhook waits (or has already removed it: nothing to record).
  lockDelivery: { name: 'vigil_deliveries_lock', text: 'SELECT id FROM deliveries WHERE id = $1 FOR UPDATE' },
  insertAttempt: {
    name: 'vigil_attempts_insert',
    text: 'INSERT INTO delivery_attempts (delivery_id, attempted_at, http_status, latency_ms, error) VALUES ($1, $2, $3, $4, $5)',
  },
  // A second report for a job no longer pending (its lease ran out and another worker finished it) keeps its
  // attempt row but does not change the outcome.
  finish: {
    name: 'vigil_deliveries_finish',
    text: `
      UPDATE deliveries
      SET status = $2, attempts = attempts + 1, next_attempt_at = $3, locked_until = NULL,
          delivered_at = CASE WHEN $2 = 'delivered' THEN $4::timestamptz ELSE NULL END
      WHERE id = $1 AND status = 'pending'`,
  },
  // Taken by redeliver so its job ids follow the same per-account order as insertEvent's.
  lockCounter: { name: 'vigil_events_lock_counter', text: 'SELECT 1 FROM event_counters WHERE account_id = $1 FOR UPDATE' },
  eventExists: { name: 'vigil_events_exists', text: 'SELECT 1 FROM events WHERE account_id = $1 AND event_id = $2' },
  queue: {
    name: 'vigil_deliveries_queue',
    text: `
      INSERT INTO deliveries (account_id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
      SELECT w.account_id, w.id, $2, 'pending', 0, $3, $3 FROM webhooks w
      WHERE w.account_id = $1 AND ($4::text IS NULL OR w.id = $4)
      ORDER BY w.id
      RETURNING ${deliveryColumns('deliveries')}`,
  },
  listDeliveries: {
    name: 'vigil_deliveries_list',
    text: `
      SELECT ${deliveryColumns('d')} FROM deliveries d
      WHERE d.account_id = $1 AND ($2::bigint IS NULL OR d.event_id = $2) AND ($3::text IS NULL OR d.webhook_id = $3)
      ORDER BY d.id DESC
      LIMIT $4`,
  },
  listAttempts: {
    name: 'vigil_attempts_list',
    text: `${ATTEMPT_SELECT}
      WHERE d.account_id = $1 AND ($2::bigint IS NULL OR d.id = $2) AND ($3::bigint IS NULL OR d.event_id = $3)
      ORDER BY a.id`,
  },
  // User deletion in one statement: the events' delivery jobs go with them, and the jobs' attempts with the
  // jobs (both ON DELETE CASCADE).
  deleteForUser: {
    name: 'vigil_events_delete_for_user',
    text: `
      WITH gone AS (
        DELETE FROM events
        WHERE account_id = $1 AND (user_id = $2::text OR identity_hash = ANY($3::text[]))
        RETURNING kind
      )
      SELECT kind, count(*) AS n FROM gone GROUP BY kind`,
  },
  // The earliest moment a head may become claimable: its next attempt, or the end of its lease if later.
  nextDue: {
    name: 'vigil_deliveries_next_due',
    text: `
      SELECT ${isoSql('min(GREATEST(d.next_attempt_at, d.locked_until))')} AS due
      FROM (${HEADS}) h JOIN deliveries d ON d.id = h.id`,
  },
  countPending: {
    name: 'vigil_deliveries_count_pending',
    text: `SELECT count(*)::int AS n FROM deliveries WHERE status = 'pending'`,
  },
} as const;

/**
 * Events, webhooks and the delivery outbox on PostgreSQL, safe to share between instances.
 *
 * An event is stored after the answer that raised it is written (policy/stage.ts), so its insert may
 * still be on the wire when the same client's next call reads events; a read of events or their
 * deliveries through this instance first waits for the inserts it has in flight (read your writes).
 */
export class PostgresEvents implements EventsPort {
  readonly #inserting = new Set<Promise<unknown>>();

  constructor(private readonly pool: Pool) {}

  insertEvent(event: NewEvent): Promise<StoredEvent> {
    const insert = this.#insert(event);
    const tracked = insert.then(() => undefined, () => undefined);
    this.#inserting.add(tracked);
    void tracked.then(() => this.#inserting.delete(tracked));
    return insert;
  }

  /** Resolves once the inserts in flight now have ended (stored or failed); at once when there are none. */
  #inserted(): Promise<unknown> | undefined {
    return this.#inserting.size === 0 ? undefined : Promise.all(this.#inserting);
  }

  async #insert(event: NewEvent): Promise<StoredEvent> {
    const v = newEventValues(event);
    const { rows } = await this.pool.query<{ event_id: string }>({
      ...Q.insertEvent,
      values: [v.accountId, v.kind, v.risk, v.subject, v.userId, v.operation, v.createdAt, v.summary, v.identityType, v.identityHash, event.deletedIf ?? []],
    });
    const row = rows[0];
    if (!row) throw new UserDeletedError('the event\'s user was deleted after it was raised');
    return storedEvent(v, rowInteger(row.event_id));
  }

  async getEvent(accountId: string, eventId: number): Promise<StoredEvent | null> {
    await this.#inserted();
    const { rows } = await this.pool.query<EventRow>({ ...Q.getEvent, values: [accountId, eventId] });
    return rows[0] ? toStoredEvent(rows[0]) : null;
  }

  async listEvents(accountId: string, filter: EventFilter): Promise<StoredEvent[]> {
    await this.#inserted();
    const query = eventQuery(filter);
    const values: unknown[] = [accountId];
    const conditions = eventConditions(query, (name) => {
      values.push(name === 'accountId' ? accountId : query[name]);
      return `$${values.length}`;
    }, 'e', 'postgres');
    values.push(query.limit);
    // One named statement per combination of filters, so each gets a plan that fits it.
    const { rows } = await this.pool.query<EventRow>({
      name: `vigil_events_list_${filterMask(query)}`,
      text: `
        SELECT ${eventColumns('e')} FROM events e
        WHERE ${['account_id = $1', ...conditions].join(' AND ')}
        ORDER BY e.event_id DESC
        LIMIT $${values.length}`,
      values,
    });
    return rows.map(toStoredEvent);
  }

  async addWebhook(webhook: Webhook): Promise<void> {
    await this.pool.query({
      ...Q.addWebhook,
      values: [webhook.id, webhook.accountId, webhook.url, webhook.secret, isoTimestamp(webhook.createdAt)],
    });
  }

  async listWebhooks(accountId: string): Promise<Webhook[]> {
    const { rows } = await this.pool.query<WebhookRow>({ ...Q.listWebhooks, values: [accountId] });
    return rows.map(toWebhook);
  }

  async getWebhook(accountId: string, id: string): Promise<Webhook | null> {
    const { rows } = await this.pool.query<WebhookRow>({ ...Q.getWebhook, values: [accountId, id] });
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  async removeWebhook(accountId: string, id: string): Promise<boolean> {
    const result = await this.pool.query({ ...Q.removeWebhook, values: [accountId, id] });
    return (result.rowCount ?? 0) > 0;
  }

  async setWebhookSecret(accountId: string, id: string, secret: string): Promise<boolean> {
    const result = await this.pool.query({ ...Q.setWebhookSecret, values: [secret, accountId, id] });
    return (result.rowCount ?? 0) > 0;
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    if (limit === 0) return [];
    const { rows } = await this.pool.query<ClaimRow>({ ...Q.claimDue, values: [isoTimestamp(now), isoTimestamp(leaseUntil), limit] });
    return rows.map((row) => ({
      delivery: toDelivery(row),
      webhook: toWebhook({ id: row.webhook_id, account_id: row.account_id, url: row.w_url, secret: row.w_secret, created_at: row.w_created_at }),
      event: toStoredEvent({
        account_id: row.account_id,
        event_id: row.event_id,
        kind: row.e_kind,
        risk: row.e_risk,
        subject: row.e_subject,
        user_id: row.e_user_id,
        operation: row.e_operation,
        created_at: row.e_created_at,
        summary: row.e_summary,
        identity_type: row.e_identity_type,
        identity_hash: row.e_identity_hash,
      }),
    }));
  }

  async recordAttempt(attempt: DeliveryAttempt, outcome: { status: DeliveryStatus; nextAttemptAt: string }): Promise<void> {
    const at = isoTimestamp(attempt.attemptedAt);
    const status = deliveryStatus(outcome.status);
    const next = isoTimestamp(outcome.nextAttemptAt);
    const latency = latencyMs(attempt.latencyMs);
    await withTransaction(this.pool, async (client) => {
      const locked = await client.query({ ...Q.lockDelivery, values: [attempt.deliveryId] });
      if (locked.rowCount === 0) return;
      await client.query({ ...Q.insertAttempt, values: [attempt.deliveryId, at, attempt.httpStatus, latency, attempt.error] });
      await client.query({ ...Q.finish, values: [attempt.deliveryId, status, next, at] });
    });
  }

  async redeliver(accountId: string, eventId: number, webhookId?: string): Promise<Delivery[]> {
    await this.#inserted();
    const at = new Date().toISOString();
    return withTransaction(this.pool, async (client) => {
      await client.query({ ...Q.lockCounter, values: [accountId] });
      const exists = await client.query({ ...Q.eventExists, values: [accountId, eventId] });
      if (exists.rowCount === 0) return [];
      const { rows } = await client.query<DeliveryRow>({ ...Q.queue, values: [accountId, eventId, at, webhookId ?? null] });
      return rows.map(toDelivery);
    });
  }

  async listDeliveries(accountId: string, filter: { eventId?: number; webhookId?: string; limit?: number }): Promise<Delivery[]> {
    await this.#inserted();
    const { rows } = await this.pool.query<DeliveryRow>({
      ...Q.listDeliveries,
      values: [accountId, filter.eventId ?? null, filter.webhookId ?? null, pageLimit(filter.limit)],
    });
    return rows.map(toDelivery);
  }

  async listAttempts(accountId: string, filter: { deliveryId?: number; eventId?: number }): Promise<DeliveryAttempt[]> {
    await this.#inserted();
    if (filter.deliveryId === undefined && filter.eventId === undefined) throw new RangeError('listAttempts needs a deliveryId or an eventId');
    const { rows } = await this.pool.query<AttemptRow>({
      ...Q.listAttempts,
      values: [accountId, filter.deliveryId ?? null, filter.eventId ?? null],
    });
    return rows.map(toAttempt);
  }

  async nextDue(): Promise<string | null> {
    const { rows } = await this.pool.query<{ due: string | null }>(Q.nextDue);
    return rows[0]?.due ?? null;
  }

  async countPending(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(Q.countPending);
    return rows[0]?.n ?? 0;
  }

  async deleteForUser(accountId: string, who: { userId?: string | undefined; identityHashes: readonly string[] }): Promise<Partial<Record<EventKind, number>>> {
    await this.#inserted();
    const { userId, hashes } = userDeletion(who);
    if (userId === null && hashes.length === 0) return {};
    const { rows } = await this.pool.query<{ kind: string; n: string }>({ ...Q.deleteForUser, values: [accountId, userId, hashes] });
    return countsByKind(rows);
  }
}
