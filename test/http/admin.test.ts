/**
 * The operator API under /admin, driven through app.inject against a real SQLite store: guard,
 * plans, accounts, keys, usage, hostile input and the privacy of stored keys.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_STANDARD } from '../../src/accounts/plans.ts';
import { ADMIN_TOKEN, liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';
import { adminCall, adminData, asAdminAnswer, assertAdminError, type AdminAnswer, type Method } from '../helpers/admin-client.ts';

/** Fixed clock: usage days and the default usage window are then known. */
const NOW = new Date('2026-03-15T12:00:00.000Z');
const TODAY = '2026-03-15';
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };
const SEEDED = liveKey('adminseed');

let t: TestApp;
before(async () => {
  t = await makeTestApp({ clock: () => NOW, seed: { accounts: [{ id: 'seeded', plan: 'premium', keys: [SEEDED] }] } });
});
after(() => t.close());

type Answer = AdminAnswer;

const admin = (method: Method, url: string, payload?: unknown, headers: Record<string, string> = AUTH, app: TestApp = t): Promise<Answer> =>
  adminCall(app, method, url, payload, headers);
const data = adminData;

async function api(key: string, query: Record<string, string> = { CountryCode: 'DE' }): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: '/lookup/country', query: { ...query, key } });
  assert.equal(res.statusCode, 200);
  return JSON.parse(res.body) as Record<string, unknown>;
}

interface AccountView {
  id: string;
  status: string;
  planId: string;
  subscription: { expiresAt: string | null } | null;
  authorizedHosts: string[];
  settings: { autoBlacklistConfirmedFraud: boolean; dailyDeletionLimit: number };
  createdAt: string;
}
interface KeyView {
  id: string;
  accountId: string;
  kind: string;
  hint: string;
  createdAt: string;
  revokedAt: string | null;
  key?: string;
}
interface PlanView {
  id: string;
  methods: string[];
  modules: string[];
  monthlyQuota: number | null;
  flood: { limit: number; windowSeconds: number };
}

describe('admin guard', () => {
  const routes: [Method, string, unknown?][] = [
    ['GET', '/admin/plans'],
    ['PUT', '/admin/plans/guarded', { methods: ['*'], flood: { limit: 1, windowSeconds: 1 } }],
    ['GET', '/admin/accounts'],
    ['POST', '/admin/accounts', { id: 'guarded', plan: 'trial' }],
    ['GET', '/admin/accounts/seeded'],
    ['PATCH', '/admin/accounts/seeded', { status: 'inactive' }],
    ['POST', '/admin/accounts/seeded/disable', {}],
    ['GET', '/admin/accounts/seeded/keys'],
    ['POST', '/admin/accounts/seeded/keys', {}],
    ['DELETE', '/admin/keys/key_whatever'],
    ['GET', '/admin/accounts/seeded/usage'],
  ];

  it('401 without a token on every route, and nothing changes', async () => {
    for (const [method, url, payload] of routes) {
      assertAdminError(await admin(method, url, payload, {}), 401, 'unauthorized');
    }
    const accounts = data<AccountView[]>(await admin('GET', '/admin/accounts'));
    assert.deepEqual(accounts.map((a) => a.id), ['seeded']);
    assert.equal(accounts[0]?.status, 'active');
    assert.equal(data<KeyView[]>(await admin('GET', '/admin/accounts/seeded/keys')).length, 1);
    const plans = data<PlanView[]>(await admin('GET', '/admin/plans'));
    assert.ok(!plans.some((p) => p.id === 'guarded'));
  });

  it('401 for a wrong token of the same length', async () => {
    const wrong = ADMIN_TOKEN.slice(0, -1) + (ADMIN_TOKEN.endsWith('x') ? 'y' : 'x');
    assert.equal(wrong.length, ADMIN_TOKEN.length);
    assertAdminError(await admin('GET', '/admin/plans', undefined, { authorization: `Bearer ${wrong}` }), 401, 'unauthorized');
  });

  it('401 for tokens of other lengths, other schemes and an API key', async () => {
    for (const authorization of [
      `Bearer ${ADMIN_TOKEN}x`,
      `Bearer ${ADMIN_TOKEN.slice(0, 5)}`,
      'Bearer ',
      `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`,
      ADMIN_TOKEN,
      `Bearer ${SEEDED}`,
    ]) {
      assertAdminError(await admin('GET', '/admin/plans', undefined, { authorization }), 401, 'unauthorized');
    }
  });

  it('the token in the query string does not count', async () => {
    assertAdminError(await admin('GET', `/admin/plans?token=${ADMIN_TOKEN}&key=${ADMIN_TOKEN}`, undefined, {}), 401, 'unauthorized');
  });

  it('accepts the scheme case-insensitively', async () => {
    assert.ok(data<PlanView[]>(await admin('GET', '/admin/plans', undefined, { authorization: `bearer ${ADMIN_TOKEN}` })).length >= 4);
  });

  it('503 admin_disabled when ADMIN_TOKEN is unset, even with a token', async () => {
    const off = await makeTestApp({ env: { ADMIN_TOKEN: '' } });
    try {
      assert.equal(off.config.adminToken, undefined);
      for (const headers of [{}, AUTH]) {
        const a = await admin('GET', '/admin/accounts', undefined, headers, off);
        assertAdminError(a, 503, 'admin_disabled', /ADMIN_TOKEN/);
      }
      assertAdminError(await admin('POST', '/admin/accounts', { id: 'x', plan: 'trial' }, AUTH, off), 503, 'admin_disabled');
      assert.equal(await off.store.accounts.getAccount('x'), null);
      // The API itself keeps working.
      assert.equal((await off.app.inject({ url: '/healthz' })).statusCode, 200);
    } finally {
      await off.close();
    }
  });
});

describe('admin plans', () => {
  it('lists the four built-in plans with the quotas and flood limits of decisions.md', async () => {
    const plans = data<PlanView[]>(await admin('GET', '/admin/plans'));
    const byId = new Map(plans.map((p) => [p.id, p]));
    const quotas: Record<string, number | null> = { trial: 5000, standard: 100000, premium: 1000000, payg: null };
    for (const [id, quota] of Object.entries(quotas)) {
      const p = byId.get(id);
      assert.ok(p, id);
      assert.equal(p.monthlyQuota, quota, id);
      assert.deepEqual(p.flood, { limit: 1000, windowSeconds: 1 }, id);
    }
    for (const id of ['trial', 'premium', 'payg']) {
      assert.deepEqual(byId.get(id)?.methods, ['*'], id);
      assert.deepEqual([...(byId.get(id)?.modules ?? [])].sort(), ['device', 'security'], id);
    }
    const standard = byId.get('standard');
    assert.ok(standard);
    assert.deepEqual(standard.modules, ['security']);
    assert.ok(!standard.methods.includes('*'));
    for (const m of ['lookup/iban', 'lookup/asn', 'scoring/email', 'scoring/phone', 'scoring/payment']) assert.ok(!standard.methods.includes(m), m);
    for (const m of NOT_STANDARD) assert.ok(!standard.methods.includes(m), m);
    for (const m of ['lookup/country', 'lookup/ip', 'lookup/bin', 'geoip']) assert.ok(standard.methods.includes(m), m);
  });

  it('PUT creates a plan, a second PUT replaces it', async () => {
    const first = { methods: ['lookup/country'], modules: ['security'], monthlyQuota: 10, flood: { limit: 5, windowSeconds: 2 } };
    assert.deepEqual(data<PlanView>(await admin('PUT', '/admin/plans/small', first)), { id: 'small', ...first });
    const second = { methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 50, windowSeconds: 60 } };
    assert.deepEqual(data<PlanView>(await admin('PUT', '/admin/plans/small', second)), { id: 'small', ...second });
    const listed = data<PlanView[]>(await admin('GET', '/admin/plans')).filter((p) => p.id === 'small');
    assert.deepEqual(listed, [{ id: 'small', ...second }]);
    assert.deepEqual(await t.store.accounts.getPlan('small'), { id: 'small', ...second });
  });

  it('PUT fills defaults (no modules, unlimited) and the path id wins over a body id', async () => {
    const p = data<PlanView>(await admin('PUT', '/admin/plans/minimal', { id: 'other', methods: ['lookup/country'], flood: { limit: 1, windowSeconds: 1 } }));
    assert.deepEqual(p, { id: 'minimal', methods: ['lookup/country'], modules: [], monthlyQuota: null, flood: { limit: 1, windowSeconds: 1 } });
    assert.equal(await t.store.accounts.getPlan('other'), null);
  });

  const good = { methods: ['*'], modules: ['security'], monthlyQuota: 1, flood: { limit: 1, windowSeconds: 1 } };
  const invalid: [string, string, unknown, RegExp][] = [
    ['flood limit 0', 'bad1', { ...good, flood: { limit: 0, windowSeconds: 1 } }, /flood\.limit/],
    ['flood window too long', 'bad2', { ...good, flood: { limit: 1, windowSeconds: 86401 } }, /flood\.windowSeconds/],
    ['methods not an array', 'bad3', { ...good, methods: '*' }, /methods/],
    ['a method with a leading slash', 'bad4', { ...good, methods: ['/lookup/ip'] }, /methods\.0/],
    ['unknown module', 'bad5', { ...good, modules: ['security', 'telepathy'] }, /modules\.1/],
    ['negative quota', 'bad6', { ...good, monthlyQuota: -1 }, /monthlyQuota/],
    ['fractional quota', 'bad7', { ...good, monthlyQuota: 1.5 }, /monthlyQuota/],
    ['no flood', 'bad8', { methods: ['*'] }, /flood/],
    ['bad plan id', 'bad%20id!', good, /^id: /],
  ];
  for (const [name, id, body, field] of invalid) {
    it(`PUT rejects ${name} with 400 naming the field`, async () => {
      assertAdminError(await admin('PUT', `/admin/plans/${id}`, body), 400, 'invalid_request', field);
      assert.equal(await t.store.accounts.getPlan(decodeURIComponent(id)), null);
    });
  }

  it('a plan change reaches API calls at once', async () => {
    data(await admin('PUT', '/admin/plans/switchable', { methods: ['*'], modules: ['security', 'device'], flood: { limit: 1000, windowSeconds: 1 } }));
    data(await admin('POST', '/admin/accounts', { id: 'switch', plan: 'switchable' }), 201);
    const key = data<KeyView>(await admin('POST', '/admin/accounts/switch/keys', {}), 201).key ?? '';
    assert.equal((await api(key)).status, 'success');
    data(await admin('PUT', '/admin/plans/switchable', { methods: ['lookup/ip'], flood: { limit: 1000, windowSeconds: 1 } }));
    const after = await api(key);
    assert.equal(after.code, 117, JSON.stringify(after));
  });
});

describe('admin accounts', () => {
  it('POST creates with defaults (201)', async () => {
    const a = data<AccountView>(await admin('POST', '/admin/accounts', { id: 'plain', plan: 'trial' }), 201);
    assert.deepEqual(
      { ...a, createdAt: undefined },
      { id: 'plain', status: 'active', planId: 'trial', subscription: { expiresAt: null }, authorizedHosts: [], settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 100 }, createdAt: undefined },
    );
    assert.equal(a.createdAt, NOW.toISOString());
    assert.deepEqual(await t.store.accounts.getAccount('plain'), a);
  });

  it('POST with an empty body gets a generated id on the premium plan', async () => {
    const a = data<AccountView>(await admin('POST', '/admin/accounts', {}), 201);
    assert.match(a.id, /^acct_[0-9a-f]{16}$/);
    assert.equal(a.planId, 'premium');
  });

  it('POST keeps every given field', async () => {
    const body = {
      id: 'full', plan: 'standard', status: 'inactive', subscription: { expiresAt: '2030-01-01T00:00:00Z' },
      authorizedHosts: ['shop.example.com', '*.example.org', '203.0.113.0/24', '2001:db8::1'], settings: { dailyDeletionLimit: 7 },
    };
    const a = data<AccountView>(await admin('POST', '/admin/accounts', body), 201);
    assert.equal(a.status, 'inactive');
    assert.equal(a.planId, 'standard');
    assert.deepEqual(a.subscription, { expiresAt: '2030-01-01T00:00:00.000Z' });
    assert.deepEqual(a.authorizedHosts, body.authorizedHosts);
    assert.deepEqual(a.settings, { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 7 });
    // The POST answer and later reads show the same stored form of expiresAt.
    const stored = data<AccountView>(await admin('GET', '/admin/accounts/full'));
    assert.equal(stored.subscription?.expiresAt, '2030-01-01T00:00:00.000Z');
    assert.deepEqual({ ...stored, subscription: null }, { ...a, subscription: null });
  });

  it('expiresAt with an offset is stored as the same instant in UTC', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'offset', plan: 'trial', subscription: { expiresAt: '2030-01-01T02:00:00+02:00' } }), 201);
    const stored = data<AccountView>(await admin('GET', '/admin/accounts/offset'));
    assert.equal(stored.subscription?.expiresAt, '2030-01-01T00:00:00.000Z');
  });

  it('POST with subscription null creates an account without a subscription', async () => {
    const a = data<AccountView>(await admin('POST', '/admin/accounts', { id: 'nosub', plan: 'trial', subscription: null }), 201);
    assert.equal(a.subscription, null);
    assert.equal((await t.store.accounts.getAccount('nosub'))?.subscription, null);
  });

  it('409 for a duplicate id, and the first account is untouched', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'dup', plan: 'trial' }), 201);
    assertAdminError(await admin('POST', '/admin/accounts', { id: 'dup', plan: 'premium' }), 409, 'conflict', /dup/);
    assert.equal((await t.store.accounts.getAccount('dup'))?.planId, 'trial');
  });

  const rejected: [string, object, string, RegExp][] = [
    ['an unknown plan', { id: 'r1', plan: 'platinum' }, 'invalid', /unknown plan "platinum"/],
    ['a URL as authorized host', { id: 'r2', plan: 'trial', authorizedHosts: ['https://shop.example.com'] }, 'invalid', /authorized host/],
    ['a bad CIDR', { id: 'r3', plan: 'trial', authorizedHosts: ['10.0.0.0/33'] }, 'invalid', /CIDR/],
    ['a bare wildcard', { id: 'r4', plan: 'trial', authorizedHosts: ['*'] }, 'invalid', /authorized host/],
    ['hosts not an array', { id: 'r5', plan: 'trial', authorizedHosts: 'shop.example.com' }, 'invalid_request', /authorizedHosts/],
    ['expiresAt not a date', { id: 'r6', plan: 'trial', subscription: { expiresAt: 'tomorrow' } }, 'invalid_request', /subscription\.expiresAt/],
    ['expiresAt without an offset', { id: 'r7', plan: 'trial', subscription: { expiresAt: '2030-01-01T00:00:00' } }, 'invalid_request', /subscription\.expiresAt/],
    ['an unknown field', { id: 'r8', plan: 'trial', color: 'blue' }, 'invalid_request', /color/],
    ['an unknown settings field', { id: 'r9', plan: 'trial', settings: { dailyDeletionLimit: 1, extra: true } }, 'invalid_request', /extra/],
    ['an unknown subscription field', { id: 'r12', plan: 'trial', subscription: { expiresAt: null, renew: true } }, 'invalid_request', /renew/],
    ['a negative deletion limit', { id: 'r10', plan: 'trial', settings: { dailyDeletionLimit: -1 } }, 'invalid_request', /settings\.dailyDeletionLimit/],
    ['an unknown status', { id: 'r11', plan: 'trial', status: 'paused' }, 'invalid_request', /status/],
    ['an id with a space', { id: 'a b', plan: 'trial' }, 'invalid', /ids are/],
    ['an id of 65 characters', { id: 'a'.repeat(65), plan: 'trial' }, 'invalid', /ids are/],
    ['a non-string id', { id: 42, plan: 'trial' }, 'invalid_request', /^id: /],
    ['a JSON array body', [1, 2], 'invalid_request', /body/],
  ];
  for (const [name, body, type, why] of rejected) {
    it(`POST rejects ${name} with 400`, async () => {
      const before = (await t.store.accounts.listAccounts()).length;
      assertAdminError(await admin('POST', '/admin/accounts', body), 400, type, why);
      assert.equal((await t.store.accounts.listAccounts()).length, before);
    });
  }

  it('GET one and the list', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'listed', plan: 'payg', authorizedHosts: ['listed.example'] }), 201);
    const one = data<AccountView>(await admin('GET', '/admin/accounts/listed'));
    assert.equal(one.planId, 'payg');
    assert.deepEqual(one.authorizedHosts, ['listed.example']);
    const all = data<AccountView[]>(await admin('GET', '/admin/accounts'));
    assert.deepEqual(all.find((a) => a.id === 'listed'), one);
    assert.ok(all.some((a) => a.id === 'seeded'));
    assert.equal(new Set(all.map((a) => a.id)).size, all.length);
  });

  it('PATCH changes only what it names', async () => {
    const created = data<AccountView>(
      await admin('POST', '/admin/accounts', { id: 'patchme', plan: 'trial', authorizedHosts: ['a.example'], subscription: { expiresAt: '2030-01-01T00:00:00.000Z' }, settings: { dailyDeletionLimit: 3 } }),
      201,
    );
    const s1 = data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', { status: 'inactive' }));
    assert.deepEqual(s1, { ...created, status: 'inactive' });
    const s2 = data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', { plan: 'standard' }));
    assert.deepEqual(s2, { ...s1, planId: 'standard' });
    const s3 = data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', { authorizedHosts: ['b.example', '198.51.100.7'] }));
    assert.deepEqual(s3, { ...s2, authorizedHosts: ['b.example', '198.51.100.7'] });
    const s4 = data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', { subscription: null }));
    assert.deepEqual(s4, { ...s3, subscription: null });
    const s5 = data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', { subscription: { expiresAt: null }, settings: { autoBlacklistConfirmedFraud: true } }));
    assert.deepEqual(s5, { ...s4, subscription: { expiresAt: null }, settings: { autoBlacklistConfirmedFraud: true, dailyDeletionLimit: 3 } });
    const s6 = data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', { status: 'active', authorizedHosts: [] }));
    assert.deepEqual(s6, { ...s5, status: 'active', authorizedHosts: [] });
    assert.equal(s6.createdAt, created.createdAt);
    assert.deepEqual(await t.store.accounts.getAccount('patchme'), s6);
    assert.deepEqual(data<AccountView>(await admin('PATCH', '/admin/accounts/patchme', {})), s6);
  });

  it('PATCH without plan keeps a non-default plan', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'keepplan', plan: 'standard' }), 201);
    for (const patch of [{ status: 'inactive' }, { authorizedHosts: ['keep.example'] }, { subscription: null }, {}]) {
      assert.equal(data<AccountView>(await admin('PATCH', '/admin/accounts/keepplan', patch)).planId, 'standard', JSON.stringify(patch));
    }
    assert.equal((await t.store.accounts.getAccount('keepplan'))?.planId, 'standard');
  });

  it('PATCH rejects an id, unknown fields, unknown plans and bad hosts, changing nothing', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'patchbad', plan: 'trial' }), 201);
    const before = await t.store.accounts.getAccount('patchbad');
    assertAdminError(await admin('PATCH', '/admin/accounts/patchbad', { id: 'renamed' }), 400, 'invalid_request', /id/);
    assertAdminError(await admin('PATCH', '/admin/accounts/patchbad', { nickname: 'x' }), 400, 'invalid_request', /nickname/);
    assertAdminError(await admin('PATCH', '/admin/accounts/patchbad', { plan: 'nope' }), 400, 'invalid', /unknown plan/);
    assertAdminError(await admin('PATCH', '/admin/accounts/patchbad', { authorizedHosts: ['exa_mple.com'] }), 400, 'invalid', /authorized host/);
    assert.deepEqual(await t.store.accounts.getAccount('patchbad'), before);
    assert.equal(await t.store.accounts.getAccount('renamed'), null);
  });

  it('404 for an unknown id on every account route', async () => {
    for (const [method, url, body] of [
      ['GET', '/admin/accounts/ghost'],
      ['PATCH', '/admin/accounts/ghost', { status: 'inactive' }],
      ['POST', '/admin/accounts/ghost/disable', {}],
      ['GET', '/admin/accounts/ghost/keys'],
      ['POST', '/admin/accounts/ghost/keys', { kind: 'live' }],
      ['GET', '/admin/accounts/ghost/usage'],
    ] as [Method, string, unknown?][]) {
      assertAdminError(await admin(method, url, body), 404, 'not_found', /ghost/);
    }
    assert.equal(await t.store.accounts.getAccount('ghost'), null);
    assert.deepEqual(await t.store.accounts.listKeys('ghost'), []);
  });

  it('disable makes the account inactive and its key answers 102 at once', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'todisable', plan: 'premium' }), 201);
    const key = data<KeyView>(await admin('POST', '/admin/accounts/todisable/keys', {}), 201).key ?? '';
    // Warm the key cache first: the change must still be seen by the very next call.
    assert.equal((await api(key)).status, 'success');
    const disabled = data<AccountView>(await admin('POST', '/admin/accounts/todisable/disable'));
    assert.equal(disabled.status, 'inactive');
    assert.equal(disabled.planId, 'premium');
    const answer = await api(key);
    assert.equal(answer.status, 'error');
    assert.equal(answer.code, 102);
    // And PATCH back to active restores access at once too.
    data(await admin('PATCH', '/admin/accounts/todisable', { status: 'active' }));
    assert.equal((await api(key)).status, 'success');
  });

  it('other PATCH changes reach the API at once: no subscription → 127, hosts → 113', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'livepatch', plan: 'premium' }), 201);
    const key = data<KeyView>(await admin('POST', '/admin/accounts/livepatch/keys', { kind: 'live' }), 201).key ?? '';
    assert.equal((await api(key)).status, 'success');
    data(await admin('PATCH', '/admin/accounts/livepatch', { subscription: null }));
    assert.equal((await api(key)).code, 127);
    data(await admin('PATCH', '/admin/accounts/livepatch', { subscription: { expiresAt: '2020-01-01T00:00:00Z' } }));
    assert.equal((await api(key)).code, 105);
    data(await admin('PATCH', '/admin/accounts/livepatch', { subscription: { expiresAt: null }, authorizedHosts: ['only.example.com'] }));
    assert.equal((await api(key)).code, 113);
  });
});

describe('admin keys', () => {
  before(async () => {
    data(await admin('POST', '/admin/accounts', { id: 'keyed', plan: 'premium' }), 201);
  });

  it('POST returns the plaintext once with the live prefix, and it works', async () => {
    const k = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys', { kind: 'live' }), 201);
    assert.match(k.key ?? '', /^svc_live_[A-Za-z0-9]{32}$/);
    assert.equal(k.accountId, 'keyed');
    assert.equal(k.kind, 'live');
    assert.equal(k.hint, k.key?.slice(-4));
    assert.equal(k.revokedAt, null);
    assert.match(k.id, /^key_/);
    assert.ok(!('hash' in k));
    const answer = await api(k.key ?? '');
    assert.equal(answer.status, 'success', JSON.stringify(answer));
    assert.equal((answer.data as { countryCode: string }).countryCode, 'DE');
  });

  it('no body means a live key; kind test gives svc_test_ that works in test mode', async () => {
    const live = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys'), 201);
    assert.match(live.key ?? '', /^svc_live_/);
    const test = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys', { kind: 'test' }), 201);
    assert.match(test.key ?? '', /^svc_test_[A-Za-z0-9]{32}$/);
    assert.equal(test.kind, 'test');
    assert.equal((await api(test.key ?? '')).status, 'success');
    assert.notEqual(live.key, test.key);
  });

  it('POST rejects an unknown kind and unknown fields', async () => {
    const before = (await t.store.accounts.listKeys('keyed')).length;
    assertAdminError(await admin('POST', '/admin/accounts/keyed/keys', { kind: 'prod' }), 400, 'invalid_request', /kind/);
    assertAdminError(await admin('POST', '/admin/accounts/keyed/keys', { kind: 'live', key: 'svc_live_mychosenkey0000000000' }), 400, 'invalid_request', /key/);
    assert.equal((await t.store.accounts.listKeys('keyed')).length, before);
  });

  it('GET lists keys without hashes and never the plaintext', async () => {
    const created = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys', { kind: 'live' }), 201);
    const a = await admin('GET', '/admin/accounts/keyed/keys');
    const keys = data<KeyView[]>(a);
    assert.ok(keys.length >= 1);
    const mine = keys.find((k) => k.id === created.id);
    assert.ok(mine);
    const { key: _plaintext, ...shown } = created;
    assert.deepEqual(mine, shown);
    for (const k of keys) {
      assert.ok(!('hash' in k), JSON.stringify(k));
      assert.ok(!('key' in k), JSON.stringify(k));
      assert.equal(k.accountId, 'keyed');
    }
    assert.ok(!a.raw.includes(created.key ?? '∅'), 'plaintext not listed');
    for (const stored of await t.store.accounts.listKeys('keyed')) assert.ok(!a.raw.includes(stored.hash), 'hash not listed');
  });

  it('DELETE revokes: the key answers 101 at once; a second DELETE is 404', async () => {
    const k = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys', { kind: 'live' }), 201);
    assert.equal((await api(k.key ?? '')).status, 'success');
    assert.deepEqual(data(await admin('DELETE', `/admin/keys/${k.id}`)), { id: k.id, revoked: true });
    const answer = await api(k.key ?? '');
    assert.equal(answer.status, 'error');
    assert.equal(answer.code, 101);
    const listed = data<KeyView[]>(await admin('GET', '/admin/accounts/keyed/keys')).find((x) => x.id === k.id);
    assert.equal(listed?.revokedAt, NOW.toISOString());
    assertAdminError(await admin('DELETE', `/admin/keys/${k.id}`), 404, 'not_found', new RegExp(k.id));
    assertAdminError(await admin('DELETE', '/admin/keys/key_doesnotexist'), 404, 'not_found');
  });

  it('revoking one key leaves the other keys of the account working', async () => {
    const a = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys', {}), 201);
    const b = data<KeyView>(await admin('POST', '/admin/accounts/keyed/keys', {}), 201);
    data(await admin('DELETE', `/admin/keys/${a.id}`));
    assert.equal((await api(a.key ?? '')).code, 101);
    assert.equal((await api(b.key ?? '')).status, 'success');
  });
});

describe('admin usage', () => {
  before(async () => {
    data(await admin('POST', '/admin/accounts', { id: 'usage', plan: 'premium' }), 201);
    const key = data<KeyView>(await admin('POST', '/admin/accounts/usage/keys', { kind: 'live' }), 201).key ?? '';
    const tkey = data<KeyView>(await admin('POST', '/admin/accounts/usage/keys', { kind: 'test' }), 201).key ?? '';
    for (const cc of ['DE', 'FR', 'JP']) assert.equal((await api(key, { CountryCode: cc })).status, 'success');
    assert.equal((await api(tkey, { CountryCode: 'DE' })).status, 'success');
    const failed = await api(key, { CountryCode: 'ZZ' });
    assert.equal(failed.status, 'error', JSON.stringify(failed));
    // A row on another day of the month, written straight to the store, for the from/to filters.
    await t.store.usage.add([{ accountId: 'usage', method: 'lookup/country', day: '2026-03-02', count: 7 }]);
    await t.recorder.flush();
  });

  interface Usage {
    accountId: string;
    from: string;
    to: string;
    total: number;
    rows: { accountId: string; method: string; day: string; count: number }[];
  }

  it('counts live successes only, one row per method and day; default window is this month', async () => {
    const u = data<Usage>(await admin('GET', '/admin/accounts/usage/usage'));
    assert.equal(u.from, '2026-03-01');
    assert.equal(u.to, TODAY);
    assert.equal(u.total, 10);
    const today = u.rows.filter((r) => r.day === TODAY);
    assert.deepEqual(today, [{ accountId: 'usage', method: 'lookup/country', day: TODAY, count: 3 }]);
  });

  it('from/to select days', async () => {
    const todayOnly = data<Usage>(await admin('GET', `/admin/accounts/usage/usage?from=${TODAY}&to=${TODAY}`));
    assert.equal(todayOnly.total, 3);
    assert.deepEqual(todayOnly.rows, [{ accountId: 'usage', method: 'lookup/country', day: TODAY, count: 3 }]);
    const early = data<Usage>(await admin('GET', '/admin/accounts/usage/usage?from=2026-03-01&to=2026-03-10'));
    assert.equal(early.total, 7);
    assert.deepEqual(early.rows.map((r) => r.day), ['2026-03-02']);
    const none = data<Usage>(await admin('GET', '/admin/accounts/usage/usage?from=2026-04-01&to=2026-04-30'));
    assert.deepEqual([none.total, none.rows], [0, []]);
    const fromOnly = data<Usage>(await admin('GET', '/admin/accounts/usage/usage?from=2026-03-03'));
    assert.equal(fromOnly.total, 3);
    assert.equal(fromOnly.to, TODAY);
  });

  it('another account sees none of it', async () => {
    const other = data<Usage>(await admin('GET', '/admin/accounts/seeded/usage'));
    assert.equal(other.total, 0);
  });

  for (const q of ['from=2026-3-1', 'to=15.03.2026', 'from=yesterday', 'from=2026-03-01T00:00:00Z', "to=2026-03-01' OR '1'='1"]) {
    it(`400 for a bad day: ${q}`, async () => {
      assertAdminError(await admin('GET', `/admin/accounts/usage/usage?${encodeURI(q)}`), 400, 'invalid_request', /^(from|to): /);
    });
  }
});

describe('admin hostile input', () => {
  it('a body that is not JSON under application/json is a 400 admin error, no 500, no stack', async () => {
    for (const payload of ['{not json', '', '{"id": "x", "plan": "trial"', '\u0000\u0001']) {
      const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...AUTH, 'content-type': 'application/json' }, payload });
      assertAdminError(asAdminAnswer(res), 400, 'invalid_request', /JSON/);
    }
    assert.equal(await t.store.accounts.getAccount('x'), null);
  });

  it('an unsupported content type is rejected as a client error', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'id=x&plan=trial' });
    assertAdminError(asAdminAnswer(res), 415, 'invalid_request', /Content-Type/);
    assert.equal(await t.store.accounts.getAccount('x'), null);
  });

  it('a body over the 2 MiB limit is a 413 admin error', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ id: 'big', plan: 'trial', pad: 'x'.repeat(3 * 1024 * 1024) }) });
    assertAdminError(asAdminAnswer(res), 413, 'invalid_request', /too large/);
    assert.equal(await t.store.accounts.getAccount('big'), null);
  });

  it('a plain-text body is a 400 invalid_request', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...AUTH, 'content-type': 'text/plain' }, payload: 'hello' });
    assertAdminError(asAdminAnswer(res), 400, 'invalid_request', /body/);
  });

  it('a huge id in the path is a 400 (over the router limit) or a 404, never a 500', async () => {
    const overLimit = await admin('GET', `/admin/accounts/${'a'.repeat(5000)}`);
    assert.equal(overLimit.http, 400, overLimit.raw.slice(0, 200));
    assert.equal(overLimit.body.status, 'error');
    assert.equal(overLimit.headers['access-control-allow-origin'], '*');
    const underLimit = await admin('GET', `/admin/accounts/${'b'.repeat(150)}`);
    assertAdminError(underLimit, 404, 'not_found');
    const delKey = await admin('DELETE', `/admin/keys/${'k'.repeat(150)}`);
    assertAdminError(delKey, 404, 'not_found');
  });

  it('a huge id in a body is a 400', async () => {
    assertAdminError(await admin('POST', '/admin/accounts', { id: 'x'.repeat(100_000), plan: 'trial' }), 400, 'invalid', /ids are/);
    assertAdminError(await admin('PUT', `/admin/plans/${'p'.repeat(180)}`, { methods: ['*'], flood: { limit: 1, windowSeconds: 1 } }), 400, 'invalid_request', /^id: /);
  });

  it('SQL-looking ids are plain data: 404 or 400, and the tables survive', async () => {
    const countBefore = (await t.store.accounts.listAccounts()).length;
    for (const id of ["' OR '1'='1", "x'; DROP TABLE accounts; --", '1 UNION SELECT * FROM api_keys', '%', '_']) {
      const a = await admin('GET', `/admin/accounts/${encodeURIComponent(id)}`);
      assertAdminError(a, 404, 'not_found');
      assertAdminError(await admin('GET', `/admin/accounts/${encodeURIComponent(id)}/keys`), 404, 'not_found');
      assertAdminError(await admin('DELETE', `/admin/keys/${encodeURIComponent(id)}`), 404, 'not_found');
      const created = await admin('POST', '/admin/accounts', { id, plan: 'trial' });
      assertAdminError(created, 400, 'invalid');
    }
    // `%` and `_` must not act as LIKE wildcards either.
    assertAdminError(await admin('GET', '/admin/accounts/seede_'), 404, 'not_found');
    assert.equal((await t.store.accounts.listAccounts()).length, countBefore);
    assert.ok(await t.store.accounts.getAccount('seeded'));
  });

  it('unicode ids: lookups are 404, creation is refused, nothing is mangled', async () => {
    for (const id of ['ünïcødé', '账户', '🔑', 'a\u200bb', 'ｓｅｅｄｅｄ']) {
      const a = await admin('GET', `/admin/accounts/${encodeURIComponent(id)}`);
      assertAdminError(a, 404, 'not_found');
      assert.ok(String(a.body.description).includes(id), String(a.body.description));
      assertAdminError(await admin('POST', '/admin/accounts', { id, plan: 'trial' }), 400, 'invalid', /ids are/);
    }
    assertAdminError(await admin('PUT', `/admin/plans/${encodeURIComponent('plän')}`, { methods: ['*'], flood: { limit: 1, windowSeconds: 1 } }), 400, 'invalid_request');
  });

  it('unicode in hosts is refused; malformed percent-encoding in the path is a 400', async () => {
    assertAdminError(await admin('POST', '/admin/accounts', { id: 'uni', plan: 'trial', authorizedHosts: ['bücher.example'] }), 400, 'invalid', /authorized host/);
    const bad = await admin('GET', '/admin/accounts/%E0%A4%A');
    assert.equal(bad.http, 400);
    assert.equal(bad.body.status, 'error');
  });

  it('prototype-looking fields do not pollute anything', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"id":"proto","plan":"trial","__proto__":{"admin":true}}' });
    // Fastify's JSON parser refuses __proto__ keys outright.
    assertAdminError(asAdminAnswer(res), 400, 'invalid_request');
    assert.equal(({} as Record<string, unknown>).admin, undefined);
    assert.equal(await t.store.accounts.getAccount('proto'), null);
  });
});

describe('admin privacy of stored keys', () => {
  it('the stored record holds a keyed hash, never the plaintext', async () => {
    data(await admin('POST', '/admin/accounts', { id: 'private', plan: 'premium' }), 201);
    const created = data<KeyView>(await admin('POST', '/admin/accounts/private/keys', { kind: 'live' }), 201);
    const plaintext = created.key ?? '';
    assert.ok(plaintext.length > 20);
    const stored = await t.store.accounts.listKeys('private');
    assert.equal(stored.length, 1);
    const rec = stored[0];
    assert.ok(rec);
    assert.match(rec.hash, /^[0-9a-f]{64}$/);
    assert.notEqual(rec.hash, plaintext);
    assert.ok(!JSON.stringify(stored).includes(plaintext), 'plaintext absent from the stored record');
    assert.ok(!JSON.stringify(stored).includes(plaintext.slice(9)), 'key body absent from the stored record');
    assert.equal(rec.hint, plaintext.slice(-4));
    assert.deepEqual(await t.store.accounts.findKeyByHash(rec.hash), rec);
  });
});
