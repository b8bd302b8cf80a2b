/**
 * Two app instances on one PostgreSQL database and one Redis share keys, flood limits, quotas,
 * rules and lists (through the policy probe of test/helpers/policy-probe.ts) and webhook work.
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
import { startEventReceiver } from '../helpers/event-receiver.ts';
import { ADMIN_TOKEN, liveKey, sharedEngineData, TEST_CARD_SECRET, TEST_SECRET } from '../helpers/harness.ts';
import { withPolicyProbe } from '../helpers/policy-probe.ts';
import { parseSeed } from '../../src/accounts/seed.ts';
import { deleteKeys, openRedisAdmin } from '../helpers/redis.ts';
import { RedisVelocity } from '../../src/store/redis/redis-velocity.ts';

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
const POLICY_KEY = liveKey('scalepolicy');
let policyAccount = '';
const instances: { app: App; store: Store; counters: Counters; velocity: RedisVelocity }[] = [];

before(async () => {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  for (let i = 0; i < 2; i++) {
    const config = loadConfig({ DATABASE_URL: dbUrl, REDIS_URL, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-not-used', ADMIN_TOKEN, POLICY_REFRESH_MS: '100', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' });
    const store = await openStore({ databaseUrl: dbUrl, dataDir: config.dataDir });
    const counters = await openCounters({ redisUrl: REDIS_URL, redisPrefix: `vigil-test-${dbName}:` });
    const velocity = new RedisVelocity({ url: REDIS_URL, prefix: `vigil-test-${dbName}:` });
    const app = await buildApp({
      config, store, counters, velocity, data: sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, logger: pino({ level: 'silent' }), processMetrics: false,
      endpoints: (learning) => withPolicyProbe(sharedEngineData(), learning),
    });
    await app.accounts.ensureBuiltinPlans();
    await app.app.ready();
    instances.push({ app, store, counters, velocity });
  }
  const suffix = randomBytes(3).toString('hex');
  policyAccount = `scalep-${suffix}`;
  await instances[0]?.app.accounts.applySeed(parseSeed(JSON.stringify({
    plans: [
      { id: `shared-${suffix}`, methods: ['*'], modules: [], monthlyQuota: 5, flood: { limit: 4, windowSeconds: 86400 } },
      { id: `quota-${suffix}`, methods: ['*'], modules: [], monthlyQuota: 3, flood: { limit: 1000, windowSeconds: 1 } },
    ],
    accounts: [
      { id: `scale-${suffix}`, plan: `shared-${suffix}`, keys: [KEY] },
      { id: `scaleq-${suffix}`, plan: `quota-${suffix}`, keys: [QUOTA_KEY] },
      { id: policyAccount, plan: 'premium', keys: [POLICY_KEY] },
    ],
  })));
});

after(async () => {
  for (const i of instances) {
    await i.app.app.close();
    await i.store.close();
    await i.counters.close();
    await i.velocity.close();
  }
  const redis = await openRedisAdmin(REDIS_URL);
  await deleteKeys(redis, `vigil-test-${dbName}:*`);
  await redis.quit();
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

describe('scale-out: rules, lists and webhooks across instances', () => {
  const inst = (n: number): App => {
    const i = instances[n];
    assert.ok(i);
    return i.app;
  };
  const blacklisted = async (n: number, country: string): Promise<boolean> => {
    const res = await inst(n).app.inject({ method: 'GET', url: '/lookup/country', query: { CountryCode: country, key: POLICY_KEY } });
    const body = JSON.parse(res.body) as { status: string; data: { blacklisted: boolean } };
    assert.equal(body.status, 'success', res.body);
    return body.data.blacklisted;
  };
  const admin = (n: number, url: string, payload: object) =>
    inst(n).app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  it('a list entry added through one instance is used at once there and within the refresh interval on the other', async () => {
    assert.equal(await blacklisted(0, 'CH'), false);
    assert.equal(await blacklisted(1, 'CH'), false);
    const res = await admin(0, `/admin/accounts/${policyAccount}/blacklists`, { type: 'card_country', values: ['CH'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await blacklisted(0, 'CH'), true);
    let seen = false;
    const until = Date.now() + 3000;
    while (!seen && Date.now() < until) {
      seen = await blacklisted(1, 'CH');
      if (!seen) await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(seen, 'the other instance picked up the change');
  });

  it('events raised on both instances reach a webhook once each, in event order, with both workers running', async () => {
    const receiver = await startEventReceiver();
    try {
      const hook = await admin(1, `/admin/accounts/${policyAccount}/webhooks`, { url: receiver.url });
      assert.equal(hook.statusCode, 201, hook.body);
      for (let n = 0; n < 12; n++) assert.equal(await blacklisted(n % 2, 'CH'), true);
      await receiver.expectOnceInOrder(12, 10_000);
    } finally {
      await receiver.close();
    }
  });
});

describe('payment velocity in Redis, shared by two instances', () => {
  it('purchases from one IP through both instances count in one exact window (PF10001 at the 6th)', async () => {
    const seen: boolean[] = [];
    for (let i = 0; i < 7; i++) {
      const { app } = instances[i % 2]!;
      const res = await app.app.inject({
        method: 'POST', url: '/scoring/payment', query: { key: POLICY_KEY },
        headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ data: { customer_ip: '81.2.69.170', transaction_id: `scale-v-${i}` } }),
      });
      const body = JSON.parse(res.body) as { status: string; data: { rules: Array<{ id: string }> } };
      assert.equal(body.status, 'success', res.body);
      seen.push(body.data.rules.some((r) => r.id === 'PF10001'));
    }
    assert.deepEqual(seen, [false, false, false, false, false, true, true]);
  });

  it('a BIN attack with ordinary amounts through both instances: PF10033 from the 6th card of one quiet BIN', async () => {
    const seen: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      const { app } = instances[i % 2]!;
      // Distinct Luhn-valid cards of BIN 453299, amounts 40-110, a different email each.
      const body15 = `45329900000${String(1000 + i * 11)}`;
      let sum = 0;
      for (let k = 0; k < 15; k++) {
        let d = Number(body15[14 - k]);
        if (k % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        sum += d;
      }
      const card = body15 + String((10 - (sum % 10)) % 10);
      const res = await app.app.inject({
        method: 'POST', url: '/scoring/payment', query: { key: POLICY_KEY },
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ data: { card_number: card, customer_email: `bin-${i}@example.org`, transaction_amount: 40 + i * 10, transaction_id: `scale-bin-${i}` } }),
      });
      const body = JSON.parse(res.body) as { status: string; data: { rules: Array<{ id: string }> } };
      assert.equal(body.status, 'success', res.body);
      seen.push(body.data.rules.some((r) => r.id === 'PF10033'));
    }
    assert.deepEqual(seen, [false, false, false, false, false, true, true, true]);
  });
});

describe('payment feedback on PostgreSQL, across instances', () => {
  const post = async (i: number, path: string, body: unknown): Promise<{ status: string; data: Record<string, unknown> }> => {
    const res = await instances[i]!.app.app.inject({
      method: 'POST', url: path, query: { key: POLICY_KEY }, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body),
    });
    return JSON.parse(res.body) as { status: string; data: Record<string, unknown> };
  };

  it('a chargeback given to one instance makes the other fire SVC2002 on the shared device', async () => {
    const scored = await post(0, '/scoring/payment', { data: { transaction_id: 'pg-tx-1', customer_id: 'pg-c1', customer_device_id: 'pg-device' } });
    assert.equal(scored.status, 'success', JSON.stringify(scored));
    const bulk = await post(1, '/feedback/bulk', { items: [{ transaction_id: 'pg-tx-1', outcome: 'chargeback' }, { type: 'email', value: 'pg@example.com', label: 'fraud' }] });
    assert.equal(bulk.status, 'success', JSON.stringify(bulk));
    assert.equal(bulk.data.created, 2);
    const ruleIds = (scoring: { data: Record<string, unknown> }) => (scoring.data.rules as Array<{ id: string }>).map((r) => r.id);
    // The instance that took the feedback counts it at once.
    const here = await post(1, '/scoring/payment', { data: { transaction_id: 'pg-tx-2', customer_id: 'pg-c2', customer_device_id: 'pg-device' } });
    assert.ok(ruleIds(here).includes('SVC2002'), JSON.stringify(here));
    // The other one had found no labels on the account; the first ones reach it within POLICY_REFRESH_MS (100 ms here).
    await new Promise((r) => setTimeout(r, 150));
    const there = await post(0, '/scoring/payment', { data: { transaction_id: 'pg-tx-3', customer_id: 'pg-c3', customer_device_id: 'pg-device' } });
    assert.ok(ruleIds(there).includes('SVC2002'), JSON.stringify(there));
    const retry = await post(0, '/feedback/payment', { transaction_id: 'pg-tx-1', outcome: 'chargeback' });
    assert.deepEqual(retry.data, { transaction_id: 'pg-tx-1', outcome: 'chargeback', status: 'applied', matched: 1, label: 'unchanged' });
  });
});
