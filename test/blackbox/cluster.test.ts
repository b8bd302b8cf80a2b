/**
 * Black box, scale-out (issue 26): two real server processes on one fresh PostgreSQL database and one fresh
 * Redis key prefix, talked to over HTTP, for the team's nine checks: concurrent feedback on both (the same
 * chargeback twice, a chargeback against approved, a scoring against its outcome, model updates split across
 * them), an idle instance's policy copy within 2 s, a deletion while the other instance still holds the user's
 * records, quota and flood exact across both, quota and flood after Redis loses their keys, webhooks once each
 * in order and signed with both workers running, and the takeover of a `kill -9`ed instance's deliveries by the
 * survivor (its own database). Also: two replicas starting at once on an empty database bootstrap one account.
 * Bounded in time (about a minute on an idle machine).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startServer, stop, type Running } from '../helpers/server-process.ts';
import { startEventReceiver } from '../helpers/event-receiver.ts';
import { createTestDatabase, queryOnce, SKIP_PG, type TestDatabase } from '../store/pg-test-database.ts';
import { deleteKeys, openRedisAdmin, SKIP_REDIS, TEST_REDIS_URL } from '../helpers/redis.ts';
import { counterKeys } from '../../src/store/counter-keys.ts';
import { utcMonth } from '../../src/intel/time/utc-calendar.ts';

const SECRET = 'cluster-secret-0123456789abcdef012345';
const ADMIN = 'cluster-admin-token-0123';
const KEY = 'svc_live_cluster000000000000000000001';
const QUOTA_KEY = 'svc_live_clusterquota0000000000000001';
const ACCOUNT = 'cluster';
const QUOTA_ACCOUNT = 'clusterq';
const FLOOD_KEY = 'svc_live_clusterflood0000000000000001';
const FLOOD_ACCOUNT = 'clusterf';
/** The flood plan's window: long enough for a burst, a key deletion and the calls after it to land in one. */
const FLOOD_WINDOW_S = 4;

let db: TestDatabase;
let dir: string;
let prefix: string;
let a: Running;
let b: Running;

before(async () => {
  if (SKIP_PG || SKIP_REDIS) return;
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'vigil-cluster-'));
  prefix = `vigil-test-${db.name}:`;
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({
    plans: [
      { id: 'q20', methods: ['*'], modules: [], monthlyQuota: 20, flood: { limit: 1000, windowSeconds: 1 } },
      { id: 'f20', methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 20, windowSeconds: FLOOD_WINDOW_S } },
    ],
    accounts: [
      { id: ACCOUNT, status: 'active', plan: 'premium', subscription: { expiresAt: '2099-01-01T00:00:00Z' }, keys: [KEY] },
      { id: QUOTA_ACCOUNT, status: 'active', plan: 'q20', subscription: { expiresAt: '2099-01-01T00:00:00Z' }, keys: [QUOTA_KEY] },
      { id: FLOOD_ACCOUNT, status: 'active', plan: 'f20', subscription: { expiresAt: '2099-01-01T00:00:00Z' }, keys: [FLOOD_KEY] },
    ],
  }));
  const env = (name: string) => ({
    DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, SECRET_KEY: SECRET, ADMIN_TOKEN: ADMIN,
    DATA_DIR: join(dir, name), NETWORK: 'off', LOG_LEVEL: 'warn', POLICY_REFRESH_MS: '1000', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8', SEED_FILE: seed,
  });
  // One after the other: the seed's account is then created once (each start applies it idempotently).
  a = await startServer(env('a'));
  b = await startServer(env('b'));
});

after(async () => {
  await stop(a);
  await stop(b);
  if (db) {
    const redis = await openRedisAdmin();
    await deleteKeys(redis, `${prefix}*`);
    await redis.quit();
    await db.drop();
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Answer { status: string; code?: number; data: Record<string, unknown> }
async function api(s: Running, method: string, path: string, query: Record<string, string>, body?: unknown): Promise<Answer> {
  const url = `http://127.0.0.1:${s.port}${path}?${new URLSearchParams(query).toString()}`;
  const res = await fetch(url, { method, ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  return (await res.json()) as Answer;
}
async function admin(s: Running, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${s.port}/admin${path}`, {
    method, headers: { authorization: `Bearer ${ADMIN}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  assert.ok(res.ok, await res.clone().text());
  return ((await res.json()) as { data: unknown }).data;
}
const score = (s: Running, tx: string) => api(s, 'POST', '/scoring/payment', { key: KEY }, { data: { transaction_id: tx, customer_id: `c-${tx}`, customer_ip: '81.2.69.170', amount: 30, currency: 'EUR' } });
const feedback = (s: Running, tx: string, outcome: string) => api(s, 'POST', '/feedback/payment', { key: KEY }, { transaction_id: tx, outcome });
const history = async () => (await admin(a, 'GET', `/accounts/${ACCOUNT}/model/history?limit=1000`)) as { updates: Array<{ origin: string }> };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two server processes on one PostgreSQL and one Redis', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('concurrent feedback: one created per duplicate, a chargeback never replaced by approved, racing outcomes applied, no lost model update', async () => {
    for (let n = 0; n < 5; n++) assert.equal((await score(a, `dup-${n}`)).status, 'success');
    const dups = await Promise.all(Array.from({ length: 5 }, (_, n) => Promise.all([feedback(a, `dup-${n}`, 'chargeback'), feedback(b, `dup-${n}`, 'chargeback')])));
    for (const pair of dups) assert.deepEqual(pair.map((r) => r.data.label).sort(), ['created', 'unchanged'], JSON.stringify(pair));

    for (let n = 0; n < 5; n++) assert.equal((await score(b, `sticky-${n}`)).status, 'success');
    await Promise.all(Array.from({ length: 5 }, (_, n) => Promise.all([feedback(a, `sticky-${n}`, 'chargeback'), feedback(b, `sticky-${n}`, 'approved')])));
    for (let n = 0; n < 5; n++) assert.deepEqual((await feedback(b, `sticky-${n}`, 'chargeback')).data.label, 'unchanged', `sticky-${n} kept its chargeback`);

    await Promise.all(Array.from({ length: 10 }, (_, n) => Promise.all([score(b, `race-${n}`), feedback(a, `race-${n}`, 'chargeback')])));
    for (let n = 0; n < 10; n++) {
      const again = await feedback(a, `race-${n}`, 'chargeback');
      assert.deepEqual({ status: again.data.status, matched: again.data.matched }, { status: 'applied', matched: 1 }, `race-${n}`);
    }
    const scored = await queryOnce<{ n: string }>(db.url, `SELECT count(*) AS n FROM payment_scorings WHERE account_id = '${ACCOUNT}' AND transaction_id LIKE 'race-%' AND outcome = 'chargeback'`);
    assert.equal(Number(scored[0]?.n), 10);

    for (let n = 0; n < 30; n++) assert.equal((await score(n % 2 ? a : b, `model-${n}`)).status, 'success');
    const before = (await history()).updates.length;
    const created = await Promise.all(Array.from({ length: 30 }, (_, n) => feedback(n % 2 ? b : a, `model-${n}`, 'chargeback')));
    for (const r of created) assert.equal(r.data.label, 'created');
    const updates = (await history()).updates;
    assert.equal(updates.length - before, 30);
    // Each fraud step raises the bias weight it read (FTRL: w' - w = |g| / (D + σ) > 0 once the weight is
    // non-zero, which the 20 fraud outcomes above made it), so along the stored order it rises strictly
    // when each step read the one before; two steps from the same weights would often not. (The in-process
    // test/http/scale-out-feedback.test.ts replays the history exactly.)
    const steps = updates.filter((u) => u.origin.startsWith('payment:model-')).reverse() as Array<{ origin: string; weights: Record<string, number> }>;
    const bias = steps.map((u) => u.weights.bias ?? 0);
    for (let i = 1; i < bias.length; i++) assert.ok(bias[i]! > bias[i - 1]!, `bias weight after step ${i} (${bias[i]}) above the one before (${bias[i - 1]}): no step lost`);
    // The same count of history entries per transaction: each trained once.
    for (const tx of ['dup-0', 'dup-4', 'race-0', 'race-9']) assert.equal(updates.filter((u) => u.origin === `payment:${tx}`).length, 1, tx);
  });

  it('a list entry, its removal and a rule changed through A: the first request to an idle B sees each within 2 s', async () => {
    const blacklisted = async (s: Running, ip: string) => ((await api(s, 'GET', '/lookup/ip', { key: KEY, ip, params: 'security' })).data.security as { blacklisted: boolean }).blacklisted;
    const probe = '198.51.100.9';
    assert.equal(await blacklisted(b, probe), false);
    // B idle for longer than POLICY_REFRESH_MS (1 s) before each change, then asked once, within 2 s of it.
    const idleThenChange = async (change: () => Promise<unknown>) => {
      await sleep(1200);
      await change();
      await sleep(300);
    };
    await idleThenChange(() => admin(a, 'POST', `/accounts/${ACCOUNT}/blacklists`, { type: 'ip', values: [probe] }));
    assert.equal(await blacklisted(b, probe), true, 'the entry');
    await idleThenChange(() => admin(a, 'POST', `/accounts/${ACCOUNT}/blacklists/remove`, { type: 'ip', values: [probe] }));
    assert.equal(await blacklisted(b, probe), false, 'its removal');
    await idleThenChange(() => admin(a, 'POST', `/accounts/${ACCOUNT}/rules`, { title: 'this probe', group: 'ip', conditions: { all: [{ field: 'input.ip', op: 'eq', value: probe }] }, action: { type: 'blacklist' } }));
    assert.equal(await blacklisted(b, probe), true, 'the rule');
    // The entry the tests below rely on (each call to this address raises an event).
    await admin(a, 'POST', `/accounts/${ACCOUNT}/blacklists`, { type: 'ip', values: ['203.0.113.77'] });
    await sleep(300);
    assert.equal(await blacklisted(b, '203.0.113.77'), true);
  });

  it('a user\'s 50 calls on A, then at once a deletion through B: no request-log row, event or decision left', async () => {
    const user = `gone-${randomBytes(3).toString('hex')}`;
    const kept = `kept-${randomBytes(3).toString('hex')}`;
    // The address is blacklisted (the test before): each call raises an event and logs a decision.
    const calls = (userID: string, n: number) => Array.from({ length: n }, () => api(a, 'GET', '/lookup/ip', { key: KEY, ip: '203.0.113.77', params: 'security', userID }));
    await Promise.all([...calls(user, 50), ...calls(kept, 10)]);
    const del = await api(b, 'DELETE', '/account/users/delete', { key: KEY }, { value: user, type: 'user_id' });
    assert.equal(del.status, 'success', JSON.stringify(del));
    await sleep(1500);
    const left = async (table: string, who: string) => Number((await queryOnce<{ n: string }>(db.url, `SELECT count(*) AS n FROM ${table} WHERE account_id = '${ACCOUNT}' AND user_id = '${who}'`))[0]?.n);
    assert.deepEqual({ requests: await left('request_log', user), events: await left('events', user), decisions: await left('decision_log', user) }, { requests: 0, events: 0, decisions: 0 });
    assert.deepEqual({ requests: await left('request_log', kept), events: await left('events', kept), decisions: await left('decision_log', kept) }, { requests: 10, events: 10, decisions: 10 });
  });

  it('events raised on both instances reach a webhook once each, in event order, signed, with both workers running', async () => {
    const receiver = await startEventReceiver();
    try {
      receiver.secret = ((await admin(b, 'POST', `/accounts/${ACCOUNT}/webhooks`, { url: receiver.url })) as { secret: string }).secret;
      // The address is blacklisted (above): each live call raises one event.
      for (let n = 0; n < 12; n++) await api(n % 2 ? a : b, 'GET', '/lookup/ip', { key: KEY, ip: '203.0.113.77', params: 'security' });
      await receiver.expectOnceInOrder(12, 15_000);
    } finally {
      await receiver.close();
    }
  });

  it('quota: 100 concurrent calls across A and B on a quota of 20 give 20; the Redis counter deleted: still refused', async () => {
    const call = async (s: Running) => {
      const r = await api(s, 'GET', '/lookup/country', { key: QUOTA_KEY, CountryCode: 'FR' });
      return r.status === 'success' ? 'ok' : r.code;
    };
    const first = await Promise.all(Array.from({ length: 100 }, (_, n) => call(n % 2 ? a : b)));
    assert.deepEqual({ ok: first.filter((c) => c === 'ok').length, quota: first.filter((c) => c === 103).length }, { ok: 20, quota: 80 });
    const redis = await openRedisAdmin();
    try {
      assert.equal(await redis.del(`${prefix}${counterKeys.quota(QUOTA_ACCOUNT, utcMonth(new Date()))}`), 1);
    } finally {
      await redis.quit();
    }
    const after = await Promise.all(Array.from({ length: 10 }, (_, n) => call(n % 2 ? a : b)));
    assert.deepEqual(after, Array.from({ length: 10 }, () => 103));
  });

  it('flood: 100 concurrent calls across A and B on a limit of 20 give 20; the Redis key deleted mid-window: none more that window', async () => {
    const call = async (s: Running) => {
      const r = await api(s, 'GET', '/lookup/country', { key: FLOOD_KEY, CountryCode: 'FR' });
      return r.status === 'success' ? 'ok' : r.code;
    };
    const windowMs = FLOOD_WINDOW_S * 1000;
    /** Waits for the start of the next flood window (the servers' windows are epoch ms / window ms, this clock). */
    const nextWindow = () => sleep(windowMs - (Date.now() % windowMs) + 50);
    await nextWindow();
    const burst = await Promise.all(Array.from({ length: 100 }, (_, n) => call(n % 2 ? a : b)));
    assert.deepEqual({ ok: burst.filter((c) => c === 'ok').length, flood: burst.filter((c) => c === 106).length }, { ok: 20, flood: 80 });

    await nextWindow();
    const started = Date.now();
    const before = [];
    for (let n = 0; n < 10; n++) before.push(await call(n % 2 ? a : b));
    assert.deepEqual(before, Array.from({ length: 10 }, () => 'ok'));
    const redis = await openRedisAdmin();
    try {
      assert.equal(await redis.del(`${prefix}${counterKeys.flood(FLOOD_ACCOUNT)}`), 1);
    } finally {
      await redis.quit();
    }
    // Recounted from zero, 20 more would pass (30 in a window of 20): the instances knew the key, so the window is full.
    const after = await Promise.all(Array.from({ length: 30 }, (_, n) => call(n % 2 ? a : b)));
    assert.ok(Date.now() - started < windowMs - 200, 'the calls of this check landed in one window');
    assert.equal(after.filter((c) => c === 'ok').length, 0, `after the loss: ${after.join(',')}`);
    await nextWindow();
    assert.deepEqual([await call(a), await call(b)], ['ok', 'ok'], 'the next window counts again');
  });
});

describe('takeover of a kill -9ed instance\'s deliveries', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('the instance holding the deliveries is killed mid-send: the survivor delivers every pending event once, in order, signed', async () => {
    const tdb = await createTestDatabase();
    const tdir = mkdtempSync(join(tmpdir(), 'vigil-takeover-'));
    const tprefix = `vigil-test-${tdb.name}:`;
    const receiver = await startEventReceiver({ hold: true });
    let c: Running | undefined;
    let d: Running | undefined;
    try {
      const seed = join(tdir, 'seed.json');
      writeFileSync(seed, JSON.stringify({
        accounts: [{ id: ACCOUNT, status: 'active', plan: 'premium', subscription: { expiresAt: '2099-01-01T00:00:00Z' }, keys: [KEY], blacklists: [{ type: 'ip', values: ['203.0.113.77'] }] }],
      }));
      const env = (name: string) => ({
        DATABASE_URL: tdb.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: tprefix, SECRET_KEY: SECRET, ADMIN_TOKEN: ADMIN, DATA_DIR: join(tdir, name),
        NETWORK: 'off', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8', SEED_FILE: seed, WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_LEASE_MS: '2500',
      });
      c = await startServer(env('c'));
      receiver.secret = ((await admin(c, 'POST', `/accounts/${ACCOUNT}/webhooks`, { url: receiver.url })) as { secret: string }).secret;
      // Six events while C is the only instance: its worker sends the first and waits for the receiver's answer.
      for (let n = 0; n < 6; n++) await api(c, 'GET', '/lookup/ip', { key: KEY, ip: '203.0.113.77', params: 'security' });
      const until = Date.now() + 10_000;
      while (receiver.arrived.length === 0 && Date.now() < until) await sleep(25);
      assert.equal(receiver.arrived.length, 1, 'C sent the first delivery (held) and no other: one in flight per webhook');
      d = await startServer(env('d'));
      assert.ok(c.child.pid !== undefined);
      process.kill(-c.child.pid, 'SIGKILL');
      assert.equal(await Promise.race([c.exited, sleep(5000).then(() => 'alive')]), null, 'C died of SIGKILL');
      assert.equal(c.child.signalCode, 'SIGKILL');
      receiver.release();
      // D claims the jobs once C's lease (2.5 s) has ended, and delivers all six.
      await receiver.expectOnceInOrder(6, 20_000);
      assert.deepEqual(receiver.ids, receiver.ids.map((_, i) => receiver.ids[0]! + i), 'the six events, none skipped');
      const pending = await queryOnce<{ n: string }>(tdb.url, `SELECT count(*) AS n FROM deliveries WHERE status <> 'delivered'`);
      assert.equal(Number(pending[0]?.n), 0, 'every delivery recorded as delivered');
    } finally {
      await stop(c);
      await stop(d);
      await receiver.close();
      const redis = await openRedisAdmin();
      await deleteKeys(redis, `${tprefix}*`);
      await redis.quit();
      await tdb.drop();
      rmSync(tdir, { recursive: true, force: true });
    }
  });
});

describe('two replicas starting at once on an empty database', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('bootstrap one account with one live and one test key, written to one DATA_DIR; its key works on both', async () => {
    const edb = await createTestDatabase();
    const edir = mkdtempSync(join(tmpdir(), 'vigil-bootstrap-'));
    let started: Running[] = [];
    try {
      const env = (name: string) => ({ DATABASE_URL: edb.url, SECRET_KEY: SECRET, DATA_DIR: join(edir, name), NETWORK: 'off', LOG_LEVEL: 'warn', WEBHOOK_WORKER: 'off' });
      started = await Promise.all([startServer(env('p')), startServer(env('q'))]);
      const accounts = await queryOnce<{ id: string }>(edb.url, 'SELECT id FROM accounts');
      assert.deepEqual(accounts.map((r) => r.id), ['default']);
      const keys = await queryOnce<{ kind: string }>(edb.url, 'SELECT kind FROM api_keys ORDER BY kind');
      assert.deepEqual(keys.map((k) => k.kind), ['live', 'test']);
      const files = ['p', 'q'].filter((n) => existsSync(join(edir, n, 'bootstrap-keys.json')));
      assert.equal(files.length, 1, `bootstrap files: ${files.join(', ')}`);
      const { liveKey } = JSON.parse(readFileSync(join(edir, files[0]!, 'bootstrap-keys.json'), 'utf8')) as { liveKey: string };
      for (const s of started) assert.equal((await api(s, 'GET', '/lookup/country', { key: liveKey, CountryCode: 'FR' })).status, 'success');
    } finally {
      for (const s of started) await stop(s);
      await edb.drop();
      rmSync(edir, { recursive: true, force: true });
    }
  });
});
