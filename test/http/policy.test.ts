/**
 * The policy layer over HTTP: admin changes to rules and lists change the very next answer,
 * `custom_rules_applied` lists exactly the matching rules, events are raised for live calls only,
 * reach a real webhook receiver signed, and rule testing and backtests work on logged decisions.
 * Runs through the probe declaration of test/helpers/policy-probe.ts on a real SQLite store.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../../src/policy/webhooks/sign.ts';
import { adminCall, adminData, assertAdminError } from '../helpers/admin-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';
import { withPolicyProbe } from '../helpers/policy-probe.ts';

const LIVE = liveKey('policy');
const TEST = testKey('policy');
const OTHER = liveKey('policyother');

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let t: TestApp;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const addr = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;
  t = await makeTestApp({
    endpoints: withPolicyProbe,
    seed: {
      accounts: [
        { id: 'pol', plan: 'premium', keys: [LIVE, TEST] },
        { id: 'other', plan: 'premium', keys: [OTHER] },
      ],
    },
  });
});
after(async () => {
  await t.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function lookup(key: string, country = 'DE', extra: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: '/lookup/country', query: { CountryCode: country, key, ...extra } });
  const body = JSON.parse(res.body) as Record<string, unknown>;
  assert.equal(body.status, 'success', res.body);
  return body.data as Record<string, unknown>;
}

const admin = (method: Parameters<typeof adminCall>[1], url: string, payload?: unknown) => adminCall(t, method, url, payload);

async function events(account = 'pol'): Promise<Array<Record<string, unknown>>> {
  return adminData<Array<Record<string, unknown>>>(await admin('GET', `/admin/accounts/${account}/events`));
}

async function waitFor(predicate: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('blacklists over HTTP', () => {
  it('an answer with no rules or lists says so', async () => {
    const data = await lookup(LIVE, 'AT');
    assert.deepEqual(data.custom_rules_applied, { total: 0, rules: [] });
    assert.equal(data.blacklisted, false);
  });

  it('a list entry changes the very next answer, and its removal too', async () => {
    assert.equal((await lookup(LIVE, 'NL')).blacklisted, false);
    const added = adminData<Record<string, unknown>>(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'card_country', values: ['nl'] }));
    assert.equal(added.changed, 1);
    assert.equal((await lookup(LIVE, 'NL')).blacklisted, true);
    // Only this account's answers change.
    assert.equal((await lookup(OTHER, 'NL')).blacklisted, false);
    adminData(await admin('POST', '/admin/accounts/pol/blacklists/remove', { type: 'card_country', values: ['NL'] }));
    assert.equal((await lookup(LIVE, 'NL')).blacklisted, false);
  });

  it('a text file import adds its lines and skips comments; bad lines refuse the whole file unless skipped', async () => {
    const file = '# countries\nBE\n\nLU\n';
    const imported = await t.app.inject({
      method: 'POST',
      url: '/admin/accounts/pol/blacklists/import?type=card_country',
      headers: { authorization: `Bearer ${'admin-token-0123456789'}`, 'content-type': 'text/plain' },
      payload: file,
    });
    assert.equal(imported.statusCode, 200, imported.body);
    assert.equal((JSON.parse(imported.body) as { data: { changed: number } }).data.changed, 2);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/admin/accounts/pol/blacklists/import?type=card_country',
      headers: { authorization: `Bearer ${'admin-token-0123456789'}`, 'content-type': 'text/plain' },
      payload: 'PT\nnot-a-country\n',
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal((await lookup(LIVE, 'PT')).blacklisted, false, 'nothing of a refused file is saved');
    const counts = adminData<Record<string, number>>(await admin('GET', '/admin/accounts/pol/blacklists/counts'));
    assert.equal(counts.card_country, 2);
    adminData(await admin('POST', '/admin/accounts/pol/blacklists/remove', { type: 'card_country', values: ['BE', 'LU'] }));
  });

  it('bad list input is a clear 4xx and nothing is half-saved', async () => {
    const before = adminData<Record<string, number>>(await admin('GET', '/admin/accounts/pol/blacklists/counts'));
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'ip', values: ['10.0.0.1', '10.0.0.0/33'] }), 400, 'invalid', /10\.0\.0\.0\/33/);
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'colour', values: ['red'] }), 400, 'invalid', /unknown blacklist type/);
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'ip', values: '10.0.0.1' }), 400, 'invalid_request');
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'ip', values: [] }), 400, 'invalid_request');
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'ip', values: [1234] }), 400, 'invalid_request');
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'email', values: ['x'.repeat(5000)] }), 400, 'invalid_request');
    assertAdminError(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'email', values: ["' OR 1=1 --"] }), 400, 'invalid');
    assertAdminError(await admin('POST', '/admin/accounts/nobody/blacklists', { type: 'ip', values: ['10.0.0.1'] }), 404, 'not_found');
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/accounts/pol/blacklists',
      headers: { authorization: `Bearer ${'admin-token-0123456789'}`, 'content-type': 'application/json' },
      payload: '{"type": "ip", "values": [',
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(adminData(await admin('GET', '/admin/accounts/pol/blacklists/counts')), before);
  });
});

describe('custom rules over HTTP', () => {
  const frBlacklist = { title: 'France is blocked', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'fr' }] }, action: { type: 'blacklist' } };
  let first = '';
  let second = '';

  it('a new rule applies to the very next answer and is listed in custom_rules_applied', async () => {
    assert.equal((await lookup(LIVE, 'FR')).blacklisted, false);
    const rule = adminData<{ id: string }>(await admin('POST', '/admin/accounts/pol/rules', frBlacklist), 201);
    first = rule.id;
    assert.match(first, /^CR\d+$/);
    const data = await lookup(LIVE, 'FR');
    assert.equal(data.blacklisted, true);
    assert.deepEqual(data.custom_rules_applied, { total: 1, rules: [{ id: first, title: 'France is blocked' }] });
    // Rules apply in test mode as well (no events there).
    assert.equal((await lookup(TEST, 'FR')).blacklisted, true);
    assert.equal((await lookup(LIVE, 'ES')).blacklisted, false);
  });

  it('lists exactly the matching rules in id order, and a later rule wins', async () => {
    const white = { title: 'trusted EU countries', group: 'ip', conditions: { any: [{ field: 'countryCode', op: 'in', value: ['FR', 'ES'] }, { field: 'countryName', op: 'matches', value: '(?i)^ital' }] }, action: { type: 'whitelist' } };
    second = adminData<{ id: string }>(await admin('POST', '/admin/accounts/pol/rules', white), 201).id;
    assert.ok(Number(second.slice(2)) > Number(first.slice(2)));
    const fr = await lookup(LIVE, 'FR');
    assert.deepEqual(fr.custom_rules_applied, { total: 2, rules: [{ id: first, title: 'France is blocked' }, { id: second, title: 'trusted EU countries' }] });
    assert.equal(fr.blacklisted, false, 'the later whitelist rule wins');
    const es = await lookup(LIVE, 'ES');
    assert.deepEqual(es.custom_rules_applied, { total: 1, rules: [{ id: second, title: 'trusted EU countries' }] });
  });

  it('a whitelist rule clears a list hit; a disabled rule is skipped; a deleted one is gone', async () => {
    adminData(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'customer_id', values: ['es'] }));
    assert.equal((await lookup(LIVE, 'es')).blacklisted, false, 'list hit, but the whitelist rule matched');
    adminData(await admin('POST', `/admin/accounts/pol/rules/${second}/disable`));
    assert.equal((await lookup(LIVE, 'es')).blacklisted, true);
    assert.deepEqual((await lookup(LIVE, 'es')).custom_rules_applied, { total: 0, rules: [] });
    adminData(await admin('POST', `/admin/accounts/pol/rules/${second}/enable`));
    assert.equal((await lookup(LIVE, 'es')).blacklisted, false);
    adminData(await admin('DELETE', `/admin/accounts/pol/rules/${second}`));
    assert.equal((await lookup(LIVE, 'es')).blacklisted, true);
    assertAdminError(await admin('GET', `/admin/accounts/pol/rules/${second}`), 404, 'not_found');
    adminData(await admin('POST', '/admin/accounts/pol/blacklists/remove', { type: 'customer_id', values: ['es'] }));
  });

  it('explain=yes lists the list entries and custom rules that took part', async () => {
    adminData(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'customer_id', values: ['fr'] }));
    const data = await lookup(LIVE, 'fr', { explain: 'yes' });
    const explanation = data.explanation as { contributions: unknown[] };
    assert.deepEqual(explanation.contributions, [
      { source: 'blacklist', type: 'customer_id', value: 'fr', effect: 'blacklisted' },
      { source: 'custom_rule', id: first, title: 'France is blocked', action: { type: 'blacklist' } },
    ]);
    assert.equal((await lookup(LIVE, 'fr')).explanation, undefined);
    adminData(await admin('POST', '/admin/accounts/pol/blacklists/remove', { type: 'customer_id', values: ['fr'] }));
  });

  it('replacing a rule keeps its id and changes the next answer', async () => {
    const replaced = adminData<{ id: string }>(await admin('PUT', `/admin/accounts/pol/rules/${first}`, { ...frBlacklist, title: 'Portugal is blocked', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'PT' }] } }));
    assert.equal(replaced.id, first);
    assert.equal((await lookup(LIVE, 'FR')).blacklisted, false);
    assert.equal((await lookup(LIVE, 'PT')).blacklisted, true);
  });

  it('refuses invalid rules with a clear message and saves nothing', async () => {
    const before = adminData<unknown[]>(await admin('GET', '/admin/accounts/pol/rules')).length;
    const bad: Array<[unknown, RegExp]> = [
      [{ ...frBlacklist, group: 'weather' }, /group/],
      [{ ...frBlacklist, conditions: { all: [{ field: 'colour', op: 'eq', value: 'x' }] } }, /colour/],
      [{ ...frBlacklist, conditions: { all: [{ field: 'countryCode', op: 'like', value: 'x' }] } }, /like/],
      [{ ...frBlacklist, conditions: { all: [{ field: 'countryCode', op: 'matches', value: '(unclosed' }] } }, /matches|regex|pattern|missing/i],
      [{ ...frBlacklist, action: { type: 'overwrite_score', score: 2 } }, /overwrite_score/],
      [{ ...frBlacklist, action: { type: 'explode' } }, /explode/],
      [{ ...frBlacklist, extra: true }, /extra/],
      [[], /.+/],
      [{ ...frBlacklist, title: '' }, /title/],
      [{ ...frBlacklist, conditions: [{ field: 'countryCode', op: 'eq', value: 'x' }] }, /conditions/],
    ];
    for (const [rule, why] of bad) assertAdminError(await admin('POST', '/admin/accounts/pol/rules', rule), 400, 'invalid_rule', why);
    assert.equal(adminData<unknown[]>(await admin('GET', '/admin/accounts/pol/rules')).length, before);
  });
});

describe('events over HTTP', () => {
  it('live calls that end blacklisted raise an event; test keys and mode=test never do', async () => {
    adminData(await admin('POST', '/admin/accounts/pol/blacklists', { type: 'card_country', values: ['SE'] }));
    const before = (await events()).length;
    await lookup(TEST, 'SE');
    await lookup(LIVE, 'SE', { mode: 'test' });
    assert.equal((await events()).length, before, 'no event in test mode');
    await lookup(LIVE, 'SE', { userID: 'user-42' });
    const after = await events();
    assert.equal(after.length, before + 1);
    const newest = after[0];
    assert.ok(newest);
    assert.equal(newest.kind, 'suspicious_ip');
    assert.equal(newest.risk, 90);
    assert.equal(newest.userId, 'user-42');
    assert.equal(newest.operation, 'lookup.country');
    assert.equal(typeof newest.eventId, 'number');
    // Not blacklisted: no event.
    await lookup(LIVE, 'DK');
    assert.equal((await events()).length, before + 1);
  });

  it('filters, one event in full, CSV export', async () => {
    const list = adminData<Array<{ eventId: number }>>(await admin('GET', '/admin/accounts/pol/events?kind=suspicious_ip&userID=user-42&riskMin=50'));
    assert.equal(list.length, 1);
    const id = list[0]?.eventId;
    assert.equal(adminData<unknown[]>(await admin('GET', '/admin/accounts/pol/events?kind=invalid_bin')).length, 0);
    assert.equal(adminData<unknown[]>(await admin('GET', '/admin/accounts/pol/events?riskMax=10')).length, 0);
    assert.equal(adminData<unknown[]>(await admin('GET', '/admin/accounts/pol/events?from=2999-01-01T00:00:00Z')).length, 0);
    const one = adminData<{ eventId: number; summary: unknown; deliveries: unknown[] }>(await admin('GET', `/admin/accounts/pol/events/${id}`));
    assert.equal(one.eventId, id);
    assert.deepEqual(one.summary, { countryCode: 'SE', blacklisted: true });
    assertAdminError(await admin('GET', '/admin/accounts/pol/events/999999'), 404, 'not_found');
    assertAdminError(await admin('GET', '/admin/accounts/pol/events/abc'), 400, 'invalid');
    assertAdminError(await admin('GET', '/admin/accounts/pol/events?kind=nope'), 400, 'invalid_request');
    const csv = await admin('GET', '/admin/accounts/pol/events/export.csv?userID=user-42');
    assert.equal(csv.http, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.raw.trim().split('\r\n');
    assert.equal(lines[0], 'event_id,kind,risk,subject,user_id,operation,created_at,summary');
    assert.equal(lines.length, 2);
    assert.match(lines[1] ?? '', /suspicious_ip,90,SE,user-42,lookup\.country/);
  });

  it('events are delivered to a real webhook, signed as decisions.md says', async () => {
    const hook = adminData<{ id: string; secret: string }>(await admin('POST', '/admin/accounts/pol/webhooks', { url: receiverUrl }), 201);
    assert.match(hook.secret, /^whsec_/);
    const listed = adminData<Array<Record<string, unknown>>>(await admin('GET', '/admin/accounts/pol/webhooks'));
    assert.equal(listed.length, 1);
    assert.equal(listed[0]?.secret, undefined, 'secrets are never listed');
    received.length = 0;
    await lookup(LIVE, 'SE', { userID: 'user-7' });
    await waitFor(() => received.length === 1);
    const got = received[0];
    assert.ok(got);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], 'vigil-webhooks/1');
    assert.equal(got.headers['x-webhook-id'], hook.id);
    const signature = String(got.headers['x-webhook-signature']);
    assert.ok(verifySignature(signature, got.body, hook.secret, 300, Math.floor(Date.now() / 1000)));
    assert.ok(!verifySignature(signature, got.body, 'whsec_wrong_secret_000000000', 300, Math.floor(Date.now() / 1000)));
    const payload = JSON.parse(got.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(payload).sort(), ['created_at', 'data', 'event', 'event_id', 'mode', 'user_id']);
    assert.equal(payload.event, 'suspicious_ip');
    assert.equal(payload.mode, 'live');
    assert.equal(payload.user_id, 'user-7');
    assert.deepEqual(payload.data, { countryCode: 'SE', blacklisted: true });
    const eventId = payload.event_id as number;
    const deliveryOf = async () => adminData<{ deliveries: Array<{ status: string }>; attempts: Array<{ httpStatus: number }> }>(await admin('GET', `/admin/accounts/pol/events/${eventId}`));
    for (let i = 0; i < 100 && (await deliveryOf()).deliveries[0]?.status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 20));
    const full = await deliveryOf();
    assert.deepEqual(full.deliveries.map((d) => d.status), ['delivered']);
    assert.deepEqual(full.attempts.map((a) => a.httpStatus), [204]);

    // Redelivery on request sends the same event again.
    adminData(await admin('POST', `/admin/accounts/pol/events/${eventId}/redeliver`, {}), 202);
    await waitFor(() => received.length === 2);
    assert.equal((JSON.parse(received[1]?.body ?? '{}') as { event_id: number }).event_id, eventId);

    const rotated = adminData<{ secret: string }>(await admin('POST', `/admin/accounts/pol/webhooks/${hook.id}/rotate-secret`));
    assert.notEqual(rotated.secret, hook.secret);
    assertAdminError(await admin('POST', '/admin/accounts/pol/webhooks', { url: 'ftp://example.com/x' }), 400, 'invalid');
    assertAdminError(await admin('POST', '/admin/accounts/pol/webhooks', { url: 'not a url' }), 400, 'invalid');
    adminData(await admin('DELETE', `/admin/accounts/pol/webhooks/${hook.id}`));
    assert.equal(adminData<unknown[]>(await admin('GET', '/admin/accounts/pol/webhooks')).length, 0);
  });
});

describe('rule testing and backtests', () => {
  it('tests a draft rule on a sample, condition by condition', async () => {
    const rule = { title: 'Tor from abroad', group: 'ip', conditions: { all: [{ field: 'security.isTor', op: 'eq', value: true }, { field: 'countryCode', op: 'neq', value: 'DE' }] }, action: { type: 'blacklist' } };
    const hit = adminData<{ matched: boolean; wouldApply: unknown }>(await admin('POST', '/admin/accounts/pol/rules/test', { rule, result: { countryCode: 'FR', security: { isTor: true } } }));
    assert.equal(hit.matched, true);
    assert.deepEqual(hit.wouldApply, { type: 'blacklist' });
    const miss = adminData<{ matched: boolean; wouldApply: unknown; conditions: { verdict: boolean; all: Array<{ verdict: boolean; field: string }> } }>(
      await admin('POST', '/admin/accounts/pol/rules/test', { rule, result: { countryCode: 'DE', security: { isTor: true } } }),
    );
    assert.equal(miss.matched, false);
    assert.equal(miss.wouldApply, null);
    assert.deepEqual(miss.conditions.all.map((c) => [c.field, c.verdict]), [['security.isTor', true], ['countryCode', false]]);
    assertAdminError(await admin('POST', '/admin/accounts/pol/rules/test', { ruleId: 'CR999', result: {} }), 404, 'not_found');
    assertAdminError(await admin('POST', '/admin/accounts/pol/rules/test', { result: {} }), 400, 'invalid');
  });

  it('backtests a draft rule over the logged live decisions of a period', async () => {
    await lookup(LIVE, 'JP');
    await lookup(LIVE, 'JP');
    await lookup(LIVE, 'KR');
    await lookup(TEST, 'JP'); // test mode is not logged
    await t.recorder.flush();
    const rule = { title: 'Japan', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'JP' }] }, action: { type: 'blacklist' } };
    const result = adminData<{ evaluated: number; matched: number; examples: Array<{ input: Record<string, unknown> }>; labels: Record<string, unknown> }>(
      await admin('POST', '/admin/accounts/pol/rules/backtest', { rule, from: '2000-01-01T00:00:00Z', to: '2999-01-01T00:00:00Z' }),
    );
    assert.ok(result.evaluated >= 3);
    assert.equal(result.matched, 2);
    assert.equal(result.examples.length, 2);
    assert.deepEqual(result.examples[0]?.input, { CountryCode: 'JP' });
    // The account has no feedback labels: nothing is labelled, precision and recall unknown (test/http/backtest-labels.test.ts).
    assert.deepEqual(result.labels, { labelled: 0, fraud: 0, legit: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, precision: null, recall: null });
    const none = adminData<{ evaluated: number }>(await admin('POST', '/admin/accounts/pol/rules/backtest', { rule, from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z' }));
    assert.equal(none.evaluated, 0);
    assertAdminError(await admin('POST', '/admin/accounts/pol/rules/backtest', { rule, from: 'yesterday', to: 'today' }), 400, 'invalid_request');
  });
});
