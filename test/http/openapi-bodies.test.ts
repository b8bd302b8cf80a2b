/**
 * The documented request bodies (src/http/openapi/bodies.ts) and the hand-written parsers agree: each body
 * below is accepted by both or refused by both (with the method's input code), through the real server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = testKey('bodies');
let t: TestApp;
let ajv: Ajv2020;

before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'bodies', plan: 'premium', keys: [KEY] }] } });
  const doc = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body) as { components: { schemas: Record<string, unknown> } };
  ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
after(() => t.close());

const card = '4111 1111 1111 1111';
const CASES: Array<{ path: string; method: 'POST' | 'DELETE'; schema: string; code: number; valid: unknown[]; invalid: unknown[] }> = [
  {
    path: '/scoring/payment', method: 'POST', schema: 'ScoringPaymentBody', code: 130,
    valid: [
      { data: {} },
      { data: { transaction_id: 12345, transaction_amount: '12.50', customer_country: 'gb', card_number: card, cart_items: [{ item_quantity: '2', item_price: 3 }] } },
      { data: { customer_balance: -20, customer_latitude: 51.5, customer_2fa: null, merchant_id: 7 } },
    ],
    invalid: [
      {},
      { data: 'x' },
      { data: { transaction_amount: -1 } },
      { data: { transaction_amount: '1,000' } },
      { data: { customer_country: 'GBR' } },
      { data: { transaction_currency: 'EURO' } },
      { data: { card_number: '4111' } },
      { data: { customer_latitude: '51.5' } },
      { data: { merchant_id: 1.5 } },
      { data: { customer_2fa: 'yes' } },
      { data: { cart_items: {} } },
    ],
  },
  {
    path: '/feedback/payment', method: 'POST', schema: 'FeedbackPaymentBody', code: 131,
    valid: [{ transaction_id: 'ord-1', outcome: 'chargeback' }, { transaction_id: 99, outcome: 'approved', reason: 'ok', occurred_at: '2025-05-01' }],
    invalid: [{ transaction_id: 'ord-1' }, { outcome: 'approved' }, { transaction_id: 'ord-1', outcome: 'Chargeback' }, { transaction_id: true, outcome: 'approved' }],
  },
  {
    path: '/feedback/event', method: 'POST', schema: 'FeedbackEventBody', code: 131,
    valid: [{ type: 'email', value: 'jane.doe@example.com', label: 'fraud' }, { type: 'ip', value: '81.2.69.160', label: 'legit', source: 'review' }],
    invalid: [{ type: 'email', value: 'jane.doe@example.com' }, { type: 'iban', value: 'x', label: 'fraud' }, { type: 'email', value: 'jane@example.com', event_id: 4, label: 'fraud' }, { label: 'fraud' }],
  },
  {
    path: '/feedback/bulk', method: 'POST', schema: 'FeedbackBulkBody', code: 131,
    valid: [{ items: [{ transaction_id: 'ord-1', outcome: 'approved' }, { kind: 'event', type: 'customer_id', value: 'c-1', label: 'legit' }] }],
    invalid: [{ items: [] }, {}, { items: 'x' }],
  },
  {
    path: '/account/users/delete', method: 'DELETE', schema: 'AccountUsersDeleteBody', code: 125,
    valid: [{ value: 'jane.doe@example.com' }, { value: 'user-1', type: 'user_id' }],
    invalid: [{}, { value: '' }, { value: 12 }],
  },
];

describe('documented request bodies agree with the parsers', () => {
  for (const c of CASES) {
    const send = async (body: unknown) => {
      const res = await t.app.inject({ method: c.method, url: c.path, query: { key: KEY }, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      return JSON.parse(res.body) as { status: string; code?: number; description?: string };
    };
    it(`${c.method} ${c.path}: bodies the schema accepts are accepted`, async () => {
      const validate = ajv.getSchema(`doc#/components/schemas/${c.schema}`)!;
      for (const body of c.valid) {
        assert.equal(validate(body), true, `schema refuses ${JSON.stringify(body)}: ${ajv.errorsText(validate.errors)}`);
        const answer = await send(body);
        assert.equal(answer.status, 'success', `${JSON.stringify(body)}: ${answer.description}`);
      }
    });
    it(`${c.method} ${c.path}: bodies the schema refuses get ${c.code}`, async () => {
      const validate = ajv.getSchema(`doc#/components/schemas/${c.schema}`)!;
      for (const body of c.invalid) {
        assert.equal(validate(body), false, `schema accepts ${JSON.stringify(body)}`);
        const answer = await send(body);
        assert.equal(answer.status, 'error', JSON.stringify(body));
        assert.equal(answer.code, c.code, `${JSON.stringify(body)}: ${answer.description}`);
      }
    });
  }
});
