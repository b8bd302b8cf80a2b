/**
 * Policy freshness across two instances without traffic (issue 26, item 2): a change through A reaches
 * an idle B by notification (the first request to B sees it), and a change B was never told of is seen
 * by the first request after POLICY_REFRESH_MS, which waits for the new copy instead of using the old one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, liveKey } from '../helpers/harness.ts';
import { seedAccounts, startPair, type Instance, type Pair } from '../helpers/instance-pair.ts';
import { queryOnce, SKIP_PG } from '../store/pg-test-database.ts';
import { SKIP_REDIS } from '../helpers/redis.ts';

const suffix = randomBytes(3).toString('hex');
const ACCOUNT = `pfx-${suffix}`;
const KEY = liveKey(`pfx${suffix}`);
const REFRESH_MS = 1000;
let pair: Pair;

before(async () => {
  pair = await startPair({ POLICY_REFRESH_MS: String(REFRESH_MS) });
  await seedAccounts(pair, [{ id: ACCOUNT, key: KEY, settings: { autoBlacklistConfirmedFraud: true, dailyDeletionLimit: 100 } }]);
});
after(() => pair?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const country = async (i: Instance, code: string) => {
  const r = await pair.call(i, 'GET', '/lookup/country', KEY, undefined, { CountryCode: code });
  assert.equal(r.status, 'success', JSON.stringify(r));
  return r.data as { blacklisted: boolean; custom_rules_applied?: unknown[] };
};
const admin = async (i: Instance, method: 'POST' | 'DELETE', url: string, payload: object) => {
  const res = await i.app.app.inject({ method, url, payload, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  assert.ok(res.statusCode < 300, res.body);
};

describe('policy copies across two instances', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('a list entry, its removal and a rule changed through A: the first request to an idle B sees each', async () => {
    assert.equal((await country(pair.b, 'CH')).blacklisted, false);
    const warmed = Date.now();
    await admin(pair.a, 'POST', `/admin/accounts/${ACCOUNT}/blacklists`, { type: 'card_country', values: ['CH'] });
    await sleep(300);
    // Well inside POLICY_REFRESH_MS of B's last version read: only the notification can have refreshed it.
    assert.ok(Date.now() - warmed < REFRESH_MS - 200);
    assert.equal((await country(pair.b, 'CH')).blacklisted, true);

    const again = Date.now();
    await admin(pair.a, 'POST', `/admin/accounts/${ACCOUNT}/blacklists/remove`, { type: 'card_country', values: ['CH'] });
    await sleep(300);
    assert.ok(Date.now() - again < REFRESH_MS - 200);
    assert.equal((await country(pair.b, 'CH')).blacklisted, false);

    const third = Date.now();
    await admin(pair.a, 'POST', `/admin/accounts/${ACCOUNT}/rules`, { title: 'no Swiss', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'CH' }] }, action: { type: 'blacklist' } });
    await sleep(300);
    assert.ok(Date.now() - third < REFRESH_MS - 200);
    const ruled = await country(pair.b, 'CH');
    assert.equal(ruled.blacklisted, true, JSON.stringify(ruled));
  });

  it('confirmed_fraud entries from feedback on A, and their removal by a deletion through A, reach idle B', async () => {
    const tx = `pf-tx-${suffix}`;
    const scored = await pair.call(pair.a, 'POST', '/scoring/payment', KEY, { data: { transaction_id: tx, customer_id: 'pf-customer', customer_email: 'pf-user@example.com' } });
    assert.equal(scored.status, 'success', JSON.stringify(scored));
    const snapshotB = () => pair.b.app.policy.snapshots.get(ACCOUNT);
    const confirmed = async () => (await snapshotB()).lists.hits([{ type: 'confirmed_fraud', value: `email:${pair.b.app.learning.hasher.hash('email', 'pf-user@example.com')}` }]).length > 0;
    assert.equal(await confirmed(), false);
    const fb = await pair.call(pair.a, 'POST', '/feedback/payment', KEY, { transaction_id: tx, outcome: 'chargeback' });
    assert.equal(fb.status, 'success', JSON.stringify(fb));
    await sleep(300);
    assert.equal(await confirmed(), true);
    const del = await pair.call(pair.a, 'DELETE', '/account/users/delete', KEY, { value: 'pf-user@example.com' });
    assert.equal(del.status, 'success', JSON.stringify(del));
    await sleep(300);
    assert.equal(await confirmed(), false);
  });

  it('a change B was not told of: the first request after POLICY_REFRESH_MS waits for the new copy', async () => {
    assert.equal((await country(pair.b, 'LI')).blacklisted, false);
    // Written straight into the tables, as a lost notification would leave it.
    await queryOnce(pair.db.url, `INSERT INTO blacklist_entries (account_id, type, value, note, created_at) VALUES ('${ACCOUNT}', 'card_country', 'LI', NULL, now())`);
    await queryOnce(pair.db.url, `UPDATE policy_versions SET version = version + 1 WHERE account_id = '${ACCOUNT}'`);
    await sleep(REFRESH_MS + 50);
    assert.equal((await country(pair.b, 'LI')).blacklisted, true);
  });
});
