import { Redis } from 'ioredis';

/** The Redis the tests use (TEST_REDIS_URL, default the local one .ci/run starts). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Set SKIP_REDIS=1 to skip on purpose; otherwise an unreachable server fails the tests. */
export const SKIP_REDIS = process.env.SKIP_REDIS === '1' ? 'SKIP_REDIS=1' : false;

/** A plain client for tests to look at keys directly; fails with a clear message when Redis is not usable. */
export async function openRedisAdmin(url = TEST_REDIS_URL): Promise<Redis> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000 });
  client.on('error', () => undefined);
  try {
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`Redis test server at ${new URL(url).host} is not usable (set TEST_REDIS_URL, or SKIP_REDIS=1 to skip)`, { cause: error });
  }
  return client;
}

/** Every key matching the pattern (SCAN, never KEYS). */
export async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Deletes every key matching the pattern. */
export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  const keys = await keysMatching(redis, pattern);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
}
