/**
 * Request bodies of the POST and DELETE methods, as JSON Schema for /openapi.json. The bodies are read by
 * hand-written parsers (src/intel/payment/parse.ts, src/learning/feedback-input.ts,
 * src/learning/deletion-service.ts) because each failure must carry its catalogue code (130, 131, 132,
 * 124, 125) and a description naming the field; a schema validator would give neither. These schemas take
 * their limits and enumerations from the parsers' own constants, and test/http/openapi-bodies.test.ts
 * checks that schema and parser agree on valid and invalid bodies. Optional fields may be null: the
 * parsers read null as "not sent".
 */
import type { JsonSchema } from '../endpoint.ts';
import type { OperationName } from '../operations.ts';
import { CARD_MAX_DIGITS, CARD_MIN_DIGITS, MAX_CART_ITEMS, MAX_STRING_LENGTH } from '../../intel/payment/parse.ts';
import { FEEDBACK_LABELS, FEEDBACK_TYPES, MAX_BULK_ITEMS, MAX_TEXT_FIELD, MAX_VALUE } from '../../learning/feedback-input.ts';
import { DELETION_TYPES } from '../../learning/deletion-service.ts';
import { PAYMENT_OUTCOMES } from '../../store/learning-ports.ts';
import { arr, oneOfValues } from './schema-kit.ts';

type Kind = 'string' | 'integer' | 'number' | 'boolean';
/** A field of one or more JSON types, or null (= not sent). */
const opt = (types: readonly Kind[], description?: string, extra: JsonSchema = {}): JsonSchema => {
  const withLength = types.includes('string') && extra.maxLength === undefined ? { maxLength: MAX_STRING_LENGTH } : {};
  return { type: [...types, 'null'], ...withLength, ...extra, ...(description && { description }) };
};
const S = (d?: string, extra?: JsonSchema) => opt(['string'], d, extra);
const SI = (d?: string) => opt(['string', 'integer'], d);
const SN = (d?: string) => opt(['string', 'number'], d);
const N = (d?: string) => opt(['number'], d);
const B = (d?: string) => opt(['boolean'], d);
const country = (d: string) => S(`${d}: ISO 3166-1 alpha-2`, { pattern: '^\\s*[A-Za-z]{2}\\s*$' });
/** Amounts: a number, or a string holding one (digits, optional decimal point). */
const amount = (d: string, negative: boolean): JsonSchema => ({
  anyOf: [
    { type: 'number', ...(negative ? {} : { minimum: 0 }) },
    { type: 'string', maxLength: MAX_STRING_LENGTH, pattern: negative ? '^\\s*(?:[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))?\\s*$' : '^\\s*(?:\\+?(?:\\d+(?:\\.\\d*)?|\\.\\d+)|-0*(?:\\.0*)?)?\\s*$' },
    { type: 'null' },
  ],
  description: d,
});

function place(prefix: 'customer' | 'billing' | 'shipping'): Record<string, JsonSchema> {
  return {
    [`${prefix}_country`]: country(`${prefix} country`), [`${prefix}_region`]: S(), [`${prefix}_city`]: S(), [`${prefix}_zip`]: SN(),
    [`${prefix}_street`]: S(), [`${prefix}_street2`]: S(), [`${prefix}_latitude`]: N(), [`${prefix}_longitude`]: N(),
  };
}

const paymentData: JsonSchema = {
  type: 'object',
  description: 'All fields optional; more fields enable more rules. Unknown fields are ignored.',
  properties: {
    action: S('purchase, deposit or withdrawal'), website_domain: S(), website_name: S(), merchant_id: SI('Sub-website id for service providers'),
    shipment_id: SN(), transaction_id: SN('The key later used by payment feedback'),
    transaction_amount: amount('Amount, not negative', false), transaction_currency: S('ISO 4217', { pattern: '^\\s*[A-Za-z]{3}\\s*$' }),
    cart_items: {
      type: ['array', 'null'], maxItems: MAX_CART_ITEMS,
      items: {
        type: 'object',
        properties: {
          item_id: SN(), item_name: S(), item_price: amount('Price, not negative', false), item_category_id: SN(),
          item_quantity: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: '^\\s*\\+?\\d*\\s*$' }, { type: 'null' }] },
        },
      },
    },
    isDigitalProducts: B('true applies digital-goods rules more strictly'), coupon: S(),
    customer_id: SI(), customer_firstname: S(), customer_lastname: S(), customer_pob: S('Place of birth'), customer_ip: S('IPv4 or IPv6'),
    ...place('customer'),
    customer_device_id: SN(), customer_phone: SN('International format'), customer_registration_date: opt(['integer'], 'UNIX timestamp'),
    customer_balance: amount('Wallet balance (may be negative)', true), customer_dob: S('Date'), customer_email: S(), customer_2fa: B(),
    customer_useragent: S(),
    ...place('shipping'),
    ...place('billing'),
    payment_type: S('cards, a local debit-scheme value, mobile-wallet values, bank, crypto, wallet or cod'), card_name: S(),
    card_number: {
      anyOf: [
        { type: 'string', pattern: `^\\s*(?:[ -]*\\d){${CARD_MIN_DIGITS},${CARD_MAX_DIGITS}}[ -]*\\s*$` },
        { type: 'integer', minimum: 10 ** (CARD_MIN_DIGITS - 1), maximum: Number.MAX_SAFE_INTEGER },
        { type: 'null' },
      ],
      description: `${CARD_MIN_DIGITS} to ${CARD_MAX_DIGITS} digits (spaces and dashes allowed); only the BIN, last four and a keyed hash are stored`,
    },
    cvv_result: B('true if the CVV check passed'),
  },
};

const text = (d?: string): JsonSchema => ({ type: ['string', 'null'], maxLength: MAX_TEXT_FIELD, ...(d && { description: d }) });
const when = (d: string): JsonSchema => ({ type: ['string', 'integer', 'null'], description: `${d}: ISO 8601 date or date-time, or UNIX seconds; default now` });

const paymentFeedback: JsonSchema = {
  type: 'object',
  required: ['transaction_id', 'outcome'],
  properties: {
    transaction_id: { type: ['string', 'number'], description: 'As sent to payment scoring', minLength: 1, maxLength: MAX_TEXT_FIELD },
    outcome: oneOfValues(PAYMENT_OUTCOMES),
    reason: text('Free text; a declined reason that mentions fraud counts as fraud'),
    occurred_at: when('When it happened'),
    customer_id: { type: ['string', 'number', 'null'], description: 'For never-scored transactions' },
    customer_email: text('For never-scored transactions'),
    customer_phone: { type: ['string', 'number', 'null'], description: 'For never-scored transactions' },
    customer_ip: text('For never-scored transactions'),
    customer_device_id: { type: ['string', 'number', 'null'], description: 'For never-scored transactions' },
  },
};

const labelCommon: Record<string, JsonSchema> = {
  label: oneOfValues(FEEDBACK_LABELS),
  reason: text('Free text'),
  source: text('Who decided'),
  occurred_at: when('When it was decided'),
};

/** A label on an identity (type and value) or on an event (event_id); sending both is an error (131). */
const labelFeedback: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      title: 'Label by identity',
      required: ['type', 'value', 'label'],
      properties: { type: oneOfValues(FEEDBACK_TYPES, 'Identity type'), value: { type: 'string', description: 'The identity', maxLength: MAX_VALUE }, ...labelCommon },
    },
    {
      type: 'object',
      title: 'Label by event',
      required: ['event_id', 'label'],
      properties: { event_id: { type: ['integer', 'string'], description: 'Id of a dashboard or webhook event' }, ...labelCommon },
    },
  ],
};

/** A bulk item: the single call's body with its `kind`. */
function withKind(body: JsonSchema, kind: 'payment' | 'event'): JsonSchema {
  if (Array.isArray(body.oneOf)) return { oneOf: (body.oneOf as JsonSchema[]).map((b) => withKind(b, kind)) };
  return { ...body, properties: { kind: { const: kind, description: 'payment or event' }, ...(body.properties as Record<string, JsonSchema>) } };
}

export const BODIES = {
  'scoring.payment': { type: 'object', required: ['data'], properties: { data: paymentData } },
  'feedback.payment': paymentFeedback,
  'feedback.event': labelFeedback,
  'feedback.bulk': {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        ...arr({
          anyOf: [
            withKind(paymentFeedback, 'payment'),
            withKind(labelFeedback, 'event'),
          ],
        }, 'Processed in order and independently; `kind` payment or event (default payment when the item has transaction_id or outcome). A rejected item is answered in its place.'),
        minItems: 1,
        maxItems: MAX_BULK_ITEMS,
      },
    },
  },
  'account.users.delete': {
    type: 'object',
    required: ['value'],
    properties: {
      value: { type: 'string', minLength: 1, maxLength: 255, description: 'An email address, a phone number or a userID used in other calls' },
      type: oneOfValues(DELETION_TYPES, 'Default: email when value has @, phone for 7 to 15 digits, user_id otherwise'),
    },
  },
} as const satisfies Partial<Record<OperationName, JsonSchema>>;
