/**
 * Two app instances on one PostgreSQL database and one Redis share keys, flood limits and quotas.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import type { Counters, Store } from '../../src/store/ports.ts';
import { liveKey, sharedEngineData, TEST_SECRET } from '../helpers/harness.ts';
import { parseSeed } from '../../src/accounts/seed.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const dbName = `vigil_scale_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

const KEY = liveKey('scale');
const QUOTA_KEY = liveKey('scalequota');
const instances: { app: App; store: Store; counters: Counters }[] = [];

before(async () => {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  for (let i = 0; i < 2; i++) {
    const config = loadConfig({ DATABASE_URL: dbUrl, REDIS_URL, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-not-used' });
    const store = await openStore({ databaseUrl: dbUrl, dataDir: config.dataDir });
    const counters = await openCounters({ redisUrl: REDIS_URL, redisPrefix: `vigil-test-${dbName}:` });
    const app = await buildApp({ config, store, counters, data: sharedEngineData(), secret: TEST_SECRET, logger: pino({ level: 'silent' }), processMetrics: false });
    await app.accounts.ensureBuiltinPlans();
    await app.app.ready();
    instances.push({ app, store, counters });
  }
  const suffix = randomBytes(3).toString('hex');
  await instances[0]?.app.accounts.applySeed(parseSeed(JSON.stringify({
    plans: [
      { id: `shared-${suffix}`, methods: ['*'], modules: [], monthlyQuota: 5, flood: { limit: 4, windowSeconds: 60 } },
      { id: `quota-${suffix}`, methods: ['*'], modules: [], monthlyQuota: 3, flood: { limit: 1000, windowSeconds: 1 } },
    ],
    accounts: [
      { id: `scale-${suffix}`, plan: `shared-${suffix}`, keys: [KEY] },
      { id: `scaleq-${suffix}`, plan: `quota-${suffix}`, keys: [QUOTA_KEY] },
    ],
  })));
});

after(async () => {
  for (const i of instances) {
    await i.app.app.close();
    await i.store.close();
    await i.counters.close();
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('scale-out: PostgreSQL store + Redis counters', () => {
  it('a key seeded through one instance works on the other; flood limit is shared', async () => {
    const codes: (number | string)[] = [];
    for (let n = 0; n < 5; n++) {
      const inst = instances[n % 2];
      assert.ok(inst);
      const res = await inst.app.app.inject({ method: 'GET', url: '/lookup/country', query: { CountryCode: 'DE', key: KEY, mode: n < 4 ? 'test' : 'live' } });
      const body = JSON.parse(res.body) as { status: string; code?: number };
      codes.push(body.status === 'success' ? 'ok' : (body.code ?? 0));
    }
    // 4 calls allowed per window across both instances; the 5th is flood-limited wherever it lands.
    assert.deepEqual(codes, ['ok', 'ok', 'ok', 'ok', 106]);
  });

  it('the monthly quota is shared: 3 live calls across two instances, the 4th gets 103', async () => {
    const codes: (number | string)[] = [];
    for (let n = 0; n < 4; n++) {
      const inst = instances[n % 2];
      assert.ok(inst);
      const res = await inst.app.app.inject({ method: 'GET', url: '/lookup/country', query: { CountryCode: 'FR', key: QUOTA_KEY } });
      const body = JSON.parse(res.body) as { status: string; code?: number };
      codes.push(body.status === 'success' ? 'ok' : (body.code ?? 0));
    }
    assert.deepEqual(codes, ['ok', 'ok', 'ok', 103]);
  });
});
