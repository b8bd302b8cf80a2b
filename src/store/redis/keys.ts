/**
 * Central registry of the Redis key space.
 *
 * Every key Vigil writes starts with a prefix (default `vigil:`, configurable per RedisCounters so several
 * deployments or test runs can share one Redis). After the prefix, the key families are:
 *
 * - `flood:<account>:<windowStart>`: calls of one account in one fixed flood window (`windowStart` is the window
 *   number, epoch ms / window ms); TTL slightly longer than the window.
 * - `quota:<account>:<YYYY-MM>`: units of the monthly quota used; TTL QUOTA_TTL_SECONDS, past the month's end.
 *
 * The names and TTLs themselves are built in ../counter-keys.ts, shared with the in-process counters;
 * they are re-exported here so this file is the one place to read the Redis layout.
 */
export const REDIS_PREFIX = 'vigil:';

export { counterKeys, QUOTA_TTL_SECONDS } from '../counter-keys.ts';
