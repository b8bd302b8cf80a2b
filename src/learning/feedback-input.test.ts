import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../http/errors.ts';
import {
  kindOf,
  maskIdentity,
  MAX_BULK_ITEMS,
  parseBulkFeedback,
  parseEventFeedback,
  parseIdentityValue,
  parseOccurredAt,
  parsePaymentFeedback,
} from './feedback-input.ts';
import { normaliseIdentity } from './identity-values.ts';

const NOW = new Date('2024-06-01T12:00:00.000Z');

/** Asserts an ApiError of `code` whose description names `field`. */
function rejects(call: () => unknown, field: string | null, code = 131): void {
  assert.throws(call, (err: unknown) => {
    assert.ok(err instanceof ApiError, `not an ApiError: ${String(err)}`);
    assert.equal(err.code, code);
    if (field !== null) assert.ok(err.message.includes(field), `"${err.message}" does not name ${field}`);
    assert.ok(err.message.length < 300, 'descriptions stay short');
    return true;
  });
}

const pay = (fields: Record<string, unknown>) => parsePaymentFeedback({ transaction_id: 'tx-1', outcome: 'chargeback', ...fields }, NOW);
const evt = (fields: Record<string, unknown>) => parseEventFeedback({ type: 'email', value: 'a@example.com', label: 'fraud', ...fields }, NOW);

const HOSTILE = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u001b[31m'];

describe('parsePaymentFeedback', () => {
  it('reads a minimal body', () => {
    assert.deepEqual(parsePaymentFeedback({ transaction_id: 'tx-1', outcome: 'approved' }, NOW), {
      transactionId: 'tx-1',
      outcome: 'approved',
      reason: null,
      occurredAt: undefined,
    });
  });

  it('reads a full body, normalising identities', () => {
    assert.deepEqual(
      parsePaymentFeedback(
        {
          transaction_id: '  tx-9 ',
          outcome: 'declined',
          reason: ' stolen card ',
          occurred_at: '2024-05-01T10:00:00+02:00',
          customer_id: ' cust-1 ',
          customer_email: ' John@Example.COM ',
          customer_phone: '+44 7911 123456',
          customer_ip: '::ffff:203.0.113.7',
          customer_device_id: 'dev-1',
          kind: 'payment',
          unknown_field: { ignored: true },
        },
        NOW,
      ),
      {
        transactionId: 'tx-9',
        outcome: 'declined',
        reason: 'stolen card',
        occurredAt: '2024-05-01T08:00:00.000Z',
        customerId: 'cust-1',
        customerEmail: 'john@example.com',
        customerPhone: '447911123456',
        customerIp: '203.0.113.7',
        customerDeviceId: 'dev-1',
      },
    );
  });

  it('the body must be an object', () => {
    for (const body of [null, undefined, 'tx', 42, [], [{ transaction_id: 'a', outcome: 'approved' }]]) rejects(() => parsePaymentFeedback(body, NOW), 'object');
  });

  describe('transaction_id', () => {
    it('accepts a number as its decimal text', () => {
      assert.equal(pay({ transaction_id: 12345 }).transactionId, '12345');
      assert.equal(pay({ transaction_id: 12.5 }).transactionId, '12.5');
      assert.equal(pay({ transaction_id: 0 }).transactionId, '0');
    });
    it('is required, non-empty, a string or number, at most 1000 characters, no controls', () => {
      rejects(() => parsePaymentFeedback({ outcome: 'approved' }, NOW), 'transaction_id');
      rejects(() => pay({ transaction_id: null }), 'transaction_id');
      rejects(() => pay({ transaction_id: '' }), 'transaction_id');
      rejects(() => pay({ transaction_id: '   ' }), 'transaction_id');
      rejects(() => pay({ transaction_id: true }), 'transaction_id');
      rejects(() => pay({ transaction_id: { id: 1 } }), 'transaction_id');
      rejects(() => pay({ transaction_id: ['a'] }), 'transaction_id');
      rejects(() => pay({ transaction_id: Number.POSITIVE_INFINITY }), 'transaction_id');
      rejects(() => pay({ transaction_id: 'x'.repeat(1001) }), 'transaction_id');
      assert.equal(pay({ transaction_id: 'x'.repeat(1000) }).transactionId.length, 1000);
      for (const h of HOSTILE) rejects(() => pay({ transaction_id: h }), 'transaction_id');
    });
    it('keeps other text as sent (quotes, markup, unicode)', () => {
      for (const id of [`'; DROP TABLE x; --`, '<script>alert(1)</script>', 'ñ-💳-１']) assert.equal(pay({ transaction_id: id }).transactionId, id);
    });
  });

  describe('outcome', () => {
    it('accepts each of the six outcomes', () => {
      for (const outcome of ['approved', 'declined', 'chargeback', 'refunded', 'fraud_confirmed', 'legit_confirmed']) assert.equal(pay({ outcome }).outcome, outcome);
    });
    it('is required and lower case only', () => {
      rejects(() => parsePaymentFeedback({ transaction_id: 'a' }, NOW), 'outcome');
      for (const outcome of [null, '', 'Chargeback', 'CHARGEBACK', 'fraud', 1, true, ['approved'], 'approved\u0000']) rejects(() => pay({ outcome }), 'outcome');
    });
  });

  describe('reason', () => {
    it('is optional free text, trimmed, line breaks allowed', () => {
      assert.equal(pay({}).reason, null);
      assert.equal(pay({ reason: null }).reason, null);
      assert.equal(pay({ reason: '   ' }).reason, null);
      assert.equal(pay({ reason: ' line 1\nline 2\ttab ' }).reason, 'line 1\nline 2\ttab');
      assert.equal(pay({ reason: '<b>html</b>' }).reason, '<b>html</b>');
    });
    it('must be a string of at most 1000 characters without controls', () => {
      rejects(() => pay({ reason: 5 }), 'reason');
      rejects(() => pay({ reason: { a: 1 } }), 'reason');
      rejects(() => pay({ reason: 'r'.repeat(1001) }), 'reason');
      assert.equal(pay({ reason: 'r'.repeat(1000) }).reason?.length, 1000);
      for (const h of HOSTILE) rejects(() => pay({ reason: h }), 'reason');
    });
  });

  describe('customer identities', () => {
    it('are optional; empty counts as not sent', () => {
      const fb = pay({ customer_id: '', customer_email: null, customer_phone: '  ' });
      assert.ok(!('customerId' in fb) && !('customerEmail' in fb) && !('customerPhone' in fb));
    });
    it('numbers are accepted for id, phone and device id', () => {
      const fb = pay({ customer_id: 42, customer_phone: 447911123456, customer_device_id: 7 });
      assert.equal(fb.customerId, '42');
      assert.equal(fb.customerPhone, '447911123456');
      assert.equal(fb.customerDeviceId, '7');
      rejects(() => pay({ customer_email: 1 }), 'customer_email');
      rejects(() => pay({ customer_ip: 3232235777 }), 'customer_ip');
    });
    it('invalid values name their field', () => {
      rejects(() => pay({ customer_email: 'not-an-email' }), 'customer_email');
      rejects(() => pay({ customer_email: 'a@b@c.com' }), 'customer_email');
      rejects(() => pay({ customer_phone: '12' }), 'customer_phone');
      rejects(() => pay({ customer_phone: 'call me' }), 'customer_phone');
      rejects(() => pay({ customer_ip: '999.1.1.1' }), 'customer_ip');
      rejects(() => pay({ customer_ip: '10.0.0.0/8' }), 'customer_ip');
      rejects(() => pay({ customer_id: 'x'.repeat(1001) }), 'customer_id');
      rejects(() => pay({ customer_device_id: 'x'.repeat(1001) }), 'customer_device_id');
      rejects(() => pay({ customer_id: ['a'] }), 'customer_id');
      for (const h of HOSTILE) rejects(() => pay({ customer_id: h }), 'customer_id');
    });
  });

  it('ignores inherited properties', () => {
    const body = Object.create({ transaction_id: 'inherited', outcome: 'approved' }) as object;
    rejects(() => parsePaymentFeedback(body, NOW), 'transaction_id');
    const parsed = JSON.parse('{"transaction_id":"a","outcome":"approved","__proto__":{"reason":"x"}}') as unknown;
    assert.equal(parsePaymentFeedback(parsed, NOW).reason, null);
  });
});

describe('parseOccurredAt', () => {
  it('is undefined when not sent', () => {
    for (const v of [undefined, null, '', '  ']) assert.equal(parseOccurredAt(v, NOW), undefined);
  });

  it('reads ISO 8601 dates and date-times', () => {
    const cases: Array<[string, string]> = [
      ['2024-05-01', '2024-05-01T00:00:00.000Z'],
      ['2024-05-01T10:20', '2024-05-01T10:20:00.000Z'],
      ['2024-05-01T10:20:30', '2024-05-01T10:20:30.000Z'],
      ['2024-05-01T10:20:30Z', '2024-05-01T10:20:30.000Z'],
      ['2024-05-01t10:20:30z', '2024-05-01T10:20:30.000Z'],
      ['2024-05-01 10:20:30Z', '2024-05-01T10:20:30.000Z'],
      ['2024-05-01T10:20:30.123456Z', '2024-05-01T10:20:30.123Z'],
      ['2024-05-01T10:20:30,5Z', '2024-05-01T10:20:30.500Z'],
      ['2024-05-01T10:20:30+02:00', '2024-05-01T08:20:30.000Z'],
      ['2024-05-01T10:20:30-0530', '2024-05-01T15:50:30.000Z'],
      ['2024-05-01T10:20:30+02', '2024-05-01T08:20:30.000Z'],
      ['2024-02-29', '2024-02-29T00:00:00.000Z'],
      ['2000-01-01', '2000-01-01T00:00:00.000Z'],
    ];
    for (const [input, iso] of cases) assert.equal(parseOccurredAt(input, NOW), iso, input);
  });

  it('reads UNIX seconds as an integer or a digit string', () => {
    assert.equal(parseOccurredAt(1714557600, NOW), '2024-05-01T10:00:00.000Z');
    assert.equal(parseOccurredAt('1714557600', NOW), '2024-05-01T10:00:00.000Z');
  });

  it('refuses unparsable values', () => {
    for (const v of ['yesterday', '2024-13-01', '2023-02-29', '2024-04-31', '2024-05-01T24:00:00Z', '2024-05-01T10:60', '2024-05-01T10:20:30+25:00', '01/05/2024', '2024-5-1', 'T10:00', true, {}, [], 1714557600.5, '1714557600.5', 'x'.repeat(100)]) {
      rejects(() => parseOccurredAt(v, NOW), 'occurred_at');
    }
  });

  it('refuses dates before 2000 or more than a day in the future', () => {
    rejects(() => parseOccurredAt('1999-12-31T23:59:59Z', NOW), 'occurred_at');
    rejects(() => parseOccurredAt(0, NOW), 'occurred_at');
    rejects(() => parseOccurredAt(-1, NOW), 'occurred_at');
    assert.equal(parseOccurredAt('2024-06-02T12:00:00Z', NOW), '2024-06-02T12:00:00.000Z');
    rejects(() => parseOccurredAt('2024-06-02T12:00:01Z', NOW), 'occurred_at');
    rejects(() => parseOccurredAt('9999-12-31', NOW), 'occurred_at');
  });

  it('a millisecond timestamp gets a hint', () => {
    assert.throws(
      () => parseOccurredAt(1714557600000, NOW),
      (err: unknown) => err instanceof ApiError && err.code === 131 && err.message.includes('seconds'),
    );
  });

  it('is used by both feedback kinds', () => {
    assert.equal(pay({ occurred_at: '2024-05-01' }).occurredAt, '2024-05-01T00:00:00.000Z');
    assert.equal(evt({ occurred_at: 1714557600 }).occurredAt, '2024-05-01T10:00:00.000Z');
    rejects(() => pay({ occurred_at: 'soon' }), 'occurred_at');
    rejects(() => evt({ occurred_at: 'soon' }), 'occurred_at');
  });
});

describe('parseEventFeedback', () => {
  it('reads a label by identity', () => {
    assert.deepEqual(parseEventFeedback({ type: 'email', value: ' John@Example.com ', label: 'fraud', reason: 'chargeback', source: 'analyst' }, NOW), {
      label: 'fraud',
      reason: 'chargeback',
      source: 'analyst',
      occurredAt: undefined,
      type: 'email',
      value: 'john@example.com',
    });
  });

  it('reads a label by event id (number or digit string)', () => {
    assert.deepEqual(parseEventFeedback({ event_id: 17, label: 'legit' }, NOW), { label: 'legit', reason: null, source: null, occurredAt: undefined, eventId: 17 });
    const fb = parseEventFeedback({ event_id: '18', label: 'fraud' }, NOW);
    assert.ok('eventId' in fb && fb.eventId === 18);
  });

  it('event_id must be a positive safe integer', () => {
    for (const id of [0, -1, 1.5, '1.5', 'abc', '', true, {}, [], 2 ** 53, '99999999999999999']) rejects(() => parseEventFeedback({ event_id: id, label: 'fraud' }, NOW), 'event_id');
  });

  it('event_id together with type or value is refused', () => {
    rejects(() => parseEventFeedback({ event_id: 1, type: 'ip', value: '1.2.3.4', label: 'fraud' }, NOW), 'event_id');
    rejects(() => parseEventFeedback({ event_id: 1, value: '1.2.3.4', label: 'fraud' }, NOW), 'event_id');
    rejects(() => parseEventFeedback({ event_id: 1, type: 'ip', label: 'fraud' }, NOW), 'event_id');
  });

  it('needs a target: event_id, or type with value', () => {
    rejects(() => parseEventFeedback({ label: 'fraud' }, NOW), 'event_id');
    rejects(() => parseEventFeedback({ type: 'ip', label: 'fraud' }, NOW), 'value');
    rejects(() => parseEventFeedback({ value: '1.2.3.4', label: 'fraud' }, NOW), 'type');
  });

  it('type must be one of the eight, lower case', () => {
    for (const type of ['IP', 'card', 'iban', 'user', 1, ['ip']]) rejects(() => evt({ type, value: 'x' }), 'type');
  });

  it('label is required: fraud or legit, lower case', () => {
    rejects(() => parseEventFeedback({ type: 'ip', value: '1.2.3.4' }, NOW), 'label');
    for (const label of [null, '', 'Fraud', 'spam', 1, true]) rejects(() => evt({ label }), 'label');
    rejects(() => parseEventFeedback({ event_id: 3 }, NOW), 'label');
  });

  it('reason and source are optional strings of at most 1000 characters', () => {
    assert.equal(evt({ source: ' ops ' }).source, 'ops');
    rejects(() => evt({ source: 1 }), 'source');
    rejects(() => evt({ source: 's'.repeat(1001) }), 'source');
    rejects(() => evt({ reason: 'r'.repeat(1001) }), 'reason');
    for (const h of HOSTILE) rejects(() => evt({ source: h }), 'source');
  });

  describe('value per type', () => {
    const good: Array<[string, unknown, string]> = [
      ['ip', ' 203.0.113.7 ', '203.0.113.7'],
      ['ip', '2001:DB8:0:0::1', '2001:db8::1'],
      ['ip', '::ffff:1.2.3.4', '1.2.3.4'],
      ['email', ' John@Example.COM ', 'john@example.com'],
      ['email_domain', 'Example.COM', 'example.com'],
      ['email_domain', '@mail.example.com.', 'mail.example.com'],
      ['phone', '+44 (7911) 123-456', '447911123456'],
      ['phone', '0044 7911 123456', '447911123456'],
      ['phone', 447911123456, '447911123456'],
      ['card_bin', '4111 11', '411111'],
      ['card_bin', '41111111', '41111111'],
      ['card_bin', 411111, '411111'],
      ['customer_id', ' Cust-1 ', 'Cust-1'],
      ['customer_id', 42, '42'],
      ['device_id', 'Device-ABC', 'Device-ABC'],
      ['text', '  Buy CHEAP pills\tnow ', 'buy cheap pills\tnow'],
    ];
    for (const [type, value, expected] of good) {
      it(`${type} ${JSON.stringify(value)} → ${expected}`, () => {
        const fb = evt({ type, value });
        assert.ok('type' in fb);
        assert.equal(fb.type, type);
        assert.equal(fb.value, expected);
      });
    }

    const bad: Array<[string, unknown]> = [
      ['ip', '1.2.3'],
      ['ip', '10.0.0.0/8'],
      ['ip', 'fe80::1%eth0'],
      ['ip', 3232235777],
      ['email', 'no-at-sign'],
      ['email', '@example.com'],
      ['email', 'john@'],
      ['email', 'a@b@example.com'],
      ['email', 'jo hn@example.com'],
      ['email_domain', 'localhost'],
      ['email_domain', 'john@example.com'],
      ['email_domain', 'exa mple.com'],
      ['phone', '123456'],
      ['phone', '1234567890123456'],
      ['phone', '+44 abc'],
      ['card_bin', '41111'],
      ['card_bin', '4111111111111111'],
      ['card_bin', '4111-11xx'],
      ['text', 't'.repeat(10_001)],
      ['customer_id', 'c'.repeat(1001)],
      ['device_id', { id: 1 }],
      ['text', 12],
      ['email', ''],
      ['email', '   '],
      ['text', '\u0000'],
      ['customer_id', '\ud800'],
    ];
    for (const [type, value] of bad) {
      it(`${type} ${JSON.stringify(value).slice(0, 40)} is refused`, () => {
        rejects(() => evt({ type, value }), 'value');
      });
    }

    it('a text of exactly 10,000 characters is accepted', () => {
      const fb = evt({ type: 'text', value: 't'.repeat(10_000) });
      assert.ok('value' in fb && fb.value.length === 10_000);
    });
  });
});

describe('parseIdentityValue', () => {
  it('returns the one normal form of identity-values.ts, the text that is hashed', () => {
    for (const [type, raw] of [
      ['email', 'Fraud.Ster+x@googlemail.com'],
      ['email', 'A.B+tag@Example.COM'],
      ['email_domain', '@Example.com.'],
      ['phone', '0044 7911 123456'],
      ['ip', '::ffff:1.2.3.4'],
      ['text', ' Some TEXT '],
    ] as const) {
      assert.equal(parseIdentityValue(type, raw), normaliseIdentity(type, raw), raw);
    }
  });

  it('names the field it is given', () => {
    rejects(() => parseIdentityValue('email', 'nope', 'customer_email'), 'customer_email');
  });
});

describe('parseBulkFeedback', () => {
  const item = { transaction_id: 'a', outcome: 'approved' };

  it('returns the raw items, 1 to 1000', () => {
    assert.deepEqual(parseBulkFeedback({ items: [item] }), [item]);
    assert.equal(parseBulkFeedback({ items: Array.from({ length: MAX_BULK_ITEMS }, () => item) }).length, 1000);
  });

  it('more than 1000 items is 132', () => {
    rejects(() => parseBulkFeedback({ items: Array.from({ length: 1001 }, () => item) }), 'items', 132);
    rejects(() => parseBulkFeedback({ items: Array.from({ length: 5000 }, () => null) }), '1000', 132);
  });

  it('missing, non-array or empty items is 131', () => {
    rejects(() => parseBulkFeedback({}), 'items');
    rejects(() => parseBulkFeedback({ items: null }), 'items');
    rejects(() => parseBulkFeedback({ items: [] }), 'items');
    rejects(() => parseBulkFeedback({ items: 'a' }), 'items');
    rejects(() => parseBulkFeedback({ items: { 0: item } }), 'items');
    for (const body of [null, undefined, [item], 'x', 1]) rejects(() => parseBulkFeedback(body), 'object');
  });

  it('does not validate the items themselves', () => {
    assert.deepEqual(parseBulkFeedback({ items: [1, null, 'x'] }), [1, null, 'x']);
  });
});

describe('kindOf', () => {
  it('uses kind when sent', () => {
    assert.equal(kindOf({ kind: 'payment' }), 'payment');
    assert.equal(kindOf({ kind: 'event', transaction_id: 'a' }), 'event');
  });

  it('without kind: payment when transaction_id or outcome is present, else event', () => {
    assert.equal(kindOf({ transaction_id: 'a' }), 'payment');
    assert.equal(kindOf({ outcome: 'approved' }), 'payment');
    assert.equal(kindOf({ transaction_id: 0 }), 'payment');
    assert.equal(kindOf({ type: 'ip', value: '1.2.3.4', label: 'fraud' }), 'event');
    assert.equal(kindOf({ event_id: 1 }), 'event');
    assert.equal(kindOf({}), 'event');
    assert.equal(kindOf({ kind: null, transaction_id: null }), 'event');
  });

  it('another kind, or an item that is not an object, is 131', () => {
    for (const kind of ['Payment', 'label', '', 1, true]) rejects(() => kindOf({ kind }), 'kind');
    for (const item of [null, 1, 'x', []]) rejects(() => kindOf(item), 'object');
  });

});

describe('maskIdentity', () => {
  const cases: Array<[Parameters<typeof maskIdentity>[0], string, string]> = [
    ['email', 'john.doe@example.com', 'j******e@example.com'],
    ['email_domain', 'example.com', 'e*****e.com'],
    ['email_domain', 'mail.example.co', 'm**********e.co'],
    ['email_domain', 'ab.com', 'a*.com'],
    ['phone', '447911123456', '4479*****456'],
    ['ip', '203.0.113.7', '203.0.*.*'],
    ['ip', '2001:db8::1', '2001:db8:*:*:*:*:*:*'],
    ['ip', '::1', '0:0:*:*:*:*:*:*'],
    ['card_bin', '411111', '4111**'],
    ['card_bin', '41111111', '411111**'],
    ['card', '4111111111111111', '411111******1111'],
    ['customer_id', 'cust-12345', 'cu***'],
    ['customer_id', 'ab', 'a***'],
    ['customer_id', 'a', 'a***'],
    ['device_id', 'device-1', 'de***'],
    ['text', 'buy cheap pills', 'bu***'],
    ['text', '💳💳💳', '💳💳***'],
  ];
  for (const [type, value, masked] of cases) {
    it(`${type} ${value} → ${masked}`, () => {
      assert.equal(maskIdentity(type, value), masked);
    });
  }

  it('never returns the value of a long identity whole', () => {
    for (const type of ['email', 'email_domain', 'phone', 'ip', 'card_bin', 'customer_id', 'device_id', 'text'] as const) {
      const value = { email: 'someone@example.org', email_domain: 'example.org', phone: '14155550123', ip: '198.51.100.23', card_bin: '45717360', customer_id: 'customer-0001', device_id: 'device-0001', text: 'some text here' }[type];
      assert.notEqual(maskIdentity(type, value), value);
    }
  });
});
