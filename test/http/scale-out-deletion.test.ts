/**
 * A user deletion through one instance while another still holds the user's records in its buffers or
 * has their events on the way (issue 26, item 3): nothing of the user is written after the deletion.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, liveKey } from '../helpers/harness.ts';
import { seedAccounts, startPair, type Pair } from '../helpers/instance-pair.ts';
import { queryOnce, SKIP_PG } from '../store/pg-test-database.ts';
import { SKIP_REDIS } from '../helpers/redis.ts';

const suffix = randomBytes(3).toString('hex');
const ACCOUNT = `dlx-${suffix}`;
const KEY = liveKey(`dlx${suffix}`);
let pair: Pair;

before(async () => {
  pair = await startPair();
  await seedAccounts(pair, [{ id: ACCOUNT, key: KEY, settings: { autoBlacklistConfirmedFraud: true, dailyDeletionLimit: 1000 } }]);
  // Every country answer is then blacklisted, which raises an event and logs a decision.
  const res = await pair.a.app.app.inject({
    method: 'POST', url: `/admin/accounts/${ACCOUNT}/blacklists`, payload: { type: 'card_country', values: ['DE'] }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(() => pair?.close());

const left = async (table: string, userId: string) =>
  Number((await queryOnce<{ n: string }>(pair.db.url, `SELECT count(*) AS n FROM ${table} WHERE account_id = '${ACCOUNT}' AND user_id = '${userId}'`))[0]?.n);

describe('deletion across two instances', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('a user\'s 50 calls on A, then at once a deletion through B: no request-log row, event or decision record is left', async () => {
    const user = `del-user-${suffix}`;
    const other = `kept-user-${suffix}`;
    const calls = (userID: string) => Array.from({ length: 50 }, () => pair.call(pair.a, 'GET', '/lookup/country', KEY, undefined, { CountryCode: 'DE', userID }));
    const answers = await Promise.all([...calls(user), ...calls(other)]);
    for (const r of answers) assert.equal((r.data as { blacklisted?: boolean }).blacklisted, true, JSON.stringify(r));
    const del = await pair.call(pair.b, 'DELETE', '/account/users/delete', KEY, { value: user, type: 'user_id' });
    assert.equal(del.status, 'success', JSON.stringify(del));
    // A writes its buffers within a second (the request log) or at once (decisions, events).
    await new Promise((r) => setTimeout(r, 1500));
    await pair.a.app.recorder.flush();
    assert.deepEqual(
      { requests: await left('request_log', user), events: await left('events', user), decisions: await left('decision_log', user) },
      { requests: 0, events: 0, decisions: 0 },
    );
    // The other user's records are all there: the tombstone leaves out only the deleted user's.
    assert.deepEqual(
      { requests: await left('request_log', other), events: await left('events', other), decisions: await left('decision_log', other) },
      { requests: 50, events: 50, decisions: 50 },
    );
  });

  it('feedback and scorings of a user on A racing the user\'s deletion through B, at nine offsets: nothing of the user received before the deletion answered is left', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const { a, b } = pair;
    const score = (i: typeof a, tx: string, customer: string) =>
      pair.call(i, 'POST', '/scoring/payment', KEY, { data: { transaction_id: tx, customer_id: customer, customer_email: `${customer}@example.com`, customer_ip: '81.2.69.170', amount: 40, currency: 'EUR' } });
    const feedback = (i: typeof a, tx: string, customer: string) => pair.call(i, 'POST', '/feedback/payment', KEY, { transaction_id: tx, outcome: 'chargeback', customer_id: customer });
    const count = async (sql: string) => Number((await queryOnce<{ n: string }>(pair.db.url, sql))[0]?.n);
    const leftOf = async (txs: string[], hash: string) => {
      const list = txs.map((t) => `'${t}'`).join(', ');
      const origins = txs.map((t) => `'payment:${t}'`).join(', ');
      return {
        scorings: await count(`SELECT count(*) AS n FROM payment_scorings WHERE account_id = '${ACCOUNT}' AND (transaction_id IN (${list}) OR customer_hash = '${hash}')`),
        outcomes: await count(`SELECT count(*) AS n FROM payment_outcomes WHERE account_id = '${ACCOUNT}' AND (transaction_id IN (${list}) OR customer_hash = '${hash}')`),
        evidence: await count(`SELECT count(*) AS n FROM identity_evidence WHERE account_id = '${ACCOUNT}' AND (origin IN (${origins}) OR value_hash = '${hash}')`),
        history: await count(`SELECT count(*) AS n FROM model_history WHERE account_id = '${ACCOUNT}' AND origin IN (${origins})`),
        listed: await count(`SELECT count(*) AS n FROM blacklist_entries WHERE account_id = '${ACCOUNT}' AND type = 'confirmed_fraud' AND value = 'customer_id:${hash}'`),
        events: await count(`SELECT count(*) AS n FROM events WHERE account_id = '${ACCOUNT}' AND identity_hash = '${hash}'`),
      };
    };
    const none = { scorings: 0, outcomes: 0, evidence: 0, history: 0, listed: 0, events: 0 };
    let raced = 0;
    for (const [round, offset] of [-20, -10, -5, -2, 0, 2, 5, 10, 30].entries()) {
      const user = `race-${suffix}-${round}`;
      const kept = `keep-${suffix}-${round}`;
      const txs = [0, 1, 2].map((n) => `${user}-t${n}`);
      const keptTx = `${kept}-t0`;
      // Scored before the race: the deletion has it to remove, the feedback a scoring to apply to.
      for (const [tx, who] of [[txs[0]!, user], [keptTx, kept]] as const) assert.equal((await score(a, tx, who)).status, 'success');
      // On A (and one scoring on B): a chargeback on the scored transaction, a new scoring, a chargeback that
      // comes before its transaction's scoring, and the kept user's chargeback. The deletion through B goes
      // `offset` ms after them (before them when negative), always before it answers.
      const deletion = sleep(Math.max(0, offset)).then(() => pair.call(b, 'DELETE', '/account/users/delete', KEY, { value: user, type: 'user_id' }));
      await sleep(Math.max(0, -offset));
      let lastAnswer = 0;
      const timed = <T>(p: Promise<T>) => p.then((r) => {
        lastAnswer = Math.max(lastAnswer, Date.now());
        return r;
      });
      const racing = Promise.all([feedback(a, txs[0]!, user), score(a, txs[1]!, user), feedback(a, txs[2]!, user), score(b, txs[2]!, user), feedback(a, keptTx, kept)].map(timed));
      const del = await deletion;
      assert.equal(del.status, 'success', JSON.stringify(del));
      for (const r of await racing) assert.equal(r.status, 'success', JSON.stringify(r));
      await pair.a.app.recorder.flush();
      await pair.b.app.recorder.flush();
      const hash = a.app.learning.hasher.hash('customer_id', user);
      // The deletion's promise is about what was received before its last tombstone (docs/operations.md): a call
      // that reached the server after it (while the deletion's second pass ran, or its answer was on its way) is
      // new and may store the user again. Rounds whose calls had all been answered by then are asserted.
      const lastTombstone = Number((await queryOnce<{ at: string }>(pair.db.url, `SELECT (extract(epoch FROM max(deleted_at)) * 1000)::float8 AS at FROM deleted_users WHERE account_id = '${ACCOUNT}' AND value_hash = '${hash}'`))[0]?.at);
      assert.ok(Number.isFinite(lastTombstone), `round ${round}: the deletion left its tombstone`);
      if (lastAnswer < lastTombstone) {
        raced++;
        assert.deepEqual(await leftOf(txs, hash), none, `round ${round} (the deletion ${offset} ms after the calls)`);
      }
      const keptLeft = await leftOf([keptTx], a.app.learning.hasher.hash('customer_id', kept));
      assert.deepEqual({ scorings: keptLeft.scorings, outcomes: keptLeft.outcomes, listed: keptLeft.listed }, { scorings: 1, outcomes: 1, listed: 1 }, `round ${round}: the other user's records stay`);
    }
    assert.ok(raced >= 2, `${raced} of 9 rounds had every racing call answered before the deletion's last tombstone`);
  });
});
