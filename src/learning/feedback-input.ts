/**
 * Reading and validating the bodies of POST /feedback/payment, /feedback/event and /feedback/bulk (spec
 * "POST /feedback/…", errors 131 and 132). Pure: `now` is an argument. Every failure is an ApiError 131
 * (132 for a bulk call over 1000 items) whose description names the field and says what to send.
 *
 * Decisions:
 * - A body or item must be a JSON object; fields not named here are ignored (bulk items carry `kind`).
 * - Optional fields that are absent, null or an empty (all-space) string count as not sent.
 * - Enumerations (`outcome`, `label`, `type`, `kind`) must be sent exactly as the spec spells them, in
 *   lower case: `Chargeback` is an error, not a guess.
 * - `transaction_id` is text; a JSON number is accepted and read as its shortest decimal text (`12345`,
 *   `12.5`), as payment scoring reads a numeric transaction_id. Trimmed, 1-1000 characters.
 * - `event_id` is a positive safe integer, or a string of its decimal digits.
 * - Sending `event_id` together with `type` or `value` is an error: the target would be ambiguous.
 * - `occurred_at`: an ISO-8601 date (`2024-05-01`, midnight UTC) or date-time (`2024-05-01T10:20:30Z`,
 *   an offset `+02:00`, or no zone = UTC), or UNIX seconds as an integer or a string of digits. It must
 *   fall between 2000-01-01 and one day after `now` (a millisecond timestamp fails that test, and the
 *   message says to send seconds). Returned as ISO-8601 UTC; undefined when not sent (the caller uses now).
 * - Free text (`reason`, `source`) is trimmed, at most 1000 characters; control characters other than
 *   tab and line breaks, and lone surrogates, are refused (PostgreSQL cannot store NUL, and they are
 *   never real text).
 * - Identity values are validated here (parseIdentityValue: clear messages, no control characters, a
 *   card_bin never longer than 8 digits) and returned in the one normal form of identity-values.ts, the
 *   text that is hashed, so a label meets the payment that sent the same identity (ip canonical, email
 *   the mailbox in lower case, email_domain lower case, phone digits, card_bin digits, ids trimmed, text
 *   trimmed and lower case; identity-values.ts is the reference).
 */
import { ApiError } from '../http/errors.ts';
import { parseIpInput } from '../intel/ip/address.ts';
import { maskCard, maskEmail, maskPhone } from '../policy/events/mask.ts';
import { PAYMENT_OUTCOMES, type LabelType, type PaymentOutcome } from '../store/learning-ports.ts';
import { normaliseIdentity } from './identity-values.ts';

/** Identity types feedback/event accepts (`card` is kept for payments only: a full card is never sent). */
export const FEEDBACK_TYPES = ['ip', 'email', 'email_domain', 'phone', 'card_bin', 'customer_id', 'device_id', 'text'] as const satisfies readonly LabelType[];
export type FeedbackIdentityType = (typeof FEEDBACK_TYPES)[number];

export const FEEDBACK_LABELS = ['fraud', 'legit'] as const;
export type FeedbackLabel = (typeof FEEDBACK_LABELS)[number];

/** Spec "Limits": items per bulk feedback call. */
export const MAX_BULK_ITEMS = 1000;
export const MAX_TEXT_FIELD = 1000;
export const MAX_VALUE = 10_000;
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const FUTURE_SLACK_MS = 86_400_000;

export interface PaymentFeedback {
  transactionId: string;
  outcome: PaymentOutcome;
  reason: string | null;
  /** ISO-8601 UTC; undefined when not sent (the caller uses now). */
  occurredAt: string | undefined;
  /** Identities for never-scored transactions, normalised (see normaliseIdentity); undefined when not sent. */
  customerId?: string;
  customerEmail?: string;
  customerPhone?: string;
  customerIp?: string;
  customerDeviceId?: string;
}

interface EventFeedbackCommon {
  label: FeedbackLabel;
  reason: string | null;
  source: string | null;
  occurredAt: string | undefined;
}

/** A label by event id, or by identity type and normalised value (tell them apart with `'eventId' in fb`). */
export type EventFeedback = EventLabelFeedback | IdentityLabelFeedback;

export interface EventLabelFeedback extends EventFeedbackCommon {
  eventId: number;
}

export interface IdentityLabelFeedback extends EventFeedbackCommon {
  type: FeedbackIdentityType;
  value: string;
}

export type FeedbackKind = 'payment' | 'event';

function fail(detail: string): never {
  throw new ApiError(131, detail);
}

type Fields = Record<string, unknown>;

function objectOf(raw: unknown, what: string): Fields {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(`${what} must be a JSON object.`);
  return raw as Fields;
}

/** Own fields only: `constructor` or `toString` never come from the prototype. */
function field(obj: Fields, name: string): unknown {
  return Object.hasOwn(obj, name) ? obj[name] : undefined;
}

function absent(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

const CONTROL = /[\p{Cc}\p{Cs}]/u;
/** Controls other than tab and line breaks, and lone surrogates. */
const CONTROL_EXCEPT_LINES = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

/** The shortest decimal text of a JSON number (finite only: JSON has no NaN, but callers may). */
function numberText(n: number, name: string): string {
  if (!Number.isFinite(n)) fail(`\`${name}\` must be a finite number or a string.`);
  return String(n);
}

/** Optional free text: trimmed, ≤ max characters, no controls but tab and line breaks; null when not sent. */
function optionalText(obj: Fields, name: string, max = MAX_TEXT_FIELD): string | null {
  const v = field(obj, name);
  if (absent(v)) return null;
  if (typeof v !== 'string') return fail(`\`${name}\` must be a string.`);
  const s = v.trim();
  if (s.length > max) fail(`\`${name}\` is longer than ${max} characters.`);
  if (CONTROL_EXCEPT_LINES.test(s)) fail(`\`${name}\` contains control characters or invalid Unicode.`);
  return s;
}

/** An identifier sent as a string or (when allowed) a number; trimmed; undefined when not sent. */
function identifierText(obj: Fields, name: string, allowNumber: boolean): string | undefined {
  const v = field(obj, name);
  if (absent(v)) return undefined;
  if (typeof v === 'number' && allowNumber) return numberText(v, name);
  if (typeof v !== 'string') return fail(`\`${name}\` must be a string${allowNumber ? ' or a number' : ''}.`);
  return v.trim();
}

function enumValue<T extends string>(obj: Fields, name: string, values: readonly T[]): T {
  const v = field(obj, name);
  const list = values.join(', ');
  if (absent(v)) return fail(`\`${name}\` is required: one of ${list}.`);
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) return fail(`\`${name}\` must be one of ${list} (lower case).`);
  return v as T;
}

// ---------------------------------------------------------------------------------------------------------
// occurred_at

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoMs(s: string): number | null {
  const m = ISO.exec(s);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMin = 0;
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime() - offsetMin * 60_000;
}

/** `occurred_at` (or another date field) as ISO-8601 UTC; undefined when not sent. */
export function parseOccurredAt(raw: unknown, now: Date, name = 'occurred_at'): string | undefined {
  if (absent(raw)) return undefined;
  let ms: number | null;
  let seconds = false;
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw)) return fail(`\`${name}\` as a number must be a whole number of UNIX seconds.`);
    [ms, seconds] = [raw * 1000, true];
  } else if (typeof raw === 'string') {
    const s = raw.trim();
    if (s.length > 40) return fail(`\`${name}\` must be an ISO 8601 date or UNIX seconds.`);
    if (/^\d{1,15}$/.test(s)) [ms, seconds] = [Number(s) * 1000, true];
    else ms = isoMs(s);
    if (ms === null) return fail(`\`${name}\` must be an ISO 8601 date (2024-05-01 or 2024-05-01T10:20:30Z) or UNIX seconds.`);
  } else {
    return fail(`\`${name}\` must be an ISO 8601 date string or UNIX seconds.`);
  }
  if (ms < EARLIEST_MS) return fail(`\`${name}\` is before the year 2000.`);
  if (ms > now.getTime() + FUTURE_SLACK_MS) {
    return fail(`\`${name}\` is more than one day in the future${seconds ? ' (UNIX timestamps are in seconds, not milliseconds)' : ''}.`);
  }
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------------------------------------------------
// identities

/** Controls other than whitespace, and lone surrogates: refused in text values. */
const TEXT_CONTROL = /(?!\s)[\p{Cc}\p{Cs}]/u;
const MAX_EMAIL = 254;
const MAX_DOMAIN = 253;

/**
 * Validates one identity value of a type and returns its canonical text (identity-values.ts, the one
 * normal form that is hashed); throws ApiError 131 naming `name` when it is not a value of that type.
 * Checks: ip parses as one address; email has exactly one @ with non-empty sides and no spaces;
 * email_domain is a host name with a dot (a leading @ is allowed); phone has 7-15 digits once + spaces
 * dashes dots and brackets are removed; card_bin is 6-8 digits (a full card number is refused); the
 * others are non-empty. No control characters or lone surrogates (text may hold tabs and line breaks);
 * customer_id and device_id at most 1000 characters, text at most 10,000.
 */
export function parseIdentityValue(type: FeedbackIdentityType, raw: string, name = 'value'): string {
  const s = raw.trim();
  if (s === '') return fail(`\`${name}\` is empty.`);
  if (s.length > MAX_VALUE) return fail(`\`${name}\` is longer than ${MAX_VALUE} characters.`);
  if (type === 'text' ? TEXT_CONTROL.test(s) : CONTROL.test(s)) return fail(`\`${name}\` contains control characters or invalid Unicode.`);
  switch (type) {
    case 'ip': {
      const ip = parseIpInput(s);
      if (!ip.ok) return fail(`\`${name}\` is not a valid IP address: ${ip.problem}.`);
      break;
    }
    case 'email': {
      const at = s.indexOf('@');
      if (at < 0 || s.indexOf('@', at + 1) >= 0) return fail(`\`${name}\` is not a valid email address: it needs exactly one @.`);
      if (at === 0 || at === s.length - 1) return fail(`\`${name}\` is not a valid email address: both sides of the @ must be non-empty.`);
      if (/\s/u.test(s)) return fail(`\`${name}\` is not a valid email address: it contains spaces.`);
      if (s.length > MAX_EMAIL) return fail(`\`${name}\` is not a valid email address: longer than ${MAX_EMAIL} characters.`);
      break;
    }
    case 'email_domain': {
      const d = (s.startsWith('@') ? s.slice(1) : s).replace(/\.$/, '');
      if (d.includes('@')) return fail(`\`${name}\` is not a valid email domain: send the part after the @ only.`);
      if (/\s/u.test(d) || !/^[^.]+(?:\.[^.]+)+$/.test(d) || d.length > MAX_DOMAIN) {
        return fail(`\`${name}\` is not a valid email domain: send a host name such as example.com.`);
      }
      break;
    }
    case 'phone': {
      const digits = s.replace(/[\s().+-]/g, '');
      if (!/^\d+$/.test(digits)) return fail(`\`${name}\` is not a valid phone number: only digits, spaces, dashes, dots, brackets and a leading + are allowed.`);
      const significant = digits.startsWith('00') ? digits.slice(2) : digits;
      if (significant.length < 7 || significant.length > 15) return fail(`\`${name}\` is not a valid phone number: it needs 7 to 15 digits with the country code.`);
      break;
    }
    case 'card_bin': {
      if (!/^\d{6,8}$/.test(s.replace(/[\s-]/g, ''))) {
        return fail(`\`${name}\` is not a valid card BIN: send the first 6 to 8 digits of the card, never the full number.`);
      }
      break;
    }
    case 'customer_id':
    case 'device_id':
      if (s.length > MAX_TEXT_FIELD) return fail(`\`${name}\` is longer than ${MAX_TEXT_FIELD} characters.`);
      break;
    case 'text':
      break;
  }
  const value = normaliseIdentity(type, s);
  return value ?? fail(`\`${name}\` is not a valid ${type.replace('_', ' ')}.`);
}

// ---------------------------------------------------------------------------------------------------------
// payment feedback

function transactionIdOf(obj: Fields): string {
  const v = field(obj, 'transaction_id');
  if (absent(v)) return fail('`transaction_id` is required: send the id given to payment scoring.');
  let s: string;
  if (typeof v === 'number') s = numberText(v, 'transaction_id');
  else if (typeof v === 'string') s = v.trim();
  else return fail('`transaction_id` must be a string (or a number).');
  if (s.length > MAX_TEXT_FIELD) fail(`\`transaction_id\` is longer than ${MAX_TEXT_FIELD} characters.`);
  if (CONTROL.test(s)) fail('`transaction_id` contains control characters or invalid Unicode.');
  return s;
}

function optionalIdentity(obj: Fields, name: string, type: FeedbackIdentityType, allowNumber: boolean): string | undefined {
  const text = identifierText(obj, name, allowNumber);
  if (text === undefined) return undefined;
  if (text.length > MAX_TEXT_FIELD) return fail(`\`${name}\` is longer than ${MAX_TEXT_FIELD} characters.`);
  return parseIdentityValue(type, text, name);
}

/** The body of POST /feedback/payment (or a payment item of a bulk call). */
export function parsePaymentFeedback(item: unknown, now: Date): PaymentFeedback {
  const obj = objectOf(item, 'The payment feedback');
  const feedback: PaymentFeedback = {
    transactionId: transactionIdOf(obj),
    outcome: enumValue(obj, 'outcome', PAYMENT_OUTCOMES),
    reason: optionalText(obj, 'reason'),
    occurredAt: parseOccurredAt(field(obj, 'occurred_at'), now),
  };
  const customerId = optionalIdentity(obj, 'customer_id', 'customer_id', true);
  const customerEmail = optionalIdentity(obj, 'customer_email', 'email', false);
  const customerPhone = optionalIdentity(obj, 'customer_phone', 'phone', true);
  const customerIp = optionalIdentity(obj, 'customer_ip', 'ip', false);
  const customerDeviceId = optionalIdentity(obj, 'customer_device_id', 'device_id', true);
  // Only the identities sent appear in the result.
  if (customerId !== undefined) feedback.customerId = customerId;
  if (customerEmail !== undefined) feedback.customerEmail = customerEmail;
  if (customerPhone !== undefined) feedback.customerPhone = customerPhone;
  if (customerIp !== undefined) feedback.customerIp = customerIp;
  if (customerDeviceId !== undefined) feedback.customerDeviceId = customerDeviceId;
  return feedback;
}

// ---------------------------------------------------------------------------------------------------------
// event feedback

function eventIdOf(v: unknown): number {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\d{1,16}$/.test(v.trim())) n = Number(v.trim());
  else return fail('`event_id` must be a positive integer.');
  if (!Number.isSafeInteger(n) || n < 1) return fail('`event_id` must be a positive integer.');
  return n;
}

/** Identity types whose value may be sent as a JSON number. */
const NUMERIC_TYPES: ReadonlySet<FeedbackIdentityType> = new Set(['phone', 'card_bin', 'customer_id', 'device_id']);

/** The body of POST /feedback/event (or an event item of a bulk call). */
export function parseEventFeedback(item: unknown, now: Date): EventFeedback {
  const obj = objectOf(item, 'The event feedback');
  const rawEventId = field(obj, 'event_id');
  const rawType = field(obj, 'type');
  const rawValue = field(obj, 'value');
  const hasEvent = rawEventId !== undefined && rawEventId !== null;
  const hasType = !absent(rawType);
  const hasValue = rawValue !== undefined && rawValue !== null;

  const common = (): EventFeedbackCommon => ({
    label: enumValue(obj, 'label', FEEDBACK_LABELS),
    reason: optionalText(obj, 'reason'),
    source: optionalText(obj, 'source'),
    occurredAt: parseOccurredAt(field(obj, 'occurred_at'), now),
  });

  if (hasEvent) {
    if (hasType || hasValue) fail('Send either `event_id` or `type` and `value`, not both.');
    const eventId = eventIdOf(rawEventId);
    return Object.assign(common(), { eventId });
  }
  if (!hasType && !hasValue) fail('Send `event_id`, or `type` and `value` of the identity to label.');
  if (!hasType) fail(`\`type\` is required with \`value\`: one of ${FEEDBACK_TYPES.join(', ')}.`);
  if (typeof rawType !== 'string' || !(FEEDBACK_TYPES as readonly string[]).includes(rawType)) {
    fail(`\`type\` must be one of ${FEEDBACK_TYPES.join(', ')} (lower case).`);
  }
  const type = rawType as FeedbackIdentityType;
  if (!hasValue) fail('`value` is required with `type`.');
  let text: string;
  if (typeof rawValue === 'string') text = rawValue;
  else if (typeof rawValue === 'number' && NUMERIC_TYPES.has(type)) text = numberText(rawValue, 'value');
  else return fail(`\`value\` must be a string${NUMERIC_TYPES.has(type) ? ' or a number' : ''}.`);
  if (text.trim() === '') fail('`value` is empty.');
  const value = parseIdentityValue(type, text, 'value');
  return Object.assign(common(), { type, value });
}

// ---------------------------------------------------------------------------------------------------------
// bulk

/**
 * The items of POST /feedback/bulk, not yet validated: each is validated on its own (kindOf, then the parser of its kind), and
 * a bad item fails alone. Missing, non-array or empty `items`: 131; more than 1000: 132.
 */
export function parseBulkFeedback(body: unknown): unknown[] {
  const obj = objectOf(body, 'The bulk feedback body');
  const items = field(obj, 'items');
  if (items === undefined || items === null) return fail('`items` is required: an array of 1 to 1000 feedback items.');
  if (!Array.isArray(items)) return fail('`items` must be an array of 1 to 1000 feedback items.');
  if (items.length === 0) return fail('`items` is empty: send 1 to 1000 feedback items.');
  if (items.length > MAX_BULK_ITEMS) throw new ApiError(132, `\`items\` has ${items.length} items; a bulk feedback call accepts at most ${MAX_BULK_ITEMS}.`);
  return items;
}

/**
 * The kind of a bulk item: its `kind` (payment or event); without one, payment when it has
 * `transaction_id` or `outcome`, event otherwise. A non-object item or another `kind`: 131.
 */
export function kindOf(item: unknown): FeedbackKind {
  const obj = objectOf(item, 'Each item');
  const kind = field(obj, 'kind');
  if (kind === undefined || kind === null) {
    const tx = field(obj, 'transaction_id');
    const outcome = field(obj, 'outcome');
    return (tx !== undefined && tx !== null) || (outcome !== undefined && outcome !== null) ? 'payment' : 'event';
  }
  if (kind === 'payment' || kind === 'event') return kind;
  return fail('`kind` must be payment or event.');
}


// ---------------------------------------------------------------------------------------------------------
// masking

function maskHead(value: string): string {
  const chars = [...value];
  const keep = Math.min(2, Math.max(1, chars.length - 1));
  return `${chars.slice(0, keep).join('')}***`;
}

function maskDomain(domain: string): string {
  const labels = domain.split('.');
  if (labels.length < 2) return maskHead(domain);
  const tld = labels.pop()!;
  const head = labels.join('.');
  const chars = [...head];
  const masked = chars.length <= 2 ? `${chars[0] ?? ''}*` : `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
  return `${masked}.${tld}`;
}

/**
 * The masked value a feedback response shows (only a keyed hash is stored): email `j******e@example.com`,
 * email_domain `e*****e.com`, phone `4479*****456`, ip the first two octets (`203.0.*.*`) or hextets
 * (`2001:db8:*:*:*:*:*:*`), card_bin without its last two digits (`4111**`), card as BIN and last four,
 * customer_id, device_id and text the first two characters then `***`.
 */
export function maskIdentity(type: LabelType, value: string): string {
  switch (type) {
    case 'email':
      return maskEmail(value);
    case 'email_domain':
      return maskDomain(value);
    case 'phone':
      return maskPhone(value);
    case 'ip': {
      const ip = parseIpInput(value);
      if (!ip.ok) return maskHead(value);
      const w = ip.value.words;
      if (ip.value.family === 4) return `${w[0]! >>> 24}.${(w[0]! >>> 16) & 0xff}.*.*`;
      return `${(w[0]! >>> 16).toString(16)}:${(w[0]! & 0xffff).toString(16)}:*:*:*:*:*:*`;
    }
    case 'card_bin':
      return value.length > 2 ? `${value.slice(0, -2)}**` : '**';
    case 'card':
      return maskCard(value);
    case 'customer_id':
    case 'device_id':
    case 'text':
      return maskHead(value);
  }
}
