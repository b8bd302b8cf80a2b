import type { ChainableCommander, Cluster, Redis } from 'ioredis';
import { BIN_WINDOW_AMOUNT_BELOW, IDENTITY_FIELDS, type IdentityField, type StoredScoring, type VelocityBy, type VelocityQuery } from '../learning-ports.ts';
import { REDIS_PREFIX, VELOCITY_TTL_SECONDS, velocityKeys } from './keys.ts';
import { closeRedis, openRedis } from './connection.ts';

export interface RedisVelocityOptions {
  url: string;
  /** Prepended to every key (default `vigil:`). */
  prefix?: string;
  /** A call not answered within this time rejects (ms, default 1500). */
  commandTimeoutMs?: number;
  /** REDIS_CLUSTER: a Redis Cluster client, and the account as a hash tag in every key (keys.ts). */
  cluster?: boolean;
  /** Hash tags without a cluster client (tests that check the slots); default: as `cluster`. */
  hashTags?: boolean;
}

/** The distinct-value pairs kept in Redis: `<by>` → `<distinct>` (VelocityQuery.distinct). */
export const VELOCITY_PAIRS = [
  { by: 'customer', distinct: 'card' },
  { by: 'card', distinct: 'customer' },
  { by: 'customer', distinct: 'location' },
  { by: 'card', distinct: 'email' },
  { by: 'card', distinct: 'ip' },
  { by: 'device', distinct: 'customer' },
  { by: 'ip', distinct: 'customer' },
  { by: 'bin', distinct: 'card' },
  { by: 'binAny', distinct: 'card' },
  { by: 'device', distinct: 'card' },
  { by: 'ip', distinct: 'card' },
] as const satisfies ReadonlyArray<{ by: VelocityBy; distinct: IdentityField | 'location' }>;

/** Identities whose windows are personal data of one user: forget() deletes their keys whole. */
const PERSONAL_FIELDS = ['customer', 'user', 'email', 'phone'] as const satisfies readonly IdentityField[];

const WINDOW_MS = VELOCITY_TTL_SECONDS * 1000;

function otherHash(s: StoredScoring, other: IdentityField | 'location'): string | null {
  return other === 'location' ? s.location : s.identities[other];
}

/** What a scoring is keyed by in a window: an identity hash, or its card BIN. */
function keyOf(s: StoredScoring, by: VelocityBy): string | null {
  return by === 'bin' || by === 'binAny' ? s.cardBin : s.identities[by];
}

function scoredMs(s: StoredScoring): number {
  const ms = Date.parse(s.scoredAt);
  if (!Number.isFinite(ms)) throw new RangeError(`scoring ${s.id} has an unreadable scoredAt: ${s.scoredAt}`);
  return ms;
}

async function run(batch: ChainableCommander, what: string): Promise<unknown[]> {
  const replies = await batch.exec();
  if (replies === null) throw new Error(`Redis ${what} was aborted`);
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/**
 * Exact sliding-window velocity in Redis sorted sets, shared by every instance on the same Redis (used
 * when REDIS_URL is set; otherwise the store answers from its own scoring rows). Key families, after the
 * prefix (registry in keys.ts):
 *
 * - `vel:<account>:<field>:<hash>:n`: one member per scoring (its id), scored by scoredAt ms, for every
 *   identity field the scoring has, `vel:<account>:binAny:<BIN>:n` for its card's BIN, and `vel:<account>:bin:<BIN>:n`
 *   when its amount is small (BIN_WINDOW_AMOUNT_BELOW). `velocity({by, hash, since})` is ZCOUNT since..+inf.
 * - `vel:<account>:<field>:<hash>:<other>` for the pairs of VELOCITY_PAIRS (customer→card, card→customer,
 *   customer→location, card→email, card→ip, device→customer, ip→customer, bin→card, binAny→card, device→card,
 *   ip→card): one member per distinct other hash, scored by the latest time the two were seen
 *   together (ZADD GT, so a replayed older scoring never moves it back). `velocity({by, hash, since,
 *   distinct})` is ZCOUNT since..+inf: the distinct values seen with it since `since`. Another pair throws.
 *
 * Each record() is one MULTI: the ZADDs, a ZREMRANGEBYSCORE dropping members older than 31 days before the
 * scoring, and an EXPIRE of 31 days on every key touched (so an idle identity's keys disappear).
 */
export class RedisVelocity {
  readonly kind = 'redis' as const;
  readonly #redis: Redis | Cluster;
  readonly #prefix: string;
  readonly #tagged: boolean;
  #closing: Promise<void> | undefined;

  constructor(options: RedisVelocityOptions) {
    this.#prefix = options.prefix ?? REDIS_PREFIX;
    this.#tagged = options.hashTags ?? options.cluster ?? false;
    this.#redis = openRedis(options.url, options.commandTimeoutMs, options.cluster);
  }

  #count(accountId: string, field: VelocityBy, hash: string): string {
    return this.#prefix + velocityKeys.count(accountId, field, hash, this.#tagged);
  }

  #distinct(accountId: string, field: VelocityBy, hash: string, other: IdentityField | 'location'): string {
    return this.#prefix + velocityKeys.distinct(accountId, field, hash, other, this.#tagged);
  }

  /** The members record() adds for a scoring: to which key, and whether only a later time may replace one (GT). */
  recordWrites(s: StoredScoring): Array<{ key: string; member: string; gt: boolean }> {
    const writes: Array<{ key: string; member: string; gt: boolean }> = [];
    for (const field of IDENTITY_FIELDS) {
      const hash = s.identities[field];
      if (hash !== null) writes.push({ key: this.#count(s.accountId, field, hash), member: String(s.id), gt: false });
    }
    const binWindow = s.cardBin !== null && s.amount !== null && s.amount < BIN_WINDOW_AMOUNT_BELOW;
    if (binWindow) writes.push({ key: this.#count(s.accountId, 'bin', s.cardBin!), member: String(s.id), gt: false });
    if (s.cardBin !== null) writes.push({ key: this.#count(s.accountId, 'binAny', s.cardBin), member: String(s.id), gt: false });
    for (const { by, distinct } of VELOCITY_PAIRS) {
      const hash = keyOf(s, by);
      const other = otherHash(s, distinct);
      if (hash === null || other === null || (by === 'bin' && !binWindow)) continue;
      writes.push({ key: this.#distinct(s.accountId, by, hash, distinct), member: other, gt: true });
    }
    return writes;
  }

  /** Adds one stored scoring to every window it belongs to. */
  async record(s: StoredScoring): Promise<void> {
    const writes = this.recordWrites(s);
    if (writes.length === 0) return;
    const ms = scoredMs(s);
    const cutoff = `(${ms - WINDOW_MS}`;
    const batch = this.#redis.multi();
    for (const { key, member, gt } of writes) {
      if (gt) batch.zadd(key, 'GT', ms, member);
      else batch.zadd(key, ms, member);
      batch.zremrangebyscore(key, '-inf', cutoff).expire(key, VELOCITY_TTL_SECONDS);
    }
    await run(batch, 'velocity record');
  }

  /** Answers each query (same order): scorings, or distinct other values, since `since` (inclusive). */
  async velocity(accountId: string, queries: readonly VelocityQuery[]): Promise<number[]> {
    if (queries.length === 0) return [];
    const batch = this.#redis.pipeline();
    for (const q of queries) {
      const since = Date.parse(q.since);
      if (!Number.isFinite(since)) throw new RangeError(`velocity query has an unreadable since: ${q.since}`);
      let key: string;
      if (q.distinct === undefined) {
        key = this.#count(accountId, q.by, q.hash);
      } else {
        if (!VELOCITY_PAIRS.some((p) => p.by === q.by && p.distinct === q.distinct)) {
          throw new RangeError(`Redis velocity keeps no distinct ${q.distinct} per ${q.by}`);
        }
        key = this.#distinct(accountId, q.by, q.hash, q.distinct);
      }
      batch.zcount(key, since, '+inf');
    }
    const replies = await run(batch, 'velocity query');
    return replies.map((v) => {
      if (typeof v !== 'number') throw new Error(`unexpected ZCOUNT reply: ${String(v)}`);
      return v;
    });
  }

  /**
   * Removes everything these scorings put in the windows (user deletion): their members of every count
   * set, the other hashes they added to distinct sets, and the whole keys of their customer, user, email
   * and phone hashes (personal data of the deleted user; other scorings of the same person go with them).
   * A distinct member another, kept scoring also contributed is removed too: deletion errs on forgetting.
   */
  async forget(scorings: readonly StoredScoring[]): Promise<void> {
    if (scorings.length === 0) return;
    const batch = this.#redis.multi();
    const deleted = new Set<string>();
    for (const s of scorings) {
      for (const field of IDENTITY_FIELDS) {
        const hash = s.identities[field];
        if (hash !== null) batch.zrem(this.#count(s.accountId, field, hash), String(s.id));
      }
      if (s.cardBin !== null) batch.zrem(this.#count(s.accountId, 'bin', s.cardBin), String(s.id)).zrem(this.#count(s.accountId, 'binAny', s.cardBin), String(s.id));
      for (const { by, distinct } of VELOCITY_PAIRS) {
        const hash = keyOf(s, by);
        const other = otherHash(s, distinct);
        if (hash !== null && other !== null) batch.zrem(this.#distinct(s.accountId, by, hash, distinct), other);
      }
      for (const field of PERSONAL_FIELDS) {
        const hash = s.identities[field];
        if (hash === null) continue;
        deleted.add(this.#count(s.accountId, field, hash));
        for (const p of VELOCITY_PAIRS) if (p.by === field) deleted.add(this.#distinct(s.accountId, field, hash, p.distinct));
      }
    }
    if (deleted.size > 0) batch.del(...deleted);
    await run(batch, 'velocity forget');
  }

  async ping(): Promise<void> {
    await this.#redis.ping();
  }

  /** Idempotent. QUIT lets in-flight calls finish; a connection that is not up is simply dropped. */
  close(): Promise<void> {
    this.#closing ??= closeRedis(this.#redis);
    return this.#closing;
  }
}
