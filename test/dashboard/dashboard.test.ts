/**
 * The console over HTTP (app.inject) on a real SQLite store: sign-in for operators, analysts (live key or
 * dashboard user), cookies and CSRF, account isolation, every page rendering, labels sent as
 * POST /feedback/event sends them, list imports with per-line errors, and the audit log.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DataUpdates, STALE_UPDATE_MS } from '../../src/dashboard/data-updates.ts';
import { apiCall } from '../helpers/api-client.ts';
import { ConsoleClient } from '../helpers/console-client.ts';
import { ADMIN_TOKEN, liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('dash1');
const OTHER = liveKey('dash2');
let t: TestApp;
let now = new Date('2026-11-20T12:00:00Z');

before(async () => {
  t = await makeTestApp({
    clock: () => now,
    seed: { accounts: [{ id: 'shop', plan: 'premium', keys: [KEY, testKey('dash1')] }, {
      id: 'rival', plan: 'premium', keys: [OTHER],
      // A payment rule so that one scoring surely raises a fraud_payment event (its change is a contribution too).
      customRules: [{ title: 'Known bad customer', group: 'payment', enabled: true, conditions: { all: [{ field: 'input.customer_id', op: 'eq', value: 'c-bad' }] }, action: { type: 'overwrite_score', score: 92 } }],
    }] },
  });
});
after(() => t.close());

async function operator(): Promise<ConsoleClient> {
  const c = new ConsoleClient(t);
  assert.equal(await c.signIn({ secret: ADMIN_TOKEN }), 303);
  return c;
}

/** An event of the account, raised through the API (a disposable address scores 2+: spam_email). */
async function raiseEmailEvent(key: string, email: string): Promise<number> {
  const a = await apiCall(t, 'GET', '/scoring/email', key, undefined, { email, userID: 'u-77' });
  assert.equal(a.status, 'success', a.raw);
  const account = key === KEY ? 'shop' : 'rival';
  const [event] = await t.store.events.listEvents(account, { kind: 'spam_email', limit: 1 });
  assert.ok(event, 'no spam_email event was raised');
  return event.eventId;
}

describe('sign-in and sessions', () => {
  it('a page without a session sends the browser to sign in, keeping where it was going', async () => {
    const page = await new ConsoleClient(t).get('/dashboard/a/shop/events');
    assert.equal(page.status, 303);
    assert.equal(page.headers.location, '/dashboard/sign-in?next=%2Fdashboard%2Fa%2Fshop%2Fevents');
    const signIn = await new ConsoleClient(t).get('/dashboard/sign-in');
    assert.equal(signIn.status, 200);
    assert.match(String(signIn.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
    assert.match(signIn.body, /<label for="secret">/);
  });

  it('the admin token signs in an operator with an HttpOnly, SameSite=Strict cookie; a wrong one is refused and audited', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/dashboard/sign-in', payload: `secret=${ADMIN_TOKEN}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.statusCode, 303);
    assert.match(String(res.headers['set-cookie']), /^vigil_console=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    const bad = new ConsoleClient(t);
    assert.equal(await bad.signIn({ secret: 'not-the-token-at-all' }), 401);
    assert.equal(bad.cookie, undefined);
    const audit = await t.store.console.listAudit({ limit: 5 });
    assert.ok(audit.some((e) => e.action === 'sign-in.refused'));
  });

  it('after 10 failed sign-ins from one address, that address is refused for 15 minutes, even with the right token', async () => {
    const attempt = (secret: string, remoteAddress: string) => t.app.inject({
      method: 'POST', url: '/dashboard/sign-in', remoteAddress, payload: `secret=${encodeURIComponent(secret)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    for (let i = 0; i < 10; i++) assert.equal((await attempt(`wrong-guess-${i}-000000`, '192.0.2.44')).statusCode, 401);
    const blocked = await attempt(ADMIN_TOKEN, '192.0.2.44');
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.body, /Too many failed sign-ins/);
    assert.equal((await attempt(ADMIN_TOKEN, '192.0.2.45')).statusCode, 303);
    now = new Date(now.getTime() + 16 * 60_000);
    try {
      assert.equal((await attempt(ADMIN_TOKEN, '192.0.2.44')).statusCode, 303);
    } finally {
      now = new Date('2026-11-20T12:00:00Z');
    }
  });

  it('a test key cannot sign in; a live key signs in an analyst of its account only', async () => {
    assert.equal(await new ConsoleClient(t).signIn({ secret: testKey('dash1') }), 401);
    const analyst = new ConsoleClient(t);
    assert.equal(await analyst.signIn({ secret: KEY }), 303);
    assert.equal((await analyst.get('/dashboard/a/shop/events')).status, 200);
    for (const url of ['/dashboard/a/rival/events', '/dashboard/a/rival/overview', '/dashboard/a/rival/events/1', '/dashboard/accounts', '/dashboard/audit']) {
      const page = await analyst.get(url);
      assert.equal(page.status, 404, url);
      assert.doesNotMatch(page.body, /rival/);
    }
    // A change aimed at the other account is refused the same way.
    const post = await analyst.post('/dashboard/a/rival/lists/add', { type: 'ip', values: '203.0.113.1' }, (/name="_csrf" value="([^"]+)"/.exec((await analyst.get('/dashboard/a/shop/lists')).body))![1]);
    assert.equal(post.status, 404);
    assert.equal((await t.store.policy.countBlacklist('rival')).ip ?? 0, 0);
  });

  it('a change without the CSRF token is refused and changes nothing', async () => {
    const op = await operator();
    const res = await op.post('/dashboard/a/shop/lists/add', { type: 'email', values: 'csrf@example.com' }, '');
    assert.equal(res.status, 403);
    const wrong = await op.post('/dashboard/a/shop/lists/add', { type: 'email', values: 'csrf@example.com' }, 'x'.repeat(43));
    assert.equal(wrong.status, 403);
    assert.equal((await t.store.policy.countBlacklist('shop')).email ?? 0, 0);
  });

  it('sign-out ends the session; an expired session signs in again', async () => {
    const op = await operator();
    const out = await op.post('/dashboard/sign-out', {});
    assert.equal(out.status, 303);
    assert.equal((await op.get('/dashboard/accounts')).status, 303);
    const later = await operator();
    now = new Date(now.getTime() + 9 * 3600_000);
    try {
      assert.equal((await later.get('/dashboard/accounts')).status, 303);
    } finally {
      now = new Date('2026-11-20T12:00:00Z');
    }
  });

  it('revoking the key an analyst signed in with ends the session', async () => {
    const { key, record } = await t.accounts.createKey('shop', 'live');
    const analyst = new ConsoleClient(t);
    assert.equal(await analyst.signIn({ secret: key }), 303);
    assert.equal((await analyst.get('/dashboard/a/shop/overview')).status, 200);
    await t.accounts.revokeKey(record.id);
    assert.equal((await analyst.get('/dashboard/a/shop/overview')).status, 303);
  });

  it('the operator creates a dashboard user (scrypt hash stored), who sees one account; deleting the user ends their sessions', async () => {
    const op = await operator();
    const made = await op.post('/dashboard/users', { username: 'jane.analyst', password: 'correct horse battery', account: 'shop' });
    assert.equal(made.status, 303, made.body);
    const stored = await t.store.console.getUser('jane.analyst');
    assert.match(stored!.passwordHash, /^scrypt\$131072\$8\$1\$/);
    assert.doesNotMatch(stored!.passwordHash, /horse/);
    assert.equal(await new ConsoleClient(t).signIn({ username: 'jane.analyst', password: 'wrong password!!' }), 401);
    const jane = new ConsoleClient(t);
    assert.equal(await jane.signIn({ username: 'jane.analyst', password: 'correct horse battery' }), 303);
    assert.equal((await jane.get('/dashboard/a/shop/overview')).status, 200);
    assert.equal((await jane.get('/dashboard/a/rival/overview')).status, 404);
    assert.equal((await op.post('/dashboard/users/jane.analyst/delete', {})).status, 303);
    assert.equal((await jane.get('/dashboard/a/shop/overview')).status, 303);
  });
});

describe('pages and changes', () => {
  it('every page of an account answers 200 with its heading', async () => {
    const op = await operator();
    const pages: Array<[string, RegExp]> = [
      ['overview', /<h1>Overview<\/h1>/], ['events', /<h1>Events<\/h1>/], ['payments', /<h1>Payments<\/h1>/], ['rules', /<h1>Rules<\/h1>/],
      ['rules/new?group=email', /<h1>New email rule<\/h1>/], ['lists', /<h1>Lists<\/h1>/], ['webhooks', /<h1>Webhooks<\/h1>/],
      ['model', /<h1>Model and data<\/h1>/], ['audit', /<h1>Audit log<\/h1>/],
    ];
    for (const [path, heading] of pages) {
      const page = await op.get(`/dashboard/a/shop/${path}`);
      assert.equal(page.status, 200, `${path}: ${page.body.slice(0, 300)}`);
      assert.match(page.body, heading, path);
    }
    const accounts = await op.get('/dashboard/accounts');
    assert.equal(accounts.status, 200);
    assert.match(accounts.body, /rival/);
    assert.equal((await op.get('/dashboard/a/nobody/overview')).status, 404);
    assert.equal((await op.get('/dashboard/a/shop/events/abc')).status, 404);
    assert.equal((await op.get('/dashboard/a/shop/events/999999')).status, 404);
  });

  it('bad filter values are explained on the page (400), not a server error', async () => {
    const op = await operator();
    const page = await op.get('/dashboard/a/shop/events?from=2026-13-45&riskMin=500');
    assert.equal(page.status, 400);
    assert.match(page.body, /from is not a calendar date|from must be a date/);
  });

  it('labelling an event in the console stores what POST /feedback/event stores', async () => {
    const op = await operator();
    const id = await raiseEmailEvent(KEY, 'x7@mailinator.com');
    const list = await op.get('/dashboard/a/shop/events?kind=spam_email&labelled=no');
    assert.match(list.body, new RegExp(`href="/dashboard/a/shop/events/${id}"`));
    const res = await op.post(`/dashboard/a/shop/events/${id}/label`, { label: 'fraud' });
    assert.equal(res.status, 303);
    assert.equal(res.location, `/dashboard/a/shop/events/${id}?ok=labelled`);
    assert.equal((await t.store.console.eventLabels('shop', [id])).get(id), 'fraud');
    // The API sees the same label: sending it again is unchanged, as a retry would be.
    const again = await apiCall(t, 'POST', '/feedback/event', KEY, { event_id: id, label: 'fraud' });
    assert.deepEqual(again.data, { event_id: id, label: 'fraud', status: 'unchanged' });
    const detail = await op.get(`/dashboard/a/shop/events/${id}`);
    assert.match(detail.body, /<span class="tag fraud">fraud<\/span>/);
    const labelled = await op.get('/dashboard/a/shop/events?labelled=yes');
    assert.match(labelled.body, new RegExp(`events/${id}"`));
    const audit = await t.store.console.listAudit({ accountId: 'shop', limit: 10 });
    assert.ok(audit.some((e) => e.action === 'event.label' && e.detail.includes(`#${id}`) && e.actor === 'operator'));
  });

  it('a payment event shows its explanation as a bar chart whose bars are the contributions', async () => {
    const op = await operator();
    const a = await apiCall<{ score: number }>(t, 'POST', '/scoring/payment', OTHER, {
      data: { transaction_id: 'dash-pay-1', customer_id: 'c-bad', customer_email: 'a@mailinator.com', customer_ip: '185.220.101.1', card_number: '4111111111111111', transaction_amount: 5000, transaction_currency: 'USD', billing_country: 'US', customer_country: 'NG' },
    });
    assert.equal(a.status, 'success', a.raw);
    const [event] = await t.store.events.listEvents('rival', { kind: 'fraud_payment', limit: 1 });
    assert.ok(event, `the payment scored ${a.data.score} and raised no fraud_payment event`);
    const contributions = (event.summary.explanation as { contributions: Array<{ points: number }> }).contributions;
    assert.ok(Math.abs(contributions.reduce((n, c) => n + c.points, 0) - event.risk) < 0.05);
    const detail = await op.get(`/dashboard/a/rival/events/${event.eventId}`);
    assert.equal((detail.body.match(/<rect /g) ?? []).length, contributions.length);
    const payments = await op.get('/dashboard/a/rival/payments?by=transaction&q=dash-pay-1');
    assert.match(payments.body, /dash-pay-1/);
    const card = await op.get('/dashboard/a/rival/payments?by=card&q=411111+1111');
    assert.match(card.body, /dash-pay-1/);
    assert.doesNotMatch(card.body, /4111111111111111/);
  });

  it('other events chart what drove them from what is stored: email points, IP signal weights; a fixed verdict lists its factors', async () => {
    const op = await operator();
    const emailId = await raiseEmailEvent(KEY, 'charted@mailinator.com');
    const email = await t.store.events.getEvent('shop', emailId);
    const points = (email!.summary.explanation as { contributions: Array<{ signal: string; points: number }> }).contributions;
    const emailPage = await op.get(`/dashboard/a/shop/events/${emailId}`);
    assert.match(emailPage.body, /id="explain-kind">Each bar is what one part added to the score \(points\); the bars sum to the score, 2\./);
    assert.equal((emailPage.body.match(/<rect /g) ?? []).length, points.length);
    for (const c of points) assert.match(emailPage.body, new RegExp(`>engine ${c.signal}</text>`));

    // A blacklisted address: risk 100 from the one signal "blacklisted" (weight 1).
    assert.equal((await op.post('/dashboard/a/shop/lists/add', { type: 'ip', values: '203.0.113.99' })).status, 303);
    assert.equal((await apiCall(t, 'GET', '/lookup/ip', KEY, undefined, { ip: '203.0.113.99', params: 'security' })).status, 'success');
    const [ip] = await t.store.events.listEvents('shop', { kind: 'suspicious_ip', limit: 1 });
    assert.ok(ip);
    assert.deepEqual(ip.summary.explanation, { contributions: [{ source: 'risk', signal: 'blacklisted', weight: 1 }] });
    const ipPage = await op.get(`/dashboard/a/shop/events/${ip.eventId}`);
    assert.match(ipPage.body, /combines them as 100 × \(1 − Π\(1 − weight\)\)/);
    assert.equal((ipPage.body.match(/<rect /g) ?? []).length, 1);
    assert.match(ipPage.body, />risk blacklisted<\/text>/);
    assert.equal((await op.post('/dashboard/a/shop/lists/remove', { type: 'ip', value: '203.0.113.99' })).status, 303);

    // An invalid phone number: a fixed verdict, no numbers stored; the page lists what the stored result names.
    assert.equal((await apiCall(t, 'GET', '/scoring/phone', KEY, undefined, { phone: '0909 8790000', countryCode: 'GB' })).status, 'success');
    const [phone] = await t.store.events.listEvents('shop', { kind: 'spam_phone', limit: 1 });
    assert.ok(phone);
    const phonePage = await op.get(`/dashboard/a/shop/events/${phone.eventId}`);
    assert.match(phonePage.body, /No numbers behind this risk are stored with the event \(its risk is a fixed verdict of 100\)/);
    assert.match(phonePage.body, /<ul id="factors"><li>not valid \(isValid false\)<\/li>/);
    assert.doesNotMatch(phonePage.body.slice(phonePage.body.indexOf('<h2>Explanation</h2>')), /<rect /);
  });

  it('a CSV import adds the good lines and lists each bad one with its line number', async () => {
    const op = await operator();
    const csv = 'value,note\n203.0.113.5,a\nnot-an-ip,b\n198.51.100.0/24,c\n999.1.1.1,d\n';
    const res = await op.post('/dashboard/a/shop/lists/import', { type: 'ip', values: csv });
    assert.equal(res.status, 200, res.body.slice(0, 300));
    assert.match(res.body, /2 good values read, 2 new entries added, 2 lines refused/);
    assert.match(res.body, /<td class="num">3<\/td><td>not-an-ip<\/td>/);
    assert.match(res.body, /<td class="num">5<\/td><td>999.1.1.1<\/td>/);
    assert.equal((await t.store.policy.countBlacklist('shop')).ip, 2);
  });

  it('rules: a draft is tested and backtested without being saved, then saved, disabled and deleted', async () => {
    const op = await operator();
    const form = { group: 'email', title: 'Block mailinator', mode: 'all', field0: 'domain.name', op0: 'eq', value0: 'mailinator.com', action: 'overwrite_score', score: '3', enabled: 'on', sampleInput: '{}', sampleResult: '{"domain": {"name": "mailinator.com"}}', from: '2026-11-01', to: '2026-11-30' };
    const preview = await op.post('/dashboard/a/shop/rules', { ...form, intent: 'preview' });
    assert.equal(preview.status, 200, preview.body.slice(0, 500));
    assert.match(preview.body, /Sample: <strong>matches<\/strong>/);
    assert.match(preview.body, /<dd id="bt-matched">\d+<\/dd>/);
    assert.equal((await t.policy.rules.list('shop')).length, 0);
    const bad = await op.post('/dashboard/a/shop/rules', { ...form, field0: 'domain.nam', intent: 'save' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /unknown field/);
    const saved = await op.post('/dashboard/a/shop/rules', { ...form, intent: 'save' });
    assert.equal(saved.status, 303);
    const [rule] = await t.policy.rules.list('shop');
    assert.deepEqual(rule?.conditions, { all: [{ field: 'domain.name', op: 'eq', value: 'mailinator.com' }] });
    assert.equal((await op.post(`/dashboard/a/shop/rules/${rule.id}/disable`, {})).status, 303);
    assert.equal((await t.policy.rules.get('shop', rule.id)).enabled, false);
    assert.equal((await op.post(`/dashboard/a/shop/rules/${rule.id}/delete`, {})).status, 303);
    assert.equal((await t.policy.rules.list('shop')).length, 0);
  });

  it('the events CSV export holds the filtered events', async () => {
    const op = await operator();
    const res = await op.get('/dashboard/a/shop/events/export.csv?kind=spam_email');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    assert.equal(lines[0], 'event_id,kind,risk,subject,user_id,operation,created_at,summary');
    assert.ok(lines.length >= 2);
    assert.ok(lines.slice(1).every((l) => l.split(',')[1] === 'spam_email'));
  });
});

describe('plans (operators)', () => {
  it('lists plans with their quotas, creates and edits one, puts an account on it; audited; analysts get 404', async () => {
    const op = await operator();
    const list = await op.get('/dashboard/plans');
    assert.equal(list.status, 200);
    assert.match(list.body, /<tr data-plan="standard"><td>standard<\/td><td>geoip, [^<]+<\/td><td>security<\/td><td class="num">100,000<\/td><td>1000 per 1 s<\/td>/);
    const plan = { id: 'gold', 'method:lookup/ip': 'on', 'method:scoring/email': 'on', 'module:security': 'on', monthlyQuota: '2500', floodLimit: '20', floodWindow: '1' };
    const bad = await op.post('/dashboard/plans', { ...plan, monthlyQuota: 'lots' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /The monthly quota must be a whole number/);
    assert.match(bad.body, /name="method:scoring\/email" checked/, 'the refused form keeps what was typed');
    assert.equal(await t.store.accounts.getPlan('gold'), null);
    assert.equal((await op.post('/dashboard/plans', plan)).status, 303);
    assert.deepEqual(await t.store.accounts.getPlan('gold'), { id: 'gold', methods: ['lookup/ip', 'scoring/email'], modules: ['security'], monthlyQuota: 2500, flood: { limit: 20, windowSeconds: 1 } });
    assert.equal((await op.post('/dashboard/plans', plan)).status, 409, 'creating over an existing plan is refused');
    const edit = await op.get('/dashboard/plans/gold/edit');
    assert.match(edit.body, /name="method:lookup\/ip" checked/);
    assert.match(edit.body, /id="plan-quota" name="monthlyQuota" inputmode="numeric" value="2500"/);
    assert.equal((await op.post('/dashboard/plans', { ...plan, replace: 'yes', monthlyQuota: '', all_methods: 'on' })).status, 303);
    assert.deepEqual(await t.store.accounts.getPlan('gold'), { id: 'gold', methods: ['*'], modules: ['security'], monthlyQuota: null, flood: { limit: 20, windowSeconds: 1 } });

    assert.equal((await op.post('/dashboard/plans/assign', { account: 'rival', plan: 'nope' })).status, 404);
    assert.equal((await op.post('/dashboard/plans/assign', { account: 'rival', plan: 'gold' })).status, 303);
    assert.equal((await t.store.accounts.getAccount('rival'))?.planId, 'gold');
    assert.match((await op.get('/dashboard/a/rival/overview')).body, /Plan <strong>gold<\/strong>/);
    // The API answers under the new plan at once (gold now allows every method).
    assert.equal((await apiCall(t, 'GET', '/scoring/email', OTHER, undefined, { email: 'x@example.com' })).status, 'success');
    const audit = (await t.store.console.listAudit({ limit: 20 })).map((e) => `${e.action} ${e.detail}`);
    assert.ok(audit.includes('account.plan rival: premium → gold'), audit.join('\n'));
    assert.ok(audit.some((a) => a.startsWith('plan.create gold: lookup/ip scoring/email; modules security; quota 2500')));
    assert.ok(audit.some((a) => a.startsWith('plan.update gold: *')));
    const csrfLess = await op.post('/dashboard/plans/assign', { account: 'rival', plan: 'premium' }, '');
    assert.equal(csrfLess.status, 403);
    assert.equal((await op.post('/dashboard/plans/assign', { account: 'rival', plan: 'premium' })).status, 303);

    const analyst = new ConsoleClient(t);
    assert.equal(await analyst.signIn({ secret: KEY }), 303);
    assert.equal((await analyst.get('/dashboard/plans')).status, 404);
    assert.equal((await analyst.post('/dashboard/plans/assign', { account: 'shop', plan: 'gold' }, (/name="_csrf" value="([^"]+)"/.exec((await analyst.get('/dashboard/a/shop/overview')).body))?.[1])).status, 404);
    assert.equal((await t.store.accounts.getAccount('shop'))?.planId, 'premium');
  });
});

describe('dataset updates started by an operator', () => {
  /** Follows an update's page until it is no longer running. */
  async function settled(op: ConsoleClient, location: string): Promise<string> {
    let page = await op.get(location);
    for (let i = 0; i < 100 && /id="update-state">running/.test(page.body); i++) {
      await new Promise((r) => setTimeout(r, 100));
      page = await op.get(location);
    }
    return page.body;
  }

  it('runs vigil data update from DATA_SOURCES_FILE in the background and shows its progress; analysts cannot start one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-dash-sources-'));
    writeFileSync(join(dir, 'tor.txt'), '# test list\n198.51.100.7\n198.51.100.8\nnot-an-address\n');
    writeFileSync(join(dir, 'sources.json'), JSON.stringify({ 'tor-exit-nodes': [{ url: join(dir, 'tor.txt'), file: 'tor-exit-nodes.txt' }] }));
    const app = await makeTestApp({ env: { DATA_SOURCES_FILE: join(dir, 'sources.json') }, seed: { accounts: [{ id: 'data', plan: 'premium', keys: [liveKey('data1')] }] } });
    try {
      const op = new ConsoleClient(app);
      assert.equal(await op.signIn({ secret: ADMIN_TOKEN }), 303);
      const model = await op.get('/dashboard/a/data/model');
      assert.match(model.body, /action="\/dashboard\/a\/data\/model\/updates\/tor-exit-nodes"/);
      assert.match(model.body, /No dataset update was started from the console yet/);
      const start = await op.post('/dashboard/a/data/model/updates/tor-exit-nodes', {});
      assert.equal(start.status, 303);
      assert.match(start.location ?? '', /^\/dashboard\/a\/data\/model\/updates\/\d+$/);
      const page = await settled(op, start.location!);
      assert.match(page, /id="update-state">done/, page);
      assert.match(page, /imported version [^:]+: 2 records, 1 rejected/);
      const after = (await op.get('/dashboard/a/data/model')).body;
      assert.match(after, /<td>tor-exit-nodes<\/td><td>[^<]+<\/td><td class="num">2<\/td>/);
      assert.match(after, /<table id="update-history">.*<td>tor-exit-nodes<\/td><td>sources<\/td><td>operator<\/td><td><span class="tag legit">done<\/span>/s);
      const analyst = new ConsoleClient(app);
      assert.equal(await analyst.signIn({ secret: liveKey('data1') }), 303);
      const refused = await analyst.post('/dashboard/a/data/model/updates/tor-exit-nodes', {});
      assert.equal(refused.status, 404);
      assert.equal((await analyst.get(start.location!)).status, 404);
      assert.doesNotMatch((await analyst.get('/dashboard/a/data/model')).body, /model\/updates|model\/imports|Update history/);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('imports a file by its path under DATA_IMPORT_DIR only, and an uploaded file; each job is stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-dash-import-'));
    const allowed = join(dir, 'allowed');
    mkdirSync(allowed);
    writeFileSync(join(allowed, 'tor-exit-nodes.txt'), '198.51.100.9\n198.51.100.10\n198.51.100.11\n');
    writeFileSync(join(dir, 'secret.txt'), '198.51.100.12\n');
    symlinkSync(join(dir, 'secret.txt'), join(allowed, 'escape.txt'));
    const off = await makeTestApp({ seed: { accounts: [{ id: 'data', plan: 'premium' }] } });
    const app = await makeTestApp({ env: { DATA_IMPORT_DIR: allowed }, seed: { accounts: [{ id: 'data', plan: 'premium' }] } });
    try {
      const noDir = new ConsoleClient(off);
      assert.equal(await noDir.signIn({ secret: ADMIN_TOKEN }), 303);
      assert.match((await noDir.get('/dashboard/a/data/model')).body, /id="import-off"/);
      const refusedOff = await noDir.post('/dashboard/a/data/model/imports', { dataset: 'tor-exit-nodes', path: join(allowed, 'tor-exit-nodes.txt') });
      assert.equal(refusedOff.status, 400);
      assert.match(refusedOff.body, /Importing a server file is off: set DATA_IMPORT_DIR/);

      const op = new ConsoleClient(app);
      assert.equal(await op.signIn({ secret: ADMIN_TOKEN }), 303);
      assert.match((await op.get('/dashboard/a/data/model')).body, /<label for="path-file">File under [^<]*allowed<\/label>/);
      for (const [path, why] of [['../secret.txt', /is outside DATA_IMPORT_DIR/], [join(dir, 'secret.txt'), /is outside DATA_IMPORT_DIR/], ['escape.txt', /is outside DATA_IMPORT_DIR/], ['missing.txt', /There is no file missing\.txt/], ['.', /is DATA_IMPORT_DIR itself/]] as const) {
        const res = await op.post('/dashboard/a/data/model/imports', { dataset: 'tor-exit-nodes', path });
        assert.equal(res.status, 400, path);
        assert.match(res.body, why, path);
      }
      assert.equal((await op.post('/dashboard/a/data/model/imports', { dataset: 'no-such-set', path: 'tor-exit-nodes.txt' })).status, 404);
      assert.equal((await app.store.console.listUpdateJobs({ limit: 10 })).length, 0, 'no job for a refused path');

      const byPath = await op.post('/dashboard/a/data/model/imports', { dataset: 'tor-exit-nodes', path: 'tor-exit-nodes.txt' });
      assert.equal(byPath.status, 303, byPath.body.slice(0, 400));
      const done = await settled(op, byPath.location!);
      assert.match(done, /id="update-state">done/, done);
      assert.match(done, /3 records, 0 rejected/);

      // The upload as the page's script sends it: the file itself, the CSRF token in a header.
      const csrf = /name="_csrf" value="([^"]+)"/.exec((await op.get('/dashboard/a/data/model')).body)![1]!;
      const upload = (headers: Record<string, string>, name = 'tor-exit-nodes.txt') => app.app.inject({
        method: 'POST', url: `/dashboard/a/data/model/uploads/tor-exit-nodes?file=${name}`, payload: Buffer.from('198.51.100.20\n198.51.100.21\n'),
        headers: { 'content-type': 'application/octet-stream', cookie: op.cookie!, ...headers },
      });
      assert.equal((await upload({})).statusCode, 403, 'no CSRF header, no upload');
      const badName = await upload({ 'x-csrf-token': csrf }, 'tor%20list.txt');
      assert.equal(badName.statusCode, 400);
      const uploaded = await upload({ 'x-csrf-token': csrf });
      assert.equal(uploaded.statusCode, 303, uploaded.body.slice(0, 400));
      const upDone = await settled(op, String(uploaded.headers.location));
      assert.match(upDone, /<dt>From<\/dt><dd>upload tor-exit-nodes\.txt<\/dd>/);
      assert.match(upDone, /2 records, 0 rejected/);

      const jobs = await app.store.console.listUpdateJobs({ limit: 10 });
      assert.deepEqual(jobs.map((j) => [j.source.replace(allowed, 'DIR'), j.state]), [['upload tor-exit-nodes.txt', 'done'], ['file DIR/tor-exit-nodes.txt', 'done']]);
      const audit = (await app.store.console.listAudit({ limit: 10 })).filter((e) => e.action === 'data.update').map((e) => e.detail.replace(allowed, 'DIR'));
      assert.deepEqual(audit.map((d) => d.replace(/\(job \d+\)/, '(job)')), ['tor-exit-nodes from upload tor-exit-nodes.txt (job)', 'tor-exit-nodes from file DIR/tor-exit-nodes.txt (job)']);
    } finally {
      await off.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a job left running by a process that died is shown interrupted after a restart', async () => {
    const app = await makeTestApp({ seed: { accounts: [{ id: 'data', plan: 'premium' }] } });
    try {
      // What a server killed during an import leaves in the store.
      const at = new Date().toISOString();
      const id = await app.store.console.insertUpdateJob({ dataset: 'tor-exit-nodes', source: 'sources', actor: 'operator', startedAt: at, heartbeatAt: at, lines: ['12:00:00 downloading'] });
      // The restarted process (same store): on the embedded store, every job still running was the dead process's.
      const restarted = new DataUpdates(app.store.console, { dataDir: app.dir, sourcesFile: undefined, importDir: undefined, clock: () => new Date(), soleInstance: true });
      assert.equal((await restarted.job(id))?.state, 'interrupted');
      assert.equal((await app.store.console.getUpdateJob(id))?.state, 'interrupted');
      const op = new ConsoleClient(app);
      assert.equal(await op.signIn({ secret: ADMIN_TOKEN }), 303);
      const page = await op.get(`/dashboard/a/data/model/updates/${id}`);
      assert.match(page.body, /id="update-state">interrupted/);
      assert.match(page.body, /stopped before it finished/);
      assert.equal(page.headers.refresh, undefined, 'an interrupted job does not reload');
      // On PostgreSQL other instances may be running it: interrupted only once its heartbeat is stale.
      const fresh = await app.store.console.insertUpdateJob({ dataset: 'asn-bgptools', source: 'sources', actor: 'operator', startedAt: at, heartbeatAt: at });
      const shared = new DataUpdates(app.store.console, { dataDir: app.dir, sourcesFile: undefined, importDir: undefined, clock: () => new Date(), soleInstance: false });
      assert.equal((await shared.job(fresh))?.state, 'running');
      const later = new DataUpdates(app.store.console, { dataDir: app.dir, sourcesFile: undefined, importDir: undefined, clock: () => new Date(Date.now() + STALE_UPDATE_MS + 1000), soleInstance: false });
      assert.equal((await later.job(fresh))?.state, 'interrupted');
    } finally {
      await app.close();
    }
  });
});

describe('console dataset updates with MaxMind credentials', () => {
  it('GeoLite2 editions are updatable and their update goes to MaxMind with the credentials, as `vigil data update` does', async () => {
    const app = await makeTestApp();
    // A stand-in for download.maxmind.com that refuses the licence key: the job fails with MaxMind's answer.
    const seen: string[] = [];
    const maxmind = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(401).end('invalid license key');
    });
    await new Promise<void>((r) => maxmind.listen(0, '127.0.0.1', r));
    try {
      const baseUrl = `http://127.0.0.1:${(maxmind.address() as AddressInfo).port}`;
      const opts = { dataDir: app.dir, sourcesFile: undefined, importDir: undefined, clock: () => new Date(), soleInstance: true };
      assert.deepEqual(new DataUpdates(app.store.console, opts).updatable(['geolite2-city', 'geolite2-asn']), []);
      const updates = new DataUpdates(app.store.console, { ...opts, maxmind: { accountId: '123456', licenseKey: 'abcDEF123_mmk', baseUrl } });
      assert.deepEqual(updates.updatable(['geolite2-city', 'geolite2-asn']), ['geolite2-city', 'geolite2-asn']);
      const id = await updates.start({ name: 'geolite2-asn', actor: 'operator' });
      await updates.idle();
      const job = await updates.job(id);
      assert.equal(job?.state, 'failed');
      assert.match(job?.error ?? '', /HTTP 401 \(check MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY\)/);
      assert.ok(seen.some((l) => l.includes('GeoLite2-ASN') && l.includes(`Basic ${Buffer.from('123456:abcDEF123_mmk').toString('base64')}`)), seen.join('\n'));
    } finally {
      await new Promise((r) => maxmind.close(r));
      await app.close();
    }
  });
});
