/**
 * GET /scoring/email over HTTP on a real SQLite store. The shared engine data has the network off
 * (no DATA_DIR config), so live DNS/RDAP facts are null; test mode uses its fake facts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DomainNetwork, DomainNetworkFacts } from '../../src/intel/domain/types.ts';
import { buildEndpoints, type EngineData } from '../../src/http/routes/index.ts';
import type { Learning } from '../../src/learning/index.ts';
import { adminCall, adminData } from '../helpers/admin-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('email');
const TKEY = testKey('email');
const RULES_KEY = liveKey('emailrules');
let t: TestApp;
before(async () => {
  t = await makeTestApp({
    seed: {
      accounts: [
        { id: 'e', plan: 'premium', keys: [KEY, TKEY] },
        { id: 'er', plan: 'premium', keys: [RULES_KEY] },
      ],
    },
  });
});
after(() => t.close());

interface Body {
  status: string;
  code?: number;
  type?: string;
  description?: string;
  data: Record<string, unknown> & { domain: Record<string, unknown> };
}

async function raw(query: Record<string, string | string[]>, key = KEY) {
  const res = await t.app.inject({ method: 'GET', url: '/scoring/email', query: { key, ...query } });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body) as Body;
}

async function get(query: Record<string, string | string[]>, key = KEY): Promise<Body['data']> {
  const body = await raw(query, key);
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data;
}

const admin = (method: Parameters<typeof adminCall>[1], url: string, payload?: unknown) => adminCall(t, method, url, payload);

describe('GET /scoring/email', () => {
  it('answers the spec shape; network facts are null with the network off', async () => {
    const data = await get({ email: 'Jane.Doe+news@Example.com' });
    assert.deepEqual(Object.keys(data), [
      'score', 'reason', 'isValid', 'isFree', 'isRoleBased', 'isEducational', 'isDisposable', 'blacklisted', 'email', 'suggestion',
      'isGibberish', 'normalized', 'domain', 'custom_rules_applied',
    ]);
    assert.equal(data.email, 'Jane.Doe+news@Example.com');
    assert.equal(data.normalized, 'jane.doe@example.com');
    assert.equal(data.score, 0);
    assert.equal(data.reason, '');
    assert.equal(data.isValid, true);
    assert.equal(data.blacklisted, false);
    assert.deepEqual(data.custom_rules_applied, { total: 0, rules: [] });
    assert.deepEqual(data.domain, {
      name: 'example.com', is_dangerous: false, is_spf: null, is_dmarc: null, is_dkim: null, is_mx: null, is_bimi: null, created_at: null, is_new: null,
    });
  });

  it('scores typos, disposable and gibberish addresses', async () => {
    const typo = await get({ email: 'jane@iclod.com' });
    assert.equal(typo.suggestion, 'jane@icloud.com');
    assert.equal(typo.score, 2);
    assert.match(String(typo.reason), /typo of icloud\.com/);
    assert.equal(typo.isFree, false);
    // Most typo domains of the big providers are on the disposable lists too: too risky.
    const listedTypo = await get({ email: 'jane@gmial.com' });
    assert.equal(listedTypo.suggestion, 'jane@gmail.com');
    assert.equal(listedTypo.isDisposable, true);
    assert.equal(listedTypo.score, 3);

    const disposable = await get({ email: 'jane@mailinator.com' });
    assert.equal(disposable.isDisposable, true);
    assert.equal(disposable.isFree, false);
    assert.equal(disposable.score, 2);

    const minute = await get({ email: 'jane@minuteinbox.com' });
    assert.equal(minute.isDisposable, true, "Vigil's supplement to the npm lists");

    const sub = await get({ email: 'jane@x.mailinator.com' });
    assert.equal(sub.isDisposable, true, 'a subdomain of a disposable domain counts');

    const mash = await get({ email: 'xkqzvbwp@example.com' });
    assert.equal(mash.isGibberish, true);
    assert.equal(mash.score, 1);

    const gmail = await get({ email: 'J.A.N.E+x@googlemail.com' });
    assert.equal(gmail.normalized, 'jane@gmail.com');
    assert.equal(gmail.isFree, true);
    assert.equal(gmail.suggestion, null);

    const edu = await get({ email: 'info@cs.stanford.edu' });
    assert.equal(edu.isEducational, true);
    assert.equal(edu.isRoleBased, true);
  });

  it('accepts IDN domains and answers them in punycode', async () => {
    const data = await get({ email: 'jürgen@münchen.de' });
    assert.equal(data.email, 'jürgen@münchen.de');
    assert.equal(data.domain.name, 'xn--mnchen-3ya.de');
    assert.equal(data.normalized, 'jürgen@xn--mnchen-3ya.de');
  });

  it('119 for missing, empty, malformed, oversized, repeated and hostile input; never 5xx', async () => {
    const cases: Array<Record<string, string | string[]>> = [
      {}, { email: '' }, { email: '   ' }, { email: 'no-at-sign' }, { email: 'a@b' }, { email: 'a..b@example.com' }, { email: '.a@example.com' },
      { email: 'a.@example.com' }, { email: '"quoted"@example.com' }, { email: 'a@[127.0.0.1]' }, { email: 'a@example.com.' },
      { email: `${'a'.repeat(65)}@example.com` }, { email: `a@${'b'.repeat(250)}.com` }, { email: 'x'.repeat(100_000) },
      { email: ['a@example.com', 'b@example.com'] }, { email: '\u0000@example.com' }, { email: '\ud800@example.com' },
      { email: '<script>alert(1)</script>@example.com' }, { email: "'; DROP TABLE events; --@example.com" }, { email: `${'\u0301'.repeat(5000)}@x.com` },
      { email: 'a@%00.com' }, { email: 'a@exa mple.com' }, { email: '@' }, { email: '@@' }, { email: 'a@-.com' },
    ];
    for (const q of cases) {
      const body = await raw(q);
      assert.equal(body.status, 'error', JSON.stringify(q).slice(0, 80));
      assert.equal(body.code, 119, JSON.stringify(q).slice(0, 80));
      assert.equal(body.type, 'invalid_email_address');
      assert.ok(typeof body.description === 'string' && body.description.length > 20);
      assert.doesNotMatch(JSON.stringify(body), /<script>|DROP TABLE/, 'the input is not echoed in errors');
    }
  });

  it('says what is wrong', async () => {
    assert.match(String((await raw({ email: 'a..b@example.com' })).description), /two dots/);
    assert.match(String((await raw({})).description), /required/);
    assert.match(String((await raw({ email: ['a@b.co', 'c@d.co'] })).description), /once/);
  });

  it('renders in the other formats', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/scoring/email', query: { key: KEY, email: 'jane@iclod.com', format: 'CSV' } });
    const [header, row] = res.body.split('\r\n');
    assert.ok(header?.startsWith('score,reason,isValid,isFree,isRoleBased,isEducational,isDisposable,blacklisted,email,suggestion,isGibberish,normalized,domain.name,'));
    assert.ok(row?.startsWith('2,'));
    assert.match(header ?? '', /custom_rules_applied\.total/);
  });

  it('explain=yes lists the engine signals and the datasets', async () => {
    const data = await get({ email: 'asdfghjkl@iclod.com', explain: 'yes' });
    const ex = data.explanation as { contributions: Array<{ signal?: string; points?: number }>; datasets: Array<{ name: string }> };
    assert.deepEqual(ex.contributions.map((c) => c.signal), ['typo', 'gibberish']);
    assert.equal(ex.contributions.reduce((s, c) => s + (c.points ?? 0), 0), data.score);
    const names = ex.datasets.map((d) => d.name);
    assert.ok(names.includes('free-email-domains'));
    assert.ok(names.some((n) => n.startsWith('swot')));
    assert.ok(names.length >= 5, names.join(', '));
  });
});

describe('test mode', () => {
  it('answers realistic fake facts, deterministic per input, with the same validation', async () => {
    const a = await get({ email: 'jane.doe@example.org' }, TKEY);
    const b = await get({ email: 'jane.doe@example.org', mode: 'test' });
    assert.deepEqual(a, b);
    assert.equal(typeof a.domain.is_mx, 'boolean');
    assert.equal(typeof a.domain.created_at, 'string');
    const gmail = await get({ email: 'jane@gmail.com' }, TKEY);
    assert.equal(gmail.domain.is_mx, true);
    assert.equal(gmail.domain.is_new, false);
    assert.equal(gmail.score, 0);
    assert.equal((await raw({ email: 'nope' }, TKEY)).code, 119);
  });

  it('raises no event', async () => {
    const before = (await t.store.events.listEvents('e', { kind: 'spam_email' })).length;
    await get({ email: 'asdfghjkl@mailinator.com', userID: 'tm' }, TKEY);
    await get({ email: 'asdfghjkl@mailinator.com', mode: 'test', userID: 'tm' });
    assert.equal((await t.store.events.listEvents('e', { kind: 'spam_email' })).length, before);
  });
});

describe('events', () => {
  it('raises spam_email from score 2 on live calls, masked, with the summary', async () => {
    await get({ email: 'john.doe@mailinator.com', userID: 'u-spam' });
    const events = await t.store.events.listEvents('e', { kind: 'spam_email', userId: 'u-spam' });
    assert.equal(events.length, 1);
    const [e] = events;
    assert.ok(e);
    assert.equal(e.risk, 2);
    assert.equal(e.subject, 'j******e@mailinator.com');
    assert.equal(e.operation, 'scoring.email');
    assert.deepEqual(Object.keys(e.summary).sort(), ['domain', 'explanation', 'isDisposable', 'isFree', 'isValid', 'reason', 'score', 'suggestion']);
    // The engine's points, stored whether or not the call asked explain=yes: they sum to the score.
    const contributions = (e.summary.explanation as { contributions: Array<{ source: string; signal: string; points: number }> }).contributions;
    assert.ok(contributions.some((c) => c.source === 'engine' && c.signal === 'disposable'));
    assert.equal(contributions.reduce((n, c) => n + c.points, 0), e.summary.score);
    assert.equal(e.summary.domain, 'mailinator.com');
    assert.equal(e.summary.isDisposable, true);
    assert.doesNotMatch(JSON.stringify(e), /john\.doe/);
  });

  it('raises nothing below 2', async () => {
    await get({ email: 'xkqzvbwp@example.com', userID: 'u-low' });
    await get({ email: 'jane@example.com', userID: 'u-low' });
    assert.equal((await t.store.events.listEvents('e', { kind: 'spam_email', userId: 'u-low' })).length, 0);
  });
});

describe('custom rules and blacklists', () => {
  const A = 'er';
  it('an email blacklist entry marks the address blacklisted with score 3 and a reason', async () => {
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'email', values: ['Bad.Guy@Example.com'] }));
    const data = await get({ email: 'bad.guy@example.com' }, RULES_KEY);
    assert.equal(data.blacklisted, true);
    assert.equal(data.score, 3);
    assert.match(String(data.reason), /blacklist/);
    // The same Gmail mailbox written another way is caught through `normalized`.
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'email', values: ['badguy@gmail.com'] }));
    const variant = await get({ email: 'Bad.Guy+promo@googlemail.com', userID: 'u-bl' }, RULES_KEY);
    assert.equal(variant.blacklisted, true);
    assert.equal(variant.score, 3);
    const [e] = await t.store.events.listEvents(A, { kind: 'spam_email', userId: 'u-bl' });
    assert.equal(e?.risk, 3, 'the event follows the final score');
    // A Yahoo disposable address (basename-keyword) and a Fastmail subdomain address reach a listed mailbox.
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'email', values: ['badguy@yahoo.co.uk', 'badguy@fastmail.com'] }));
    const yahoo = await get({ email: 'BadGuy-shopping@yahoo.co.uk' }, RULES_KEY);
    assert.equal(yahoo.normalized, 'badguy@yahoo.co.uk');
    assert.equal(yahoo.blacklisted, true);
    assert.equal((await get({ email: 'shop@badguy.fastmail.com' }, RULES_KEY)).blacklisted, true);
  });

  it('an email_domain entry catches the domain and its subdomains', async () => {
    assert.equal((await get({ email: 'a@mail.shady.example' }, RULES_KEY)).blacklisted, false);
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'email_domain', values: ['shady.example'] }));
    const data = await get({ email: 'a@mail.shady.example' }, RULES_KEY);
    assert.equal(data.blacklisted, true);
    assert.equal(data.score, 3);
  });

  it('rules overwrite the score, mark valid or invalid, blacklist; the final score drives the event', async () => {
    const rule = (title: string, conditions: unknown, action: unknown) => ({ title, group: 'email', conditions, action });
    const r1 = adminData<{ id: string }>(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('trust our partner', { all: [{ field: 'domain.name', op: 'eq', value: 'partner.example' }] }, { type: 'overwrite_score', score: 0 })), 201);
    const clean = await get({ email: 'asdfghjkl@partner.example', userID: 'u-r1' }, RULES_KEY);
    assert.equal(clean.isGibberish, true);
    assert.equal(clean.score, 0);
    assert.equal(clean.reason, '');
    assert.deepEqual(clean.custom_rules_applied, { total: 1, rules: [{ id: r1.id, title: 'trust our partner' }] });

    const r2 = adminData<{ id: string }>(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('role addresses are risky', { all: [{ field: 'isRoleBased', op: 'eq', value: true }] }, { type: 'overwrite_score', score: 2 })), 201);
    const role = await get({ email: 'info@example.net', userID: 'u-r2' }, RULES_KEY);
    assert.equal(role.score, 2);
    assert.match(String(role.reason), /custom rule/);
    const [e] = await t.store.events.listEvents(A, { kind: 'spam_email', userId: 'u-r2' });
    assert.equal(e?.risk, 2, 'a rule raising the score to 2 raises the event');
    assert.equal((await t.store.events.listEvents(A, { kind: 'spam_email', userId: 'u-r1' })).length, 0);

    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('no sales', { all: [{ field: 'input.email', op: 'starts_with', value: 'sales@' }] }, { type: 'mark_invalid' })), 201);
    const sales = await get({ email: 'sales@example.net' }, RULES_KEY);
    assert.equal(sales.isValid, false);
    assert.match(String(sales.reason), /Marked invalid by a custom rule/);
    assert.equal(sales.custom_rules_applied && (sales.custom_rules_applied as { total: number }).total, 2);

    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('block gibberish', { all: [{ field: 'isGibberish', op: 'eq', value: true }, { field: 'domain.name', op: 'neq', value: 'partner.example' }] }, { type: 'blacklist' })), 201);
    const mash = await get({ email: 'qwpoeirut@example.net' }, RULES_KEY);
    assert.equal(mash.blacklisted, true);
    assert.equal(mash.score, 3);

    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('disposable is fine here', { all: [{ field: 'isDisposable', op: 'eq', value: true }] }, { type: 'mark_valid' })), 201);
    const disp = await get({ email: 'jane@mailinator.com' }, RULES_KEY);
    assert.equal(disp.isValid, true);
    assert.equal(disp.score, 2);
    adminData(await admin('DELETE', `/admin/accounts/${A}/rules/${r2.id}`));
    assert.equal((await get({ email: 'info@example.net' }, RULES_KEY)).score, 0);
  });

  it('an unknown field is refused when the rule is saved', async () => {
    const res = await admin('POST', `/admin/accounts/${A}/rules`, { title: 'x', group: 'email', conditions: { all: [{ field: 'domain.is_forwarding', op: 'eq', value: true }] }, action: { type: 'mark_invalid' } });
    assert.equal(res.http, 400);
  });
});

/**
 * Controlled network facts: a DomainNetwork (the interface GET /lookup/domain's DNS/RDAP client
 * implements) answering from a table, so the scoring rules that need MX and age run over HTTP.
 */
describe('with network facts', () => {
  const MAIL: DomainNetworkFacts = { is_mx: true, is_spf: true, is_dmarc: true, is_dkim: true, is_bimi: false, created_at: '2001-05-01T00:00:00Z', is_new: false };
  const FACTS: Record<string, DomainNetworkFacts> = {
    'iclod.com': { ...MAIL, is_mx: false, is_spf: false, is_dmarc: false, is_dkim: false },
    'icloud.com': MAIL,
    'fresh.example': { ...MAIL, created_at: '2025-01-02T00:00:00Z', is_new: true },
    'nomail.example': { ...MAIL, is_mx: false },
  };
  const network: DomainNetwork = {
    facts: (domain) => {
      if (domain === 'broken.example') return Promise.reject(new Error('resolver exploded'));
      const f = FACTS[domain];
      return f ? Promise.resolve(f) : Promise.resolve({ ...MAIL, is_mx: null });
    },
  };
  const NKEY = liveKey('emailnet');
  const LKEY = liveKey('emaillabel');
  let n: TestApp;
  let labelled: TestApp;
  const withNetwork = (data: EngineData, learning: Learning) => buildEndpoints({ ...data, domains: { ...data.domains, lists: data.domains.lists, network, budgetMs: 50, datasets: data.domains.datasets } }, learning);
  before(async () => {
    n = await makeTestApp({ endpoints: withNetwork, seed: { accounts: [{ id: 'n', plan: 'premium', keys: [NKEY] }] } });
    // A real fraud label on one mailbox, given through POST /feedback/event.
    labelled = await makeTestApp({ endpoints: withNetwork, seed: { accounts: [{ id: 'l', plan: 'premium', keys: [LKEY] }] } });
    const res = await labelled.app.inject({
      method: 'POST', url: '/feedback/event', query: { key: LKEY },
      headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ type: 'email', value: 'fraudster@gmail.com', label: 'fraud' }),
    });
    assert.equal((JSON.parse(res.body) as { status: string }).status, 'success', res.body);
  });
  after(async () => {
    await n.close();
    await labelled.close();
  });
  const call = async (app: TestApp, key: string, query: Record<string, string>) => {
    const res = await app.app.inject({ method: 'GET', url: '/scoring/email', query: { key, ...query } });
    const body = JSON.parse(res.body) as Body;
    assert.equal(body.status, 'success', res.body);
    return body.data;
  };

  it('a typo domain with no MX scores 3 and is invalid; the real provider scores 0', async () => {
    const typo = await call(n, NKEY, { email: 'jane@iclod.com', userID: 'u-net' });
    assert.equal(typo.score, 3);
    assert.equal(typo.isValid, false);
    assert.equal(typo.domain.is_mx, false);
    assert.match(String(typo.reason), /typo of icloud\.com.*no MX/);
    const [e] = await n.store.events.listEvents('n', { kind: 'spam_email', userId: 'u-net' });
    assert.equal(e?.risk, 3);
    const real = await call(n, NKEY, { email: 'jane@icloud.com' });
    assert.equal(real.score, 0);
    assert.equal(real.domain.created_at, '2001-05-01T00:00:00Z');
  });

  it('a new domain raises the score; a domain without MX is invalid', async () => {
    const fresh = await call(n, NKEY, { email: 'jane@fresh.example' });
    assert.equal(fresh.score, 1);
    assert.equal(fresh.domain.is_new, true);
    const nomail = await call(n, NKEY, { email: 'jane@nomail.example' });
    assert.equal(nomail.score, 2);
    assert.equal(nomail.isValid, false);
  });

  it('a failing resolver gives unknown facts, never an error', async () => {
    const data = await call(n, NKEY, { email: 'jane@broken.example' });
    assert.equal(data.domain.is_mx, null);
    assert.equal(data.score, 0);
  });

  it('a fraud label marks the mailbox invalid with score 3, however it is written', async () => {
    const data = await call(labelled, LKEY, { email: 'Fraud.Ster+x@googlemail.com' });
    assert.equal(data.isValid, false);
    assert.equal(data.score, 3);
    assert.match(String(data.reason), /reported as fraud/);
    assert.equal((await call(labelled, LKEY, { email: 'someone@gmail.com' })).score, 0);
  });
});
