import { Cluster, Redis } from 'ioredis';

/**
 * A connection with Vigil's policy for Redis (counters and velocity windows alike): queued calls
 * survive a short reconnect, but a down Redis fails calls fast rather than hanging the request
 * pipeline: refused connections fail after two retries, a silent server after `commandTimeoutMs`.
 */
export function openRedis(url: string, commandTimeoutMs = 1500, cluster = false): Redis | Cluster {
  const options = {
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 1000,
    commandTimeout: commandTimeoutMs,
    // Keep reconnecting forever, so service resumes when Redis is back. A queued call fails after two failed
    // attempts, so the short cap keeps calls failing in about a second during an outage.
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 500),
  };
  // Redis Cluster (REDIS_CLUSTER=on): the URL names one node; the client learns the others and the slots from it.
  const redis = cluster ? clusterClient(url, options) : new Redis(url, options);
  // Connection errors also reject the calls in flight, which is where callers see them. Without a listener
  // ioredis would print every reconnect failure to the console. The last one is kept: a failed call says only
  // "max retries per request", the connection error says why (refused, unresolvable host...).
  redis.on('error', (err: unknown) => lastErrors.set(redis, err));
  redis.on('ready', () => lastErrors.delete(redis));
  return redis;
}

const lastErrors = new WeakMap<Redis | Cluster, unknown>();

/** The last connection error of a connection from openRedis, until it is ready again. */
export function lastConnectionError(redis: Redis | Cluster): unknown {
  return lastErrors.get(redis);
}

/** QUIT lets in-flight calls finish; a connection that is not up (or dies while quitting) is simply dropped. */
function clusterClient(url: string, options: { commandTimeout: number; connectTimeout: number; maxRetriesPerRequest: number }): Cluster {
  const u = new URL(url);
  return new Cluster([{ host: u.hostname, port: Number(u.port || 6379) }], {
    enableOfflineQueue: true,
    clusterRetryStrategy: (attempt: number) => Math.min(attempt * 100, 500),
    redisOptions: {
      ...options,
      ...(u.username && { username: decodeURIComponent(u.username) }),
      ...(u.password && { password: decodeURIComponent(u.password) }),
      ...(u.protocol === 'rediss:' && { tls: {} }),
    },
  });
}

export async function closeRedis(redis: Redis | Cluster): Promise<void> {
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
