import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RULE_GROUPS, type RuleGroup } from '../types.ts';
import { fieldType, isKnownField, listFields } from './fields.ts';

describe('rule fields', () => {
  const known: Array<[RuleGroup, string, string]> = [
    ['ip', 'input.ip', 'string'],
    ['ip', 'countryCode', 'string'],
    ['ip', 'security.isTor', 'boolean'],
    ['ip', 'security.blacklisted', 'boolean'],
    ['ip', 'asn.asn', 'string'],
    ['ip', 'location.countryIsEU', 'boolean'],
    ['ip', 'location.flag.png.250px', 'string'],
    ['ip', 'timezone.sunInfo.dayLength', 'string'],
    ['ip', 'device.OS.64bits_mode', 'number'],
    ['bin', 'input.bin', 'string'],
    ['bin', 'info.scheme.name', 'string'],
    ['bin', 'info.scheme.isPrepaid', 'boolean'],
    ['bin', 'info.bank.name', 'string'],
    ['bin', 'info.country.alpha2', 'string'],
    ['bin', 'info.syntax.lengths', 'list'],
    ['bin', 'blacklisted', 'boolean'],
    ['iban', 'input.iban', 'string'],
    ['iban', 'bank', 'object'],
    ['iban', 'bank.code', 'string'],
    ['iban', 'country.isSEPA', 'boolean'],
    ['iban', 'formats.machine', 'string'],
    ['phone', 'input.phone', 'string'],
    ['phone', 'input.countryCode', 'string'],
    ['phone', 'disposable', 'boolean'],
    ['phone', 'lineType', 'string'],
    ['email', 'input.email', 'string'],
    ['email', 'domain.name', 'string'],
    ['email', 'domain.is_new', 'boolean'],
    ['email', 'score', 'number'],
    ['payment', 'score', 'number'],
    ['payment', 'rules', 'list'],
    ['payment', 'rulesDetected', 'number'],
    ['payment', 'input.transaction_amount', 'string|number'],
    ['payment', 'input.customer_2fa', 'boolean'],
    ['payment', 'input.cart_items', 'list'],
    ['payment', 'input.cart_items.item_price', 'list'],
    ['payment', 'input.customer_registration_date', 'number'],
  ];
  for (const [group, path, type] of known) {
    it(`${group}: ${path} is a ${type}`, () => {
      assert.equal(isKnownField(group, path), true);
      assert.equal(fieldType(group, path), type);
    });
  }

  const unknown: Array<[RuleGroup, string]> = [
    ['ip', 'isTor'],
    ['ip', 'security'],
    ['ip', 'input.email'],
    ['ip', 'custom_rules_applied.total'],
    ['iban', 'blacklisted'],
    ['payment', 'blacklisted'],
    ['phone', 'domain.name'],
    ['payment', 'input.unknown_field'],
    ['email', 'constructor'],
    ['email', ''],
  ];
  for (const [group, path] of unknown) {
    it(`${group}: ${JSON.stringify(path)} is unknown`, () => {
      assert.equal(isKnownField(group, path), false);
      assert.equal(fieldType(group, path), undefined);
    });
  }

  it('lists every group sorted, each with its input fields', () => {
    for (const group of RULE_GROUPS) {
      const paths = listFields(group).map((f) => f.path);
      assert.deepEqual(paths, [...paths].sort());
      assert.ok(paths.some((p) => p.startsWith('input.')), group);
      assert.ok(paths.every((p) => isKnownField(group, p)));
    }
  });

  it('covers every field of the spec\'s payment input table', () => {
    // Copied from the spec's POST /scoring/payment table, in its order.
    const table = [
      'action', 'website_domain', 'website_name', 'merchant_id', 'shipment_id', 'transaction_id', 'transaction_amount',
      'transaction_currency', 'cart_items', 'isDigitalProducts', 'coupon', 'customer_id', 'customer_firstname',
      'customer_lastname', 'customer_pob', 'customer_ip', 'customer_country', 'customer_region', 'customer_city',
      'customer_zip', 'customer_street', 'customer_street2', 'customer_latitude', 'customer_longitude',
      'customer_device_id', 'customer_phone', 'customer_registration_date', 'customer_balance', 'customer_dob',
      'customer_email', 'customer_2fa', 'customer_useragent', 'shipping_country', 'shipping_region', 'shipping_city',
      'shipping_street', 'shipping_street2', 'shipping_zip', 'shipping_latitude', 'shipping_longitude',
      'billing_country', 'billing_region', 'billing_city', 'billing_street', 'billing_street2', 'billing_zip',
      'billing_latitude', 'billing_longitude', 'payment_type', 'card_name', 'card_number', 'cvv_result',
    ];
    const inputs = listFields('payment').map((f) => f.path).filter((p) => p.startsWith('input.') && !p.startsWith('input.cart_items.'));
    assert.deepEqual(inputs.sort(), table.map((name) => `input.${name}`).sort());
  });
});
