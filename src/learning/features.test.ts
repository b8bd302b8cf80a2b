import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import type { PaymentInput, VelocitySignal } from '../intel/payment/types.ts';
import { amountBucket, paymentFeatures, type FeatureFacts } from './features.ts';

const hashFn = (s: string): string => createHmac('sha256', 'test-key').update(s).digest('hex');

function input(overrides: Partial<PaymentInput> = {}): PaymentInput {
  return { cartItems: [], isDigitalProducts: false, customer: {}, billing: {}, shipping: {}, ...overrides };
}

const noFacts: FeatureFacts = { ruleIds: [], ipCountry: null, binCountry: null, emailDomainHash: null };

describe('paymentFeatures', () => {
  it('an empty payment has the bias, amount_bucket:none and the missing identities', () => {
    assert.deepEqual(paymentFeatures(input(), noFacts, hashFn), [
      'amount_bucket:none',
      'bias',
      'missing:customer_id',
      'missing:device',
      'missing:email',
      'missing:ip',
      'missing:phone',
    ]);
  });

  it('a full payment gives the documented features, sorted and unique', () => {
    const domainHash = hashFn('example.com');
    const features = paymentFeatures(
      input({
        action: 'Purchase',
        paymentType: 'cards',
        isDigitalProducts: true,
        amount: 150,
        currency: 'usd',
        customer: { country: 'us' },
        billing: { country: 'US' },
        shipping: { country: 'CA' },
        email: 'john@example.com',
        phone: '447911123456',
        ip: '203.0.113.7',
        deviceId: 'device-1',
        customerId: 'cust-1',
        registrationDate: Date.UTC(2024, 0, 1) / 1000,
        cvvResult: false,
        twoFactor: true,
        coupon: 'SPRING',
        cartItems: [{ id: '1' }, { id: '2' }],
      }),
      {
        ruleIds: ['PF10003:tor', 'SVC2001', 'PF10003:tor'],
        ipCountry: 'GB',
        binCountry: 'FR',
        emailDomainHash: domainHash,
        now: new Date(Date.UTC(2024, 0, 3)),
      },
      hashFn,
    );
    assert.deepEqual(features, [
      '2fa:1',
      'action:purchase',
      'age:lt3d',
      'amount_bucket:7',
      'bias',
      'billing_country:US',
      'card_country:FR',
      'cart_size:2-4',
      'country:US',
      'coupon:1',
      'currency:USD',
      'cvv:fail',
      `device:${hashFn('device-1').slice(0, 12)}`,
      'digital:1',
      `email_domain:${domainHash.slice(0, 12)}`,
      'ip_country:GB',
      'mismatch:billing_ip',
      'mismatch:billing_shipping',
      'mismatch:card_billing',
      'mismatch:card_ip',
      'mismatch:customer_ip',
      'ptype:cards',
      'rule:PF10003:tor',
      'rule:SVC2001',
      'shipping_country:CA',
      'x:anon&digital',
    ]);
    assert.deepEqual(features, [...new Set(features)].sort());
  });

  it('never puts an identity value in clear', () => {
    const values = ['john@example.com', 'example.com', '447911123456', '203.0.113.7', 'device-secret', 'cust-secret', '4111111111111111'];
    const features = paymentFeatures(
      input({ email: values[0], phone: values[2], ip: values[3], deviceId: values[4], customerId: values[5], cardNumber: values[6] }),
      { ...noFacts, emailDomainHash: hashFn('example.com') },
      hashFn,
    );
    const joined = features.join('|');
    for (const v of values) assert.ok(!joined.includes(v), `${v} leaked into ${joined}`);
    assert.ok(!joined.includes('missing:device') && joined.includes('device:'));
  });

  it('uses facts.deviceHash when given, and never a hash that is not hex', () => {
    const withHash = paymentFeatures(input({ deviceId: 'd' }), { ...noFacts, deviceHash: 'ABCDEF0123456789' }, hashFn);
    assert.ok(withHash.includes('device:abcdef012345'));
    const notHex = paymentFeatures(input({ deviceId: 'd' }), { ...noFacts, deviceHash: 'not a hash at all', emailDomainHash: 'gmail.com-gmail.com' }, hashFn);
    assert.ok(!notHex.some((f) => f.startsWith('device:') || f.startsWith('email_domain:')));
    const nullHash = paymentFeatures(input({ deviceId: 'd' }), { ...noFacts, deviceHash: null }, hashFn);
    assert.ok(!nullHash.some((f) => f.startsWith('device:')));
  });

  it('is deterministic and order-independent in its rule ids', () => {
    const a = paymentFeatures(input({ amount: 10 }), { ...noFacts, ruleIds: ['PF10002', 'PF10001'] }, hashFn);
    const b = paymentFeatures(input({ amount: 10 }), { ...noFacts, ruleIds: ['PF10001', 'PF10002'] }, hashFn);
    assert.deepEqual(a, b);
  });

  it('keeps cardinality low: odd values fold to other or are dropped', () => {
    const features = paymentFeatures(
      input({ action: 'refund-ish', paymentType: 'a very long payment type name!', currency: 'DOLLARS', customer: { country: 'USA' } }),
      { ...noFacts, ruleIds: ['<script>', 'pf10001', ''], ipCountry: 'x', binCountry: '12' },
      hashFn,
    );
    assert.ok(features.includes('action:other'));
    assert.ok(features.includes('ptype:other'));
    assert.ok(features.includes('rule:PF10001'));
    assert.ok(!features.some((f) => f.startsWith('currency:') || f.startsWith('country:') || f.includes('script') || f.includes('_country:')));
  });

  it('does not flag mismatches when a side is unknown or equal', () => {
    const features = paymentFeatures(input({ billing: { country: 'US' }, customer: { country: 'US' } }), { ...noFacts, ipCountry: 'US', binCountry: null }, hashFn);
    assert.ok(!features.some((f) => f.startsWith('mismatch:')));
  });

  it('buckets the account age on a log scale only with facts.now, future registrations count as new', () => {
    const now = new Date(Date.UTC(2024, 5, 1));
    const at = (seconds: number) => paymentFeatures(input({ registrationDate: now.getTime() / 1000 - seconds }), { ...noFacts, now }, hashFn).find((f) => f.startsWith('age:'));
    const DAY = 86400;
    assert.equal(at(-3 * DAY), 'age:lt10s');
    assert.equal(at(1), 'age:lt10s');
    assert.equal(at(30), 'age:lt1m');
    assert.equal(at(300), 'age:lt10m');
    assert.equal(at(1800), 'age:lt1h');
    assert.equal(at(7200), 'age:lt6h');
    assert.equal(at(0.5 * DAY), 'age:lt1d');
    assert.equal(at(3 * DAY), 'age:lt7d');
    assert.equal(at(20 * DAY), 'age:lt30d');
    assert.equal(at(60 * DAY), 'age:lt90d');
    assert.equal(at(200 * DAY), 'age:lt365d');
    assert.equal(at(400 * DAY), 'age:ge365d');
    assert.ok(!paymentFeatures(input({ registrationDate: 1 }), noFacts, hashFn).some((f) => f.startsWith('age:')));
  });

  it('velocity counts, the amount against the account and the crosses of a new account', () => {
    const now = new Date(Date.UTC(2024, 5, 1));
    const account = { count: 50, meanLog: Math.log1p(30), sdLog: 0.5, max: 90 };
    const features = paymentFeatures(
      input({ amount: 900, registrationDate: now.getTime() / 1000 - 20 }),
      {
        ...noFacts,
        now,
        ruleIds: ['PF10020:lt1m', 'PF10004:disposable', 'PF10029:3'],
        velocity: { customerHistory: 0, cardLast10Minutes: 5, cardCustomers30d: 1, cardEmailsLastDay: 2, deviceCustomers30d: 3, ipCustomersLastDay: 0 },
        accountAmounts: account,
        phoneLineType: 'fixed_line_or_mobile',
      },
      hashFn,
    );
    for (const f of ['phone_type:fixed_line_or_mobile', 'cust_hist:0', 'card10m:4+', 'card_cust:1', 'card_email:2-3', 'dev_cust:2-3', 'ip_cust:0', 'amount_z:ge3', 'age:lt1m',
      'rule:PF10020:lt1m', 'rule:PF10004:disposable', 'rule:PF10029:3', 'x:new&disposable', 'x:new&high', 'x:new&mismatch', 'x:disposable&high', 'x:high&mismatch']) {
      assert.ok(features.includes(f), `${f} in ${features.join(' ')}`);
    }
    // Fewer than 20 account amounts: no amount_z.
    const few = paymentFeatures(input({ amount: 900 }), { ...noFacts, accountAmounts: { ...account, count: 19 } }, hashFn);
    assert.ok(!few.some((f) => f.startsWith('amount_z:')));
  });

  it('many cards in minutes: the BIN above its usual count, cards per device and per IP (PF10033)', () => {
    const f = (velocity: VelocitySignal) => paymentFeatures(input(), { ...noFacts, velocity }, hashFn).filter((x) => /^(bin_surge|dev_cards10m|ip_cards10m):/.test(x)).sort();
    // A quiet BIN: 9 cards in ten minutes, nothing before.
    assert.deepEqual(f({ binAnyCardsLast10Minutes: 9, binUsualPer10Minutes: 0, deviceCardsLast10Minutes: 1, ipCardsLast10Minutes: 2 }), ['bin_surge:4+', 'dev_cards10m:1', 'ip_cards10m:2-3']);
    // A popular BIN at its usual pace (25 in ten minutes, 25 usual from its hour): nothing above twice the usual.
    assert.deepEqual(f({ binAnyCardsLast10Minutes: 25, binUsualPer10Minutes: 25 }), ['bin_surge:0']);
    assert.deepEqual(f({}), []);
  });

  it('a malformed grade is dropped, a lower-case id is upper-cased', () => {
    const f = paymentFeatures(input(), { ...noFacts, ruleIds: ['pf10020:lt1m', 'PF10003:<b>', 'PF10003:a:b', 'PF10003:'] }, hashFn);
    assert.deepEqual(f.filter((x) => x.startsWith('rule:')), ['rule:PF10020:lt1m']);
  });

  it('cart size buckets', () => {
    const cart = (n: number) =>
      paymentFeatures(input({ cartItems: Array.from({ length: n }, () => ({})) }), noFacts, hashFn).find((f) => f.startsWith('cart_size:')) ?? null;
    assert.equal(cart(0), null);
    assert.equal(cart(1), 'cart_size:1');
    assert.equal(cart(4), 'cart_size:2-4');
    assert.equal(cart(5), 'cart_size:5+');
  });
});

describe('amountBucket', () => {
  it('is floor(log2(1 + amount)), 0 for nothing, capped at 40', () => {
    assert.equal(amountBucket(0), 0);
    assert.equal(amountBucket(-5), 0);
    assert.equal(amountBucket(Number.NaN), 0);
    assert.equal(amountBucket(1), 1);
    assert.equal(amountBucket(2), 1);
    assert.equal(amountBucket(3), 2);
    assert.equal(amountBucket(1023), 10);
    assert.equal(amountBucket(1e300), 40);
  });
});

describe('paymentFeatures: browser and system families', () => {
  const cases: Array<[string, string, string]> = [
    ['Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko', 'ie', 'windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0', 'edge', 'windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0', 'opera', 'windows'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0', 'firefox', 'linux'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'chrome', 'android'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'safari', 'ios'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15', 'safari', 'mac'],
    ['curl/8.4.0', 'other', 'other'],
  ];
  for (const [ua, browser, os] of cases) {
    it(`${browser} on ${os}: ${ua.slice(0, 40)}`, () => {
      const f = paymentFeatures(input({ userAgent: ua }), noFacts, hashFn);
      assert.ok(f.includes(`browser:${browser}`) && f.includes(`os:${os}`), f.join(' '));
    });
  }
  it('no User-Agent, no browser feature', () => {
    assert.ok(!paymentFeatures(input(), noFacts, hashFn).some((f) => f.startsWith('browser:') || f.startsWith('os:')));
  });
});
