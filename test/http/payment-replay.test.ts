/**
 * Replay of a deterministic synthetic payment stream through the HTTP API (live key, real SQLite
 * store, a simulated clock): 40 ordinary customers and 2 fraud rings of 6 accounts sharing 2 devices,
 * 2 cards and 3 IPs per ring.
 *
 * 1. Every transaction is scored; the scores are recorded.
 * 2. Feedback arrives a week later in one /feedback/bulk call: chargeback / fraud_confirmed for a
 *    subset of the ring's transactions, approved / legit_confirmed for the ordinary ones.
 * 3. New transactions of the same ring accounts, of new accounts on the ring's devices and cards, and of
 *    the ordinary customers: the ring's scores rise clearly (SVC2002 on the shared means, SVC2001 on
 *    reused customers, PF10018 on customers with two fraud outcomes, a model that learned), the
 *    ordinary customers' scores do not move and no learning rule fires for them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiCall } from '../helpers/api-client.ts';
import { liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';
import { fraudRings, normalCustomers, Prng, purchase, ringAccount, type Profile, type Ring } from '../helpers/payment-stream.ts';

const ACCOUNT = 'replay';
const KEY = liveKey('replay');
const SEED = 0x5eed2025;
const T0 = Date.parse('2025-03-03T08:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

interface PaymentData {
  score: number;
  rules: Array<{ id: string; description: string }>;
  explanation?: { contributions: Array<{ source: string; id: string; points?: number }> };
}

interface Scored {
  tx: string;
  who: Profile;
  score: number;
  rules: string[];
  modelPoints: number;
}

interface BulkAnswer {
  received: number;
  created: number;
  updated: number;
  unchanged: number;
  pending: number;
  failed: number;
  results: Array<{ index: number; kind: string | null; status: string; label?: string; matched?: number; code?: number }>;
}

let now = T0;
let t: TestApp;
const rng = new Prng(SEED);
const normals = normalCustomers(rng, 40, T0 / 1000);
const rings: Ring[] = fraudRings(rng, 2, 6, T0 / 1000);
const ringAccounts = rings.flatMap((r) => r.accounts);

const phase1: Scored[] = [];
const phase3: Scored[] = [];
let probeFeatures: string[] = [];
let probeBefore = { probability: 0, modelPoints: 0 };
let bulk: BulkAnswer | undefined;
/** Ring accounts and how many of their transactions were reported as fraud. */
const fraudCount = new Map<string, number>();

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const round = (x: number): number => Math.round(x * 100) / 100;
/** How often each rule fired, e.g. {"PF10012":16}. */
function ruleCounts(xs: readonly Scored[]): string {
  const m: Record<string, number> = {};
  for (const x of xs) for (const r of x.rules) m[r] = (m[r] ?? 0) + 1;
  return JSON.stringify(m);
}

async function score(who: Profile, tx: string): Promise<Scored> {
  const a = await apiCall<PaymentData>(t, 'POST', '/scoring/payment', KEY, { data: purchase(rng, who, tx) }, { explain: 'yes' });
  assert.equal(a.status, 'success', a.raw);
  const model = a.data.explanation?.contributions.find((c) => c.source === 'model');
  assert.ok(model, a.raw);
  return { tx, who, score: a.data.score, rules: a.data.rules.map((r) => r.id), modelPoints: model.points ?? 0 };
}

/** A ring-like transaction of a fresh account on ring 0's first device and card (a probe of the model). */
async function probe(tx: string): Promise<{ scored: Scored; features: string[] }> {
  const who = ringAccount(new Prng(SEED + 1), rings[0]!, `probe-${tx}`, 0, 0, T0 / 1000 - 5 * DAY / 1000);
  const scored = await score(who, tx);
  const [stored] = await t.store.scorings.byTransaction(ACCOUNT, tx);
  assert.ok(stored);
  return { scored, features: stored.features };
}

before(async () => {
  t = await makeTestApp({
    seed: { accounts: [{ id: ACCOUNT, plan: 'premium', keys: [KEY] }] },
    clock: () => new Date(now),
  });
});
after(() => t.close());

describe('payment replay: feedback teaches the account about fraud rings, not about ordinary customers', { timeout: 60_000 }, () => {
  it('phase 1: the synthetic stream is scored (3 purchases per customer over 3 days)', async (ctx) => {
    const stream: Array<{ who: Profile; n: number }> = [];
    for (const who of [...normals, ...ringAccounts]) for (let n = 0; n < 3; n++) stream.push({ who, n });
    // Interleaved, each customer's purchases in order.
    const order = rng.shuffle(stream).sort((a, b) => a.n - b.n);
    for (const [i, { who, n }] of order.entries()) {
      now = T0 + i * 25 * MINUTE;
      phase1.push(await score(who, `p1-${who.customerId}-${n}`));
    }
    assert.equal(phase1.length, (40 + 12) * 3);
    const normal = phase1.filter((s) => s.who.ring === null);
    const ring = phase1.filter((s) => s.who.ring !== null);
    // Before any feedback the learning rules cannot fire and the model is at its prior.
    for (const s of phase1) assert.ok(!s.rules.some((r) => r.startsWith('SVC') || r === 'PF10018'), `${s.tx}: ${s.rules.join(',')}`);
    for (const s of normal) assert.ok(s.score < 30, `${s.tx} ${s.score} ${s.rules.join(',')}`);
    assert.equal((await t.store.model.history(ACCOUNT, 100)).length, 0);
    ctx.diagnostic(`phase 1: normal mean ${round(mean(normal.map((s) => s.score)))} max ${Math.max(...normal.map((s) => s.score))} rules ${ruleCounts(normal)}; ring mean ${round(mean(ring.map((s) => s.score)))} rules ${ruleCounts(ring)}`);
  });

  it('a ring-like probe before feedback: the model is at its prior', async () => {
    now += 30 * MINUTE;
    const p = await probe('probe-before');
    probeFeatures = p.features;
    probeBefore = { probability: await t.learning.model.predict(ACCOUNT, probeFeatures), modelPoints: p.scored.modelPoints };
    assert.ok(Math.abs(probeBefore.probability - t.learning.model.prior(probeFeatures)) < 1e-9);
  });

  it('phase 2: feedback a week later in one bulk call; the counts add up', async () => {
    now += 7 * DAY;
    const items: Array<Record<string, unknown>> = [];
    let expectCreated = 0;
    // Ring: accounts 0, 2, 4 of each ring get two fraud outcomes (chargeback, then fraud_confirmed after
    // review), accounts 1, 3, 5 one chargeback; each account's last purchase gets no feedback.
    for (const ring of rings) {
      for (const [j, acct] of ring.accounts.entries()) {
        const n = j % 2 === 0 ? 2 : 1;
        fraudCount.set(acct.customerId, n);
        for (let k = 0; k < n; k++) {
          items.push({ kind: 'payment', transaction_id: `p1-${acct.customerId}-${k}`, outcome: k === 0 ? 'chargeback' : 'fraud_confirmed', reason: k === 0 ? 'cardholder dispute: unauthorised' : 'confirmed by review' });
          expectCreated++;
        }
      }
    }
    // Ordinary customers: every purchase approved; one in five later confirmed legit by an analyst.
    for (const [i, c] of normals.entries()) {
      for (let k = 0; k < 3; k++) {
        items.push({ kind: 'payment', transaction_id: `p1-${c.customerId}-${k}`, outcome: i % 5 === 0 && k === 0 ? 'legit_confirmed' : 'approved' });
        expectCreated++;
      }
    }
    // A few ordinary identities labelled legit directly.
    for (const c of normals.slice(0, 5)) {
      items.push({ kind: 'event', type: 'email', value: c.email, label: 'legit', source: 'support' });
      expectCreated++;
    }
    const shuffled = rng.shuffle(items);
    // A retry of an item already in the batch, an outcome for a transaction not scored yet, a bad item.
    shuffled.push({ ...shuffled[0]! });
    shuffled.push({ kind: 'payment', transaction_id: 'not-scored-yet', outcome: 'approved' });
    shuffled.push({ kind: 'payment', transaction_id: 'bad-outcome', outcome: 'maybe' });
    const a = await apiCall<BulkAnswer>(t, 'POST', '/feedback/bulk', KEY, { items: shuffled });
    assert.equal(a.status, 'success', a.raw.slice(0, 500));
    bulk = a.data;
    const b = a.data;
    assert.equal(b.received, shuffled.length);
    assert.equal(b.received, b.created + b.updated + b.unchanged + b.pending + b.failed);
    assert.deepEqual({ created: b.created, updated: b.updated, unchanged: b.unchanged, pending: b.pending, failed: b.failed }, { created: expectCreated, updated: 0, unchanged: 1, pending: 1, failed: 1 });
    assert.equal(b.results.length, b.received);
    // Every payment outcome matched its one scoring.
    for (const r of b.results.slice(0, expectCreated)) if (r.kind === 'payment') assert.deepEqual([r.status, r.matched], ['applied', 1], JSON.stringify(r));
    assert.equal(b.results.at(-1)?.code, 131);
  });

  it('the model learned from the outcomes', async (ctx) => {
    const history = await t.store.model.history(ACCOUNT, 100);
    assert.ok(history.length > 0);
    assert.ok(history.some((h) => h.label === 1) && history.some((h) => h.label === 0));
    const pAfter = await t.learning.model.predict(ACCOUNT, probeFeatures);
    ctx.diagnostic(`model on the probe's features: p ${probeBefore.probability.toFixed(4)} → ${pAfter.toFixed(4)}`);
    // In log-odds: the probe was already likely fraud from the rules' priors (a card and devices shared by
    // many accounts); what the model learned multiplies its odds by e or more.
    const logit = (p: number) => Math.log(p / (1 - p));
    assert.ok(logit(pAfter) >= logit(probeBefore.probability) + 1, `${probeBefore.probability} → ${pAfter}`);
  });

  it('a ring-like probe after feedback: the model\'s contribution is higher (explain=yes)', async (ctx) => {
    now += 30 * MINUTE;
    const p = await probe('probe-after');
    ctx.diagnostic(`probe model points ${probeBefore.modelPoints} → ${p.scored.modelPoints}; probe score → ${p.scored.score} (${p.scored.rules.join(',')})`);
    assert.ok(p.scored.modelPoints > probeBefore.modelPoints + 1, `${probeBefore.modelPoints} → ${p.scored.modelPoints}`);
    assert.ok(p.scored.rules.includes('SVC2002'), p.scored.rules.join(','));
  });

  it('phase 3: the ring\'s scores rise clearly; the ordinary customers\' do not', async (ctx) => {
    assert.ok(bulk, 'phase 2 ran');
    const stream: Profile[] = [...normals, ...ringAccounts];
    // New accounts on the rings' devices and cards, registered a few hours before they buy.
    const fresh: Profile[] = [];
    for (const ring of rings) {
      for (let k = 0; k < 2; k++) fresh.push(ringAccount(rng, ring, `ring${ring.index}-new-${k}`, k, 1 - k, Math.floor((now + DAY) / 1000) - 3 * 3600));
    }
    const order = rng.shuffle([...stream, ...fresh]);
    const start = now + DAY;
    for (const [i, who] of order.entries()) {
      now = start + i * 20 * MINUTE;
      phase3.push(await score(who, `p3-${who.customerId}`));
    }

    const p1Normal = phase1.filter((s) => s.who.ring === null);
    const p1Ring = phase1.filter((s) => s.who.ring !== null);
    const p3Normal = phase3.filter((s) => s.who.ring === null);
    const p3Ring = phase3.filter((s) => s.who.ring !== null);
    const p3Reused = p3Ring.filter((s) => fraudCount.has(s.who.customerId));
    const p3Fresh = p3Ring.filter((s) => !fraudCount.has(s.who.customerId));
    assert.deepEqual([p3Normal.length, p3Reused.length, p3Fresh.length], [40, 12, 4]);

    const figures = {
      ring: { before: round(mean(p1Ring.map((s) => s.score))), after: round(mean(p3Ring.map((s) => s.score))), fresh: round(mean(p3Fresh.map((s) => s.score))) },
      normal: { before: round(mean(p1Normal.map((s) => s.score))), after: round(mean(p3Normal.map((s) => s.score))), maxAfter: Math.max(...p3Normal.map((s) => s.score)) },
      model: { ringBefore: round(mean(p1Ring.map((s) => s.modelPoints))), ringAfter: round(mean(p3Ring.map((s) => s.modelPoints))), normalBefore: round(mean(p1Normal.map((s) => s.modelPoints))), normalAfter: round(mean(p3Normal.map((s) => s.modelPoints))) },
    };
    ctx.diagnostic(`phase 3: ${JSON.stringify(figures)}`);
    ctx.diagnostic(`phase 3 rules: normal ${ruleCounts(p3Normal)}; ring ${ruleCounts(p3Ring)}`);

    // The ring: a clear rise, and the learning rules say why.
    assert.ok(figures.ring.after >= Math.min(figures.ring.before + 20, 95), JSON.stringify(figures));
    for (const s of p3Ring) assert.ok(s.rules.includes('SVC2002'), `${s.tx}: ${s.rules.join(',')}`);
    for (const s of p3Reused) {
      assert.ok(s.rules.includes('SVC2001'), `${s.tx}: ${s.rules.join(',')}`);
      if (fraudCount.get(s.who.customerId) === 2) assert.ok(s.rules.includes('PF10018'), `${s.tx}: ${s.rules.join(',')}`);
    }
    // Each reused ring account, one by one, scores far above any of its own purchases before feedback.
    for (const s of p3Reused) {
      const before = Math.max(...p1Ring.filter((b) => b.who.customerId === s.who.customerId).map((b) => b.score));
      assert.ok(s.score >= Math.min(before + 20, 99), `${s.tx}: ${before} → ${s.score}`);
    }
    for (const s of p3Fresh) assert.ok(!s.rules.includes('SVC2001'), `${s.tx}: a new customer id has no fraud history of its own`);
    // Even accounts never seen before score in the medium band or above on the rings' means.
    for (const s of p3Fresh) assert.ok(s.score >= 30, `${s.tx} ${s.score}`);
    assert.ok(figures.model.ringAfter > figures.model.ringBefore, JSON.stringify(figures.model));

    // Ordinary customers: no learning rule, low scores, no rise.
    for (const s of p3Normal) {
      assert.ok(!s.rules.some((r) => r === 'SVC2001' || r === 'SVC2002' || r === 'PF10018'), `${s.tx}: ${s.rules.join(',')}`);
      assert.ok(s.score <= 30, `${s.tx} ${s.score} ${s.rules.join(',')}`);
    }
    assert.ok(figures.normal.after <= figures.normal.before + 2, JSON.stringify(figures));
    // Before any feedback the rules' priors alone already put the rings in review or above.
    assert.ok(figures.ring.before >= 50, JSON.stringify(figures));
  });
});
