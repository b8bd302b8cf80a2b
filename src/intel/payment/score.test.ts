import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countryRiskLists } from './countries.ts';
import { cleanSignals, emptyInput, history, TEST_NOW, type SignalOverrides } from './fixtures.ts';
import { BASE_LOGIT, PRIOR_LOG_ODDS } from './prior.ts';
import { PAYMENT_RULE_IDS } from './rules.ts';
import { apportionCents, MAX_SCORE, RULES_CHECKED, scorePayment, sigmoid } from './score.ts';
import type { PaymentInput, PaymentScore } from './types.ts';
import { prng } from '../text/train.ts';


const cents = (x: number): number => Math.round(x * 100);
const sumPoints = (s: PaymentScore): number => s.contributions.reduce((a, c) => a + c.points, 0);
const learned = (entries: Record<string, number>): { learned: ReadonlyMap<string, number> } => ({ learned: new Map(Object.entries(entries)) });
const scoreOfLogit = (l: number): number => Math.round(10_000 * sigmoid(l)) / 100;

function assertExact(s: PaymentScore, label = ''): void {
  assert.equal(cents(sumPoints(s)), cents(s.score), `${label} contributions ${sumPoints(s)} vs score ${s.score}`);
  assert.ok(s.score >= 0 && s.score <= MAX_SCORE, `${label} score ${s.score}`);
  assert.ok(Math.abs(s.score * 100 - cents(s.score)) < 1e-6, `${label} score has at most 2 decimals`);
  for (const c of s.contributions) assert.ok(Math.abs(c.points * 100 - cents(c.points)) < 1e-6, `${label} ${c.id} has at most 2 decimals`);
  const logit = s.contributions.reduce((a, c) => a + c.logOdds, 0);
  // The log-odds add up to the logit of the score (up to the cent rounding of the score and the clamp).
  if (s.score > 0.5 && s.score < 99.5) assert.ok(Math.abs(scoreOfLogit(logit) - s.score) <= 0.011, `${label} logit ${logit} vs score ${s.score}`);
}

const SCHEDULE_OF_AMOUNTS = [20, 25, 30, 22, 28, 24, 26, 21, 29, 23, 27, 25, 20, 30, 24, 26, 22, 28, 25, 25];
const BASE = scoreOfLogit(BASE_LOGIT);

describe('scorePayment: a clean transaction', () => {
  it('scores the base rate, checks every rule, fires none', () => {
    const s = scorePayment(emptyInput({ amount: 25, currency: 'USD', customer: { country: 'US' }, billing: { country: 'US' } }), cleanSignals());
    assert.equal(s.rulesChecked, RULES_CHECKED);
    assert.equal(s.rulesChecked, 35);
    assert.equal(s.rulesDetected, 0);
    assert.deepEqual(s.rules, []);
    assert.equal(s.score, 1.8);
    assert.equal(s.score, BASE);
    assert.deepEqual(s.contributions.map((c) => [c.source, c.id, c.points, c.logOdds]), [['base', 'base', 1.8, -4], ['model', 'model', 0, 0]]);
  });
});

describe('scorePayment: combination in log-odds', () => {
  it('adds the rules\' priors to the base logit; points share the rest in proportion', () => {
    const s = scorePayment(emptyInput({ billing: { country: 'FR' } }), cleanSignals({ ip: { isProxy: true, proxyType: 'VPN', country: 'US' } }));
    // −4 + PF10003:proxy 2 + PF10017 1 = −1.
    assert.equal(s.score, scoreOfLogit(-1));
    assert.deepEqual(s.rules.map((r) => r.id), ['PF10003', 'PF10017']);
    const byId = Object.fromEntries(s.contributions.map((c) => [c.id, c]));
    assert.equal(byId.PF10003!.logOdds, 2);
    assert.equal(byId.PF10017!.logOdds, 1);
    assert.equal(byId.base!.points, BASE);
    assert.ok(Math.abs(byId.PF10003!.points - 2 * byId.PF10017!.points) <= 0.02, JSON.stringify(byId));
    assertExact(s);
  });

  it('the account\'s learned weights move the score anywhere in 0-100, without a cap', () => {
    const input = emptyInput({ billing: { country: 'FR' } });
    const sig = { ip: { isProxy: true, proxyType: 'VPN' } };
    assert.ok(scorePayment(input, cleanSignals({ ...sig, model: learned({ bias: 8 }) })).score > 99);
    assert.ok(scorePayment(input, cleanSignals({ ...sig, model: learned({ 'rule:PF10003:proxy': -6, 'rule:PF10017': -3 }) })).score < 0.5);
    const mid = scorePayment(input, cleanSignals({ ...sig, model: learned({ 'rule:PF10003:proxy': 1, 'amount_bucket:4': 0.5 }) }));
    // −1 + 1 (learned on the rule's feature, joins the rule) + 0.5 (another feature: the model's contribution).
    assert.equal(mid.score, scoreOfLogit(0.5));
    const byId = Object.fromEntries(mid.contributions.map((c) => [c.id, c]));
    assert.equal(byId.PF10003!.logOdds, 3);
    assert.match(byId.PF10003!.detail ?? '', /learned \+1\.00/);
    assert.equal(byId.model!.logOdds, 0.5);
    assert.match(byId.model!.detail ?? '', /amount_bucket:4 \+0\.50/);
    assertExact(mid);
  });

  it('a contribution that lowers the odds has negative points, and the sum stays exact', () => {
    const s = scorePayment(emptyInput(), cleanSignals({ ip: { isTor: true }, model: learned({ bias: -1.5 }) }));
    const model = s.contributions.find((c) => c.id === 'model')!;
    assert.ok(model.points < 0, JSON.stringify(s.contributions));
    assertExact(s);
  });

  it('PF10015 is listed when the learned model adds at least 0.5 log-odds and the score is 50 or more', () => {
    const none = scorePayment(emptyInput(), cleanSignals({ model: learned({ bias: 3 }) }));
    assert.ok(none.score < 50);
    assert.deepEqual(none.rules, []);
    const s = scorePayment(emptyInput(), cleanSignals({ email: { disposable: true }, model: learned({ bias: 2.5 }) }));
    assert.ok(s.score >= 50, String(s.score));
    assert.deepEqual(s.rules.map((r) => r.id), ['PF10004', 'PF10015']);
    assert.equal(s.rulesDetected, 2);
    assert.equal(s.contributions.some((c) => c.id === 'PF10015'), false);
  });

  it('digital goods raise the boosted rules', () => {
    const base = emptyInput({ billing: { country: 'FR' } });
    const signals = cleanSignals({ ip: { isTor: true, isProxy: true } });
    assert.equal(scorePayment(base, signals).score, scoreOfLogit(-4 + 3 + 1));
    assert.equal(scorePayment({ ...base, isDigitalProducts: true }, signals).score, scoreOfLogit(-4 + 4.5 + 1.5));
  });

  it('signals compound: each one added raises the score, and none saturates it', () => {
    const now = TEST_NOW.getTime() / 1000;
    const steps: Array<[Partial<PaymentInput>, SignalOverrides]> = [
      [{}, {}],
      [{}, { ip: { isTor: true } }],
      [{}, { ip: { isTor: true }, email: { disposable: true } }],
      [{ registrationDate: now - 3000 }, { ip: { isTor: true }, email: { disposable: true } }],
    ];
    const scores = steps.map(([i, sig]) => scorePayment(emptyInput(i), cleanSignals(sig)).score);
    for (let k = 1; k < scores.length; k++) assert.ok(scores[k]! > scores[k - 1]!, scores.join(' < '));
    assert.ok(scores.at(-1)! < 100, scores.join(', '));
    assert.ok(scores[2]! >= 60, `Tor + disposable ${scores[2]}`);
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
    assert.ok(s.contributions.find((c) => c.id === 'PF10022')!.detail);
  });

  it('non-finite learned weights are ignored', () => {
    assert.equal(scorePayment(emptyInput(), cleanSignals({ model: learned({ bias: NaN, other: Infinity }) })).score, BASE);
  });

  it('country lists can be passed in', () => {
    const input = emptyInput({ customer: { country: 'FR' } });
    assert.equal(scorePayment(input, cleanSignals()).rulesDetected, 0);
    assert.deepEqual(scorePayment(input, cleanSignals(), { countries: countryRiskLists({ customer: ['FR'] }) }).rules.map((r) => r.id), ['PF10009']);
  });

  it('every rule at once: the top of the scale and exact', () => {
    const input = emptyInput({
      isDigitalProducts: true,
      amount: 9000,
      customer: { country: 'KP', latitude: 95, longitude: 0 },
      billing: { country: 'FR', latitude: 48.85, longitude: 2.35 },
      shipping: { country: 'NG' },
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
      velocity: {
        ipLastHour: 50, customerLastHour: 50, customerLocations30d: 20, cardCustomers30d: 9, customerCardsLastDay: 9, cardLast10Minutes: 9,
        cardEmailsLastDay: 9, deviceCustomers30d: 9, deviceCardsLast10Minutes: 9,
      },
      lists: { ip: true, email: true, phone: true, card: true, customer: true, confirmedFraud: true },
      labels: { customer: 3, shared: 3, customerFraud30d: 4 },
      model: learned({ bias: 1 }),
      amounts: { customer: history([10, 12, 11]), account: history(SCHEDULE_OF_AMOUNTS) },
      reshipper: { kind: 'address', service: 'x' },
    };
    const s = scorePayment(input, cleanSignals(all));
    // PF10031 needs a customer without history; the rest fire.
    assert.deepEqual(s.rules.map((r) => r.id), PAYMENT_RULE_IDS.filter((id) => id !== 'PF10031'));
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
        cardCustomers30d: Math.floor(rand() * 4), customerCards7d: Math.floor(rand() * 7), ipCardsLast10Minutes: Math.floor(rand() * 7),
      },
      lists: { ip: pick(0.05), email: pick(0.05), phone: pick(0.05), card: pick(0.05), customer: pick(0.05), confirmedFraud: pick(0.05) },
      labels: { customer: rand() * (pick(0.2) ? 2 : 0.4), shared: rand() * (pick(0.2) ? 2 : 0.4), customerFraud30d: Math.floor(rand() * 3) },
      model: learned(pick(0.5) ? { bias: (rand() - 0.5) * 8, 'rule:PF10003:tor': rand() * 3 } : {}),
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
      assert.equal(s.rulesChecked, 35);
      const order = s.rules.map((r) => r.id);
      assert.deepEqual(order, [...order].sort(), `case ${n} order`);
      if (s.score >= 99) capped++;
      fired += s.rulesDetected;
    }
    // The generator exercises both the top of the scale and the middle.
    assert.ok(capped > 50 && capped < 4500, `near 100: ${capped}`);
    assert.ok(fired > 5000, `fired ${fired}`);
  });

  it('apportionCents: random non-negative values and totals, exact sums, never negative', () => {
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

  it('apportionCents: signed values keep exact sums', () => {
    const rand = prng(11);
    for (let n = 0; n < 2000; n++) {
      const raw = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => (rand() - 0.4) * 40);
      const total = Math.round(raw.reduce((a, b) => a + b, 0) * 100);
      assert.equal(apportionCents(raw, total).reduce((a, b) => a + b, 0), total);
    }
  });

  it('priors: no single rule besides the lists, labels and textbook patterns reaches the fraud_payment event (50) alone', () => {
    const strong = /^PF1002[2-6]|^SVC|^PF10018|^PF10020:lt1m|^PF10027:8|^PF10033:8|^PF10012:10/;
    for (const [key, w] of Object.entries(PRIOR_LOG_ODDS)) {
      if (strong.test(key)) continue;
      assert.ok(scoreOfLogit(BASE_LOGIT + w) < 50, `${key} ${w}`);
    }
    for (const id of ids) assert.ok(PRIOR_LOG_ODDS[id] !== undefined, id);
  });
});
