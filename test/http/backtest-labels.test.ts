/**
 * Backtest precision and recall against feedback labels, over HTTP on a real store: live IP lookups
 * labelled by `/feedback/event` on their addresses, live payment scorings labelled by `/feedback/payment`
 * outcomes, BIN lookups by card_bin labels; each count of the confusion table checked by hand, on SQLite and
 * on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backtestLabels, RulesService, type BacktestLabels } from '../../src/policy/rules-service.ts';
import { BacktestLabeller } from '../../src/learning/backtest-labels.ts';
import { adminCall, adminData } from '../helpers/admin-client.ts';
import { apiCall } from '../helpers/api-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';
import { createTestDatabase, SKIP_PG, type TestDatabase } from '../store/pg-test-database.ts';

const KEY = liveKey('btl');
const TKEY = testKey('btl');
const FROM = '2000-01-01T00:00:00.000Z';
const TO = '2999-01-01T00:00:00.000Z';

const SEED = { accounts: [{ id: 'btl', plan: 'premium', keys: [KEY, TKEY] }, { id: 'btlother', plan: 'premium', keys: [liveKey('btlother')] }] };
let t: TestApp;

const backtest = async (account: string, rule: unknown): Promise<{ evaluated: number; matched: number; labels: BacktestLabels | null }> => {
  await t.recorder.flush();
  return adminData(await adminCall(t, 'POST', `/admin/accounts/${account}/rules/backtest`, { rule, from: FROM, to: TO }));
};
const lookup = (ip: string, key = KEY) => apiCall<Record<string, unknown>>(t, 'GET', '/lookup/ip', key, undefined, { ip });
const label = (type: string, value: string, lbl: 'fraud' | 'legit') => apiCall(t, 'POST', '/feedback/event', KEY, { type, value, label: lbl });
const score = (data: Record<string, unknown>) => apiCall<{ score: number }>(t, 'POST', '/scoring/payment', KEY, { data });
const outcome = (transaction_id: string, outcome: string, reason?: string) => apiCall(t, 'POST', '/feedback/payment', KEY, { transaction_id, outcome, reason });

for (const kind of ['sqlite', 'postgres'] as const) describe(`backtest labels (${kind})`, { skip: kind === 'postgres' && SKIP_PG }, () => {
  let db: TestDatabase | undefined;
  before(async () => {
    db = kind === 'postgres' ? await createTestDatabase() : undefined;
    t = await makeTestApp({ seed: SEED, databaseUrl: db?.url });
  });
  after(async () => {
    await t.close();
    await db?.drop();
  });

  it('IP evaluations take the labels of their address: each count of the confusion table', async () => {
    // 1.1.1.1 (AU) and 8.8.8.8 (US) labelled fraud, 9.9.9.9 (US) legit, 81.2.69.160 (GB) not labelled.
    for (const ip of ['1.1.1.1', '1.1.1.1', '8.8.8.8', '9.9.9.9', '81.2.69.160']) assert.equal((await lookup(ip)).status, 'success');
    await lookup('8.8.8.8', TKEY); // test mode is not logged
    for (const [ip, lbl] of [['1.1.1.1', 'fraud'], ['8.8.8.8', 'fraud'], ['9.9.9.9', 'legit']] as const) assert.equal((await label('ip', ip, lbl)).status, 'success');
    const rule = (country: string) => ({ title: 'country', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: country }] }, action: { type: 'blacklist' } });

    // US: 8.8.8.8 (fraud, matched) and 9.9.9.9 (legit, matched); 1.1.1.1 twice (fraud, not matched).
    const us = await backtest('btl', rule('US'));
    assert.equal(us.evaluated, 5);
    assert.equal(us.matched, 2);
    assert.deepEqual(us.labels, { labelled: 4, fraud: 3, legit: 1, truePositives: 1, falsePositives: 1, falseNegatives: 2, trueNegatives: 0, precision: 0.5, recall: 1 / 3 });
    // AU: both 1.1.1.1 lookups (fraud, matched); 8.8.8.8 missed; 9.9.9.9 correctly not matched.
    const au = await backtest('btl', rule('AU'));
    assert.deepEqual(au.labels, { labelled: 4, fraud: 3, legit: 1, truePositives: 2, falsePositives: 0, falseNegatives: 1, trueNegatives: 1, precision: 1, recall: 2 / 3 });
    // A rule matching nothing labelled: precision unknown, recall 0.
    const gb = await backtest('btl', rule('GB'));
    assert.equal(gb.matched, 1);
    assert.equal(gb.labels?.precision, null);
    assert.equal(gb.labels?.recall, 0);
  });

  it('a later legit label turns a true positive into a false positive; another account sees none of these labels', async () => {
    await lookup('9.9.9.10');
    await label('ip', '9.9.9.10', 'fraud');
    const rule = { title: 'one', group: 'ip', conditions: { all: [{ field: 'ip', op: 'eq', value: '9.9.9.10' }] }, action: { type: 'blacklist' } };
    assert.equal((await backtest('btl', rule)).labels?.truePositives, 1);
    // A new label on the same address replaces the old one (the spec's label state table): legit now.
    await label('ip', '9.9.9.10', 'legit');
    const after = await backtest('btl', rule);
    assert.equal(after.labels?.truePositives, 0);
    assert.equal(after.labels?.falsePositives, 1);

    await lookup('1.1.1.1', liveKey('btlother'));
    const other = await backtest('btlother', { ...rule, conditions: { all: [{ field: 'ip', op: 'eq', value: '1.1.1.1' }] } });
    assert.equal(other.matched, 1);
    assert.deepEqual(other.labels, { labelled: 0, fraud: 0, legit: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, precision: null, recall: null });
  });

  it('payment evaluations take their transaction\'s reported outcome (declined counts as fraud only with a fraud reason)', async () => {
    const tx = [
      ['btl-1', 900, 'chargeback'],
      ['btl-2', 950, 'approved'],
      ['btl-3', 20, 'fraud_confirmed'],
      ['btl-4', 15, 'declined'],
      ['btl-5', 990, 'declined', 'fraud'],
      ['btl-6', 999, null],
    ] as const;
    for (const [id, amount] of tx) assert.equal((await score({ transaction_id: id, transaction_amount: amount, transaction_currency: 'EUR', customer_id: `c-${id}` })).status, 'success');
    for (const [id, , out, reason] of tx) if (out !== null) assert.equal((await outcome(id, out, reason)).status, 'success');
    const big = { title: 'big', group: 'payment', conditions: { all: [{ field: 'input.transaction_amount', op: 'gt', value: 500 }] }, action: { type: 'overwrite_score', score: 90 } };
    const result = await backtest('btl', big);
    assert.equal(result.evaluated, 6);
    assert.equal(result.matched, 4);
    // Matched: btl-1 fraud, btl-2 legit, btl-5 fraud (declined, fraud reason), btl-6 no outcome. Not matched: btl-3 fraud, btl-4 legit.
    assert.deepEqual(result.labels, { labelled: 5, fraud: 3, legit: 2, truePositives: 2, falsePositives: 1, falseNegatives: 1, trueNegatives: 1, precision: 2 / 3, recall: 2 / 3 });
  });

  it('BIN evaluations take the card_bin labels of the BIN or of its first 6 digits', async () => {
    for (const bin of ['41111111', '411111', '555555']) assert.equal((await apiCall(t, 'GET', '/lookup/bin', KEY, undefined, { bin })).status, 'success');
    assert.equal((await label('card_bin', '411111', 'fraud')).status, 'success');
    assert.equal((await label('card_bin', '55555599', 'legit')).status, 'success'); // another BIN of the same 6 digits: not this one
    const visa = { title: 'visa', group: 'bin', conditions: { all: [{ field: 'input.bin', op: 'starts_with', value: '4' }] }, action: { type: 'mark_invalid' } };
    const result = await backtest('btl', visa);
    assert.equal(result.evaluated, 3);
    assert.deepEqual(result.labels, { labelled: 2, fraud: 2, legit: 0, truePositives: 2, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, precision: 1, recall: 1 });
  });

  it('without the learning services a backtest answers labels: null, and the counts add up on their own', async () => {
    const bare = new RulesService(t.store, t.policy.snapshots);
    const rule = { title: 'any', group: 'ip', conditions: { all: [{ field: 'ip', op: 'exists', value: true }] }, action: { type: 'blacklist' } };
    assert.equal((await bare.backtest('btl', { rule, from: FROM, to: TO })).labels, null);
    bare.useLabels(new BacktestLabeller(t.store, () => new Date()));
    assert.equal((await bare.backtest('btl', { rule, from: FROM, to: TO })).labels?.fraud, 3);
    assert.deepEqual(backtestLabels([], []), { labelled: 0, fraud: 0, legit: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, precision: null, recall: null });
    assert.deepEqual(backtestLabels([true, false, true], [null, null, null]).labelled, 0);
  });
});
