/**
 * Validation of the POST /scoring/payment body (spec "POST /scoring/payment", docs/payment.md
 * "Input validation"). Every field of the spec's table is checked against exactly the JSON types
 * the table allows; a wrong type, an oversized value or a malformed code is error 130 with a
 * description naming the field (`data.customer_latitude must be a number (integer or float).`).
 *
 * Choices (documented for users in docs/payment.md):
 * - `null` for a field is the same as leaving it out; so is a string that is empty after trimming.
 * - Unknown fields are ignored.
 * - Strings are trimmed; any string longer than MAX_STRING_LENGTH characters (before trimming) is rejected.
 * - A number sent for a text field that also allows numbers (ids, zip, phone, card_number) becomes
 *   its decimal text: 12345 -> "12345", 1.5 -> "1.5", never an exponent.
 * - "integer" in the table means a JSON number with no fractional part; "number"/"float" any JSON number.
 * - Amounts (transaction_amount, item_price) and item_quantity may be numeric strings ("12.50",
 *   "+3", ".5"); no thousands separators or exponents; negative amounts are rejected.
 *   customer_balance may be negative (a wallet can owe).
 * - Country fields: two letters, upper-cased (the code itself is not looked up: a well-formed
 *   unassigned code simply matches nothing). Currency: three letters, upper-cased.
 * - card_number: digits with optional spaces or dashes, 6 to 19 digits; a JSON number must be a
 *   safe integer (larger ones lose digits in JSON parsers: send the number as a string).
 * - Coordinates out of range are not an error: rule PF10006 reports them.
 * - cart_items: an array of at most MAX_CART_ITEMS objects.
 */
import { ApiError } from '../../http/errors.ts';
import type { CartItem, PaymentInput, PaymentPlace } from './types.ts';

export const MAX_STRING_LENGTH = 1000;
export const MAX_CART_ITEMS = 1000;
export const CARD_MIN_DIGITS = 6;
export const CARD_MAX_DIGITS = 19;

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(message: string): never {
  throw new ApiError(130, message);
}

/** Decimal text of a finite JSON number, never in exponent form. */
export function decimalText(n: number): string {
  if (Object.is(n, -0)) return '0';
  if (Number.isInteger(n)) return BigInt(n).toString();
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Very small fractions (1e-7): fixed notation with trailing zeros removed.
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/** Reads an own field: undefined for absent or null. */
function raw(obj: Obj, key: string): unknown {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return v === null ? undefined : v;
}

function checkLength(path: string, s: string): void {
  if (s.length > MAX_STRING_LENGTH) fail(`${path} must be at most ${MAX_STRING_LENGTH} characters long.`);
}

/** Trimmed string or undefined when empty. A NUL is refused: PostgreSQL cannot store it in text (it answered 115). */
function textOf(path: string, s: string): string | undefined {
  checkLength(path, s);
  if (s.includes('\u0000')) fail(`${path} must not contain a NUL character (\\u0000).`);
  return stringOrNumberText(s);
}

/** `string` fields. */
function str(obj: Obj, key: string, path: string): string | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') fail(`${path} must be a string.`);
  return textOf(path, v);
}

/** `string or integer` fields (merchant_id, customer_id). */
function strOrInt(obj: Obj, key: string, path: string): string | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  if (typeof v === 'string') return textOf(path, v);
  if (typeof v === 'number' && Number.isInteger(v)) return decimalText(v);
  return fail(`${path} must be a string or an integer.`);
}

/** `string, integer or number` fields (ids, zip, phone, device id, card_number): kept as text. */
function strOrNum(obj: Obj, key: string, path: string): string | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  if (typeof v === 'string') return textOf(path, v);
  if (typeof v === 'number') return decimalText(v);
  return fail(`${path} must be a string or a number.`);
}

/**
 * The text a string-or-number field is kept as (trimmed; a number's decimal text); undefined when absent,
 * blank or of another type. Also how a logged input's `transaction_id` is read back (backtest labels).
 */
export function stringOrNumberText(v: unknown): string | undefined {
  if (typeof v === 'number') return decimalText(v);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const INTEGER = /^[+-]?\d+$/;

/** `string, number or float` amounts: a number, or a numeric string parsed. */
function amount(obj: Obj, key: string, path: string, opts: { negative: boolean; integer?: boolean }): number | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  let n: number;
  const kind = opts.integer ? 'an integer' : 'a number';
  if (typeof v === 'number') {
    if (opts.integer && !Number.isInteger(v)) fail(`${path} must be ${kind} or a string holding ${kind}.`);
    n = v;
  } else if (typeof v === 'string') {
    const t = textOf(path, v);
    if (t === undefined) return undefined;
    if (!(opts.integer ? INTEGER : NUMERIC).test(t)) fail(`${path} must be ${kind} or a string holding ${kind} (digits, optional decimal point; no thousands separators).`);
    n = Number(t);
    if (!Number.isFinite(n)) fail(`${path} is too large.`);
  } else {
    return fail(`${path} must be ${kind} or a string holding ${kind}.`);
  }
  if (!opts.negative && n < 0) fail(`${path} must not be negative.`);
  return n === 0 ? 0 : n;
}

/** `integer or float` fields (coordinates). */
function num(obj: Obj, key: string, path: string): number | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${path} must be a number (integer or float).`);
  return v;
}

/** `integer` fields. */
function int(obj: Obj, key: string, path: string): number | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`${path} must be an integer.`);
  return v;
}

function bool(obj: Obj, key: string, path: string): boolean | undefined {
  const v = raw(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') fail(`${path} must be a boolean (true or false).`);
  return v;
}

function country(obj: Obj, key: string, path: string): string | undefined {
  const s = str(obj, key, path);
  if (s === undefined) return undefined;
  if (!/^[A-Za-z]{2}$/.test(s)) fail(`${path} must be an ISO 3166-1 alpha-2 country code (two letters).`);
  return s.toUpperCase();
}

function currency(obj: Obj, key: string, path: string): string | undefined {
  const s = str(obj, key, path);
  if (s === undefined) return undefined;
  if (!/^[A-Za-z]{3}$/.test(s)) fail(`${path} must be an ISO 4217 currency code (three letters).`);
  return s.toUpperCase();
}

function cardNumber(obj: Obj, path: string): string | undefined {
  const v = raw(obj, 'card_number');
  if (v === undefined) return undefined;
  let digits: string;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) fail(`${path} must be the card's digits; as a JSON number it must be a non-negative integer below 2^53 (send longer numbers as a string).`);
    digits = decimalText(v);
  } else if (typeof v === 'string') {
    const t = textOf(path, v);
    if (t === undefined) return undefined;
    if (!/^[\d -]+$/.test(t)) fail(`${path} must hold only digits, spaces and dashes.`);
    digits = t.replace(/[ -]/g, '');
  } else {
    return fail(`${path} must be a string or a number.`);
  }
  if (digits.length < CARD_MIN_DIGITS || digits.length > CARD_MAX_DIGITS) {
    fail(`${path} must have between ${CARD_MIN_DIGITS} and ${CARD_MAX_DIGITS} digits.`);
  }
  return digits;
}

function place(d: Obj, prefix: 'customer' | 'billing' | 'shipping'): PaymentPlace {
  const out: PaymentPlace = {
    country: country(d, `${prefix}_country`, `data.${prefix}_country`),
    region: str(d, `${prefix}_region`, `data.${prefix}_region`),
    city: str(d, `${prefix}_city`, `data.${prefix}_city`),
    zip: strOrNum(d, `${prefix}_zip`, `data.${prefix}_zip`),
    street: str(d, `${prefix}_street`, `data.${prefix}_street`),
    street2: str(d, `${prefix}_street2`, `data.${prefix}_street2`),
    latitude: num(d, `${prefix}_latitude`, `data.${prefix}_latitude`),
    longitude: num(d, `${prefix}_longitude`, `data.${prefix}_longitude`),
  };
  return out;
}

function cartItems(d: Obj): CartItem[] {
  const v = raw(d, 'cart_items');
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail('data.cart_items must be an array of objects.');
  if (v.length > MAX_CART_ITEMS) fail(`data.cart_items must have at most ${MAX_CART_ITEMS} items.`);
  return v.map((item: unknown, i): CartItem => {
    const path = `data.cart_items[${i}]`;
    if (!isObject(item)) fail(`${path} must be an object.`);
    return {
      id: strOrNum(item, 'item_id', `${path}.item_id`),
      name: str(item, 'item_name', `${path}.item_name`),
      quantity: amount(item, 'item_quantity', `${path}.item_quantity`, { negative: false, integer: true }),
      price: amount(item, 'item_price', `${path}.item_price`, { negative: false }),
      categoryId: strOrNum(item, 'item_category_id', `${path}.item_category_id`),
    };
  });
}

/**
 * Validates the whole parsed request body (`{data: {...}}`) into the engine's input.
 * Throws ApiError 130 for a missing or non-object `data` and for any invalid field.
 */
export function parsePaymentData(body: unknown): PaymentInput {
  if (!isObject(body)) fail('The request body must be a JSON object with a `data` object.');
  const d = body.data;
  if (d === undefined || d === null) fail('The `data` object is missing.');
  if (!isObject(d)) fail('`data` must be a JSON object.');

  return {
    action: str(d, 'action', 'data.action'),
    websiteDomain: str(d, 'website_domain', 'data.website_domain'),
    websiteName: str(d, 'website_name', 'data.website_name'),
    merchantId: strOrInt(d, 'merchant_id', 'data.merchant_id'),
    shipmentId: strOrNum(d, 'shipment_id', 'data.shipment_id'),
    transactionId: strOrNum(d, 'transaction_id', 'data.transaction_id'),
    amount: amount(d, 'transaction_amount', 'data.transaction_amount', { negative: false }),
    currency: currency(d, 'transaction_currency', 'data.transaction_currency'),
    cartItems: cartItems(d),
    isDigitalProducts: bool(d, 'isDigitalProducts', 'data.isDigitalProducts') ?? false,
    coupon: str(d, 'coupon', 'data.coupon'),
    customerId: strOrInt(d, 'customer_id', 'data.customer_id'),
    firstName: str(d, 'customer_firstname', 'data.customer_firstname'),
    lastName: str(d, 'customer_lastname', 'data.customer_lastname'),
    placeOfBirth: str(d, 'customer_pob', 'data.customer_pob'),
    ip: str(d, 'customer_ip', 'data.customer_ip'),
    customer: place(d, 'customer'),
    billing: place(d, 'billing'),
    shipping: place(d, 'shipping'),
    deviceId: strOrNum(d, 'customer_device_id', 'data.customer_device_id'),
    phone: strOrNum(d, 'customer_phone', 'data.customer_phone'),
    registrationDate: int(d, 'customer_registration_date', 'data.customer_registration_date'),
    balance: amount(d, 'customer_balance', 'data.customer_balance', { negative: true }),
    dateOfBirth: str(d, 'customer_dob', 'data.customer_dob'),
    email: str(d, 'customer_email', 'data.customer_email'),
    twoFactor: bool(d, 'customer_2fa', 'data.customer_2fa'),
    userAgent: str(d, 'customer_useragent', 'data.customer_useragent'),
    paymentType: str(d, 'payment_type', 'data.payment_type'),
    cardName: str(d, 'card_name', 'data.card_name'),
    cardNumber: cardNumber(d, 'data.card_number'),
    cvvResult: bool(d, 'cvv_result', 'data.cvv_result'),
  };
}
