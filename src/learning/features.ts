/**
 * The model features of a payment: binary, low-cardinality, privacy-safe strings. Pure and deterministic:
 * the same input, facts and hash function give the same sorted, duplicate-free list.
 *
 * Privacy: no identity value enters a feature in clear. The email domain and the device id enter only as
 * the first 12 hex characters of a keyed hash (`hashFn`, which the service provides: HMAC under the
 * deployment's secret), so stored features cannot be reversed without the key. Countries, payment type,
 * action, currency and buckets are not personal. Customer id, email, phone, IP and card never enter at
 * all: they are what the evidence rules (SVC2001/SVC2002) and velocity rules look at, and as features
 * they would only let the model memorise single customers.
 *
 * Features (each emitted only when its input is present and well-formed):
 *
 * | Feature | Meaning |
 * |---|---|
 * | `bias` | always; the learnable intercept on top of the fixed prior (ftrl.ts) |
 * | `rule:<id>`, `rule:<id>:<grade>` | a rule that fired (PF…, SVC…), with its grade for graded rules; its prior log-odds is in src/intel/payment/prior.ts |
 * | `action:<purchase\|deposit\|withdrawal\|other>` | `action` |
 * | `ptype:<type>` | `payment_type` lower-cased (1-16 of a-z 0-9 _ -), else `ptype:other` |
 * | `digital:1` | `isDigitalProducts` is true |
 * | `amount_bucket:<k>` | k = ⌊log2(1 + amount)⌋, 0-40 (a doubling per bucket); `amount_bucket:none` without amount |
 * | `currency:<ISO 4217>` | `transaction_currency` |
 * | `country:<cc>` | customer country |
 * | `billing_country:<cc>`, `shipping_country:<cc>` | billing and shipping countries |
 * | `card_country:<cc>` | issuing country of the BIN |
 * | `ip_country:<cc>` | geolocated country of customer_ip |
 * | `mismatch:billing_ip` | billing country ≠ IP country |
 * | `mismatch:card_ip` | card country ≠ IP country |
 * | `mismatch:card_billing` | card country ≠ billing country |
 * | `mismatch:billing_shipping` | billing country ≠ shipping country |
 * | `mismatch:customer_ip` | customer country ≠ IP country |
 * | `email_domain:<12 hex>` | keyed hash of the email domain |
 * | `device:<12 hex>` | keyed hash of customer_device_id |
 * | `missing:<email\|phone\|ip\|device\|customer_id>` | the transaction lacks that identity |
 * | `age:<bucket>` | account age at the purchase, on a log scale: lt10s, lt1m, lt10m, lt1h, lt6h, lt1d, lt3d, lt7d, lt14d, lt30d, lt90d, lt365d, ge365d (needs `facts.now`) |
 * | `amount_z:<bucket>` | the amount's z-score against the account's history: lt-1, lt1, lt2, lt3, ge3 (20+ amounts) |
 * | `cust_hist:<0\|1\|2-4\|5+>` | earlier scorings of the customer_id (a new customer is 0) |
 * | `card10m:<n>`, `card_cust:<n>`, `card_email:<n>` | attempts with the card in 10 minutes; its customers in 30 days; its emails in 24 hours (0, 1, 2-3, 4+) |
 * | `dev_cust:<n>`, `ip_cust:<n>` | customers of the device in 30 days, of the IP in 24 hours (0, 1, 2-3, 4+) |
 * | `bin_surge:<n>` | distinct cards of the card's BIN in 10 minutes above twice its usual count there (PF10033's usual rate; 0, 1, 2-3, 4+) |
 * | `dev_cards10m:<n>`, `ip_cards10m:<n>` | distinct cards from the device, from the IP, in 10 minutes (0, 1, 2-3, 4+) |
 * | `phone_type:<lineType>` | the phone's line type (mobile, fixed_line, voip, toll_free, premium_rate, ... unknown) |
 * | `browser:<family>`, `os:<family>` | the User-Agent's browser (chrome, edge, firefox, safari, ie, opera, other) and system (windows, mac, ios, android, linux, other) |
 * | `x:<a>&<b>` | crosses: `new` (account < 1 day), `anon` (PF10003), `disposable` (PF10004), `high` (amount z ≥ 2), `mismatch` (PF10029 or PF10017), `digital` |
 * | `cvv:<pass\|fail>` | `cvv_result` |
 * | `2fa:<0\|1>` | `customer_2fa` |
 * | `coupon:1` | a coupon was used |
 * | `cart_size:<1\|2-4\|5+>` | number of cart items |
 */
import { DIGITAL_FEATURE } from '../intel/payment/prior.ts';
import { amountZ, LIMITS } from '../intel/payment/rules.ts';
import type { AmountHistory, PaymentInput, VelocitySignal } from '../intel/payment/types.ts';
import { BIAS_FEATURE } from './ftrl.ts';

export interface FeatureFacts {
  /** Ids of the rules that fired, `ID` or `ID:grade` (src/intel/payment/prior.ts). */
  ruleIds: readonly string[];
  /** Country of customer_ip from the IP engine, ISO alpha-2; null unknown. */
  ipCountry: string | null;
  /** Issuing country of the card BIN, ISO alpha-2; null unknown. */
  binCountry: string | null;
  /**
   * Keyed hash (hex) of the email domain, as stored in IdentityHashes.emailDomain; null when the
   * transaction has no usable email.
   */
  emailDomainHash: string | null;
  /** Keyed hash (hex) of the device id, as stored in IdentityHashes.device; when undefined, `hashFn(deviceId)` is used. */
  deviceHash?: string | null;
  /** The scoring time, for the account age bucket; without it no age feature. */
  now?: Date;
  /** Velocity counts of the transaction's identities (velocity buckets, customer history). */
  velocity?: VelocitySignal;
  /** The account's amount history in the transaction's currency (amount_z). */
  accountAmounts?: AmountHistory | null;
  /** The phone engine's line type of customer_phone (phone_type). */
  phoneLineType?: string | null;
}

/** Hex characters of a keyed hash kept in a feature: 48 bits, collisions negligible per account. */
export const HASH_PREFIX_LENGTH = 12;
/** Largest amount bucket (2^40 ≈ 1.1e12). */
export const MAX_AMOUNT_BUCKET = 40;

const ACTIONS = new Set(['purchase', 'deposit', 'withdrawal']);
const COUNTRY = /^[A-Z]{2}$/;
const CURRENCY = /^[A-Z]{3}$/;
const RULE_ID = /^[A-Z]{1,8}\d{1,8}$/;
const GRADE = /^[a-z0-9]{1,12}$/;
const LINE_TYPE = /^[a-z_]{1,24}$/;
const PAYMENT_TYPE = /^[a-z0-9_-]{1,16}$/;
const HEX = /^[0-9a-f]+$/i;
const DAY_S = 86_400;

function country(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const cc = raw.trim().toUpperCase();
  return COUNTRY.test(cc) ? cc : null;
}

/** First 12 hex characters of a hash, lower-case; null when it is not hex (never put raw text in a feature). */
function hashPrefix(hash: string | null | undefined): string | null {
  if (typeof hash !== 'string' || hash.length < HASH_PREFIX_LENGTH) return null;
  const head = hash.slice(0, HASH_PREFIX_LENGTH);
  return HEX.test(head) ? head.toLowerCase() : null;
}

function present(s: string | undefined): s is string {
  return typeof s === 'string' && s.trim() !== '';
}

export function amountBucket(amount: number): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  return Math.min(MAX_AMOUNT_BUCKET, Math.floor(Math.log2(1 + amount)));
}

/** Upper bounds (seconds) of the account age buckets, a log scale from seconds to a year. */
const AGE_BUCKETS: ReadonlyArray<[number, string]> = [
  [10, 'lt10s'], [60, 'lt1m'], [600, 'lt10m'], [3600, 'lt1h'], [6 * 3600, 'lt6h'], [DAY_S, 'lt1d'], [3 * DAY_S, 'lt3d'],
  [7 * DAY_S, 'lt7d'], [14 * DAY_S, 'lt14d'], [30 * DAY_S, 'lt30d'], [90 * DAY_S, 'lt90d'], [365 * DAY_S, 'lt365d'],
];

function ageBucket(ageSeconds: number): string {
  for (const [limit, name] of AGE_BUCKETS) if (ageSeconds < limit) return name;
  return 'ge365d';
}

/** The browser family of a User-Agent (a few tokens; the device rules parse it properly). */
function browserFamily(ua: string): string {
  if (/Trident\/|MSIE /.test(ua)) return 'ie';
  if (/Edg(e|A|iOS)?\//.test(ua)) return 'edge';
  if (/OPR\/|Opera/.test(ua)) return 'opera';
  if (/Firefox\/|FxiOS/.test(ua)) return 'firefox';
  if (/Chrome\/|CriOS/.test(ua)) return 'chrome';
  if (/Version\/[\d.]+.*Safari\//.test(ua)) return 'safari';
  return 'other';
}

function osFamily(ua: string): string {
  if (/iPhone|iPad|iPod/.test(ua)) return 'ios';
  if (/Android/.test(ua)) return 'android';
  if (/Windows/.test(ua)) return 'windows';
  if (/Macintosh|Mac OS X/.test(ua)) return 'mac';
  if (/Linux|X11|CrOS/.test(ua)) return 'linux';
  return 'other';
}

/** 0, 1, 2-3, 4+ (a count bucket). */
function countBucket(n: number): string {
  return n <= 0 ? '0' : n === 1 ? '1' : n <= 3 ? '2-3' : '4+';
}

function zBucket(z: number): string {
  return z < -1 ? 'lt-1' : z < 1 ? 'lt1' : z < 2 ? 'lt2' : z < 3 ? 'lt3' : 'ge3';
}

function cartBucket(items: number): string | null {
  if (items <= 0) return null;
  if (items === 1) return '1';
  return items <= 4 ? '2-4' : '5+';
}

/** The features of one payment, sorted and unique (see the table above). */
export function paymentFeatures(input: PaymentInput, facts: FeatureFacts, hashFn: (s: string) => string): string[] {
  const out = new Set<string>([BIAS_FEATURE]);

  const fired = new Set<string>();
  for (const raw of facts.ruleIds) {
    const [id = '', grade, ...rest] = raw.trim().split(':');
    const rid = id.toUpperCase();
    if (!RULE_ID.test(rid) || rest.length > 0 || (grade !== undefined && !GRADE.test(grade))) continue;
    fired.add(rid);
    out.add(grade === undefined ? `rule:${rid}` : `rule:${rid}:${grade}`);
  }

  if (present(input.action)) {
    const action = input.action.trim().toLowerCase();
    out.add(`action:${ACTIONS.has(action) ? action : 'other'}`);
  }
  if (present(input.paymentType)) {
    const ptype = input.paymentType.trim().toLowerCase();
    out.add(`ptype:${PAYMENT_TYPE.test(ptype) ? ptype : 'other'}`);
  }
  if (input.isDigitalProducts) out.add(DIGITAL_FEATURE);

  out.add(input.amount !== undefined && Number.isFinite(input.amount) ? `amount_bucket:${amountBucket(input.amount)}` : 'amount_bucket:none');
  if (present(input.currency)) {
    const cur = input.currency.trim().toUpperCase();
    if (CURRENCY.test(cur)) out.add(`currency:${cur}`);
  }

  const customerCc = country(input.customer.country);
  const billingCc = country(input.billing.country);
  const shippingCc = country(input.shipping.country);
  const cardCc = country(facts.binCountry);
  const ipCc = country(facts.ipCountry);
  if (customerCc) out.add(`country:${customerCc}`);
  if (billingCc) out.add(`billing_country:${billingCc}`);
  if (shippingCc) out.add(`shipping_country:${shippingCc}`);
  if (cardCc) out.add(`card_country:${cardCc}`);
  if (ipCc) out.add(`ip_country:${ipCc}`);
  if (billingCc && ipCc && billingCc !== ipCc) out.add('mismatch:billing_ip');
  if (cardCc && ipCc && cardCc !== ipCc) out.add('mismatch:card_ip');
  if (cardCc && billingCc && cardCc !== billingCc) out.add('mismatch:card_billing');
  if (billingCc && shippingCc && billingCc !== shippingCc) out.add('mismatch:billing_shipping');
  if (customerCc && ipCc && customerCc !== ipCc) out.add('mismatch:customer_ip');

  const domain = hashPrefix(facts.emailDomainHash);
  if (domain) out.add(`email_domain:${domain}`);
  const device = hashPrefix(facts.deviceHash === undefined ? (present(input.deviceId) ? hashFn(input.deviceId.trim()) : null) : facts.deviceHash);
  if (device) out.add(`device:${device}`);

  if (!present(input.email)) out.add('missing:email');
  if (!present(input.phone)) out.add('missing:phone');
  if (!present(input.ip)) out.add('missing:ip');
  if (!present(input.deviceId)) out.add('missing:device');
  if (!present(input.customerId)) out.add('missing:customer_id');

  if (facts.phoneLineType && LINE_TYPE.test(facts.phoneLineType)) out.add(`phone_type:${facts.phoneLineType}`);
  if (present(input.userAgent)) {
    const ua = input.userAgent.slice(0, 512);
    out.add(`browser:${browserFamily(ua)}`);
    out.add(`os:${osFamily(ua)}`);
  }
  let young = false;
  if (facts.now && input.registrationDate !== undefined && Number.isFinite(input.registrationDate)) {
    const age = Math.max(0, facts.now.getTime() / 1000 - input.registrationDate);
    if (Number.isFinite(age)) {
      out.add(`age:${ageBucket(age)}`);
      young = age < DAY_S;
    }
  }
  let high = false;
  const acc = facts.accountAmounts;
  if (acc && acc.count >= LIMITS.accountMinSamples && input.amount !== undefined && Number.isFinite(input.amount)) {
    const z = amountZ(input.amount, acc);
    out.add(`amount_z:${zBucket(z)}`);
    high = z >= 2;
  }
  const v = facts.velocity;
  if (v) {
    if (v.customerHistory !== undefined) out.add(`cust_hist:${v.customerHistory === 0 ? '0' : v.customerHistory === 1 ? '1' : v.customerHistory <= 4 ? '2-4' : '5+'}`);
    if (v.cardLast10Minutes !== undefined) out.add(`card10m:${countBucket(v.cardLast10Minutes)}`);
    if (v.cardCustomers30d !== undefined) out.add(`card_cust:${countBucket(v.cardCustomers30d)}`);
    if (v.cardEmailsLastDay !== undefined) out.add(`card_email:${countBucket(v.cardEmailsLastDay)}`);
    if (v.deviceCustomers30d !== undefined) out.add(`dev_cust:${countBucket(v.deviceCustomers30d)}`);
    if (v.ipCustomersLastDay !== undefined) out.add(`ip_cust:${countBucket(v.ipCustomersLastDay)}`);
    const usual = v.binUsualPer10Minutes;
    if (usual !== undefined && v.binAnyCardsLast10Minutes !== undefined) {
      out.add(`bin_surge:${countBucket(v.binAnyCardsLast10Minutes - Math.floor(LIMITS.binPeakFactor * usual))}`);
    }
    if (v.deviceCardsLast10Minutes !== undefined) out.add(`dev_cards10m:${countBucket(v.deviceCardsLast10Minutes)}`);
    if (v.ipCardsLast10Minutes !== undefined) out.add(`ip_cards10m:${countBucket(v.ipCardsLast10Minutes)}`);
  }
  // Crosses the rules' priors do not express: a new account that also hides, uses a throw-away
  // address or pays a high amount is worse than the sum of its parts in some shops and not in others.
  const traits: string[] = [];
  if (young) traits.push('new');
  if (fired.has('PF10003')) traits.push('anon');
  if (fired.has('PF10004')) traits.push('disposable');
  if (high) traits.push('high');
  if (fired.has('PF10029') || fired.has('PF10017')) traits.push('mismatch');
  if (input.isDigitalProducts) traits.push('digital');
  for (let i = 0; i < traits.length; i++) for (let j = i + 1; j < traits.length; j++) out.add(`x:${traits[i]}&${traits[j]}`);
  if (input.cvvResult !== undefined) out.add(`cvv:${input.cvvResult ? 'pass' : 'fail'}`);
  if (input.twoFactor !== undefined) out.add(`2fa:${input.twoFactor ? 1 : 0}`);
  if (present(input.coupon)) out.add('coupon:1');
  const cart = cartBucket(input.cartItems.length);
  if (cart) out.add(`cart_size:${cart}`);

  return [...out].sort();
}
