import { randomBytes } from 'node:crypto';
import { RedisVelocity } from '../../src/store/redis/redis-velocity.ts';
import type { Learning } from '../../src/learning/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { loadEngineData } from '../../src/data/engine-data.ts';
import type { EngineData } from '../../src/http/routes/index.ts';
import type { EndpointDef } from '../../src/http/endpoint.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import type { Counters, Store } from '../../src/store/ports.ts';
import type { Seed } from '../../src/accounts/seed.ts';
import { parseSeed } from '../../src/accounts/seed.ts';

let engineData: EngineData | undefined;
/** Datasets are read-only: load them once per test process. */
export function sharedEngineData(): EngineData {
  engineData ??= loadEngineData();
  return engineData;
}

export const TEST_SECRET = 'test-secret-0123456789abcdef0123456789';
/** The card key of test apps (in production it comes from outside DATA_DIR: src/accounts/card-key.ts). */
export const TEST_CARD_SECRET = 'test-card-secret-0123456789abcdef0123';
export const ADMIN_TOKEN = 'admin-token-0123456789';

export interface TestApp extends App {
  store: Store;
  counters: Counters;
  config: Readonly<Config>;
  dir: string;
  close(): Promise<void>;
}

/** A real app on a real SQLite store in a temp dir (or the PostgreSQL database given), with in-process counters (or Redis when given). */
export async function makeTestApp(
  opts: {
    seed?: Partial<Seed> | object;
    env?: Record<string, string>;
    clock?: () => Date;
    redisUrl?: string;
    /** A PostgreSQL database (an empty test database) instead of SQLite. */
    databaseUrl?: string;
    endpoints?: (data: EngineData, learning: Learning) => EndpointDef[];
    /** Engine data of the app (payment scoring's engines too); default the shared bundled data. */
    data?: EngineData;
  } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
  // Webhook receivers of the tests listen on 127.0.0.1, which the server refuses by default: allowed here
  // (a test of the refusal passes its own WEBHOOK_ALLOW_PRIVATE in `env`).
  const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8', ...opts.env });
  const store = await openStore({ dataDir: dir, databaseUrl: opts.databaseUrl });
  const counters = await openCounters({ redisUrl: opts.redisUrl });
  // With Redis, payment velocity windows live there too (as with REDIS_URL), under a prefix of this app's own.
  const velocity = opts.redisUrl ? new RedisVelocity({ url: opts.redisUrl, prefix: `vigil-test:${randomBytes(6).toString('hex')}:` }) : undefined;
  const built = await buildApp({
    config, store, counters, data: opts.data ?? sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, velocity,
    logger: pino({ level: 'silent' }), processMetrics: false, ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.endpoints ? { endpoints: (learning: Learning) => opts.endpoints!(opts.data ?? sharedEngineData(), learning) } : {}),
  });
  await built.accounts.ensureBuiltinPlans();
  if (opts.seed) await built.applySeed(parseSeed(JSON.stringify(opts.seed)));
  await built.app.ready();
  return {
    ...built, store, counters, config, dir,
    async close() {
      await built.app.close();
      await store.close();
      await counters.close();
      await velocity?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A key string that passes the prefix check; `n` makes it unique. */
export const liveKey = (n: string): string => `svc_live_${n.padEnd(24, '0')}`;
export const testKey = (n: string): string => `svc_test_${n.padEnd(24, '0')}`;
