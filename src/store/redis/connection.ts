import type { Redis } from 'ioredis';

/** QUIT lets in-flight calls finish; a connection that is not up (or dies while quitting) is simply dropped. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // Fall through: the connection died while quitting.
    }
  }
  redis.disconnect();
}
