/**
 * Two app instances (each with its own PostgreSQL pool, advisory-lock connection, Redis clients and
 * in-process queues, as two servers would have) on one fresh database and one fresh Redis key prefix.
 */
import pino from 'pino';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import type { Counters, Store } from '../../src/store/ports.ts';
import { RedisVelocity } from '../../src/store/redis/redis-velocity.ts';
import { parseSeed } from '../../src/accounts/seed.ts';
import { ADMIN_TOKEN, sharedEngineData, TEST_CARD_SECRET, TEST_SECRET } from './harness.ts';
import { withPolicyProbe } from './policy-probe.ts';
import { createTestDatabase, type TestDatabase } from '../store/pg-test-database.ts';
import { deleteKeys, openRedisAdmin, TEST_REDIS_URL } from './redis.ts';

export interface Instance {
  app: App;
  store: Store;
  counters: Counters;
  velocity: RedisVelocity;
}

export interface Pair {
  a: Instance;
  b: Instance;
  db: TestDatabase;
  prefix: string;
  /** JSON body of an API call through one instance. */
  call: (i: Instance, method: 'GET' | 'POST' | 'DELETE', url: string, key: string, body?: unknown, query?: Record<string, string>) => Promise<{ status: string; code?: number; data: Record<string, unknown> }>;
  close: () => Promise<void>;
}

export async function startPair(env: Record<string, string> = {}): Promise<Pair> {
  const db = await createTestDatabase();
  const prefix = `vigil-test-${db.name}:`;
  const instances: Instance[] = [];
  for (let i = 0; i < 2; i++) {
    const config = loadConfig({
      DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-not-used',
      ADMIN_TOKEN, POLICY_REFRESH_MS: '1000', WEBHOOK_WORKER: 'off', ...env,
    });
    const store = await openStore({ databaseUrl: db.url, dataDir: config.dataDir, poolSize: config.databasePoolSize });
    const counters = await openCounters({ redisUrl: TEST_REDIS_URL, redisPrefix: prefix });
    const velocity = new RedisVelocity({ url: TEST_REDIS_URL, prefix });
    const app = await buildApp({
      config, store, counters, velocity, data: sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, logger: pino({ level: 'silent' }), processMetrics: false,
      endpoints: (learning) => withPolicyProbe(sharedEngineData(), learning),
    });
    await app.accounts.ensureBuiltinPlans();
    await app.app.ready();
    instances.push({ app, store, counters, velocity });
  }
  const [a, b] = instances as [Instance, Instance];
  return {
    a, b, db, prefix,
    call: async (i, method, url, key, body, query = {}) => {
      const res = await i.app.app.inject({
        method, url, query: { key, ...query },
        ...(body !== undefined && { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
      });
      return JSON.parse(res.body) as { status: string; code?: number; data: Record<string, unknown> };
    },
    close: async () => {
      for (const i of instances) {
        await i.app.app.close();
        await i.store.close();
        await i.counters.close();
        await i.velocity.close();
      }
      const redis = await openRedisAdmin();
      await deleteKeys(redis, `${prefix}*`);
      await redis.quit();
      await db.drop();
    },
  };
}

/** Seeds accounts (one key each) on the premium plan through instance `a`. */
export async function seedAccounts(pair: Pair, accounts: Array<{ id: string; key: string; plan?: string; settings?: Record<string, unknown> }>, plans: unknown[] = []): Promise<void> {
  await pair.a.app.applySeed(parseSeed(JSON.stringify({
    plans,
    accounts: accounts.map((x) => ({ id: x.id, plan: x.plan ?? 'premium', keys: [x.key], ...(x.settings && { settings: x.settings }) })),
  })));
}
