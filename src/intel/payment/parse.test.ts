import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../http/errors.ts';
import { decimalText, MAX_CART_ITEMS, MAX_STRING_LENGTH, parsePaymentData } from './parse.ts';
import type { PaymentInput } from './types.ts';

function parse(data: Record<string, unknown>): PaymentInput {
  return parsePaymentData({ data });
}

/** Asserts error 130 whose description contains every fragment. */
function rejects(body: unknown, ...fragments: string[]): void {
  assert.throws(
    () => parsePaymentData(body),
    (err: unknown) => {
      assert.ok(err instanceof ApiError, 'an ApiError');
      assert.equal(err.code, 130);
      for (const f of fragments) assert.ok(err.message.includes(f), `"${err.message}" should mention "${f}"`);
      return true;
    },
  );
}

type Kind = 'string' | 'strOrInt' | 'strOrNum' | 'country' | 'currency' | 'number' | 'int' | 'bool' | 'amount' | 'signedAmount';

/** Every top-level field of the spec's table: JSON name, kind, where it lands. */
const FIELDS: Array<[string, Kind, (i: PaymentInput) => unknown]> = [
  ['action', 'string', (i) => i.action],
  ['website_domain', 'string', (i) => i.websiteDomain],
  ['website_name', 'string', (i) => i.websiteName],
  ['merchant_id', 'strOrInt', (i) => i.merchantId],
  ['shipment_id', 'strOrNum', (i) => i.shipmentId],
  ['transaction_id', 'strOrNum', (i) => i.transactionId],
  ['transaction_amount', 'amount', (i) => i.amount],
  ['transaction_currency', 'currency', (i) => i.currency],
  ['isDigitalProducts', 'bool', (i) => i.isDigitalProducts],
  ['coupon', 'string', (i) => i.coupon],
  ['customer_id', 'strOrInt', (i) => i.customerId],
  ['customer_firstname', 'string', (i) => i.firstName],
  ['customer_lastname', 'string', (i) => i.lastName],
  ['customer_pob', 'string', (i) => i.placeOfBirth],
  ['customer_ip', 'string', (i) => i.ip],
  ['customer_country', 'country', (i) => i.customer.country],
  ['customer_region', 'string', (i) => i.customer.region],
  ['customer_city', 'string', (i) => i.customer.city],
  ['customer_zip', 'strOrNum', (i) => i.customer.zip],
  ['customer_street', 'string', (i) => i.customer.street],
  ['customer_street2', 'string', (i) => i.customer.street2],
  ['customer_latitude', 'number', (i) => i.customer.latitude],
  ['customer_longitude', 'number', (i) => i.customer.longitude],
  ['customer_device_id', 'strOrNum', (i) => i.deviceId],
  ['customer_phone', 'strOrNum', (i) => i.phone],
  ['customer_registration_date', 'int', (i) => i.registrationDate],
  ['customer_balance', 'signedAmount', (i) => i.balance],
  ['customer_dob', 'string', (i) => i.dateOfBirth],
  ['customer_email', 'string', (i) => i.email],
  ['customer_2fa', 'bool', (i) => i.twoFactor],
  ['customer_useragent', 'string', (i) => i.userAgent],
  ['shipping_country', 'country', (i) => i.shipping.country],
  ['shipping_region', 'string', (i) => i.shipping.region],
  ['shipping_city', 'string', (i) => i.shipping.city],
  ['shipping_street', 'string', (i) => i.shipping.street],
  ['shipping_street2', 'string', (i) => i.shipping.street2],
  ['shipping_zip', 'strOrNum', (i) => i.shipping.zip],
  ['shipping_latitude', 'number', (i) => i.shipping.latitude],
  ['shipping_longitude', 'number', (i) => i.shipping.longitude],
  ['billing_country', 'country', (i) => i.billing.country],
  ['billing_region', 'string', (i) => i.billing.region],
  ['billing_city', 'string', (i) => i.billing.city],
  ['billing_street', 'string', (i) => i.billing.street],
  ['billing_street2', 'string', (i) => i.billing.street2],
  ['billing_zip', 'strOrNum', (i) => i.billing.zip],
  ['billing_latitude', 'number', (i) => i.billing.latitude],
  ['billing_longitude', 'number', (i) => i.billing.longitude],
  ['payment_type', 'string', (i) => i.paymentType],
  ['card_name', 'string', (i) => i.cardName],
  ['cvv_result', 'bool', (i) => i.cvvResult],
];

/** Accepted values per kind: [sent, parsed]. */
const ACCEPTED: Record<Kind, Array<[unknown, unknown]>> = {
  string: [['  hello  ', 'hello'], ['x', 'x'], ['Zoë 東京', 'Zoë 東京']],
  strOrInt: [['abc-1', 'abc-1'], [12345, '12345'], [0, '0'], [' 7 ', '7']],
  strOrNum: [['A12', 'A12'], [12345, '12345'], [1.5, '1.5']],
  country: [['us', 'US'], [' De ', 'DE']],
  currency: [['usd', 'USD'], ['EUR', 'EUR']],
  number: [[12, 12], [-33.5, -33.5], [0, 0], [200, 200]],
  int: [[1700000000, 1700000000], [0, 0]],
  bool: [[true, true], [false, false]],
  amount: [[12, 12], [12.5, 12.5], ['12.50', 12.5], [' 7 ', 7], ['.5', 0.5], ['+3', 3], [0, 0]],
  signedAmount: [[12, 12], ['12.50', 12.5], [-5.25, -5.25], ['-5', -5]],
};

/** Rejected values per kind. */
const REJECTED: Record<Kind, unknown[]> = {
  string: [1, 1.5, true, {}, [], ['a']],
  strOrInt: [1.5, true, {}, []],
  strOrNum: [true, false, {}, [], ['1']],
  country: ['USA', 'U', 'U1', '12', 1, true],
  currency: ['US', 'EURO', 'US1', 840, false],
  number: ['12', '12.5', true, {}, []],
  int: [1.5, '1700000000', true, {}],
  bool: ['true', 1, 0, 'yes', {}],
  amount: ['abc', '1,234.56', '1e5', '12.5.1', true, {}, [], -1, '-1'],
  signedAmount: ['abc', true, {}, []],
};

const MESSAGE: Record<Kind, string> = {
  string: 'must be a string',
  strOrInt: 'must be a string or an integer',
  strOrNum: 'must be a string or a number',
  country: 'must be',
  currency: 'must be',
  number: 'must be a number',
  int: 'must be an integer',
  bool: 'must be a boolean',
  amount: 'must',
  signedAmount: 'must be a number',
};

describe('parsePaymentData: the body and data', () => {
  it('accepts an empty data object (every field is optional)', () => {
    const i = parse({});
    assert.deepEqual(i.cartItems, []);
    assert.equal(i.isDigitalProducts, false);
    assert.equal(i.amount, undefined);
    assert.equal(i.customer.country, undefined);
  });

  it('rejects a missing data, null data, arrays and non-objects', () => {
    rejects({}, 'missing');
    rejects({ data: null }, 'missing');
    rejects({ data: [] }, '`data` must be a JSON object');
    rejects({ data: [{ transaction_amount: 1 }] }, '`data` must be a JSON object');
    rejects({ data: 'x' }, '`data` must be a JSON object');
    rejects({ data: 5 }, '`data` must be a JSON object');
    rejects({ data: true }, '`data` must be a JSON object');
    rejects(null, 'request body');
    rejects([], 'request body');
    rejects('data', 'request body');
    rejects(undefined, 'request body');
  });

  it('ignores unknown fields', () => {
    const i = parse({ unknown_field: { deep: [1, 2] }, __proto__x: 1, constructor: 'x' });
    assert.equal((i as unknown as Record<string, unknown>).unknown_field, undefined);
  });

  it('does not read inherited properties (a __proto__ key is plain data)', () => {
    const data = JSON.parse('{"__proto__": {"transaction_amount": 5}}') as Record<string, unknown>;
    assert.equal(parse(data).amount, undefined);
  });
});

describe('parsePaymentData: every field of the table', () => {
  for (const [key, kind, get] of FIELDS) {
    it(`${key} (${kind}): accepted values`, () => {
      for (const [sent, parsed] of ACCEPTED[kind]) {
        assert.deepEqual(get(parse({ [key]: sent })), parsed, `${key} = ${JSON.stringify(sent)}`);
      }
    });

    it(`${key} (${kind}): wrong types are error 130 naming the field`, () => {
      for (const sent of REJECTED[kind]) rejects({ data: { [key]: sent } }, `data.${key}`, MESSAGE[kind]);
    });

    it(`${key}: null is absent`, () => {
      const v = get(parse({ [key]: null }));
      assert.ok(v === undefined || (key === 'isDigitalProducts' && v === false), `${key}: ${String(v)}`);
    });

    if (kind !== 'number' && kind !== 'int' && kind !== 'bool') {
      it(`${key}: an empty or blank string is absent; over ${MAX_STRING_LENGTH} characters is rejected`, () => {
        assert.equal(get(parse({ [key]: '' })), undefined);
        assert.equal(get(parse({ [key]: '   \t ' })), undefined);
        rejects({ data: { [key]: 'a'.repeat(MAX_STRING_LENGTH + 1) } }, `data.${key}`, `at most ${MAX_STRING_LENGTH} characters`);
      });
    }
  }

  it('a string of exactly the limit is kept', () => {
    assert.equal(parse({ coupon: 'a'.repeat(MAX_STRING_LENGTH) }).coupon?.length, MAX_STRING_LENGTH);
  });

  it('isDigitalProducts defaults to false', () => {
    assert.equal(parse({}).isDigitalProducts, false);
    assert.equal(parse({ isDigitalProducts: true }).isDigitalProducts, true);
  });

  it('coordinates out of range are kept for PF10006, not rejected', () => {
    const i = parse({ customer_latitude: 95, customer_longitude: -200, billing_latitude: -91, shipping_longitude: 181 });
    assert.equal(i.customer.latitude, 95);
    assert.equal(i.customer.longitude, -200);
    assert.equal(i.billing.latitude, -91);
    assert.equal(i.shipping.longitude, 181);
  });

  it('numbers for text fields become their decimal text, never an exponent', () => {
    assert.equal(parse({ transaction_id: 1e21 }).transactionId, '1000000000000000000000');
    assert.equal(parse({ transaction_id: 0.0000001 }).transactionId, '0.0000001');
    assert.equal(parse({ transaction_id: -0 }).transactionId, '0');
    assert.equal(parse({ customer_phone: 14155550123 }).phone, '14155550123');
    assert.equal(parse({ customer_zip: 2000 }).customer.zip, '2000');
    assert.equal(decimalText(123.456), '123.456');
  });

  it('an amount string too large to be a number is rejected', () => {
    rejects({ data: { transaction_amount: '9'.repeat(400) } }, 'data.transaction_amount', 'too large');
  });

  it('keeps hostile strings as text (the engine never evaluates them); refuses a NUL (PostgreSQL text cannot hold it)', () => {
    const hostile = "<script>alert(1)</script>' OR 1=1; --\u0001\u202e";
    assert.equal(parse({ customer_firstname: hostile }).firstName, hostile);
    assert.throws(() => parse({ customer_firstname: 'a\u0000b' }), /customer_firstname must not contain a NUL/);
  });
});

describe('parsePaymentData: card_number', () => {
  it('accepts digits with spaces and dashes, 6 to 19 digits, and keeps digits only', () => {
    assert.equal(parse({ card_number: '4111 1111-1111 1111' }).cardNumber, '4111111111111111');
    assert.equal(parse({ card_number: '411111' }).cardNumber, '411111');
    assert.equal(parse({ card_number: '1'.repeat(19) }).cardNumber, '1'.repeat(19));
    assert.equal(parse({ card_number: 411111 }).cardNumber, '411111');
    assert.equal(parse({ card_number: 4111111111111111 }).cardNumber, '4111111111111111');
  });

  it('rejects too few or too many digits, letters, signs and wrong types', () => {
    rejects({ data: { card_number: '41111' } }, 'data.card_number', 'between 6 and 19 digits');
    rejects({ data: { card_number: '1'.repeat(20) } }, 'data.card_number', 'between 6 and 19 digits');
    rejects({ data: { card_number: '- - -' } }, 'data.card_number', 'between 6 and 19');
    rejects({ data: { card_number: '4111x11111' } }, 'data.card_number', 'only digits');
    rejects({ data: { card_number: '+411111111' } }, 'data.card_number', 'only digits');
    rejects({ data: { card_number: 4111.5 } }, 'data.card_number');
    rejects({ data: { card_number: -411111 } }, 'data.card_number');
    rejects({ data: { card_number: 12345 } }, 'data.card_number', 'between 6 and 19');
    rejects({ data: { card_number: 2 ** 53 + 2 } }, 'data.card_number', 'as a string');
    rejects({ data: { card_number: true } }, 'data.card_number', 'string or a number');
    rejects({ data: { card_number: {} } }, 'data.card_number');
    rejects({ data: { card_number: 'a'.repeat(MAX_STRING_LENGTH + 1) } }, 'data.card_number', 'at most');
  });

  it('empty is absent', () => {
    assert.equal(parse({ card_number: '' }).cardNumber, undefined);
    assert.equal(parse({ card_number: null }).cardNumber, undefined);
  });
});

describe('parsePaymentData: cart_items', () => {
  it('reads every item field with its allowed types', () => {
    const i = parse({
      cart_items: [
        { item_id: 'sku-1', item_name: ' Shoes ', item_quantity: 2, item_price: 49.99, item_category_id: 7 },
        { item_id: 42, item_quantity: '3', item_price: '10', item_category_id: 'cat-a' },
        { item_id: 4.5, item_price: 10 },
        {},
      ],
    });
    assert.deepEqual(i.cartItems, [
      { id: 'sku-1', name: 'Shoes', quantity: 2, price: 49.99, categoryId: '7' },
      { id: '42', name: undefined, quantity: 3, price: 10, categoryId: 'cat-a' },
      { id: '4.5', name: undefined, quantity: undefined, price: 10, categoryId: undefined },
      { id: undefined, name: undefined, quantity: undefined, price: undefined, categoryId: undefined },
    ]);
  });

  it('rejects a non-array, non-object items and wrong item types, naming the item', () => {
    rejects({ data: { cart_items: {} } }, 'data.cart_items', 'array');
    rejects({ data: { cart_items: 'x' } }, 'data.cart_items', 'array');
    rejects({ data: { cart_items: [1] } }, 'data.cart_items[0]', 'object');
    rejects({ data: { cart_items: [{}, null] } }, 'data.cart_items[1]', 'object');
    rejects({ data: { cart_items: [[]] } }, 'data.cart_items[0]', 'object');
    rejects({ data: { cart_items: [{ item_id: true }] } }, 'data.cart_items[0].item_id');
    rejects({ data: { cart_items: [{ item_name: 5 }] } }, 'data.cart_items[0].item_name', 'string');
    rejects({ data: { cart_items: [{ item_quantity: 1.5 }] } }, 'data.cart_items[0].item_quantity', 'integer');
    rejects({ data: { cart_items: [{ item_quantity: '1.5' }] } }, 'data.cart_items[0].item_quantity', 'integer');
    rejects({ data: { cart_items: [{ item_quantity: -1 }] } }, 'data.cart_items[0].item_quantity', 'negative');
    rejects({ data: { cart_items: [{}, { item_price: 'free' }] } }, 'data.cart_items[1].item_price');
    rejects({ data: { cart_items: [{ item_price: -3 }] } }, 'data.cart_items[0].item_price', 'negative');
    rejects({ data: { cart_items: [{ item_category_id: [] }] } }, 'data.cart_items[0].item_category_id');
    rejects({ data: { cart_items: [{ item_name: 'a'.repeat(MAX_STRING_LENGTH + 1) }] } }, 'data.cart_items[0].item_name', 'at most');
  });

  it(`accepts ${MAX_CART_ITEMS} items and rejects more`, () => {
    assert.equal(parse({ cart_items: Array.from({ length: MAX_CART_ITEMS }, () => ({})) }).cartItems.length, MAX_CART_ITEMS);
    rejects({ data: { cart_items: Array.from({ length: MAX_CART_ITEMS + 1 }, () => ({})) } }, 'data.cart_items', `at most ${MAX_CART_ITEMS}`);
  });

  it('null or an empty array is no items', () => {
    assert.deepEqual(parse({ cart_items: null }).cartItems, []);
    assert.deepEqual(parse({ cart_items: [] }).cartItems, []);
  });
});

describe('parsePaymentData: a full request', () => {
  it('maps every block to the engine input', () => {
    const i = parse({
      action: 'purchase',
      transaction_id: 'T-1',
      transaction_amount: '99.90',
      transaction_currency: 'eur',
      customer_id: 17,
      customer_ip: '203.0.113.5',
      customer_country: 'fr',
      customer_latitude: 48.85,
      customer_longitude: 2.35,
      billing_country: 'FR',
      billing_zip: 75001,
      shipping_country: 'be',
      customer_registration_date: 1700000000,
      customer_email: 'a@example.com',
      customer_phone: '+33 6 12 34 56 78',
      payment_type: 'cards',
      card_number: '4111 1111 1111 1111',
      cvv_result: true,
      isDigitalProducts: true,
    });
    assert.equal(i.transactionId, 'T-1');
    assert.equal(i.amount, 99.9);
    assert.equal(i.currency, 'EUR');
    assert.equal(i.customerId, '17');
    assert.deepEqual(i.customer, { country: 'FR', region: undefined, city: undefined, zip: undefined, street: undefined, street2: undefined, latitude: 48.85, longitude: 2.35 });
    assert.equal(i.billing.zip, '75001');
    assert.equal(i.shipping.country, 'BE');
    assert.equal(i.phone, '+33 6 12 34 56 78');
    assert.equal(i.cardNumber, '4111111111111111');
    assert.equal(i.cvvResult, true);
    assert.equal(i.isDigitalProducts, true);
  });
});
