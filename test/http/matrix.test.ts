/**
 * The shared matrix: every pipeline check (each error code with all earlier steps passing), every
 * option error and every format, against every registered endpoint. An endpoint joins by being
 * listed in buildEndpoints().
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildEndpoints } from '../../src/http/routes/index.ts';
import { OPERATIONS } from '../../src/http/operations.ts';
import { PLAN_MODULES } from '../../src/http/pipeline/plan.ts';
import { liveKey, makeTestApp, sharedEngineData, testKey, type TestApp } from '../helpers/harness.ts';

const ENDPOINTS = buildEndpoints(sharedEngineData());
const K = {
  ok: liveKey('ok'), test: testKey('ok'), inactive: liveKey('inactive'), expired: liveKey('expired'), nosub: liveKey('nosub'),
  hosts: liveKey('hosts'), nomethod: liveKey('nomethod'), nomodule: liveKey('nomodule'), revoked: liveKey('revoked'),
};
const account = (id: string, plan: string, keys: string[], extra: object = {}) => ({ id, plan, keys, ...extra });
const SEED = {
  plans: [
    { id: 'nomethods', methods: [], modules: ['security', 'device'], monthlyQuota: null, flood: { limit: 1000, windowSeconds: 1 } },
    { id: 'nomodules', methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 1000, windowSeconds: 1 } },
  ],
  accounts: [
    account('ok', 'premium', [K.ok, K.test, K.revoked]),
    account('inactive', 'premium', [K.inactive], { status: 'inactive', subscription: null, authorizedHosts: ['x.example.com'] }),
    account('expired', 'premium', [K.expired], { subscription: { expiresAt: '2020-01-01T00:00:00Z' }, authorizedHosts: ['x.example.com'] }),
    account('nosub', 'premium', [K.nosub], { subscription: null, authorizedHosts: ['x.example.com'] }),
    account('hosts', 'nomethods', [K.hosts], { authorizedHosts: ['shop.example.com', '*.partner.example', '198.51.100.0/24'] }),
    account('nomethod', 'nomethods', [K.nomethod]),
    account('nomodule', 'nomodules', [K.nomodule]),
  ],
};

let t: TestApp;
before(async () => {
  t = await makeTestApp({ seed: SEED });
  const revoked = await t.accounts.resolveKey(K.revoked);
  assert.ok(revoked);
  await t.accounts.revokeKey(revoked.key.id);
});
after(() => t.close());

interface Answer {
  http: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
  raw: string;
}
/** The endpoint being checked: its method, and its sample body for POST and DELETE. */
let current: { method: 'GET' | 'POST' | 'DELETE'; body: unknown } = { method: 'GET', body: undefined };
async function call(path: string, query: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await t.app.inject({
    method: current.method,
    url: path,
    query,
    headers: current.body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(current.body === undefined ? {} : { payload: JSON.stringify(current.body) }),
  });
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { http: res.statusCode, body, headers: res.headers, raw: res.body };
}

function assertError(a: Answer, code: number): void {
  assert.equal(a.http, 200, a.raw);
  assert.equal(a.body.status, 'error', a.raw);
  assert.equal(a.body.code, code, a.raw);
  assert.equal(typeof a.body.type, 'string');
  assert.ok(typeof a.body.description === 'string' && a.body.description.length > 10);
  assert.equal(a.headers['access-control-allow-origin'], '*');
}

for (const def of ENDPOINTS) {
  const op = OPERATIONS[def.operation];
  const path = op.path;
  const needsKey = op.planMethod !== null;
  const ok = (extra: Record<string, string> = {}) => ({ ...def.sample, ...(needsKey ? { key: K.ok } : {}), ...extra });

  describe(`matrix ${def.method} ${path}`, () => {
    before(() => {
      current = { method: def.method, body: def.sampleBody };
    });
    it('answers successfully with the envelope, CORS and Server-Timing', async () => {
      const a = await call(path, ok());
      assert.equal(a.http, 200);
      assert.equal(a.body.status, 'success', a.raw);
      // The spec's one deviation: the user deletion result has no executionTime.
      if (def.noExecutionTime) assert.equal('executionTime' in a.body, false);
      else assert.ok(Number.isInteger(a.body.executionTime));
      assert.ok('data' in a.body);
      assert.equal(a.headers['access-control-allow-origin'], '*');
      assert.match(String(a.headers['server-timing']), /auth;dur=[\d.]+, engine;dur=[\d.]+, policy;dur=[\d.]+, format;dur=[\d.]+/);
    });

    const optionCases: [string, Record<string, string>, number][] = [
      ['bad format', { format: 'PDF' }, 108],
      ['bad callback', { callback: '1abc' }, 107],
      ['callback with CSV', { callback: 'cb', format: 'CSV' }, 109],
      ['bad lang', { lang: 'KLINGON' }, 110],
      ['bad mode', { mode: 'prod' }, 111],
      ['bad userID', { userID: 'a'.repeat(256) }, 123],
    ];
    if (def.modules?.length) optionCases.push(['unknown module', { params: 'nonexistent' }, 104]);
    for (const [name, q, code] of optionCases) {
      it(`option error: ${name} → ${code}`, async () => assertError(await call(path, ok(q)), code));
      if (needsKey) it(`option error ${code} comes before the key check`, async () => assertError(await call(path, { ...def.sample, ...q }), code));
    }

    for (const format of ['JSON', 'XML', 'CSV', 'Newline'] as const) {
      const types = { JSON: 'application/json', XML: 'application/xml', CSV: 'text/csv', Newline: 'text/plain' };
      it(`format ${format} for success and error`, async () => {
        const good = await call(path, ok({ format }));
        assert.equal(good.http, 200);
        assert.ok(String(good.headers['content-type']).startsWith(types[format]), String(good.headers['content-type']));
        assert.ok(good.raw.length > 0);
        if (format === 'XML') assert.match(good.raw, /^<\?xml version="1.0" encoding="UTF-8"\?>\s*<response>[\s\S]*<status>success<\/status>/);
        if (needsKey) {
          const bad = await call(path, { ...def.sample, format });
          assert.equal(bad.http, 200);
          assert.ok(String(bad.headers['content-type']).startsWith(types[format]));
          assert.match(bad.raw, /101/);
        }
      });
    }
    it('JSONP wraps JSON', async () => {
      const a = await call(path, ok({ callback: 'handle.answer' }));
      assert.ok(a.raw.startsWith('/**/ handle.answer({'), a.raw.slice(0, 60));
      assert.ok(a.raw.endsWith(');'));
      assert.equal(a.headers['x-content-type-options'], 'nosniff');
      assert.ok(String(a.headers['content-type']).startsWith('application/javascript'));
    });

    if (!needsKey) {
      it('needs no key, even a bad one is ignored', async () => {
        const a = await call(path, { ...def.sample, key: 'nonsense' });
        assert.equal(a.body.status, 'success');
      });
      return;
    }

    it('101 for a missing key', async () => assertError(await call(path, def.sample), 101));
    it('101 for an unknown key', async () => assertError(await call(path, { ...def.sample, key: liveKey('nobody') }), 101));
    it('101 for a malformed key', async () => assertError(await call(path, { ...def.sample, key: "' OR 1=1 --" }), 101));
    it('101 for a revoked key', async () => assertError(await call(path, { ...def.sample, key: K.revoked }), 101));
    it('Bearer wins over the query key', async () => {
      assertError(await call(path, { ...def.sample, key: K.ok }, { authorization: `Bearer ${liveKey('nobody')}` }), 101);
      const a = await call(path, { ...def.sample, key: liveKey('nobody') }, { authorization: `Bearer ${K.ok}` });
      assert.equal(a.body.status, 'success', a.raw);
    });
    it('102 for an inactive account (before subscription and hosts)', async () => assertError(await call(path, { ...def.sample, key: K.inactive }), 102));
    it('105 for an expired subscription (before hosts)', async () => assertError(await call(path, { ...def.sample, key: K.expired }), 105));
    it('127 without a subscription (before hosts)', async () => assertError(await call(path, { ...def.sample, key: K.nosub }), 127));
    it('113 from an unlisted host (before the plan check)', async () => {
      assertError(await call(path, { ...def.sample, key: K.hosts }, { origin: 'https://evil.example' }), 113);
      assertError(await call(path, { ...def.sample, key: K.hosts }), 113);
    });
    it('listed hosts pass step 5 and reach the plan check (117)', async () => {
      assertError(await call(path, { ...def.sample, key: K.hosts }, { origin: 'https://shop.example.com' }), 117);
      assertError(await call(path, { ...def.sample, key: K.hosts }, { referer: 'https://a.partner.example/x' }), 117);
    });
    it('117 when the plan lacks the method', async () => assertError(await call(path, { ...def.sample, key: K.nomethod }), 117));
    const planModules = (def.modules ?? []).filter((m) => PLAN_MODULES.includes(m));
    for (const m of planModules) {
      it(`114 when the plan lacks the ${m} module`, async () => assertError(await call(path, { ...def.sample, key: K.nomodule, params: m }), 114));
    }
    it('test key answers in test mode; mode=test with a live key too', async () => {
      assert.equal((await call(path, { ...def.sample, key: K.test })).body.status, 'success');
      assert.equal((await call(path, ok({ mode: 'test' }))).body.status, 'success');
    });

    it('106 past the flood limit, counting test calls too', async () => {
      await t.accounts.upsertPlan({ id: `flood-${def.operation}`, methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 3, windowSeconds: 86400 } });
      const acct = await t.accounts.createAccount({ plan: `flood-${def.operation}` });
      const live = (await t.accounts.createKey(acct.id, 'live')).key;
      const test = (await t.accounts.createKey(acct.id, 'test')).key;
      for (const k of [live, test, live]) assert.equal((await call(path, { ...def.sample, key: k })).body.status, 'success');
      assertError(await call(path, { ...def.sample, key: test }), 106);
    });

    if (op.free) {
      it('free method: never 103 and never counted toward the quota', async () => {
        await t.accounts.upsertPlan({ id: `quota-${def.operation}`, methods: ['*'], modules: [], monthlyQuota: 1, flood: { limit: 1000, windowSeconds: 1 } });
        const acct = await t.accounts.createAccount({ plan: `quota-${def.operation}` });
        const live = (await t.accounts.createKey(acct.id, 'live')).key;
        for (let i = 0; i < 3; i++) assert.equal((await call(path, { ...def.sample, key: live })).body.status, 'success');
        await t.recorder.flush();
        assert.equal(await t.store.usage.monthTotal(acct.id, new Date().toISOString().slice(0, 7)), 0);
      });
    } else it('103 past the monthly quota; test mode and errors do not count; usage is recorded', async () => {
      await t.accounts.upsertPlan({ id: `quota-${def.operation}`, methods: ['*'], modules: [], monthlyQuota: 2, flood: { limit: 1000, windowSeconds: 1 } });
      const acct = await t.accounts.createAccount({ plan: `quota-${def.operation}` });
      const live = (await t.accounts.createKey(acct.id, 'live')).key;
      const test = (await t.accounts.createKey(acct.id, 'test')).key;
      assert.equal((await call(path, { ...def.sample, key: test })).body.status, 'success');
      assert.equal((await call(path, { ...def.sample, key: live, mode: 'test' })).body.status, 'success');
      assertError(await call(path, { ...def.sample, key: live, lang: 'XX' }), 110);
      assert.equal((await call(path, { ...def.sample, key: live })).body.status, 'success');
      assert.equal((await call(path, { ...def.sample, key: live })).body.status, 'success');
      assertError(await call(path, { ...def.sample, key: live }), 103);
      assert.equal((await call(path, { ...def.sample, key: test })).body.status, 'success', 'test mode is free even past the quota');
      await t.recorder.flush();
      const rows = await t.store.usage.list(acct.id, '2000-01-01', '2100-01-01');
      assert.equal(rows.reduce((n, r) => n + r.count, 0), 2);
      assert.equal(rows[0]?.method, op.planMethod);
    });

    it(def.requestLog === false ? 'requests with userID are not kept in the request log (user deletion)' : 'requests with userID are kept in the request log', async () => {
      await call(path, ok({ userID: 'matrix-user-1' }));
      await t.recorder.flush();
      const entries = await t.store.requestLog.listByUser('ok', 'matrix-user-1');
      assert.equal(entries.some((e) => e.operation === def.operation), def.requestLog !== false);
    });
  });
}
