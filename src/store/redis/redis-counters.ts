import type { Cluster, Redis } from 'ioredis';
import type { Counters, FloodCount, FloodHit } from '../ports.ts';
import { REDIS_PREFIX } from './keys.ts';
import { closeRedis, lastConnectionError, openRedis } from './connection.ts';

/** INCRBY on a key that exists; nil (no key created) otherwise. */
const INCR_EXISTING = "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end return false";

/**
 * One call on an account's flood key (src/store/flood-state.ts floodStep, the same steps): a hash of the key's
 * generation g, creation window c, window w, its length s, count n and the handled-loss flag f. ARGV: window,
 * window seconds, limit, TTL ms, the new generation, the generation the caller knew ('' for none).
 */
const FLOOD_HIT = `
local h = redis.call('HMGET', KEYS[1], 'g', 'c', 'w', 's', 'n', 'f')
local win, secs, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local g, c, w, s, n, f = h[1], tonumber(h[2]), tonumber(h[3]), tonumber(h[4]), tonumber(h[5]), h[6]
if not g then g = ARGV[5]; c = win; w = win; s = secs; n = 0; f = '0' end
if s ~= secs then c = -1; w = win; s = secs; n = 0
elseif win > w then w = win; n = 0 end
n = n + 1
if ARGV[6] ~= '' and ARGV[6] ~= g and f ~= '1' then
  f = '1'
  if c == w and n <= limit then n = limit + 1 end
end
redis.call('HSET', KEYS[1], 'g', g, 'c', c, 'w', w, 's', s, 'n', n, 'f', f)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {n, g}`;

type FloodClient = { vigilFloodHit(key: string, ...args: Array<string | number>): Promise<[number, string]> };

export interface RedisCountersOptions {
  url: string;
  /** Prepended to every key (default `vigil:`). */
  prefix?: string;
  /** A call not answered within this time rejects (ms, default 1500). */
  commandTimeoutMs?: number;
  /** REDIS_CLUSTER: a Redis Cluster client (each counter call touches one key, so no hash tags are needed). */
  cluster?: boolean;
}

/**
 * Counters in Redis, shared by every Vigil instance using the same URL and prefix, so flood and quota limits
 * hold across instances. Values are integers (INCRBY); TTLs are kept in milliseconds.
 */
export class RedisCounters implements Counters {
  readonly kind = 'redis' as const;
  readonly #redis: Redis | Cluster;
  readonly #prefix: string;
  #closing: Promise<void> | undefined;

  constructor(options: RedisCountersOptions) {
    this.#prefix = options.prefix ?? REDIS_PREFIX;
    this.#redis = openRedis(options.url, options.commandTimeoutMs, options.cluster);
    // EVALSHA, sending the script again only when Redis does not have it (a restart).
    this.#redis.defineCommand('vigilFloodHit', { numberOfKeys: 1, lua: FLOOD_HIT });
  }

  async floodHit(key: string, hit: FloodHit): Promise<FloodCount> {
    for (const [name, value] of [['window', hit.window], ['windowSeconds', hit.windowSeconds], ['limit', hit.limit]] as const) checkInteger(name, value);
    const reply = await (this.#redis as unknown as FloodClient).vigilFloodHit(
      this.#prefix + key, hit.window, hit.windowSeconds, hit.limit, ttlMs(hit.ttlSeconds), hit.newGeneration, hit.knownGeneration ?? '',
    );
    const [count, generation] = reply;
    if (typeof count !== 'number' || typeof generation !== 'string') throw new Error('unexpected flood script reply');
    return { count, generation };
  }

  async incr(key: string, by: number, ttlSeconds: number): Promise<number> {
    checkInteger('by', by);
    const ttl = ttlMs(ttlSeconds);
    const k = this.#prefix + key;
    // MULTI makes the pair atomic; PEXPIRE ... NX (Redis 7) only sets a TTL on a key that has none, i.e. one
    // this INCRBY just created, so later increments never extend a window.
    const replies = await this.#redis.multi().incrby(k, by).pexpire(k, ttl, 'NX').exec();
    const [error, value] = replies?.[0] ?? [new Error('Redis transaction was aborted'), null];
    if (error) throw error;
    if (typeof value !== 'number') throw new Error(`unexpected INCRBY reply: ${String(value)}`);
    return value;
  }

  async incrExisting(key: string, by: number): Promise<number | null> {
    checkInteger('by', by);
    // One script, so nothing can create or drop the key between the check and the increment.
    const value = await this.#redis.eval(INCR_EXISTING, 1, this.#prefix + key, by);
    if (value === null) return null;
    if (typeof value !== 'number') throw new Error(`unexpected INCRBY reply: ${typeof value}`);
    return value;
  }

  async get(key: string): Promise<number> {
    const value = await this.#redis.get(this.#prefix + key);
    if (value === null) return 0;
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`counter ${key} holds a non-integer value`);
    return n;
  }

  async setIfAbsent(key: string, value: number, ttlSeconds: number): Promise<boolean> {
    checkInteger('value', value);
    const reply = await this.#redis.set(this.#prefix + key, value, 'PX', ttlMs(ttlSeconds), 'NX');
    return reply === 'OK';
  }

  async ping(): Promise<void> {
    await this.#redis.ping();
  }

  /** Why the connection is down (the last connection error), for a start-up message; undefined when none was seen. */
  connectionError(): unknown {
    return lastConnectionError(this.#redis);
  }

  /** Idempotent. QUIT lets in-flight calls finish; a connection that is not up is simply dropped. */
  close(): Promise<void> {
    this.#closing ??= closeRedis(this.#redis);
    return this.#closing;
  }
}

// Same argument rules as MemoryCounters, so code tested in memory behaves the same on Redis.
function checkInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a safe integer, got ${value}`);
}

function ttlMs(ttlSeconds: number): number {
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be a positive number, got ${ttlSeconds}`);
  return Math.ceil(ttlSeconds * 1000);
}
