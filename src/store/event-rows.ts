import { EVENT_KINDS, type EventKind } from '../policy/types.ts';
import { LABEL_TYPES, type LabelType } from './learning-ports.ts';
import type { Delivery, DeliveryAttempt, DeliveryStatus, EventFilter, NewEvent, StoredEvent, Webhook } from './ports.ts';
import { isoTimestamp } from './values.ts';

/**
 * Row shapes, row → record mappers and input checks of the events store, shared by SQLite and PostgreSQL
 * (same column names, same text). PostgreSQL hands BIGINT columns over as text, hence `number | string`.
 */

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 1000;

export interface EventRow {
  account_id: string;
  event_id: number | string;
  kind: string;
  risk: number;
  subject: string;
  user_id: string | null;
  operation: string;
  created_at: string;
  /** JSON text of the summary object. */
  summary: string;
  /** The identity the event is about (a LabelType and a keyed hash); both null when none. */
  identity_type: string | null;
  identity_hash: string | null;
}

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  secret: string;
  created_at: string;
}

export interface DeliveryRow {
  id: number | string;
  account_id: string;
  webhook_id: string;
  event_id: number | string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  delivered_at: string | null;
}

export interface AttemptRow {
  delivery_id: number | string;
  webhook_id: string;
  event_id: number | string;
  attempted_at: string;
  http_status: number | null;
  latency_ms: number;
  error: string | null;
}

/** An integer column (a BIGINT arrives as text from pg); ids stay far below 2^53. */
export function rowInteger(value: number | string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer out of the safe range: ${String(value)}`);
  return n;
}

export function eventKind(value: string): EventKind {
  const kind = EVENT_KINDS.find((k) => k === value);
  if (kind === undefined) throw new Error(`unexpected event kind: ${JSON.stringify(value)}`);
  return kind;
}

export function deliveryStatus(value: string): DeliveryStatus {
  if (value === 'pending' || value === 'delivered' || value === 'failed') return value;
  throw new Error(`unexpected delivery status: ${JSON.stringify(value)}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type EventIdentity = NonNullable<StoredEvent['identity']>;

const LABELS: ReadonlySet<string> = new Set(LABEL_TYPES);
/** A keyed hash as callers write it: lower-case hex (an HMAC-SHA256 is 64 digits). */
const HASH = /^[0-9a-f]{1,128}$/;

function identityType(value: string): LabelType {
  if (!LABELS.has(value)) throw new RangeError(`unknown identity type: ${JSON.stringify(value)}`);
  return value as LabelType;
}

/** Checks an identity hash before it is written: lower-case hex. */
export function identityHash(value: string): string {
  if (typeof value !== 'string' || !HASH.test(value)) throw new RangeError('identity hash must be lower-case hex');
  return value;
}

/** The identity as read back: null when either column is null. */
export function toIdentity(type: string | null, hash: string | null): EventIdentity | null {
  if (type === null || hash === null) return null;
  return { type: identityType(type), hash };
}

/** The identity of a new event, checked; absent and null both mean none. */
export function checkedIdentity(identity: NewEvent['identity']): EventIdentity | null {
  if (identity === undefined || identity === null) return null;
  return { type: identityType(identity.type), hash: identityHash(identity.hash) };
}

export function encodeSummary(summary: Record<string, unknown>): string {
  if (!isPlainObject(summary)) throw new TypeError('event summary must be a JSON object');
  return JSON.stringify(summary);
}

export function decodeSummary(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!isPlainObject(value)) throw new Error('stored event summary is not a JSON object');
  return value;
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    accountId: row.account_id,
    eventId: rowInteger(row.event_id),
    kind: eventKind(row.kind),
    risk: row.risk,
    subject: row.subject,
    userId: row.user_id,
    operation: row.operation,
    createdAt: row.created_at,
    summary: decodeSummary(row.summary),
    identity: toIdentity(row.identity_type, row.identity_hash),
  };
}

export function toWebhook(row: WebhookRow): Webhook {
  return { id: row.id, accountId: row.account_id, url: row.url, secret: row.secret, createdAt: row.created_at };
}

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: rowInteger(row.id),
    accountId: row.account_id,
    webhookId: row.webhook_id,
    eventId: rowInteger(row.event_id),
    status: deliveryStatus(row.status),
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

export function toAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    deliveryId: rowInteger(row.delivery_id),
    webhookId: row.webhook_id,
    eventId: rowInteger(row.event_id),
    attemptedAt: row.attempted_at,
    httpStatus: row.http_status,
    latencyMs: row.latency_ms,
    error: row.error,
  };
}

/** Checked values of a new event, ready to bind (timestamps normalised, summary as JSON text). */
export interface NewEventValues {
  accountId: string;
  kind: EventKind;
  risk: number;
  subject: string;
  userId: string | null;
  operation: string;
  createdAt: string;
  summary: string;
  /** Both null when the event is about no identity. */
  identityType: LabelType | null;
  identityHash: string | null;
}

export function newEventValues(event: NewEvent): NewEventValues {
  if (!Number.isFinite(event.risk)) throw new RangeError(`event risk must be a finite number, got ${event.risk}`);
  const identity = checkedIdentity(event.identity);
  return {
    accountId: event.accountId,
    kind: eventKind(event.kind),
    risk: event.risk,
    subject: event.subject,
    userId: event.userId,
    operation: event.operation,
    createdAt: isoTimestamp(event.createdAt),
    summary: encodeSummary(event.summary),
    identityType: identity?.type ?? null,
    identityHash: identity?.hash ?? null,
  };
}

/** The event as stored, from the values written and the id allocated (summary as it reads back). */
export function storedEvent(values: NewEventValues, eventId: number): StoredEvent {
  return {
    accountId: values.accountId,
    eventId,
    kind: values.kind,
    risk: values.risk,
    subject: values.subject,
    userId: values.userId,
    operation: values.operation,
    createdAt: values.createdAt,
    summary: decodeSummary(values.summary),
    identity: toIdentity(values.identityType, values.identityHash),
  };
}

/** The filter with defaults applied and every value checked; absent filters are null. */
export interface EventQuery {
  kind: EventKind | null;
  riskMin: number | null;
  riskMax: number | null;
  from: string | null;
  to: string | null;
  userId: string | null;
  before: number | null;
  labelled: boolean | null;
  limit: number;
}

export function eventQuery(filter: EventFilter): EventQuery {
  const finite = (name: string, value: number | undefined): number | null => {
    if (value === undefined) return null;
    if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
    return value;
  };
  if (filter.before !== undefined && !Number.isSafeInteger(filter.before)) throw new RangeError(`before must be an integer, got ${filter.before}`);
  return {
    kind: filter.kind === undefined ? null : eventKind(filter.kind),
    riskMin: finite('riskMin', filter.riskMin),
    riskMax: finite('riskMax', filter.riskMax),
    from: filter.from === undefined ? null : isoTimestamp(filter.from),
    to: filter.to === undefined ? null : isoTimestamp(filter.to),
    userId: filter.userId ?? null,
    before: filter.before ?? null,
    labelled: filter.labelled ?? null,
    limit: pageLimit(filter.limit),
  };
}

/** Default 100; at most 1000 (larger asks are capped); a non-integer or a value below 1 is refused. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_EVENT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  return Math.min(limit, MAX_EVENT_LIMIT);
}

/** A bitmask naming which optional filters a query uses, so each combination gets its own cached statement. */
export function filterMask(query: EventQuery): number {
  const present = [query.kind, query.riskMin, query.riskMax, query.from, query.to, query.userId, query.before];
  const mask = present.reduce<number>((mask, value, bit) => (value === null ? mask : mask | (1 << bit)), 0);
  // Two more bits: labelled (true) and not labelled (false) are different statements.
  return query.labelled === null ? mask : mask | (1 << (query.labelled ? 7 : 8));
}

/**
 * WHERE conditions of listEvents for the filters present; `param(name)` renders a placeholder (`accountId`: the
 * account again), `table` is how the query names the events table, `dialect` picks the one cast that differs.
 * A label by event_id is the evidence of origin `event:<id>` (feedback-service.ts). Labelled events are few: that
 * filter starts from the account's `event:` origins (one index range) and looks the events up by id; "not
 * labelled" is most events, so it checks each event of the page instead.
 */
export function eventConditions(
  query: EventQuery,
  param: (name: keyof EventQuery | 'accountId') => string,
  table = 'events',
  dialect: 'sqlite' | 'postgres' = 'sqlite',
): string[] {
  const where: string[] = [];
  if (query.kind !== null) where.push(`kind = ${param('kind')}`);
  if (query.riskMin !== null) where.push(`risk >= ${param('riskMin')}`);
  if (query.riskMax !== null) where.push(`risk <= ${param('riskMax')}`);
  if (query.from !== null) where.push(`created_at >= ${param('from')}`);
  if (query.to !== null) where.push(`created_at < ${param('to')}`);
  if (query.userId !== null) where.push(`user_id = ${param('userId')}`);
  if (query.before !== null) where.push(`event_id < ${param('before')}`);
  if (query.labelled === true) {
    const id = dialect === 'sqlite' ? 'CAST(substr(x.origin, 7) AS INTEGER)' : "(CASE WHEN x.origin ~ '^event:[0-9]{1,15}$' THEN substr(x.origin, 7)::bigint END)";
    where.push(`${table}.event_id IN (SELECT ${id} FROM identity_evidence x WHERE x.account_id = ${param('accountId')} AND x.origin >= 'event:' AND x.origin < 'event;')`);
  } else if (query.labelled === false) {
    where.push(`NOT EXISTS (SELECT 1 FROM identity_evidence x WHERE x.account_id = ${table}.account_id AND x.origin = 'event:' || ${table}.event_id)`);
  }
  return where;
}

/**
 * Arguments of deleteForUser: the user id (null when not given) and the distinct identity hashes. Hashes are
 * not checked: one that is not lower-case hex was never written, so it simply matches nothing.
 */
export function userDeletion(who: { userId?: string | undefined; identityHashes: readonly string[] }): { userId: string | null; hashes: string[] } {
  return { userId: who.userId ?? null, hashes: [...new Set(who.identityHashes)] };
}

/** Counts per event kind from (kind, count) rows, kinds with no events left out. */
export function countsByKind(rows: Iterable<{ kind: string; n: number | string }>): Partial<Record<EventKind, number>> {
  const counts: Partial<Record<EventKind, number>> = {};
  for (const row of rows) {
    const n = rowInteger(row.n);
    if (n > 0) {
      const kind = eventKind(row.kind);
      counts[kind] = (counts[kind] ?? 0) + n;
    }
  }
  return counts;
}

/** Latency is stored in whole milliseconds. */
export function latencyMs(value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`latency must be a non-negative number, got ${value}`);
  return Math.round(value);
}
