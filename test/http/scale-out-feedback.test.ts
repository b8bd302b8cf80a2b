/**
 * Feedback, outcomes and the model under concurrent calls to two instances on one PostgreSQL database
 * (issue 26, item 1): each instance has its own in-process queues, so only the store's account lock
 * keeps them apart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { liveKey } from '../helpers/harness.ts';
import { seedAccounts, startPair, type Instance, type Pair } from '../helpers/instance-pair.ts';
import { SKIP_PG } from '../store/pg-test-database.ts';
import { SKIP_REDIS } from '../helpers/redis.ts';
import { applyWeights, FTRL_DEFAULTS, update, type FtrlCoordinate } from '../../src/learning/ftrl.ts';
import { priorLogit } from '../../src/intel/payment/prior.ts';

const suffix = randomBytes(3).toString('hex');
const ACCOUNT = `fbx-${suffix}`;
const KEY = liveKey(`fbx${suffix}`);
const MODEL_ACCOUNT = `fbm-${suffix}`;
const MODEL_KEY = liveKey(`fbm${suffix}`);
let pair: Pair;

before(async () => {
  pair = await startPair();
  await seedAccounts(pair, [{ id: ACCOUNT, key: KEY }, { id: MODEL_ACCOUNT, key: MODEL_KEY }]);
});
after(() => pair?.close());

const score = (i: Instance, tx: string, key = KEY) =>
  pair.call(i, 'POST', '/scoring/payment', key, { data: { transaction_id: tx, customer_id: `c-${tx}`, customer_ip: '81.2.69.170', amount: 40, currency: 'EUR' } });
const feedback = (i: Instance, tx: string, outcome: string, key = KEY) => pair.call(i, 'POST', '/feedback/payment', key, { transaction_id: tx, outcome });
const trainedOn = async (account: string, tx: string) =>
  (await pair.a.store.model.history(account, 1000)).filter((h) => h.origin === `payment:${tx}`).length;

describe('feedback across two instances', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('the same chargeback sent to A and B at once: one created, one unchanged, the model trains once', async () => {
    for (let n = 0; n < 10; n++) {
      const tx = `dup-${n}`;
      assert.equal((await score(pair.a, tx)).status, 'success');
      const answers = await Promise.all([feedback(pair.a, tx, 'chargeback'), feedback(pair.b, tx, 'chargeback')]);
      const labels = answers.map((r) => r.data.label).sort();
      assert.deepEqual(labels, ['created', 'unchanged'], JSON.stringify(answers));
      assert.equal(await trainedOn(ACCOUNT, tx), 1);
    }
  });

  it('a chargeback on A and approved on B at once: the chargeback stays (the state table, in either order)', async () => {
    for (let n = 0; n < 10; n++) {
      const tx = `sticky-${n}`;
      assert.equal((await score(pair.b, tx)).status, 'success');
      const calls = [() => feedback(pair.a, tx, 'chargeback'), () => feedback(pair.b, tx, 'approved')];
      for (const r of await Promise.all((n % 2 === 1 ? calls.reverse() : calls).map((c) => c()))) assert.equal(r.status, 'success', JSON.stringify(r));
      const stored = await pair.a.store.outcomes.get(ACCOUNT, tx);
      assert.equal(stored?.outcome, 'chargeback', `transaction ${tx}`);
      assert.deepEqual((await pair.a.store.scorings.byTransaction(ACCOUNT, tx)).map((s) => s.outcome), ['chargeback']);
    }
  });

  it('a scoring on B while its outcome arrives on A: the outcome is applied and the scoring\'s outcome column filled', async () => {
    for (let n = 0; n < 20; n++) {
      const tx = `race-${n}`;
      const calls = [() => score(pair.b, tx), () => feedback(pair.a, tx, 'chargeback')];
      for (const r of await Promise.all((n % 2 === 0 ? calls : calls.reverse()).map((c) => c()))) assert.equal(r.status, 'success', JSON.stringify(r));
      const stored = await pair.a.store.outcomes.get(ACCOUNT, tx);
      assert.equal(stored?.status, 'applied', `transaction ${tx}`);
      assert.deepEqual((await pair.a.store.scorings.byTransaction(ACCOUNT, tx)).map((s) => s.outcome), ['chargeback'], `transaction ${tx}`);
      assert.equal(await trainedOn(ACCOUNT, tx), 1, `transaction ${tx} trained once`);
    }
  });

  it('30 chargebacks split across A and B lose no model update (the stored weights are the replay of the history)', async () => {
    const txs = Array.from({ length: 30 }, (_, n) => `model-${n}`);
    for (const tx of txs) assert.equal((await score(pair.a, tx, MODEL_KEY)).status, 'success');
    const answers = await Promise.all(txs.map((tx, n) => feedback(n % 2 === 0 ? pair.a : pair.b, tx, 'chargeback', MODEL_KEY)));
    for (const r of answers) assert.equal(r.data.label, 'created', JSON.stringify(r));
    const history = (await pair.a.store.model.history(MODEL_ACCOUNT, 1000)).reverse();
    assert.equal(history.length, 30);
    // Replaying the 30 steps in the order they were stored gives exactly the stored coordinates only if
    // each step read the weights the one before wrote.
    const state = new Map<string, FtrlCoordinate>();
    for (const h of history) {
      const [scoring] = await pair.a.store.scorings.byTransaction(MODEL_ACCOUNT, h.origin.slice('payment:'.length));
      assert.ok(scoring);
      const step = update(scoring.features, state, h.label, FTRL_DEFAULTS, { logit: priorLogit(scoring.features) });
      assert.ok(Math.abs(step.before - h.before) < 1e-9, `${h.origin} trained on the weights before it`);
      applyWeights(state, step.changed);
    }
    const stored = await pair.a.store.model.allWeights(MODEL_ACCOUNT);
    assert.equal(stored.length, state.size);
    for (const w of stored) {
      const replayed = state.get(w.feature);
      assert.ok(replayed && Math.abs(replayed.n - w.n) < 1e-9 && Math.abs(replayed.z - w.z) < 1e-9, `feature ${w.feature}`);
    }
  });
});
