/**
 * POST /scoring/payment over HTTP on a real SQLite store: the payment result, explain sums, input
 * errors (malformed, empty, oversized, wrong-type, hostile), test mode, velocity windows, the
 * account's lists and custom payment rules, the fraud_payment event, and what is stored (never a
 * full card number).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiCall } from '../helpers/api-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('pay');
const TKEY = testKey('pay');
const LKEY = liveKey('paylists');
const CARD = '4111111111111111';

interface PaymentData {
  score: number;
  rules: Array<{ id: string; description: string }>;
  rulesChecked: number;
  rulesDetected: number;
  custom_rules_applied: { total: number; rules: Array<{ id: string; title: string }> };
  explanation?: { contributions: Array<{ source: string; id: string; points?: number }> };
}

const FULL = {
  action: 'purchase', website_domain: 'shop.example', website_name: 'Shop', merchant_id: 12, shipment_id: 'sh-1',
  transaction_id: 'ord-1', transaction_amount: '49.90', transaction_currency: 'eur',
  cart_items: [{ item_id: 1, item_name: 'Mug', item_quantity: '2', item_price: 24.95, item_category_id: 'kitchen' }],
  isDigitalProducts: false, coupon: 'WELCOME', customer_id: 'cust-1', customer_firstname: 'Jane', customer_lastname: 'Doe', customer_pob: 'London',
  customer_ip: '81.2.69.160', customer_country: 'gb', customer_region: 'England', customer_city: 'London', customer_zip: 'SW1A 1AA',
  customer_street: '1 Main St', customer_street2: 'Flat 2', customer_latitude: 51.5, customer_longitude: -0.12, customer_device_id: 'dev-1',
  customer_phone: '+447911123456', customer_registration_date: 1500000000, customer_balance: '10.5', customer_dob: '1990-01-01',
  customer_email: 'jane.doe@example.com', customer_2fa: true,
  customer_useragent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  shipping_country: 'GB', shipping_city: 'London', shipping_zip: 12345, shipping_latitude: 51.5, shipping_longitude: -0.12,
  billing_country: 'GB', billing_city: 'London', billing_zip: 'SW1A 1AA', billing_latitude: 51.5, billing_longitude: -0.12,
  payment_type: 'cards', card_name: 'JANE DOE', card_number: CARD, cvv_result: true,
};

let t: TestApp;
before(async () => {
  t = await makeTestApp({
    seed: {
      accounts: [
        { id: 'pay', plan: 'premium', keys: [KEY, TKEY] },
        {
          id: 'paylists', plan: 'premium', keys: [LKEY],
          blacklists: [
            { type: 'ip', values: ['203.0.113.0/24'] }, { type: 'email_domain', values: ['bad.example'] }, { type: 'phone', values: ['447700900123'] },
            { type: 'card_bin', values: ['555555'] }, { type: 'customer_id', values: ['banned-1'] },
          ],
          customRules: [
            { id: 'CR101', title: 'big orders to review', group: 'payment', enabled: true, conditions: { all: [{ field: 'input.transaction_amount', op: 'gte', value: 5000 }] }, action: { type: 'overwrite_score', score: 75 } },
            { id: 'CR102', title: 'coupon abuse', group: 'payment', enabled: true, conditions: { all: [{ field: 'input.coupon', op: 'eq', value: 'FREE100' }] }, action: { type: 'blacklist' } },
          ],
        },
      ],
    },
  });
});
after(() => t.close());

const score = (data: Record<string, unknown>, query: Record<string, string> = {}, key = KEY) => apiCall<PaymentData>(t, 'POST', '/scoring/payment', key, { data }, query);
const ids = (d: PaymentData) => d.rules.map((r) => r.id);

describe('POST /scoring/payment: the result', () => {
  it('every field of the spec is accepted; the result has the spec shape', async () => {
    const a = await score({ ...FULL, transaction_id: 'shape-1' });
    assert.equal(a.status, 'success', a.raw);
    assert.ok(Number.isInteger(a.body.executionTime));
    const d = a.data;
    assert.ok(d.score >= 0 && d.score <= 100);
    assert.equal(d.rulesDetected, d.rules.length);
    assert.ok(Number.isInteger(d.rulesChecked) && d.rulesChecked >= 28);
    assert.deepEqual(d.custom_rules_applied, { total: 0, rules: [] });
    for (const r of d.rules) assert.match(r.id, /^(PF100\d\d|SVC200[12])$/);
    // A clean, consistent purchase scores low.
    assert.ok(d.score < 30, a.raw);
  });

  it('an empty data object is scored (every field is optional)', async () => {
    const a = await score({});
    assert.equal(a.status, 'success', a.raw);
    assert.equal(a.data.rulesDetected, 0);
  });

  it('explain=yes gives each rule\'s and the model\'s points, summing exactly to the score', async () => {
    const a = await score({ ...FULL, transaction_id: 'explain-1', customer_useragent: 'curl/8.4.0', customer_latitude: 200, customer_longitude: 5 }, { explain: 'yes' });
    const c = a.data.explanation?.contributions ?? [];
    assert.ok(c.some((x) => x.source === 'model'));
    assert.ok(ids(a.data).includes('PF10013') && ids(a.data).includes('PF10006'), a.raw);
    const sum = c.reduce((n, x) => n + (x.points ?? 0), 0);
    assert.equal(Math.round(sum * 100), Math.round(a.data.score * 100));
    // explain never changes the other fields.
    const plain = await score({ ...FULL, transaction_id: 'explain-2', customer_useragent: 'curl/8.4.0', customer_latitude: 200, customer_longitude: 5 });
    assert.deepEqual(ids(plain.data), ids(a.data));
  });

  it('digital goods are judged more strictly', async () => {
    const base = { customer_useragent: 'curl/8.4.0' };
    const physical = await score({ ...base }, { explain: 'yes' });
    const digital = await score({ ...base, isDigitalProducts: true }, { explain: 'yes' });
    assert.ok(digital.data.score > physical.data.score, `${digital.data.score} > ${physical.data.score}`);
  });
});

describe('POST /scoring/payment: input errors (130, HTTP 200, nothing stored)', () => {
  const cases: Array<[string, unknown, RegExp?]> = [
    ['no body', undefined],
    ['empty body', ''],
    ['not JSON', '{"data": '],
    ['a JSON array', '[1,2]'],
    ['no data', { nodata: {} }],
    ['data null', { data: null }],
    ['data an array', { data: [] }],
    ['data a string', { data: 'x' }],
    ['latitude as a string', { data: { customer_latitude: '51.5' } }, /customer_latitude/],
    ['amount not a number', { data: { transaction_amount: 'lots' } }, /transaction_amount/],
    ['customer_id an object', { data: { customer_id: { $gt: '' } } }, /customer_id/],
    ['isDigitalProducts a string', { data: { isDigitalProducts: 'yes' } }, /isDigitalProducts/],
    ['registration date a float', { data: { customer_registration_date: 1.5 } }, /customer_registration_date/],
    ['card number too short', { data: { card_number: '4111' } }, /card_number/],
    ['cart_items not an array', { data: { cart_items: 'mug' } }, /cart_items/],
    ['oversized string', { data: { customer_firstname: 'x'.repeat(100_000) } }, /customer_firstname/],
    ['bad country', { data: { customer_country: 'United Kingdom' } }, /customer_country/],
    ['a NUL in a text field', { data: { transaction_id: 'tx\u0000' } }, /transaction_id must not contain a NUL/],
    // 4,500 levels (9 KB): parsed, it overflowed the stack of the decision log's writer after the answer.
    ['nested 4,500 levels', `{"data": {"transaction_id": "x", "extra": ${'['.repeat(4500)}${']'.repeat(4500)}}}`, /too deeply: at most 64 levels/],
    ['nested 65 levels', `{"data": {"extra": ${'['.repeat(63)}${']'.repeat(63)}}}`, /too deeply/],
  ];
  for (const [name, body, field] of cases) {
    it(`${name} → 130`, async () => {
      const before = (await t.store.scorings.byTransaction('pay', 'never')).length;
      const a = await apiCall(t, 'POST', '/scoring/payment', KEY, body);
      assert.equal(a.http, 200);
      assert.equal(a.code, 130, a.raw);
      assert.equal(a.body.type, 'invalid_payment_data');
      if (field) assert.match(String(a.description), field);
      assert.doesNotMatch(a.raw, /at \w+ \(|node_modules|\.ts:\d+/);
      assert.equal((await t.store.scorings.byTransaction('pay', 'never')).length, before);
    });
  }

  it('hostile keys and unknown fields are ignored, never crash', async () => {
    const a = await apiCall<PaymentData>(t, 'POST', '/scoring/payment', KEY, '{"data": {"__proto__": {"polluted": true}, "constructor": 1, "unknown_field": [1], "customer_id": "c-hostile"}}');
    assert.equal(a.status, 'success', a.raw);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('a bad key is 101 even when the body is not JSON (spec order of checks)', async () => {
    const a = await apiCall(t, 'POST', '/scoring/payment', liveKey('nobody'), 'not json');
    assert.equal(a.code, 101);
  });

  it('a 3 MB body is refused with 130 saying it is too large, not a 500', async () => {
    const a = await apiCall(t, 'POST', '/scoring/payment', KEY, JSON.stringify({ data: { coupon: 'x'.repeat(3 * 1024 * 1024) } }));
    assert.equal(a.code, 130, a.raw);
    assert.match(String(a.description), /too large: at most 2,097,152 bytes/);
    assert.doesNotMatch(String(a.description), /not valid JSON/);
  });

  it('64 levels of nesting are accepted; brackets inside strings do not count', async () => {
    const deep = await apiCall(t, 'POST', '/scoring/payment', KEY, `{"data": {"extra": ${'['.repeat(62)}${']'.repeat(62)}}}`);
    assert.equal(deep.status, 'success', deep.raw);
    const text = await apiCall(t, 'POST', '/scoring/payment', KEY, JSON.stringify({ data: { customer_firstname: '['.repeat(200) } }));
    assert.equal(text.status, 'success', text.raw);
  });
});

describe('POST /scoring/payment: storage, velocity, test mode', () => {
  it('a live scoring is stored with the BIN, the last four and keyed hashes only (the card hash keyed with the card key)', async () => {
    await score({ ...FULL, transaction_id: 'stored-1' });
    const [s] = await t.store.scorings.byTransaction('pay', 'stored-1');
    assert.ok(s);
    assert.equal(s.cardBin, '411111');
    assert.equal(s.cardLast4, '1111');
    assert.match(String(s.identities.card), /^[0-9a-f]{64}$/);
    assert.match(String(s.identities.email), /^[0-9a-f]{64}$/);
    assert.equal(s.amount, 49.9);
    assert.equal(s.currency, 'EUR');
    assert.ok(s.features.length > 3);
    assert.equal(s.ruleSet, 'payment-rules/2');
    assert.ok(Object.keys(s.dataVersions).includes('geolite2-city'));
  });

  it('no file under DATA_DIR holds the full card number, the email or the phone', async () => {
    await score({ ...FULL, transaction_id: 'privacy-1', card_number: '5105 1051 0510 5100' }, { userID: 'privacy-user' });
    await t.recorder.flush();
    const needles = ['5105105105105100', 'jane.doe@example.com', '447911123456'];
    for (const f of readdirSync(t.dir)) {
      if (!f.startsWith('vigil.db')) continue;
      const bytes = readFileSync(join(t.dir, f)).toString('latin1');
      // The decision log keeps the payment input for backtests, but never a full card number.
      assert.ok(!bytes.includes(needles[0]!), `${f} holds the card number`);
    }
    const logged = await t.store.decisions.list('pay', 'payment', '2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z', 1000);
    assert.ok(logged.length > 0);
    for (const r of logged) assert.ok(!JSON.stringify(r).includes(needles[0]!));
  });

  it('test mode scores with fake history and stores nothing', async () => {
    for (const key of [TKEY]) {
      const a = await score({ ...FULL, transaction_id: 'test-mode-1' }, {}, key);
      assert.equal(a.status, 'success', a.raw);
    }
    const b = await score({ ...FULL, transaction_id: 'test-mode-1' }, { mode: 'test' });
    assert.equal(b.status, 'success');
    assert.equal((await t.store.scorings.byTransaction('pay', 'test-mode-1')).length, 0);
    assert.equal((await t.store.events.listEvents('pay', { kind: 'fraud_payment' })).filter((e) => e.summary.transaction_id === 'test-mode-1').length, 0);
  });

  it('PF10001 fires once the same IP bought 5 times in the hour (exact window)', async () => {
    const data = { customer_ip: '81.2.69.161', payment_type: 'cards' };
    const seen: boolean[] = [];
    for (let i = 0; i < 7; i++) seen.push(ids((await score({ ...data, transaction_id: `vel-${i}` })).data).includes('PF10001'));
    // Purchases 1-5 see 0-4 earlier ones; the 6th sees 5.
    assert.deepEqual(seen, [false, false, false, false, false, true, true]);
  });

  it('PF10012 fires when one card is used by several customer accounts', async () => {
    const card = '4000056655665556';
    const hits: boolean[] = [];
    for (const c of ['a', 'b', 'c', 'd']) hits.push(ids((await score({ card_number: card, customer_id: `pf12-${c}` })).data).includes('PF10012'));
    assert.deepEqual(hits, [false, false, false, true]);
  });

  // RuPay's 81 and 82 series (Wikipedia "Payment card number"; NPCI ranges 817200-820199 as in
  // juspay/card-validator) are a known scheme: a Luhn-valid Indian card is not an invalid BIN.
  it('PF10007 does not fire on RuPay 81/82 cards; it still fires outside every scheme range', async () => {
    for (const card of ['8172001111111111', '8200001111111117']) {
      assert.equal(ids((await score({ card_number: card, customer_id: `pf7-${card}` })).data).includes('PF10007'), false, card);
    }
    assert.equal(ids((await score({ card_number: '9999991111111112', customer_id: 'pf7-none' })).data).includes('PF10007'), true);
  });

  it('PF10021 fires when one customer uses several cards in a day', async () => {
    const cards = ['4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222'];
    const hits: boolean[] = [];
    for (const card of cards) hits.push(ids((await score({ card_number: card, customer_id: 'pf21-customer' })).data).includes('PF10021'));
    assert.deepEqual(hits, [false, false, false, true]);
  });
});

describe('POST /scoring/payment: lists, custom rules, events', () => {
  const lscore = (data: Record<string, unknown>, query: Record<string, string> = {}) => score(data, query, LKEY);

  it('each of the account\'s lists feeds its rule (PF10022-PF10026)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ customer_ip: '203.0.113.9' }, 'PF10022'],
      [{ customer_email: 'x@bad.example' }, 'PF10023'],
      [{ customer_phone: '+447700900123' }, 'PF10024'],
      [{ card_number: '5555551234567890' }, 'PF10025'],
      [{ customer_id: 'banned-1' }, 'PF10026'],
    ];
    for (const [data, rule] of cases) {
      const a = await lscore(data);
      assert.ok(ids(a.data).includes(rule), `${rule}: ${a.raw}`);
    }
    assert.equal(ids((await lscore({ customer_ip: '198.51.100.1' })).data).includes('PF10022'), false);
  });

  it('an overwrite_score rule sets the score, is listed, and explain still sums to the score', async () => {
    const a = await lscore({ transaction_id: 'big-1', transaction_amount: 9000 }, { explain: 'yes' });
    assert.equal(a.data.score, 75);
    assert.deepEqual(a.data.custom_rules_applied, { total: 1, rules: [{ id: 'CR101', title: 'big orders to review' }] });
    const sum = (a.data.explanation?.contributions ?? []).reduce((n, x) => n + (x.points ?? 0), 0);
    assert.equal(Math.round(sum * 100), 7500);
  });

  it('a blacklist rule scores 100; at 50 and above a live call raises fraud_payment with an event_id', async () => {
    const a = await lscore({ transaction_id: 'coupon-1', coupon: 'FREE100', customer_id: 'coupon-user' }, { userID: 'u-coupon' });
    assert.equal(a.data.score, 100);
    const events = await t.store.events.listEvents('paylists', { kind: 'fraud_payment', userId: 'u-coupon' });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.summary.transaction_id, 'coupon-1');
    assert.equal(events[0]!.risk, 100);
    assert.equal(events[0]!.identity?.type, 'customer_id');
    assert.ok(Number.isInteger(events[0]!.eventId));
    // Below 50: no event.
    await lscore({ transaction_id: 'calm-1' }, { userID: 'u-calm' });
    assert.equal((await t.store.events.listEvents('paylists', { kind: 'fraud_payment', userId: 'u-calm' })).length, 0);
  });

  it('the stored scoring keeps the final score (after custom rules)', async () => {
    await lscore({ transaction_id: 'final-1', transaction_amount: 6000 });
    const [s] = await t.store.scorings.byTransaction('paylists', 'final-1');
    assert.equal(s?.score, 75);
  });
});

