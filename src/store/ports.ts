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

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly accounts: AccountsPort;
  readonly usage: UsagePort;
  readonly requestLog: RequestLogPort;
  /** Applies pending migrations; safe to run on every start. */
  migrate(): Promise<void>;
  /** Resolves when the store answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Shared counters for flood, quota (and later velocity); in-process or Redis. */
export interface Counters {
  readonly kind: 'memory' | 'redis';
  /** Adds `by` (may be negative) and returns the new value; sets the TTL when the key is created. */
  incr(key: string, by: number, ttlSeconds: number): Promise<number>;
  get(key: string): Promise<number>;
  /** Sets the value only if the key is absent; returns true when it was set. */
  setIfAbsent(key: string, value: number, ttlSeconds: number): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
