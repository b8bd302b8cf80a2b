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

/**
 * record() as one script: for each key, its member added (ZADD, or ZADD GT when the flag is '1'), members older than
 * the cutoff trimmed, and the key's expiry renewed. ARGV: scored ms, cutoff (exclusive, '(ms'), TTL seconds, then
 * member and GT flag of each key in KEYS order. Atomic as the MULTI it replaces, and one command instead of three
 * per key (a scoring touches about twenty keys): the client builds and parses one reply, not sixty.
 */
const RECORD_SCRIPT = `
local ms, cutoff, ttl = ARGV[1], ARGV[2], ARGV[3]
for i, key in ipairs(KEYS) do
  if ARGV[3 + i * 2] == '1' then
    redis.call('ZADD', key, 'GT', ms, ARGV[2 + i * 2])
  else
    redis.call('ZADD', key, ms, ARGV[2 + i * 2])
  end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
  redis.call('EXPIRE', key, ttl)
end
return #KEYS`;

/** velocity() as one script: ZCOUNT of each key from its ARGV (ms, inclusive) to +inf, in KEYS order. */
const COUNT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = redis.call('ZCOUNT', key, ARGV[i], '+inf')
end
return out`;

/** The two scripts as commands of the client (ioredis sends EVALSHA, and the script itself once Redis lacks it). */
interface VelocityScripts {
  vigilVelocityRecord(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  vigilVelocityCount(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
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
 * Each record() is one script (RECORD_SCRIPT, atomic as a MULTI): the ZADDs, a ZREMRANGEBYSCORE dropping members older
 * than 31 days before the scoring, and an EXPIRE of 31 days on every key touched (so an idle identity's keys
 * disappear). A scoring's reads are one script of ZCOUNTs (COUNT_SCRIPT).
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
    this.#redis.defineCommand('vigilVelocityRecord', { lua: RECORD_SCRIPT });
    this.#redis.defineCommand('vigilVelocityCount', { lua: COUNT_SCRIPT });
  }

  get #scripts(): VelocityScripts {
    return this.#redis as unknown as VelocityScripts;
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
    const args: Array<string | number> = new Array<string | number>(writes.length * 3 + 3);
    writes.forEach((w, i) => {
      args[i] = w.key;
      args[writes.length + 3 + i * 2] = w.member;
      args[writes.length + 4 + i * 2] = w.gt ? '1' : '0';
    });
    args[writes.length] = ms;
    args[writes.length + 1] = `(${ms - WINDOW_MS}`;
    args[writes.length + 2] = VELOCITY_TTL_SECONDS;
    await this.#scripts.vigilVelocityRecord(writes.length, ...args);
  }

  /** Answers each query (same order): scorings, or distinct other values, since `since` (inclusive). */
  async velocity(accountId: string, queries: readonly VelocityQuery[]): Promise<number[]> {
    if (queries.length === 0) return [];
    const keys: string[] = [];
    const sinces: number[] = [];
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
      keys.push(key);
      sinces.push(since);
    }
    const replies = await this.#scripts.vigilVelocityCount(keys.length, ...keys, ...sinces);
    if (!Array.isArray(replies) || replies.length !== keys.length) throw new Error(`unexpected velocity reply: ${String(replies)}`);
    return replies.map((v: unknown) => {
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
