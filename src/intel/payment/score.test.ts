import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countryRiskLists } from './countries.ts';
import { cleanSignals, emptyInput, history, TEST_NOW, type SignalOverrides } from './fixtures.ts';
import { PAYMENT_RULE_IDS, PAYMENT_RULE_WEIGHTS } from './rules.ts';
import { apportionCents, MAX_SCORE, MODEL_POINTS, RULES_CHECKED, scorePayment } from './score.ts';
import type { PaymentInput, PaymentScore } from './types.ts';
import { prng } from '../text/train.ts';


const cents = (x: number): number => Math.round(x * 100);
const sumPoints = (s: PaymentScore): number => s.contributions.reduce((a, c) => a + c.points, 0);

function assertExact(s: PaymentScore, label = ''): void {
  assert.equal(cents(sumPoints(s)), cents(s.score), `${label} contributions ${sumPoints(s)} vs score ${s.score}`);
  assert.ok(s.score >= 0 && s.score <= MAX_SCORE, `${label} score ${s.score}`);
  assert.ok(Math.abs(s.score * 100 - cents(s.score)) < 1e-6, `${label} score has at most 2 decimals`);
  for (const c of s.contributions) {
    assert.ok(c.points >= 0, `${label} ${c.id} ${c.points}`);
    assert.ok(Math.abs(c.points * 100 - cents(c.points)) < 1e-6, `${label} ${c.id} has at most 2 decimals`);
  }
}

const SCHEDULE_OF_AMOUNTS = [20, 25, 30, 22, 28, 24, 26, 21, 29, 23, 27, 25, 20, 30, 24, 26, 22, 28, 25, 25];

describe('scorePayment: a clean transaction', () => {
  it('scores near 0, checks every rule, fires none', () => {
    const s = scorePayment(emptyInput({ amount: 25, currency: 'USD', customer: { country: 'US' }, billing: { country: 'US' } }), cleanSignals({ model: { probability: 0.02 } }));
    assert.equal(s.rulesChecked, RULES_CHECKED);
    assert.equal(s.rulesChecked, 28);
    assert.equal(s.rulesDetected, 0);
    assert.deepEqual(s.rules, []);
    assert.equal(s.score, 0.6);
    assert.deepEqual(s.contributions, [{ source: 'model', id: 'model', points: 0.6, detail: 'fraud probability 0.020 × 30' }]);
  });

  it('an empty payment with model 0 scores exactly 0, the model still listed', () => {
    const s = scorePayment(emptyInput(), cleanSignals());
    assert.equal(s.score, 0);
    assert.equal(s.contributions.length, 1);
    assert.equal(s.contributions[0]!.source, 'model');
    assert.equal(s.contributions[0]!.points, 0);
  });
});

describe('scorePayment: combination', () => {
  it('adds rule weights and MODEL_POINTS × probability', () => {
    const s = scorePayment(emptyInput({ billing: { country: 'FR' } }), cleanSignals({ ip: { isProxy: true, proxyType: 'VPN' }, model: { probability: 0.2 } }));
    // PF10003 15 + PF10017 10 + model 30 × 0.2 = 6.
    assert.equal(s.score, 31);
    assert.deepEqual(s.rules.map((r) => r.id), ['PF10003', 'PF10017']);
    assert.deepEqual(s.contributions.map((c) => [c.source, c.id, c.points]), [['rule', 'PF10003', 15], ['rule', 'PF10017', 10], ['model', 'model', 6]]);
    assert.equal(s.rulesDetected, 2);
    assertExact(s);
  });

  it('PF10015 is listed but its points are the model\'s (no double count)', () => {
    const s = scorePayment(emptyInput(), cleanSignals({ model: { probability: 0.8 } }));
    assert.deepEqual(s.rules.map((r) => r.id), ['PF10015']);
    assert.equal(s.score, MODEL_POINTS * 0.8);
    assert.deepEqual(s.contributions.map((c) => [c.id, c.points]), [['PF10015', 0], ['model', 24]]);
  });

  it('digital goods raise the boosted rules', () => {
    const base = emptyInput({ billing: { country: 'FR' } });
    const signals = cleanSignals({ ip: { isTor: true, isProxy: true } });
    assert.equal(scorePayment(base, signals).score, 25);
    assert.equal(scorePayment({ ...base, isDigitalProducts: true }, signals).score, 37.5);
  });

  it('caps at 100, scaling every contribution by 100 / sum', () => {
    const s = scorePayment(
      emptyInput({ customerId: 'c1' }),
      cleanSignals({ lists: { ip: true, email: true, customer: true }, model: { probability: 1 } }),
    );
    // 40 + 50 + 60 + 30 = 180 → × 100/180.
    assert.equal(s.score, 100);
    const byId = Object.fromEntries(s.contributions.map((c) => [c.id, c.points]));
    assert.ok(Math.abs(byId.PF10022! - 22.22) <= 0.01);
    assert.ok(Math.abs(byId.PF10023! - 27.78) <= 0.01);
    assert.ok(Math.abs(byId.PF10026! - 33.33) <= 0.01);
    assert.ok(Math.abs(byId.model! - 16.67) <= 0.01);
    assertExact(s);
  });

  it('lists fired rules in id order, PF before SVC', () => {
    const s = scorePayment(
      emptyInput({ userAgent: 'curl/8.4.0', registrationDate: TEST_NOW.getTime() / 1000 - 60 }),
      cleanSignals({ labels: { shared: 1, customer: 1 }, lists: { phone: true }, email: { disposable: true }, velocity: { ipLastHour: 9 } }),
    );
    const ids = s.rules.map((r) => r.id);
    assert.deepEqual(ids, ['PF10001', 'PF10004', 'PF10013', 'PF10020', 'PF10024', 'SVC2001', 'SVC2002']);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(s.rulesDetected, ids.length);
    assertExact(s);
  });

  it('descriptions are the rule table\'s; details go to contributions', () => {
    const s = scorePayment(emptyInput(), cleanSignals({ lists: { ip: true } }));
    assert.deepEqual(s.rules, [{ id: 'PF10022', description: "Customer IP is on one of the account's blacklists" }]);
    assert.ok(s.contributions[0]!.detail);
  });

  it('a probability outside 0-1 is clamped; NaN counts as 0', () => {
    assert.equal(scorePayment(emptyInput(), cleanSignals({ model: { probability: 7 } })).score, MODEL_POINTS);
    assert.equal(scorePayment(emptyInput(), cleanSignals({ model: { probability: -1 } })).score, 0);
    assert.equal(scorePayment(emptyInput(), cleanSignals({ model: { probability: NaN } })).score, 0);
  });

  it('country lists can be passed in', () => {
    const input = emptyInput({ customer: { country: 'FR' } });
    assert.equal(scorePayment(input, cleanSignals()).rulesDetected, 0);
    assert.deepEqual(scorePayment(input, cleanSignals(), { countries: countryRiskLists({ customer: ['FR'] }) }).rules.map((r) => r.id), ['PF10009']);
  });

  it('every rule at once: capped at 100 and exact', () => {
    const input = emptyInput({
      isDigitalProducts: true,
      amount: 9000,
      customer: { country: 'KP', latitude: 95, longitude: 0 },
      billing: { country: 'FR', latitude: 48.85, longitude: 2.35 },
      userAgent: 'Mozilla/5.0 (Linux; Android 9; Android SDK built for x86 Build/PSR1) HeadlessChrome/69.0 Mobile Safari/537.36',
      paymentType: 'bank',
      cardNumber: '4111111111111111',
      registrationDate: TEST_NOW.getTime() / 1000 - 10,
    });
    const all: SignalOverrides = {
      ip: { isTor: true, isProxy: true },
      email: { valid: false },
      phone: { type: 'VOIP' },
      bin: { valid: false, country: 'IR' },
      velocity: { ipLastHour: 50, customerLastHour: 50, customerLocations30d: 20, cardCustomers30d: 9, customerCardsLastDay: 9 },
      lists: { ip: true, email: true, phone: true, card: true, customer: true, confirmedFraud: true },
      labels: { customer: 3, shared: 3, customerFraud30d: 4 },
      model: { probability: 0.99 },
      amounts: { customer: history([10, 12, 11]), account: history(SCHEDULE_OF_AMOUNTS) },
    };
    const s = scorePayment(input, cleanSignals(all));
    assert.deepEqual(s.rules.map((r) => r.id), [...PAYMENT_RULE_IDS]);
    assert.equal(s.rulesDetected, 28);
    assert.equal(s.score, 100);
    assertExact(s);
  });
});

describe('scorePayment: contributions sum exactly to the score (seeded property test)', () => {
  const ids = PAYMENT_RULE_IDS.filter((id) => id !== 'PF10015');

  function randomCase(rand: () => number): [PaymentInput, SignalOverrides] {
    const pick = (p: number) => rand() < p;
    const input: Partial<PaymentInput> = {
      isDigitalProducts: pick(0.3),
      billing: pick(0.4) ? { country: pick(0.5) ? 'US' : 'DE' } : {},
      customer: pick(0.2) ? { country: 'YE' } : pick(0.1) ? { latitude: 100, longitude: 5 } : {},
      userAgent: pick(0.15) ? 'curl/8.4.0' : pick(0.1) ? 'Dalvik/2.1.0 (Linux; U; Android 9; vbox86p Build/PI)' : undefined,
      amount: pick(0.5) ? Math.round(rand() * 100000) / 100 : undefined,
      paymentType: pick(0.1) ? 'crypto' : undefined,
      cardNumber: pick(0.5) ? '4111111111111111' : undefined,
      registrationDate: pick(0.2) ? TEST_NOW.getTime() / 1000 - Math.floor(rand() * 200000) : undefined,
    };
    const signals: SignalOverrides = {
      ip: { isTor: pick(0.1), isProxy: pick(0.15), isHosting: pick(0.1), isRelay: pick(0.1), isBot: pick(0.05) },
      email: { disposable: pick(0.15), score: Math.floor(rand() * 4) },
      phone: { valid: !pick(0.1), type: pick(0.1) ? 'VOIP' : 'MOBILE' },
      bin: { valid: !pick(0.1), country: pick(0.1) ? 'IR' : 'US' },
      velocity: {
        ipLastHour: Math.floor(rand() * 8), customerLastDay: Math.floor(rand() * 20), customerLocations30d: Math.floor(rand() * 7),
        cardCustomers30d: Math.floor(rand() * 4), customerCards7d: Math.floor(rand() * 7),
      },
      lists: { ip: pick(0.05), email: pick(0.05), phone: pick(0.05), card: pick(0.05), customer: pick(0.05), confirmedFraud: pick(0.05) },
      labels: { customer: rand() * (pick(0.2) ? 2 : 0.4), shared: rand() * (pick(0.2) ? 2 : 0.4), customerFraud30d: Math.floor(rand() * 3) },
      model: { probability: rand() ** 2 },
      amounts: {
        customer: pick(0.5) ? history(Array.from({ length: 1 + Math.floor(rand() * 10) }, () => 1 + rand() * 200)) : null,
        account: pick(0.5) ? history(Array.from({ length: 15 + Math.floor(rand() * 30) }, () => 1 + rand() * 200)) : null,
      },
    };
    return [emptyInput(input), signals];
  }

  it('5,000 random transactions: Σ points === score to the cent, score in [0, 100]', () => {
    const rand = prng(20250601);
    let capped = 0;
    let fired = 0;
    for (let n = 0; n < 5000; n++) {
      const [input, sig] = randomCase(rand);
      const s = scorePayment(input, cleanSignals(sig));
      assertExact(s, `case ${n}`);
      assert.equal(s.rulesDetected, s.rules.length);
      assert.equal(s.rulesChecked, 28);
      const order = s.rules.map((r) => r.id);
      assert.deepEqual(order, [...order].sort(), `case ${n} order`);
      if (s.score === 100) capped++;
      fired += s.rulesDetected;
    }
    // The generator exercises both the cap and uncapped sums.
    assert.ok(capped > 50 && capped < 4500, `capped ${capped}`);
    assert.ok(fired > 5000, `fired ${fired}`);
  });

  it('apportionCents: random values and totals, exact sums, never negative', () => {
    const rand = prng(7);
    for (let n = 0; n < 5000; n++) {
      const k = 1 + Math.floor(rand() * 30);
      const raw = Array.from({ length: k }, () => (rand() < 0.2 ? 0 : rand() * (rand() < 0.5 ? 1 : 60)));
      const sum = raw.reduce((a, b) => a + b, 0);
      const scale = sum > 100 ? 100 / sum : 1;
      const scaled = raw.map((v) => v * scale);
      const total = Math.round(scaled.reduce((a, b) => a + b, 0) * 100);
      const c = apportionCents(scaled, total);
      assert.equal(c.reduce((a, b) => a + b, 0), total, `case ${n}`);
      for (const x of c) assert.ok(Number.isInteger(x) && x >= 0);
    }
  });

  it('apportionCents: the remainder goes to the largest', () => {
    // Three thirds of 100: 33.33 each rounds to 9999 cents; the missing cent goes to the first largest.
    assert.deepEqual(apportionCents([100 / 3, 100 / 3, 100 / 3], 10000), [3334, 3333, 3333]);
    // 0.005 × 3 rounds up each (3 cents) against a total of 2: the largest gives one back.
    assert.deepEqual(apportionCents([0.004, 0.005, 0.006], 2), [0, 1, 1]);
    assert.deepEqual(apportionCents([], 0), []);
  });

  it('weights: no single rule besides the lists and labels reaches the fraud_payment event (50) alone', () => {
    for (const id of ids) {
      const w = PAYMENT_RULE_WEIGHTS[id];
      if (/^PF1002[2-6]$|^SVC|PF10018/.test(id)) continue;
      assert.ok(w * 1.5 < 50, `${id} ${w}`);
    }
  });
});
