/**
 * The three feedback methods over HTTP on a real SQLite store: the spec's two state tables as table
 * tests (order and retries included), labels by event_id, bulk counts and per-item errors, input
 * errors, test mode, and the effects of labels on the email, phone, IP and payment checks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCall, adminData } from '../helpers/admin-client.ts';
import { apiCall } from '../helpers/api-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('fb');
const TKEY = testKey('fb');
const AKEY = liveKey('fbauto');

let t: TestApp;
before(async () => {
  t = await makeTestApp({
    seed: {
      accounts: [
        { id: 'fb', plan: 'premium', keys: [KEY, TKEY] },
        { id: 'fbauto', plan: 'premium', keys: [AKEY], settings: { autoBlacklistConfirmedFraud: true, dailyDeletionLimit: 100 } },
      ],
    },
  });
});
after(() => t.close());

interface Outcome {
  transaction_id: string;
  outcome: string;
  status: string;
  matched: number;
  label: string;
}

const pay = (body: unknown, key = KEY) => apiCall<Outcome>(t, 'POST', '/feedback/payment', key, body);
const label = (body: unknown, key = KEY) => apiCall<Record<string, unknown>>(t, 'POST', '/feedback/event', key, body);
const score = (data: Record<string, unknown>, key = KEY, query: Record<string, string> = {}) =>
  apiCall<{ score: number; rules: Array<{ id: string }> }>(t, 'POST', '/scoring/payment', key, { data }, query);
const ruleIds = (a: { data: { rules: Array<{ id: string }> } }) => a.data.rules.map((r) => r.id);

describe('payment outcome record: the spec\'s state table', () => {
  it('no record + scored → applied, created, matched counts every scoring; outcome written on each', async () => {
    await score({ transaction_id: 'st-1', customer_id: 'st-c1' });
    await score({ transaction_id: 'st-1', customer_id: 'st-c1' });
    const a = await pay({ transaction_id: 'st-1', outcome: 'approved' });
    assert.deepEqual(a.data, { transaction_id: 'st-1', outcome: 'approved', status: 'applied', matched: 2, label: 'created' });
    assert.deepEqual((await t.store.scorings.byTransaction('fb', 'st-1')).map((s) => s.outcome), ['approved', 'approved']);
  });

  it('no record + never scored → pending; applied automatically when the transaction is scored', async () => {
    const a = await pay({ transaction_id: 'st-2', outcome: 'chargeback', customer_id: 'st-c2' });
    assert.deepEqual(a.data, { transaction_id: 'st-2', outcome: 'chargeback', status: 'pending', matched: 0, label: 'created' });
    await score({ transaction_id: 'st-2', customer_id: 'st-c2' });
    const [s] = await t.store.scorings.byTransaction('fb', 'st-2');
    assert.equal(s?.outcome, 'chargeback');
    const stored = await t.store.outcomes.get('fb', 'st-2');
    assert.equal(stored?.status, 'applied');
    // A retry now reports the applied state, unchanged.
    assert.deepEqual((await pay({ transaction_id: 'st-2', outcome: 'chargeback' })).data, { transaction_id: 'st-2', outcome: 'chargeback', status: 'applied', matched: 1, label: 'unchanged' });
  });

  // [current, incoming, expected outcome after, label]
  const table: Array<[string, string, string, string]> = [
    ['approved', 'approved', 'approved', 'unchanged'],
    ['chargeback', 'approved', 'chargeback', 'unchanged'],
    ['chargeback', 'declined', 'chargeback', 'unchanged'],
    ['chargeback', 'refunded', 'chargeback', 'unchanged'],
    ['fraud_confirmed', 'approved', 'fraud_confirmed', 'unchanged'],
    ['fraud_confirmed', 'refunded', 'fraud_confirmed', 'unchanged'],
    ['chargeback', 'legit_confirmed', 'legit_confirmed', 'updated'],
    ['fraud_confirmed', 'legit_confirmed', 'legit_confirmed', 'updated'],
    ['approved', 'chargeback', 'chargeback', 'updated'],
    ['approved', 'refunded', 'refunded', 'updated'],
    ['declined', 'fraud_confirmed', 'fraud_confirmed', 'updated'],
    ['chargeback', 'fraud_confirmed', 'fraud_confirmed', 'updated'],
  ];
  table.forEach(([current, incoming, expected, lbl], i) => {
    it(`${current} then ${incoming} → ${expected} (${lbl})`, async () => {
      const tx = `tbl-${i}`;
      await score({ transaction_id: tx });
      assert.equal((await pay({ transaction_id: tx, outcome: current })).data.label, 'created');
      const a = await pay({ transaction_id: tx, outcome: incoming });
      assert.equal(a.status, 'success', a.raw);
      assert.equal(a.data.outcome, expected);
      assert.equal(a.data.label, lbl);
      assert.equal(a.data.status, 'applied');
      assert.equal((await t.store.scorings.byTransaction('fb', tx))[0]?.outcome, expected);
      // Retrying the same call is a no-op.
      assert.equal((await pay({ transaction_id: tx, outcome: incoming })).data.label, lbl === 'updated' ? 'unchanged' : 'unchanged');
    });
  });

  it('a declined outcome with a fraud reason counts as fraud for learning; without one it does not', async () => {
    await score({ transaction_id: 'dec-1', customer_id: 'dec-c' });
    await pay({ transaction_id: 'dec-1', outcome: 'declined', reason: 'Suspected fraud: stolen card' });
    assert.equal((await t.store.outcomes.get('fb', 'dec-1'))?.fraud, true);
    await score({ transaction_id: 'dec-2', customer_id: 'dec-d' });
    await pay({ transaction_id: 'dec-2', outcome: 'declined', reason: 'insufficient funds' });
    assert.equal((await t.store.outcomes.get('fb', 'dec-2'))?.fraud, false);
  });

  it('the identities of a never-scored transaction still feed reputation', async () => {
    await pay({ transaction_id: 'ghost-1', outcome: 'fraud_confirmed', customer_email: 'ghost@example.com', customer_device_id: 'ghost-device' });
    // A later, different transaction on the same device is a reuse after a fraud label.
    const a = await score({ transaction_id: 'ghost-2', customer_device_id: 'ghost-device' });
    assert.ok(ruleIds(a).includes('SVC2002'), a.raw);
    const b = await score({ transaction_id: 'ghost-3', customer_email: 'ghost@example.com' });
    assert.ok(ruleIds(b).includes('SVC2001'), b.raw);
  });

  it('invalid payment feedback → 131 with the field named; nothing stored', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ outcome: 'approved' }, /transaction_id/],
      [{ transaction_id: 'x' }, /outcome/],
      [{ transaction_id: 'x', outcome: 'maybe' }, /outcome/],
      [{ transaction_id: '', outcome: 'approved' }, /transaction_id/],
      [{ transaction_id: { $ne: 1 }, outcome: 'approved' }, /transaction_id/],
      [{ transaction_id: 'x', outcome: 'approved', occurred_at: 'yesterday' }, /occurred_at/],
      [{ transaction_id: 'x', outcome: 'approved', reason: 'r'.repeat(5000) }, /reason/],
      [[], /object/],
      ['{"transaction_id":', /JSON/],
    ];
    for (const [body, field] of bad) {
      const a = await pay(body);
      assert.equal(a.code, 131, a.raw);
      assert.match(String(a.description), field);
    }
    assert.equal(await t.store.outcomes.get('fb', 'x'), null);
  });
});

describe('identity label: the spec\'s state table', () => {
  it('none → created; same again → unchanged; the other → updated; values are masked', async () => {
    const body = { type: 'email', value: 'Label.Me@Example.com', label: 'fraud', reason: 'chargeback ring', source: 'analyst' };
    const first = await label(body);
    assert.equal(first.status, 'success', first.raw);
    assert.equal(first.data.status, 'created');
    assert.equal(first.data.type, 'email');
    assert.equal(first.data.label, 'fraud');
    assert.notEqual(first.data.value, 'label.me@example.com');
    assert.match(String(first.data.value), /\*/);
    assert.equal((await label(body)).data.status, 'unchanged');
    assert.equal((await label({ ...body, label: 'legit' })).data.status, 'updated');
    assert.equal((await label({ ...body, label: 'legit' })).data.status, 'unchanged');
  });

  it('every identity type is accepted; invalid values, a missing label or an unknown type → 131', async () => {
    for (const [type, value] of [['ip', '2001:db8::1'], ['email_domain', 'bad.example'], ['phone', '+44 7911 123456'], ['card_bin', '411111'], ['customer_id', 'c-9'], ['device_id', 'd-9'], ['text', 'buy followers now']]) {
      const a = await label({ type, value, label: 'fraud' });
      assert.equal(a.data.status, 'created', `${type}: ${a.raw}`);
    }
    for (const body of [{ type: 'ip', value: '999.1.1.1', label: 'fraud' }, { type: 'email', value: 'jane@example.com' }, { type: 'iban', value: 'x', label: 'fraud' }, { type: 'email', value: 'jane@example.com', label: 'evil' }, {}]) {
      assert.equal((await label(body)).code, 131);
    }
  });

  it('a fraud label marks the email and the phone invalid and rates the IP high risk; a legit label offsets it', async () => {
    await label({ type: 'email', value: 'flagged@example.com', label: 'fraud' });
    const email = await apiCall<Record<string, unknown>>(t, 'GET', '/scoring/email', KEY, undefined, { email: 'flagged@example.com' });
    assert.equal(email.data.isValid, false, email.raw);
    await label({ type: 'phone', value: '+447911123999', label: 'fraud' });
    const phone = await apiCall<Record<string, unknown>>(t, 'GET', '/scoring/phone', KEY, undefined, { phone: '+447911123999', countryCode: 'GB' });
    assert.equal(phone.data.isValid, false, phone.raw);
    assert.match(String(phone.data.reason), /fraud/);
    await label({ type: 'ip', value: '81.2.69.200', label: 'fraud' });
    const ip = await apiCall<Record<string, unknown>>(t, 'GET', '/lookup/ip', KEY, undefined, { ip: '81.2.69.200', userID: 'ip-label-user' });
    assert.equal(ip.status, 'success', ip.raw);
    const events = await t.store.events.listEvents('fb', { kind: 'suspicious_ip', userId: 'ip-label-user' });
    assert.equal(events.length, 1);
    assert.ok(events[0]!.risk >= 90);
    // Legit offsets the fraud evidence: the phone is valid again.
    await label({ type: 'phone', value: '+447911123999', label: 'legit' });
    const again = await apiCall<Record<string, unknown>>(t, 'GET', '/scoring/phone', KEY, undefined, { phone: '+447911123999', countryCode: 'GB' });
    assert.equal(again.data.isValid, true, again.raw);
  });

  it('a label on a customer fires SVC2001 on their next payment; on a card, SVC2002', async () => {
    await label({ type: 'customer_id', value: 'svc-cust', label: 'fraud' });
    assert.ok(ruleIds(await score({ customer_id: 'svc-cust' })).includes('SVC2001'));
    await label({ type: 'card_bin', value: '400005', label: 'fraud' });
    assert.ok(ruleIds(await score({ card_number: '4000056655665556' })).includes('SVC2002'));
    assert.ok(!ruleIds(await score({ customer_id: 'svc-clean', card_number: '5555555555554444' })).some((r) => r.startsWith('SVC')));
  });

  it('label by event_id: unknown id → 131; a fraud_payment event labels its transaction fraud_confirmed or legit_confirmed', async () => {
    assert.equal((await label({ event_id: 999999, label: 'fraud' })).code, 131);
    // Score high enough to raise fraud_payment: blacklisted customer.
    await t.policy.lists.add('fb', 'customer_id', ['evt-cust']);
    await score({ transaction_id: 'evt-tx', customer_id: 'evt-cust', customer_useragent: 'curl/8' }, KEY, { userID: 'evt-user' });
    const [event] = await t.store.events.listEvents('fb', { kind: 'fraud_payment', userId: 'evt-user' });
    assert.ok(event, 'fraud_payment raised');
    const a = await label({ event_id: event.eventId, label: 'fraud' });
    assert.equal(a.status, 'success', a.raw);
    assert.deepEqual(a.data, { event_id: event.eventId, label: 'fraud', status: 'created' });
    assert.equal((await t.store.outcomes.get('fb', 'evt-tx'))?.outcome, 'fraud_confirmed');
    assert.equal((await label({ event_id: event.eventId, label: 'fraud' })).data.status, 'unchanged');
    const legit = await label({ event_id: event.eventId, label: 'legit' });
    assert.equal(legit.data.status, 'updated');
    assert.equal((await t.store.outcomes.get('fb', 'evt-tx'))?.outcome, 'legit_confirmed');
  });

  it('with autoBlacklistConfirmedFraud on, a fraud label joins the confirmed_fraud list and feeds payments', async () => {
    await label({ type: 'device_id', value: 'auto-dev', label: 'fraud' }, AKEY);
    const entries = await t.store.policy.listBlacklist('fbauto', { type: 'confirmed_fraud' });
    assert.equal(entries.length, 1);
    assert.match(entries[0]!.value, /^device_id:[0-9a-f]{64}$/);
    assert.ok(!entries[0]!.value.includes('auto-dev'));
    // Off for the other account.
    await label({ type: 'device_id', value: 'auto-dev', label: 'fraud' });
    assert.equal((await t.store.policy.listBlacklist('fb', { type: 'confirmed_fraud' })).length, 0);
  });
});

describe('the confirmed_fraud list in the IP, email and phone answers (issue 25 item 7)', () => {
  // Spec: `blacklisted` is "true when a custom rule or one of the account's blacklists matched"; with
  // autoBlacklistConfirmedFraud on, a fraud label puts the identity on the account's confirmed_fraud list.
  const get = (path: string, query: Record<string, string>, key: string) => apiCall<Record<string, unknown>>(t, 'GET', path, key, undefined, query);
  const cases: Array<{ type: string; value: string; path: string; query: Record<string, string>; read: (d: Record<string, unknown>) => unknown }> = [
    { type: 'ip', value: '198.51.100.77', path: '/lookup/ip', query: { ip: '198.51.100.77', params: 'security' }, read: (d: Record<string, unknown>) => (d.security as Record<string, unknown>).blacklisted },
    { type: 'ip', value: '2001:db8::77', path: '/lookup/ip/threats', query: { ip: '2001:0DB8:0:0::77' }, read: (d: Record<string, unknown>) => (d.threats as Record<string, unknown>).blacklisted },
    { type: 'email', value: 'Conf.Fraud@example.com', path: '/scoring/email', query: { email: 'conf.fraud@example.com' }, read: (d: Record<string, unknown>) => d.blacklisted },
    { type: 'phone', value: '+44 7700 900123', path: '/scoring/phone', query: { phone: '07700900123', countryCode: 'GB' }, read: (d: Record<string, unknown>) => d.blacklisted },
  ];
  for (const c of cases) {
    it(`${c.path}: blacklisted after a fraud label on ${c.type} with the setting on, not with it off`, async () => {
      const before = await get(c.path, c.query, AKEY);
      assert.equal(before.status, 'success', before.raw);
      assert.equal(c.read(before.data), false);
      for (const key of [AKEY, KEY]) assert.equal((await label({ type: c.type, value: c.value, label: 'fraud' }, key)).status, 'success');
      const on = await get(c.path, { ...c.query, explain: 'yes' }, AKEY);
      assert.equal(on.status, 'success', on.raw);
      assert.equal(c.read(on.data), true, on.raw);
      // The explanation names the list, never the value itself.
      assert.match(on.raw, /"type":"confirmed_fraud"/);
      const off = await get(c.path, c.query, KEY);
      assert.equal(c.read(off.data), false, off.raw);
    });
  }

  it('deleting the user takes the address off the list, and blacklisted is false again', async () => {
    const q = { email: 'gone.fraud@example.com' };
    await label({ type: 'email', value: 'gone.fraud@example.com', label: 'fraud' }, AKEY);
    assert.equal((await get('/scoring/email', q, AKEY)).data.blacklisted, true);
    const del = await apiCall<Record<string, number>>(t, 'DELETE', '/account/users/delete', AKEY, { value: 'gone.fraud@example.com' });
    assert.equal(del.status, 'success', del.raw);
    assert.equal((await get('/scoring/email', q, AKEY)).data.blacklisted, false);
  });
});

describe('user deletion and the confirmed_fraud list', () => {
  it('deleting a user removes the confirmed_fraud entries of their identities and of their transactions', async () => {
    await score({ transaction_id: 'cf-del-1', customer_email: 'cf.del@example.com', customer_device_id: 'cf-del-device' }, AKEY);
    await pay({ transaction_id: 'cf-del-1', outcome: 'chargeback' }, AKEY);
    await label({ type: 'email', value: 'cf.del@example.com', label: 'fraud' }, AKEY);
    const before = await t.store.policy.listBlacklist('fbauto', { type: 'confirmed_fraud' });
    assert.ok(before.some((e) => e.value.startsWith('device_id:')) && before.some((e) => e.value.startsWith('email:')), JSON.stringify(before));
    const del = await apiCall<Record<string, number>>(t, 'DELETE', '/account/users/delete', AKEY, { value: 'cf.del@example.com' });
    assert.equal(del.status, 'success', del.raw);
    const after = await t.store.policy.listBlacklist('fbauto', { type: 'confirmed_fraud' });
    const gone = before.filter((e) => !after.some((a) => a.value === e.value));
    assert.ok(gone.some((e) => e.value.startsWith('device_id:')) && gone.some((e) => e.value.startsWith('email:')), JSON.stringify(after));
  });
});

describe('POST /feedback/bulk', () => {
  it('items in order, each independent; counts add up; a re-send is idempotent', async () => {
    await score({ transaction_id: 'bulk-1' });
    const items = [
      { kind: 'payment', transaction_id: 'bulk-1', outcome: 'approved' },
      { transaction_id: 'bulk-2', outcome: 'chargeback' },
      { kind: 'event', type: 'email', value: 'bulk@example.com', label: 'fraud' },
      { type: 'ip', value: 'not-an-ip', label: 'fraud' },
      { kind: 'refund', transaction_id: 'bulk-3' },
      { kind: 'payment', outcome: 'approved' },
    ];
    const a = await apiCall<Record<string, unknown> & { results: Array<Record<string, unknown>> }>(t, 'POST', '/feedback/bulk', KEY, { items });
    assert.equal(a.status, 'success', a.raw);
    const d = a.data;
    assert.equal(d.received, 6);
    assert.equal(d.created, 2);
    assert.equal(d.pending, 1);
    assert.equal(d.failed, 3);
    assert.equal(Number(d.created) + Number(d.updated) + Number(d.unchanged) + Number(d.pending) + Number(d.failed), d.received);
    assert.deepEqual(d.results.map((r) => [r.index, r.kind, r.status]), [
      [0, 'payment', 'applied'], [1, 'payment', 'pending'], [2, 'event', 'created'], [3, 'event', 'error'], [4, null, 'error'], [5, 'payment', 'error'],
    ]);
    for (const r of d.results.filter((x) => x.status === 'error')) {
      assert.equal(r.code, 131);
      assert.ok(String(r.description).length > 10);
    }
    const again = await apiCall<Record<string, number>>(t, 'POST', '/feedback/bulk', KEY, { items });
    // Every bucket counts each item once: a retried pending item is unchanged, no longer new pending.
    assert.equal(again.data.unchanged, 3);
    assert.equal(again.data.pending, 0);
    assert.equal(again.data.created, 0);
    assert.equal(again.data.failed, 3);
  });

  it('1000 items are accepted; 1001 → 132; missing or empty items → 131', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ transaction_id: `many-${i}`, outcome: 'approved' }));
    const ok = await apiCall<Record<string, number>>(t, 'POST', '/feedback/bulk', KEY, { items: many });
    assert.equal(ok.data.received, 1000);
    assert.equal(ok.data.pending, 1000);
    assert.equal((await apiCall(t, 'POST', '/feedback/bulk', KEY, { items: [...many, many[0]] })).code, 132);
    for (const body of [{}, { items: [] }, { items: 'x' }, [], 'nope']) assert.equal((await apiCall(t, 'POST', '/feedback/bulk', KEY, body)).code, 131);
  });

  it('a body nested past 64 levels or over 2 MiB → 131 saying which (every feedback method)', async () => {
    const deep = `{"items": [{"transaction_id": "deep-1", "outcome": "approved", "x": ${'['.repeat(4500)}${']'.repeat(4500)}}]}`;
    const big = JSON.stringify({ transaction_id: 'big-1', outcome: 'approved', note: 'x'.repeat(3 * 1024 * 1024) });
    for (const path of ['/feedback/bulk', '/feedback/payment', '/feedback/event']) {
      const d = await apiCall(t, 'POST', path, KEY, deep);
      assert.equal(d.code, 131, d.raw);
      assert.match(String(d.description), /nests objects and arrays too deeply: at most 64 levels/);
      const b = await apiCall(t, 'POST', path, KEY, big);
      assert.equal(b.code, 131, b.raw);
      assert.match(String(b.description), /too large/);
    }
  });

  it('a bulk call counts once toward the flood limit and never toward the quota', async () => {
    await t.accounts.upsertPlan({ id: 'fbflood', methods: ['*'], modules: [], monthlyQuota: 1, flood: { limit: 2, windowSeconds: 86400 } });
    const acct = await t.accounts.createAccount({ plan: 'fbflood' });
    const key = (await t.accounts.createKey(acct.id, 'live')).key;
    const items = Array.from({ length: 50 }, (_, i) => ({ transaction_id: `fl-${i}`, outcome: 'approved' }));
    assert.equal((await apiCall(t, 'POST', '/feedback/bulk', key, { items })).status, 'success');
    assert.equal((await apiCall(t, 'POST', '/feedback/bulk', key, { items })).status, 'success');
    assert.equal((await apiCall(t, 'POST', '/feedback/bulk', key, { items })).code, 106);
  });
});

describe('the model through the admin API', () => {
  it('a chargeback trains the account model: weights and history are readable; unknown accounts are 404', async () => {
    await score({ transaction_id: 'model-1', customer_id: 'model-c', customer_useragent: 'curl/8' });
    await pay({ transaction_id: 'model-1', outcome: 'chargeback' });
    const model = await adminCall(t, 'GET', '/admin/accounts/fb/model');
    assert.equal(model.http, 200, model.raw);
    const m = adminData<{ algorithm: string; weights: Array<{ feature: string; weight: number }> }>(model);
    assert.equal(m.algorithm, 'ftrl-proximal');
    assert.ok(m.weights.length > 0);
    const history = adminData<{ updates: Array<{ origin: string; label: number; before: number }> }>(await adminCall(t, 'GET', '/admin/accounts/fb/model/history?limit=500'));
    const update = history.updates.find((u) => u.origin === 'payment:model-1');
    assert.ok(update, 'history names the transaction that taught it');
    assert.equal(update.label, 1);
    assert.ok(update.before > 0 && update.before < 1);
    assert.equal((await adminCall(t, 'GET', '/admin/accounts/nobody/model')).http, 404);
    assert.equal((await adminCall(t, 'GET', '/admin/accounts/fb/model/history?limit=0')).http, 400);
  });
});

describe('test mode', () => {
  it('validates and stores nothing', async () => {
    assert.equal((await pay({ transaction_id: 'tm-1', outcome: 'chargeback' }, TKEY)).status, 'success');
    assert.equal((await pay({ transaction_id: 'tm-1', outcome: 'nope' }, TKEY)).code, 131);
    assert.equal(await t.store.outcomes.get('fb', 'tm-1'), null);
    assert.equal((await label({ type: 'customer_id', value: 'tm-cust', label: 'fraud' }, TKEY)).data.status, 'created');
    assert.equal((await label({ type: 'customer_id', value: 'tm-cust', label: 'fraud' }, TKEY)).data.status, 'created');
    const bulk = await apiCall<Record<string, number>>(t, 'POST', '/feedback/bulk', TKEY, { items: [{ transaction_id: 'tm-2', outcome: 'approved' }] });
    assert.equal(bulk.data.received, 1);
    assert.equal(await t.store.outcomes.get('fb', 'tm-2'), null);
    assert.ok(!ruleIds(await score({ customer_id: 'tm-cust' })).includes('SVC2001'));
  });
});
