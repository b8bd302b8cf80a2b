import type { Database, Statement } from 'better-sqlite3';
import type { EventKind } from '../../policy/types.ts';
import type { ClaimedDelivery, Delivery, DeliveryAttempt, DeliveryStatus, EventFilter, EventsPort, NewEvent, StoredEvent, Webhook } from '../ports.ts';
import {
  type AttemptRow,
  type DeliveryRow,
  type EventRow,
  type NewEventValues,
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
import { isoTimestamp, settle } from './values.ts';

const EVENT_COLUMNS = 'account_id, event_id, kind, risk, subject, user_id, operation, created_at, summary, identity_type, identity_hash';
const DELIVERY_COLUMNS = 'id, account_id, webhook_id, event_id, status, attempts, next_attempt_at, created_at, delivered_at';
const ATTEMPT_SELECT = `
  SELECT a.delivery_id, d.webhook_id, d.event_id, a.attempted_at, a.http_status, a.latency_ms, a.error
  FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id`;

/** Prepared once, on first use: the tables exist only after migrate(). */
function prepare(db: Database) {
  return {
    nextEventId: db
      .prepare<[string], number>(`
        INSERT INTO event_counters (account_id, last_event_id) VALUES (?, 1)
        ON CONFLICT (account_id) DO UPDATE SET last_event_id = last_event_id + 1
        RETURNING last_event_id`)
      .pluck(),
    // The console's events per day and kind (src/store/console-port.ts), kept with the event.
    countEvent: db.prepare<[string, string, string]>(`
      INSERT INTO event_day_counts (account_id, day, kind, n) VALUES (?, ?, ?, 1)
      ON CONFLICT (account_id, day, kind) DO UPDATE SET n = n + 1`),
    insertEvent: db.prepare<NewEventValues & { eventId: number }>(`
      INSERT INTO events (${EVENT_COLUMNS})
      VALUES (@accountId, @eventId, @kind, @risk, @subject, @userId, @operation, @createdAt, @summary, @identityType, @identityHash)`),
    // One job per webhook of the account, in webhook id order (so ids, and thus delivery order, are stable).
    queueForAll: db.prepare<{ account: string; event: number; at: string }, DeliveryRow>(`
      INSERT INTO deliveries (account_id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
      SELECT account_id, id, @event, 'pending', 0, @at, @at FROM webhooks WHERE account_id = @account ORDER BY id
      RETURNING ${DELIVERY_COLUMNS}`),
    queueForOne: db.prepare<{ account: string; event: number; at: string; webhook: string }, DeliveryRow>(`
      INSERT INTO deliveries (account_id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)
      SELECT account_id, id, @event, 'pending', 0, @at, @at FROM webhooks WHERE account_id = @account AND id = @webhook
      RETURNING ${DELIVERY_COLUMNS}`),
    getEvent: db.prepare<[string, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE account_id = ? AND event_id = ?`),
    // User deletion. The events' delivery jobs go with them, and the jobs' attempts with the jobs (ON DELETE
    // CASCADE; the store turns foreign keys on). hashes: a JSON array of text.
    deleteForUser: db.prepare<{ account: string; user: string | null; hashes: string }, { kind: string }>(`
      DELETE FROM events
      WHERE account_id = @account AND (user_id = @user OR identity_hash IN (SELECT value FROM json_each(@hashes)))
      RETURNING kind`),

    addWebhook: db.prepare<WebhookRow>(`
      INSERT INTO webhooks (id, account_id, url, secret, created_at) VALUES (@id, @account_id, @url, @secret, @created_at)`),
    listWebhooks: db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE account_id = ? ORDER BY created_at, id'),
    getWebhook: db.prepare<[string, string], WebhookRow>('SELECT * FROM webhooks WHERE account_id = ? AND id = ?'),
    removeWebhook: db.prepare<[string, string]>('DELETE FROM webhooks WHERE account_id = ? AND id = ?'),
    setWebhookSecret: db.prepare<[string, string, string]>('UPDATE webhooks SET secret = ? WHERE account_id = ? AND id = ?'),
    webhookById: db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?'),

    // The head of each webhook's queue is its lowest pending id; only a due, unleased head is claimable.
    dueHeads: db.prepare<{ now: string; limit: number }, DeliveryRow>(`
      SELECT ${DELIVERY_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')}
      FROM (SELECT min(id) AS id FROM deliveries WHERE status = 'pending' GROUP BY webhook_id) h
      JOIN deliveries d ON d.id = h.id
      WHERE d.next_attempt_at <= @now AND (d.locked_until IS NULL OR d.locked_until < @now)
      ORDER BY d.id
      LIMIT @limit`),
    lease: db.prepare<[string, number]>('UPDATE deliveries SET locked_until = ? WHERE id = ?'),
    // A second report for a job that is no longer pending (its lease ran out and another worker finished it)
    // keeps its attempt row but does not change the outcome.
    finish: db.prepare<{ id: number; status: DeliveryStatus; next: string; at: string }>(`
      UPDATE deliveries
      SET status = @status, attempts = attempts + 1, next_attempt_at = @next, locked_until = NULL,
          delivered_at = CASE WHEN @status = 'delivered' THEN @at ELSE NULL END
      WHERE id = @id AND status = 'pending'`),
    // Nothing is written when the job is gone (its webhook was removed while the attempt was in flight).
    insertAttempt: db.prepare<{ id: number; at: string; status: number | null; latency: number; error: string | null }>(`
      INSERT INTO delivery_attempts (delivery_id, attempted_at, http_status, latency_ms, error)
      SELECT id, @at, @status, @latency, @error FROM deliveries WHERE id = @id`),
    listDeliveries: db.prepare<{ account: string; event: number | null; webhook: string | null; limit: number }, DeliveryRow>(`
      SELECT ${DELIVERY_COLUMNS} FROM deliveries
      WHERE account_id = @account AND (@event IS NULL OR event_id = @event) AND (@webhook IS NULL OR webhook_id = @webhook)
      ORDER BY id DESC
      LIMIT @limit`),
    attemptsOfDelivery: db.prepare<[string, number], AttemptRow>(`${ATTEMPT_SELECT} WHERE d.account_id = ? AND d.id = ? ORDER BY a.id`),
    attemptsOfEvent: db.prepare<[string, number], AttemptRow>(`${ATTEMPT_SELECT} WHERE d.account_id = ? AND d.event_id = ? ORDER BY a.id`),
    attemptsOfBoth: db.prepare<[string, number, number], AttemptRow>(
      `${ATTEMPT_SELECT} WHERE d.account_id = ? AND d.id = ? AND d.event_id = ? ORDER BY a.id`,
    ),
    // The earliest moment a head may become claimable: its next attempt, or the end of its lease if later.
    nextDue: db
      .prepare<[], string | null>(`
        SELECT min(max(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at)))
        FROM (SELECT min(id) AS id FROM deliveries WHERE status = 'pending' GROUP BY webhook_id) h
        JOIN deliveries d ON d.id = h.id`)
      .pluck(),
    countPending: db.prepare<[], number>(`SELECT count(*) FROM deliveries WHERE status = 'pending'`).pluck(),
  };
}

type Statements = ReturnType<typeof prepare>;

/**
 * Events, webhooks and the delivery outbox on SQLite. Writes that read before they write (id allocation,
 * claiming) run in IMMEDIATE transactions: the write lock is taken first, so two processes on one file
 * cannot allocate the same id or claim the same job.
 */
export class SqliteEvents implements EventsPort {
  #statements: Statements | undefined;
  readonly #lists = new Map<number, Statement<unknown[], EventRow>>();
  readonly #insertEvent: (values: NewEventValues) => number;
  readonly #claim: (now: string, leaseUntil: string, limit: number) => ClaimedDelivery[];
  readonly #record: (attempt: DeliveryAttempt, status: DeliveryStatus, next: string) => void;
  readonly #redeliver: (accountId: string, eventId: number, webhookId: string | undefined, at: string) => DeliveryRow[];

  constructor(private readonly db: Database) {
    const insertEvent = db.transaction((values: NewEventValues): number => {
      const s = this.statements;
      const eventId = s.nextEventId.get(values.accountId);
      if (eventId === undefined) throw new Error('event counter did not return an id');
      s.insertEvent.run(Object.assign({ eventId }, values));
      s.countEvent.run(values.accountId, values.createdAt.slice(0, 10), values.kind);
      s.queueForAll.all({ account: values.accountId, event: eventId, at: values.createdAt });
      return eventId;
    });
    this.#insertEvent = (values) => insertEvent.immediate(values);

    const claim = db.transaction((now: string, leaseUntil: string, limit: number): ClaimedDelivery[] => {
      const s = this.statements;
      const claimed: ClaimedDelivery[] = [];
      for (const row of s.dueHeads.all({ now, limit })) {
        s.lease.run(leaseUntil, rowInteger(row.id));
        const webhook = s.webhookById.get(row.webhook_id);
        const event = s.getEvent.get(row.account_id, rowInteger(row.event_id));
        // Both are guaranteed by foreign keys; a missing one would be a corrupt database.
        if (!webhook || !event) throw new Error(`delivery ${row.id} lost its webhook or event`);
        claimed.push({ delivery: toDelivery(row), webhook: toWebhook(webhook), event: toStoredEvent(event) });
      }
      return claimed;
    });
    this.#claim = (now, leaseUntil, limit) => claim.immediate(now, leaseUntil, limit);

    this.#record = db.transaction((attempt: DeliveryAttempt, status: DeliveryStatus, next: string) => {
      const s = this.statements;
      const at = isoTimestamp(attempt.attemptedAt);
      s.insertAttempt.run({ id: attempt.deliveryId, at, status: attempt.httpStatus, latency: latencyMs(attempt.latencyMs), error: attempt.error });
      s.finish.run({ id: attempt.deliveryId, status, next, at });
    });

    const redeliver = db.transaction((accountId: string, eventId: number, webhookId: string | undefined, at: string): DeliveryRow[] => {
      const s = this.statements;
      if (!s.getEvent.get(accountId, eventId)) return [];
      return webhookId === undefined
        ? s.queueForAll.all({ account: accountId, event: eventId, at })
        : s.queueForOne.all({ account: accountId, event: eventId, at, webhook: webhookId });
    });
    this.#redeliver = (accountId, eventId, webhookId, at) => redeliver.immediate(accountId, eventId, webhookId, at);
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  insertEvent(event: NewEvent): Promise<StoredEvent> {
    return settle(() => {
      const values = newEventValues(event);
      const eventId = this.#insertEvent(values);
      return storedEvent(values, eventId);
    });
  }

  getEvent(accountId: string, eventId: number): Promise<StoredEvent | null> {
    return settle(() => {
      const row = this.statements.getEvent.get(accountId, eventId);
      return row ? toStoredEvent(row) : null;
    });
  }

  listEvents(accountId: string, filter: EventFilter): Promise<StoredEvent[]> {
    return settle(() => {
      const query = eventQuery(filter);
      const values: unknown[] = [accountId];
      const conditions = eventConditions(query, (name) => {
        values.push(name === 'accountId' ? accountId : query[name]);
        return '?';
      });
      values.push(query.limit);
      const mask = filterMask(query);
      let statement = this.#lists.get(mask);
      if (!statement) {
        statement = this.db.prepare<unknown[], EventRow>(`
          SELECT ${EVENT_COLUMNS} FROM events
          WHERE ${['account_id = ?', ...conditions].join(' AND ')}
          ORDER BY event_id DESC
          LIMIT ?`);
        this.#lists.set(mask, statement);
      }
      return statement.all(...values).map(toStoredEvent);
    });
  }

  addWebhook(webhook: Webhook): Promise<void> {
    return settle(() => {
      this.statements.addWebhook.run({
        id: webhook.id,
        account_id: webhook.accountId,
        url: webhook.url,
        secret: webhook.secret,
        created_at: isoTimestamp(webhook.createdAt),
      });
    });
  }

  listWebhooks(accountId: string): Promise<Webhook[]> {
    return settle(() => this.statements.listWebhooks.all(accountId).map(toWebhook));
  }

  getWebhook(accountId: string, id: string): Promise<Webhook | null> {
    return settle(() => {
      const row = this.statements.getWebhook.get(accountId, id);
      return row ? toWebhook(row) : null;
    });
  }

  removeWebhook(accountId: string, id: string): Promise<boolean> {
    return settle(() => this.statements.removeWebhook.run(accountId, id).changes > 0);
  }

  setWebhookSecret(accountId: string, id: string, secret: string): Promise<boolean> {
    return settle(() => this.statements.setWebhookSecret.run(secret, accountId, id).changes > 0);
  }

  claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    return settle(() => {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      if (limit === 0) return [];
      return this.#claim(isoTimestamp(now), isoTimestamp(leaseUntil), limit);
    });
  }

  recordAttempt(attempt: DeliveryAttempt, outcome: { status: DeliveryStatus; nextAttemptAt: string }): Promise<void> {
    return settle(() => {
      this.#record(attempt, deliveryStatus(outcome.status), isoTimestamp(outcome.nextAttemptAt));
    });
  }

  redeliver(accountId: string, eventId: number, webhookId?: string): Promise<Delivery[]> {
    return settle(() => this.#redeliver(accountId, eventId, webhookId, new Date().toISOString()).map(toDelivery));
  }

  listDeliveries(accountId: string, filter: { eventId?: number; webhookId?: string; limit?: number }): Promise<Delivery[]> {
    return settle(() =>
      this.statements.listDeliveries
        .all({ account: accountId, event: filter.eventId ?? null, webhook: filter.webhookId ?? null, limit: pageLimit(filter.limit) })
        .map(toDelivery),
    );
  }

  listAttempts(accountId: string, filter: { deliveryId?: number; eventId?: number }): Promise<DeliveryAttempt[]> {
    return settle(() => {
      const s = this.statements;
      const { deliveryId, eventId } = filter;
      let rows: AttemptRow[];
      if (deliveryId !== undefined && eventId !== undefined) rows = s.attemptsOfBoth.all(accountId, deliveryId, eventId);
      else if (deliveryId !== undefined) rows = s.attemptsOfDelivery.all(accountId, deliveryId);
      else if (eventId !== undefined) rows = s.attemptsOfEvent.all(accountId, eventId);
      else throw new RangeError('listAttempts needs a deliveryId or an eventId');
      return rows.map(toAttempt);
    });
  }

  nextDue(): Promise<string | null> {
    return settle(() => this.statements.nextDue.get() ?? null);
  }

  countPending(): Promise<number> {
    return settle(() => this.statements.countPending.get() ?? 0);
  }

  deleteForUser(accountId: string, who: { userId?: string | undefined; identityHashes: readonly string[] }): Promise<Partial<Record<EventKind, number>>> {
    return settle(() => {
      const { userId, hashes } = userDeletion(who);
      if (userId === null && hashes.length === 0) return {};
      // One statement: the events, their jobs and the jobs' attempts go together or not at all.
      const rows = this.statements.deleteForUser.all({ account: accountId, user: userId, hashes: JSON.stringify(hashes) });
      return countsByKind(rows.map((row) => ({ kind: row.kind, n: 1 })));
    });
  }
}
