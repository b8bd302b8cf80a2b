import type { CardRekey } from './card-rekey.ts';
import type { BlacklistType, CustomRule, EventKind } from '../policy/types.ts';
import type { LabelType } from './learning-ports.ts';
import type { LearningStore } from './learning-ports.ts';
import type { ConsolePort } from './console-port.ts';

/**
 * Store ports: the persistence contract every implementation (SQLite, PostgreSQL) fulfils.
 * Dates cross the port as ISO-8601 strings (UTC); days as `YYYY-MM-DD`; months as `YYYY-MM`.
 */

export interface FloodLimit {
  limit: number;
  windowSeconds: number;
}

export interface Plan {
  id: string;
  /** Paths without leading slash (`lookup/ip`) or `*`. */
  methods: string[];
  /** Module names the plan allows (`security`, `device`). */
  modules: string[];
  /** Monthly quota; null means unlimited. */
  monthlyQuota: number | null;
  flood: FloodLimit;
}

export type AccountStatus = 'active' | 'inactive';

export interface AccountSettings {
  autoBlacklistConfirmedFraud: boolean;
  dailyDeletionLimit: number;
}

export interface Subscription {
  /** ISO timestamp; null means the subscription never expires. */
  expiresAt: string | null;
}

export interface Account {
  id: string;
  status: AccountStatus;
  planId: string;
  /** null: the account has no subscription (error 127). */
  subscription: Subscription | null;
  /** Hostnames (`example.com`, `*.example.com`), IPs or CIDR ranges; empty means no restriction. */
  authorizedHosts: string[];
  settings: AccountSettings;
  createdAt: string;
}

export type KeyKind = 'live' | 'test';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** Hex HMAC-SHA256 of the plaintext key under SECRET_KEY. The plaintext is never stored. */
  hash: string;
  kind: KeyKind;
  /** Last 4 characters of the key, to help operators tell keys apart. */
  hint: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface UsageRow {
  accountId: string;
  method: string;
  day: string;
  count: number;
}

export interface RequestLogEntry {
  accountId: string;
  userId: string;
  /** Operation name such as `lookup.country`. */
  operation: string;
  ip: string | null;
  mode: KeyKind;
  at: string;
}

export interface AccountsPort {
  upsertPlan(plan: Plan): Promise<void>;
  getPlan(id: string): Promise<Plan | null>;
  listPlans(): Promise<Plan[]>;

  /** Inserts or replaces the whole account record (idempotent seed). */
  upsertAccount(account: Account): Promise<void>;
  /** Inserts a new account; false (and nothing written) when the id exists. Atomic across instances. */
  insertAccount(account: Account): Promise<boolean>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  countAccounts(): Promise<number>;

  /** Inserts a key; a second insert of the same hash is ignored (returns false). */
  addKey(key: ApiKeyRecord): Promise<boolean>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; returns false when no such active key exists. */
  revokeKey(id: string, at: string): Promise<boolean>;
}

export interface UsagePort {
  /** Adds `count` to the (account, method, day) row, creating it as needed. */
  add(rows: UsageRow[]): Promise<void>;
  /** Rows of one account between two days inclusive, ordered by day then method. */
  list(accountId: string, fromDay: string, toDay: string): Promise<UsageRow[]>;
  /** Sum of all methods for one account in a `YYYY-MM` month. */
  monthTotal(accountId: string, month: string): Promise<number>;
}

export interface RequestLogPort {
  append(entries: RequestLogEntry[]): Promise<void>;
  listByUser(accountId: string, userId: string): Promise<RequestLogEntry[]>;
  /** Removes every entry of the user; returns how many were removed. */
  deleteByUser(accountId: string, userId: string): Promise<number>;
}

export interface BlacklistEntry {
  type: BlacklistType;
  /** Normalised value (see src/policy/blacklists/normalise.ts). */
  value: string;
  /** Free text from the operator or the source (`feedback`, `import:file.txt`); null when none. */
  note: string | null;
  createdAt: string;
}

/**
 * Custom rules and blacklists of each account. Every change bumps the account's policy version in the
 * same transaction, so instances holding an in-memory copy can tell it is stale with one cheap read.
 */
export interface PolicyPort {
  /** Current version of the account's rules and lists; 0 when nothing was ever saved. */
  version(accountId: string): Promise<number>;

  /** Rules of the account in id order (CR101 < CR102 < CR1000), enabled or not. */
  listRules(accountId: string): Promise<CustomRule[]>;
  getRule(accountId: string, id: string): Promise<CustomRule | null>;
  /**
   * Saves a new rule. `rule.id` may be empty: the store assigns the next free `CR` number (101 up, never
   * reused within the account). Returns the stored rule. Fails with a conflict when the id exists.
   */
  insertRule(accountId: string, rule: CustomRule): Promise<CustomRule>;
  /** Replaces an existing rule (same id); false when there is none. */
  replaceRule(accountId: string, rule: CustomRule): Promise<boolean>;
  deleteRule(accountId: string, id: string): Promise<boolean>;

  /** Adds entries (already normalised); existing (type, value) pairs are left as they are. Returns how many were new. */
  addBlacklist(accountId: string, entries: BlacklistEntry[]): Promise<number>;
  /** Removes entries; returns how many existed. */
  removeBlacklist(accountId: string, type: BlacklistType, values: string[]): Promise<number>;
  /** Entries of one type (or all), ordered by type then value; `limit`/`after` page through large lists. */
  listBlacklist(accountId: string, opts: { type?: BlacklistType; limit?: number; after?: { type: BlacklistType; value: string } }): Promise<BlacklistEntry[]>;
  /** Counts per type. */
  countBlacklist(accountId: string): Promise<Partial<Record<BlacklistType, number>>>;
  /** Every entry of the account as [type, value] pairs, streamed in pages (for the in-memory index). */
  allBlacklistValues(accountId: string): Promise<Array<[BlacklistType, string]>>;
}

export interface StoredEvent {
  accountId: string;
  /** Integer, unique per account, increasing in creation order. */
  eventId: number;
  kind: EventKind;
  /** 0-100 for IP and payment risk; 0-1 for profanity; 0-3 for email scores; 100 for invalid/spam verdicts. */
  risk: number;
  /** Masked where personal (emails, phones, card numbers, text). */
  subject: string;
  userId: string | null;
  operation: string;
  createdAt: string;
  /** The scored result summary (as delivered to webhooks). */
  summary: Record<string, unknown>;
  /** The identity the event is about, as a keyed hash (labels by event_id, user deletion); null when none. */
  identity: { type: LabelType; hash: string } | null;
}

export interface NewEvent {
  accountId: string;
  kind: EventKind;
  risk: number;
  subject: string;
  userId: string | null;
  operation: string;
  createdAt: string;
  summary: Record<string, unknown>;
  identity?: { type: LabelType; hash: string } | null;
  /** Keyed hashes of the user (userID, identity): a deletion of one of them at or after createdAt drops the event. */
  deletedIf?: readonly string[];
}

export interface EventFilter {
  kind?: EventKind;
  riskMin?: number;
  riskMax?: number;
  /** ISO timestamps, inclusive from, exclusive to. */
  from?: string;
  to?: string;
  userId?: string;
  /** Page: events with eventId below this (newest first). */
  before?: number;
  /** true: only events labelled through feedback by event_id; false: only those not labelled. */
  labelled?: boolean;
  limit?: number;
}

export interface Webhook {
  id: string;
  accountId: string;
  url: string;
  /** The signing secret as stored: sealed (encrypted) by the webhook service, opened only to sign. */
  secret: string;
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** Increasing: delivery order per webhook is id order. */
  id: number;
  accountId: string;
  webhookId: string;
  eventId: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  createdAt: string;
  deliveredAt: string | null;
}

export interface DeliveryAttempt {
  deliveryId: number;
  webhookId: string;
  eventId: number;
  attemptedAt: string;
  /** HTTP status of the receiver's answer; null when no answer (refused, timeout). */
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
}

/** A delivery job claimed by one worker, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: Delivery;
  webhook: Webhook;
  event: StoredEvent;
}

/**
 * Events, webhooks and their transactional outbox. An event and one delivery job per webhook of the
 * account are written in one transaction; workers claim the oldest pending job of each webhook only
 * (so delivery is in event order per webhook), under a lease, safely from several instances.
 */
export interface EventsPort {
  /** Stores the event and a pending delivery for every webhook of the account, atomically; returns the event with its id. */
  insertEvent(event: NewEvent): Promise<StoredEvent>;
  getEvent(accountId: string, eventId: number): Promise<StoredEvent | null>;
  /** Newest first. */
  listEvents(accountId: string, filter: EventFilter): Promise<StoredEvent[]>;

  addWebhook(webhook: Webhook): Promise<void>;
  listWebhooks(accountId: string): Promise<Webhook[]>;
  getWebhook(accountId: string, id: string): Promise<Webhook | null>;
  /** Removes the webhook and its pending deliveries; false when there is none. */
  removeWebhook(accountId: string, id: string): Promise<boolean>;
  setWebhookSecret(accountId: string, id: string, secret: string): Promise<boolean>;

  /**
   * Claims up to `limit` due jobs: for each webhook, its oldest pending job when that job is due
   * (`nextAttemptAt <= now`) and not leased; each claimed job is leased until `leaseUntil`.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records one attempt and its outcome in one transaction, and ends the lease. */
  recordAttempt(attempt: DeliveryAttempt, outcome: { status: DeliveryStatus; nextAttemptAt: string }): Promise<void>;
  /** Queues the event again for one webhook or all of the account's webhooks; returns the new jobs. */
  redeliver(accountId: string, eventId: number, webhookId?: string): Promise<Delivery[]>;
  listDeliveries(accountId: string, filter: { eventId?: number; webhookId?: string; limit?: number }): Promise<Delivery[]>;
  /** Attempts of one delivery job, or of all jobs of one event, oldest first. */
  listAttempts(accountId: string, filter: { deliveryId?: number; eventId?: number }): Promise<DeliveryAttempt[]>;
  /** The earliest `nextAttemptAt` of any pending job, to sleep until then; null when none. */
  nextDue(): Promise<string | null>;
  /** How many delivery jobs are pending (the webhook backlog of every account, for /metrics). */
  countPending(): Promise<number>;
  /**
   * User deletion: removes the account's events raised with this `userId` or about one of these identity
   * hashes, with their delivery jobs and attempts (queued webhook payloads go with them). Counts per kind.
   */
  deleteForUser(accountId: string, who: { userId?: string | undefined; identityHashes: readonly string[] }): Promise<Partial<Record<EventKind, number>>>;
}

/**
 * Inputs and results of live policy evaluations, kept for backtesting draft rules (and deleted with
 * the user). Pruned after the retention window.
 */
export interface DecisionRecord {
  accountId: string;
  group: string;
  operation: string;
  userId: string | null;
  at: string;
  input: Record<string, unknown>;
  result: Record<string, unknown>;
  /** Keyed hashes of the identities the decision is about (src/learning/identity-hash.ts), for user deletion. */
  identities?: readonly string[];
}

/**
 * A decision as the policy stage hands it to the log: its identity hashes are computed when the
 * batch is written, not while the caller waits (a keyed hash costs 20-30 µs on an idle CPU).
 */
export interface PendingDecision extends Omit<DecisionRecord, 'identities'> {
  identities?: () => readonly string[];
}

export interface DecisionDeletion {
  userId?: string | undefined;
  needles: readonly string[];
  identityHashes?: readonly string[] | undefined;
}

export interface DecisionLogPort {
  append(records: DecisionRecord[]): Promise<void>;
  /** Records of one account and group in [from, to), oldest first, at most `limit`. */
  list(accountId: string, group: string, from: string, to: string, limit: number): Promise<DecisionRecord[]>;
  deleteByUser(accountId: string, userId: string): Promise<number>;
  /**
   * User deletion: removes the account's records logged with this `userId`, about one of these identity
   * hashes, or whose input or result contains one of the `needles` (an email address or phone digits,
   * case-insensitive). Counts per rule group.
   */
  deleteForUser(accountId: string, who: DecisionDeletion): Promise<Record<string, number>>;
  /** Removes records older than `before`; returns how many. */
  prune(before: string): Promise<number>;
}

/**
 * Mutual exclusion per account across every instance on one store, for read-decide-write work that a
 * single statement cannot express (feedback: outcome state tables, the model's training steps).
 */
export interface AccountLocks {
  /** Runs `work` while no other holder of (scope, account) runs, in this process or another. */
  withAccountLock<T>(scope: string, accountId: string, work: () => Promise<T>): Promise<T>;
}

/** A user deletion as later writes must honour it: the keyed hash deleted, and when. */
export interface DeletedUser {
  accountId: string;
  valueHash: string;
  deletedAt: string;
}

/**
 * Tombstones of user deletions, for records created before a deletion but written after it by an instance
 * that still had them buffered (request log, decision log) or in flight (events).
 */
export interface DeletedUsersPort {
  /**
   * Records the deletion; resolves once every `guard`ed write that could have missed it has ended, so what
   * the deletion then removes includes everything written without it.
   */
  add(accountId: string, valueHashes: readonly string[], deletedAt: string): Promise<void>;
  /** Runs a write of records of these accounts created at or after `since`, given the deletions it must leave out. */
  guard<T>(accountIds: readonly string[], since: string, work: (deleted: readonly DeletedUser[]) => Promise<T>): Promise<T>;
  /** The deletions of these keyed hashes (null: of any) at or after `since` (a call received then must write nothing of them). */
  find(accountId: string, valueHashes: readonly string[] | null, since: string): Promise<DeletedUser[]>;
}

/** Thrown by insertEvent when the event's user was deleted after the event was raised: it is not stored. */
export class UserDeletedError extends Error {}

/** Notice of policy changes committed by any instance (PostgreSQL LISTEN/NOTIFY; nothing on SQLite). */
export interface PolicyChanges {
  /**
   * Calls `onChange` with the account id of each committed change, or null when changes may have been
   * missed (a lost connection). Resolves once listening; rejects when the first connection fails (the
   * listener then keeps retrying).
   */
  listen(onChange: (accountId: string | null) => void): Promise<void>;
}

export interface Store extends LearningStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly accounts: AccountsPort;
  readonly usage: UsagePort;
  readonly requestLog: RequestLogPort;
  readonly policy: PolicyPort;
  readonly events: EventsPort;
  readonly decisions: DecisionLogPort;
  readonly locks: AccountLocks;
  readonly policyChanges: PolicyChanges;
  readonly deletedUsers: DeletedUsersPort;
  /** The dashboard's sessions, users and audit log. */
  readonly console: ConsolePort;
  /** Applies pending migrations; safe to run on every start. */
  migrate(): Promise<void>;
  /**
   * Rewrites card hashes of the first scheme (SECRET_KEY only) with `rekey` and clears stored last fours, once
   * (src/store/card-rekey.ts); resolves to the number of cards rewritten, or null when already done.
   */
  rekeyCardIdentities(rekey: CardRekey): Promise<number | null>;
  /** Resolves when the store answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Shared counters for flood, quota (and later velocity); in-process or Redis. */
/** One call counted in an account's fixed flood window (src/http/pipeline/flood.ts). */
export interface FloodHit {
  /** The window's number (epoch ms / window ms); a call with a larger one starts a new window. */
  window: number;
  windowSeconds: number;
  /** The plan's limit: a window filled after a lost key is left at limit + 1. */
  limit: number;
  /** The key lives this long after its last call (much longer than a window, so a lost key can be told from an idle one). */
  ttlSeconds: number;
  /** The generation a key created by this call gets (unique per creation). */
  newGeneration: string;
  /** The generation this instance last saw while that key must still exist; null when it knows none. */
  knownGeneration: string | null;
}

export interface FloodCount {
  /** Calls in the window, this one included (limit + 1 or more once filled after a lost key). */
  count: number;
  /** The key's generation (changes only when the key is created again). */
  generation: string;
}

export interface Counters {
  readonly kind: 'memory' | 'redis';
  /**
   * Counts one call in the account's flood key, one record per account holding the current window, its count
   * and the key's generation. When `knownGeneration` names another generation (the key was lost and created
   * again while this instance still knew it) and no instance reported that yet, the window it was created in
   * is filled (count limit + 1): calls counted before the loss are unknown, so the rest of it is refused.
   */
  floodHit(key: string, hit: FloodHit): Promise<FloodCount>;
  /** Adds `by` (may be negative) and returns the new value; sets the TTL when the key is created. */
  incr(key: string, by: number, ttlSeconds: number): Promise<number>;
  get(key: string): Promise<number>;
  /** Adds `by` only if the key exists (keeping its TTL) and returns the new value; null, changing nothing, when it is absent. */
  incrExisting(key: string, by: number): Promise<number | null>;
  /** Sets the value only if the key is absent; returns true when it was set. */
  setIfAbsent(key: string, value: number, ttlSeconds: number): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
