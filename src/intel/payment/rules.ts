/**
 * The payment rules (spec "Payment result", decisions.md "Payment rules beyond PF10017"), one
 * small function each, with their weights and thresholds. Documented for users in docs/payment.md;
 * keep the two in step.
 *
 * Every rule reads the validated input, the signals the service gathered and the context (country
 * lists, digital goods). A rule whose inputs are missing does not fire. A rule that fires gives
 * its weight in points (PAYMENT_RULE_WEIGHTS), times DIGITAL_WEIGHT_FACTOR for the rules in
 * DIGITAL_BOOSTED when the payment is for digital goods; score.ts adds them up with the model.
 */
import { checkDevice, type DeviceCheck } from './device.ts';
import type { CountryRiskLists } from './countries.ts';
import type { AmountHistory, PaymentInput, PaymentPlace, PaymentSignals, RuleHit } from './types.ts';

export interface RuleContext {
  countries: CountryRiskLists;
  /** `isDigitalProducts` of the input: stricter thresholds and boosted weights. */
  digital: boolean;
}

export type RuleCheck = (input: PaymentInput, signals: PaymentSignals, ctx: RuleContext) => RuleHit | null;

export interface PaymentRule {
  id: PaymentRuleId;
  description: string;
  /** Points when the rule fires (before the digital-goods factor and the cap). */
  weight: number;
  check: RuleCheck;
}

export const PAYMENT_RULE_IDS = [
  'PF10001', 'PF10002', 'PF10003', 'PF10004', 'PF10005', 'PF10006', 'PF10007', 'PF10008', 'PF10009',
  'PF10010', 'PF10011', 'PF10012', 'PF10013', 'PF10014', 'PF10015', 'PF10016', 'PF10017', 'PF10018',
  'PF10019', 'PF10020', 'PF10021', 'PF10022', 'PF10023', 'PF10024', 'PF10025', 'PF10026',
  'SVC2001', 'SVC2002',
] as const;
export type PaymentRuleId = (typeof PAYMENT_RULE_IDS)[number];

/** The `description` of each rule in the `rules` array (fixed text: custom rules may test it). */
export const PAYMENT_RULE_DESCRIPTIONS: Readonly<Record<PaymentRuleId, string>> = {
  PF10001: 'High purchase rate from this IP address or device',
  PF10002: 'High purchase rate by this customer or card',
  PF10003: 'IP address is probably a VPN, proxy, Tor exit, bot or hosting network',
  PF10004: 'Email address is probably invalid, disposable or spam',
  PF10005: 'Phone number is probably invalid, disposable or spam',
  PF10006: 'Latitude/longitude is invalid',
  PF10007: 'Card BIN/IIN is invalid',
  PF10008: 'Card brand differs from payment_type',
  PF10009: 'Customer country is high-fraud',
  PF10010: 'Card was issued in a high-risk country',
  PF10011: 'Multiple purchases from multiple locations in the past 30 days',
  PF10012: 'Card used from multiple customer accounts',
  PF10013: 'Device might not be real',
  PF10014: 'Device is registered as high-risk',
  PF10015: 'AI flagged the transaction as potentially fraudulent',
  PF10016: 'AI flagged the transaction due to a high amount',
  PF10017: 'Billing address mismatches IP geolocation',
  PF10018: 'Customer has several transactions labelled fraud in the past 30 days',
  PF10019: "Amount is unusual against this customer's history",
  PF10020: 'Account registered very recently',
  PF10021: 'Several different cards used by this customer in a short time',
  PF10022: "Customer IP is on one of the account's blacklists",
  PF10023: "Customer email or its domain is on one of the account's blacklists",
  PF10024: "Customer phone is on one of the account's blacklists",
  PF10025: "Card BIN or card country is on one of the account's blacklists",
  PF10026: "customer_id is on one of the account's blacklists",
  SVC2001: 'Same customer reused after a fraud label',
  SVC2002: 'Shared device, card or IP reused after a fraud label',
};

/**
 * Points per rule (docs/payment.md "Rules and weights"). Scale: the score is 0-100 with bands
 * 0-30 low, 30-60 medium, 60-100 high and the fraud_payment event at 50. One weak signal stays
 * low; two or three medium signals reach review; the account's own verdicts (blacklists, fraud
 * labels) reach review or decline alone. PF10015 is 0: the model's points are its own
 * contribution (score.ts MODEL_POINTS), the rule only names that the model crossed 0.5.
 */
export const PAYMENT_RULE_WEIGHTS: Readonly<Record<PaymentRuleId, number>> = {
  PF10001: 15,
  PF10002: 15,
  PF10003: 15,
  PF10004: 10,
  PF10005: 8,
  PF10006: 5,
  PF10007: 15,
  PF10008: 10,
  PF10009: 8,
  PF10010: 8,
  PF10011: 10,
  PF10012: 20,
  PF10013: 15,
  PF10014: 20,
  PF10015: 0,
  PF10016: 12,
  PF10017: 10,
  PF10018: 35,
  PF10019: 6,
  PF10020: 8,
  PF10021: 15,
  PF10022: 40,
  PF10023: 50,
  PF10024: 50,
  PF10025: 50,
  PF10026: 60,
  SVC2001: 35,
  SVC2002: 25,
};

/** Digital goods: these rules' points are multiplied by DIGITAL_WEIGHT_FACTOR. */
export const DIGITAL_WEIGHT_FACTOR = 1.5;
export const DIGITAL_BOOSTED: ReadonlySet<PaymentRuleId> = new Set<PaymentRuleId>(['PF10003', 'PF10013', 'PF10014', 'PF10017']);

/** PF10003 when the only signal is a privacy relay (iCloud Private Relay and the like): this share of the weight. */
export const RELAY_ONLY_FACTOR = 1 / 3;

/**
 * Count thresholds, `standard` and for digital goods (`digital`, stricter). Counts are of the
 * account's earlier live scorings (this one excluded): a rule fires at `>=` the threshold.
 */
export const THRESHOLDS = {
  /** PF10001 */
  ipLastHour: { standard: 5, digital: 3 },
  ipLastDay: { standard: 20, digital: 10 },
  deviceLastDay: { standard: 15, digital: 8 },
  /** PF10002 */
  customerLastHour: { standard: 5, digital: 3 },
  customerLastDay: { standard: 15, digital: 8 },
  cardLastDay: { standard: 10, digital: 5 },
  /** PF10011: distinct locations of the customer in 30 days. */
  customerLocations30d: { standard: 5, digital: 3 },
  /** PF10012: distinct customer_ids of the card in 30 days (the current customer may be one). */
  cardCustomers30d: { standard: 3, digital: 2 },
  /** PF10020: registration within this many hours before `now`. */
  registrationHours: { standard: 24, digital: 72 },
  /** PF10021: distinct cards of the customer. */
  customerCardsLastDay: { standard: 3, digital: 2 },
  customerCards7d: { standard: 5, digital: 4 },
} as const satisfies Record<string, { standard: number; digital: number }>;

/** Fixed thresholds (docs/payment.md). */
export const LIMITS = {
  /** PF10004: the email engine's score from which an address is spam (as the spam_email event). */
  emailSpamScore: 2,
  /** PF10005: phone number types treated as spam. */
  phoneSpamTypes: ['VOIP', 'PREMIUM_RATE'] as readonly string[],
  /** PF10015: model probability. */
  modelProbability: 0.5,
  /** PF10016: z-score of ln(1 + amount) against the account's history, with at least `accountMinSamples` amounts. */
  accountZ: 3,
  accountMinSamples: 20,
  /** PF10016: amount above this multiple of the customer's largest, with at least `customerMaxMinSamples` amounts. */
  customerMaxFactor: 5,
  customerMaxMinSamples: 3,
  /** PF10019: |z| of ln(1 + amount) against the customer's history, with at least `customerMinSamples` amounts. */
  customerZ: 2.5,
  customerMinSamples: 3,
  /** Floor on the standard deviation of ln(1 + amount): a customer who always pays 100 is not flagged at 110. */
  sdFloor: 0.35,
  /** PF10017: billing coordinates farther than this from the IP's location (km, great circle). */
  billingDistanceKm: 500,
  /** PF10018: fraud outcomes of the customer in 30 days. */
  customerFraud30d: 2,
  /** SVC2001/SVC2002: decayed fraud evidence. */
  labelEvidence: 0.5,
  /** PF10020: a registration date up to this far in the future counts as now (clock skew); farther is ignored. */
  registrationFutureSkewSeconds: 86_400,
} as const;

/** Mean Earth radius (km), for haversine distances. */
const EARTH_RADIUS_KM = 6371.0088;

function threshold(key: keyof typeof THRESHOLDS, ctx: RuleContext): number {
  return ctx.digital ? THRESHOLDS[key].digital : THRESHOLDS[key].standard;
}

/** Points of a rule that fired, with the digital-goods factor. */
export function rulePoints(id: PaymentRuleId, ctx: RuleContext): number {
  const w = PAYMENT_RULE_WEIGHTS[id];
  return ctx.digital && DIGITAL_BOOSTED.has(id) ? w * DIGITAL_WEIGHT_FACTOR : w;
}

function hit(id: PaymentRuleId, ctx: RuleContext, detail: string, factor = 1): RuleHit {
  return { id, description: PAYMENT_RULE_DESCRIPTIONS[id], points: rulePoints(id, ctx) * factor, detail };
}

/** The counts that reached their thresholds, as "name n >= t" phrases. */
function overThresholds(pairs: ReadonlyArray<[string, number | undefined, keyof typeof THRESHOLDS]>, ctx: RuleContext): string[] {
  const out: string[] = [];
  for (const [label, value, key] of pairs) {
    const t = threshold(key, ctx);
    if (value !== undefined && value >= t) out.push(`${label} ${value} (threshold ${t})`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Velocity

/** PF10001: earlier purchases from the same IP (last hour, last day) or the same device (last day). */
export function ipVelocity(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const over = overThresholds([
    ['purchases from this IP in the last hour', v.ipLastHour, 'ipLastHour'],
    ['purchases from this IP in the last 24 hours', v.ipLastDay, 'ipLastDay'],
    ['purchases from this device in the last 24 hours', v.deviceLastDay, 'deviceLastDay'],
  ], ctx);
  return over.length > 0 ? hit('PF10001', ctx, over.join('; ')) : null;
}

/** PF10002: earlier purchases by the same customer_id (last hour, last day) or with the same card (last day). */
export function customerVelocity(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const over = overThresholds([
    ['purchases by this customer in the last hour', v.customerLastHour, 'customerLastHour'],
    ['purchases by this customer in the last 24 hours', v.customerLastDay, 'customerLastDay'],
    ['purchases with this card in the last 24 hours', v.cardLastDay, 'cardLastDay'],
  ], ctx);
  return over.length > 0 ? hit('PF10002', ctx, over.join('; ')) : null;
}

// ---------------------------------------------------------------------------------------------
// The other engines' verdicts

/** PF10003: the IP engine says Tor, proxy/VPN, hosting, bot or relay. A relay alone counts RELAY_ONLY_FACTOR. */
export function anonymousIp(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const ip = s.ip;
  if (!ip || !ip.valid) return null;
  const kinds: string[] = [];
  if (ip.isTor) kinds.push('Tor exit');
  else if (ip.isProxy) kinds.push(ip.proxyType ?? 'proxy');
  if (ip.isHosting) kinds.push('hosting network');
  if (ip.isBot) kinds.push('bot');
  if (ip.isRelay) kinds.push('privacy relay');
  if (kinds.length === 0) return null;
  const relayOnly = kinds.length === 1 && ip.isRelay;
  return hit('PF10003', ctx, `IP is ${kinds.join(', ')}`, relayOnly ? RELAY_ONLY_FACTOR : 1);
}

/** PF10004: the email engine says invalid, disposable, or score >= 2. */
export function riskyEmail(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const e = s.email;
  if (!e) return null;
  const why: string[] = [];
  if (!e.valid) why.push('invalid');
  if (e.disposable) why.push('disposable');
  if (e.score >= LIMITS.emailSpamScore) why.push(`email score ${e.score}`);
  if (why.length === 0) return null;
  return hit('PF10004', ctx, e.reason ? `${why.join(', ')}: ${e.reason}` : why.join(', '));
}

/** PF10005: the phone engine says invalid, disposable, VOIP or premium rate. */
export function riskyPhone(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const p = s.phone;
  if (!p) return null;
  const why: string[] = [];
  if (!p.valid) why.push('invalid');
  if (p.disposable) why.push('disposable');
  if (p.type !== null && LIMITS.phoneSpamTypes.includes(p.type)) why.push(`type ${p.type}`);
  if (why.length === 0) return null;
  return hit('PF10005', ctx, p.reason ? `${why.join(', ')}: ${p.reason}` : why.join(', '));
}

// ---------------------------------------------------------------------------------------------
// Coordinates

/** Why a place's coordinates are invalid, or null when valid or absent. */
function coordinateProblem(p: PaymentPlace): string | null {
  const { latitude: lat, longitude: lon } = p;
  if (lat === undefined && lon === undefined) return null;
  if (lat === undefined || lon === undefined) return 'only one of latitude and longitude given';
  if (lat < -90 || lat > 90) return `latitude ${lat} out of range`;
  if (lon < -180 || lon > 180) return `longitude ${lon} out of range`;
  if (lat === 0 && lon === 0) return 'exactly 0,0';
  return null;
}

function validCoordinates(p: PaymentPlace): p is PaymentPlace & { latitude: number; longitude: number } {
  return p.latitude !== undefined && p.longitude !== undefined && coordinateProblem(p) === null;
}

/** PF10006: any of the customer, billing or shipping coordinates out of range, half given, or 0,0. */
export function invalidCoordinates(input: PaymentInput, _s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const problems: string[] = [];
  for (const [name, p] of [['customer', input.customer], ['billing', input.billing], ['shipping', input.shipping]] as const) {
    const why = coordinateProblem(p);
    if (why !== null) problems.push(`${name}: ${why}`);
  }
  return problems.length > 0 ? hit('PF10006', ctx, problems.join('; ')) : null;
}

// ---------------------------------------------------------------------------------------------
// Card

/** PF10007: the BIN engine says the card number's BIN is invalid. */
export function invalidBin(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  if (!s.bin || s.bin.valid) return null;
  return hit('PF10007', ctx, s.bin.reason ?? 'BIN not valid');
}

/** `payment_type` values (lower case, spaces, `_` and `-` removed) and what card they imply. */
export const PAYMENT_TYPES = {
  /** Any card scheme is fine. */
  card: ['cards', 'card', 'creditcard', 'debitcard', 'credit', 'debit'],
  /** Mobile wallets: they carry a (tokenised) card of any scheme. */
  mobileWallet: ['applepay', 'googlepay', 'samsungpay'],
  /** Local debit schemes: the card's scheme or co-badge must be this one (the schemes the BIN engine detects). */
  localScheme: ['mada', 'rupay', 'meeza', 'dankort', 'elo', 'mir', 'verve', 'troy', 'hipercard', 'hiper'],
  /** Not a card: a card_number alongside is a mismatch. */
  notCard: ['bank', 'crypto', 'wallet', 'cod'],
} as const;

function normalisePaymentType(s: string): string {
  return s.toLowerCase().replace(/[\s_-]/g, '');
}

const LOCAL: ReadonlySet<string> = new Set(PAYMENT_TYPES.localScheme);
const NOT_CARD: ReadonlySet<string> = new Set(PAYMENT_TYPES.notCard);

/**
 * PF10008: a non-card payment_type (bank, crypto, wallet, cod) sent with a card_number, or a local
 * debit scheme (mada, RuPay...) whose card the BIN engine knows as another scheme. `cards`, the
 * mobile wallets and unknown values never fire; nor does a local scheme whose card scheme is unknown.
 */
export function brandMismatch(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  if (input.paymentType === undefined || input.cardNumber === undefined) return null;
  const type = normalisePaymentType(input.paymentType);
  if (NOT_CARD.has(type)) return hit('PF10008', ctx, `payment_type ${type} sent with a card number`);
  if (!LOCAL.has(type) || !s.bin || !s.bin.valid) return null;
  const schemes = [s.bin.scheme, s.bin.coScheme].filter((x): x is string => x !== null && x !== '');
  if (schemes.length === 0) return null;
  if (schemes.some((x) => normalisePaymentType(x) === type)) return null;
  return hit('PF10008', ctx, `payment_type ${type} but the card is ${schemes.join('/')}`);
}

// ---------------------------------------------------------------------------------------------
// Countries

/** PF10009: the customer's country (customer_country, else billing_country) is on the high-fraud list. */
export function highFraudCountry(input: PaymentInput, _s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const country = input.customer.country ?? input.billing.country;
  if (country === undefined || !ctx.countries.customer.has(country)) return null;
  return hit('PF10009', ctx, `customer country ${country}`);
}

/** PF10010: the card's issuing country (BIN engine) is on the high-risk list. */
export function highRiskCardCountry(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const country = s.bin?.country;
  if (!country || !ctx.countries.card.has(country)) return null;
  return hit('PF10010', ctx, `card issued in ${country}`);
}

// ---------------------------------------------------------------------------------------------
// History of the customer and the card

/** PF10011: the customer bought from many distinct locations in 30 days. */
export function manyLocations(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const over = overThresholds([['distinct locations in 30 days', s.velocity.customerLocations30d, 'customerLocations30d']], ctx);
  return over.length > 0 ? hit('PF10011', ctx, over.join('; ')) : null;
}

/** PF10012: the card was used by several customer_ids in 30 days. */
export function cardSharedByCustomers(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const over = overThresholds([['customer accounts of this card in 30 days', s.velocity.cardCustomers30d, 'cardCustomers30d']], ctx);
  return over.length > 0 ? hit('PF10012', ctx, over.join('; ')) : null;
}

// ---------------------------------------------------------------------------------------------
// Device

let lastUa: string | null = null;
let lastCheck: DeviceCheck = { notReal: null, highRisk: null };

/** checkDevice with a one-entry cache (PF10013 and PF10014 read the same UA). */
function device(ua: string): DeviceCheck {
  if (ua !== lastUa) {
    lastCheck = checkDevice(ua);
    lastUa = ua;
  }
  return lastCheck;
}

/** PF10013: the User-Agent is a bot, a tool, an impossible combination or absurd (device.ts). */
export function deviceNotReal(input: PaymentInput, _s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  if (input.userAgent === undefined) return null;
  const why = device(input.userAgent).notReal;
  return why === null ? null : hit('PF10013', ctx, why);
}

/** PF10014: the User-Agent names an emulator or virtual device (device.ts). */
export function highRiskDevice(input: PaymentInput, _s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  if (input.userAgent === undefined) return null;
  const which = device(input.userAgent).highRisk;
  return which === null ? null : hit('PF10014', ctx, which);
}

// ---------------------------------------------------------------------------------------------
// Model and amounts

/** PF10015: the account's model says fraud with probability >= 0.5 (its points are the model's contribution). */
export function modelFlag(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const p = s.model.probability;
  if (!(p >= LIMITS.modelProbability)) return null;
  return hit('PF10015', ctx, `model probability ${p.toFixed(3)}; its points are in the model's contribution`);
}

/** z-score of ln(1 + amount) against a history, with the standard deviation floored. */
export function amountZ(amount: number, h: AmountHistory): number {
  return (Math.log1p(amount) - h.meanLog) / Math.max(h.sdLog, LIMITS.sdFloor);
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/**
 * PF10016: the amount is far above the account's history (z > 3 over at least 20 amounts) or
 * above 5 times the customer's largest (over at least 3 amounts).
 */
export function highAmount(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const amount = input.amount;
  if (amount === undefined || amount <= 0) return null;
  const why: string[] = [];
  const acc = s.amounts.account;
  if (acc && acc.count >= LIMITS.accountMinSamples) {
    const z = amountZ(amount, acc);
    if (z > LIMITS.accountZ) why.push(`z-score ${z.toFixed(2)} against the account's ${acc.count} amounts`);
  }
  const cust = s.amounts.customer;
  if (cust && cust.count >= LIMITS.customerMaxMinSamples && cust.max > 0 && amount > LIMITS.customerMaxFactor * cust.max) {
    why.push(`${fmt(amount)} is over ${LIMITS.customerMaxFactor} times the customer's largest (${fmt(cust.max)})`);
  }
  return why.length > 0 ? hit('PF10016', ctx, why.join('; ')) : null;
}

/** PF10019: |z| of the amount against the customer's own history > 2.5 (at least 3 amounts): unusually high or low. */
export function unusualAmount(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const amount = input.amount;
  const cust = s.amounts.customer;
  if (amount === undefined || !cust || cust.count < LIMITS.customerMinSamples) return null;
  const z = amountZ(amount, cust);
  if (Math.abs(z) <= LIMITS.customerZ) return null;
  return hit('PF10019', ctx, `z-score ${z.toFixed(2)} against the customer's ${cust.count} amounts (${z > 0 ? 'high' : 'low'})`);
}

// ---------------------------------------------------------------------------------------------
// Geography

/** Great-circle distance in km (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** PF10017: billing country differs from the IP's, or billing coordinates are over 500 km from the IP's. */
export function billingMismatch(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const ip = s.ip;
  if (!ip || !ip.valid || ip.bogon) return null;
  const b = input.billing;
  const why: string[] = [];
  if (b.country !== undefined && ip.country !== null && b.country !== ip.country.toUpperCase()) {
    why.push(`billing country ${b.country}, IP country ${ip.country.toUpperCase()}`);
  }
  if (validCoordinates(b) && ip.latitude !== null && ip.longitude !== null) {
    const km = haversineKm(b.latitude, b.longitude, ip.latitude, ip.longitude);
    if (km > LIMITS.billingDistanceKm) why.push(`billing location ${Math.round(km)} km from the IP's`);
  }
  return why.length > 0 ? hit('PF10017', ctx, why.join('; ')) : null;
}

// ---------------------------------------------------------------------------------------------
// Learning and the account's verdicts

/** PF10018: at least 2 transactions of this customer with a fraud outcome in 30 days. */
export function customerFraudHistory(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const n = s.labels.customerFraud30d;
  if (!(n >= LIMITS.customerFraud30d)) return null;
  return hit('PF10018', ctx, `${n} fraud outcomes in 30 days`);
}

/** PF10020: customer_registration_date within 24 hours (digital goods: 72) before now. */
export function newAccount(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const reg = input.registrationDate;
  if (reg === undefined) return null;
  const ageSeconds = s.now.getTime() / 1000 - reg;
  const hours = threshold('registrationHours', ctx);
  if (ageSeconds < -LIMITS.registrationFutureSkewSeconds || ageSeconds >= hours * 3600) return null;
  const shown = Math.max(0, ageSeconds) / 3600;
  return hit('PF10020', ctx, `registered ${shown.toFixed(1)} hours ago (window ${hours} hours)`);
}

/** PF10021: many distinct cards of the customer in 24 hours or 7 days. */
export function manyCards(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const over = overThresholds([
    ['cards of this customer in the last 24 hours', s.velocity.customerCardsLastDay, 'customerCardsLastDay'],
    ['cards of this customer in the last 7 days', s.velocity.customerCards7d, 'customerCards7d'],
  ], ctx);
  return over.length > 0 ? hit('PF10021', ctx, over.join('; ')) : null;
}

/** PF10022-PF10026: the account's blacklists. */
export function blacklistedIp(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  return s.lists.ip ? hit('PF10022', ctx, 'IP on the ip blacklist') : null;
}
export function blacklistedEmail(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  return s.lists.email ? hit('PF10023', ctx, 'email or its domain on the email/email_domain blacklist') : null;
}
export function blacklistedPhone(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  return s.lists.phone ? hit('PF10024', ctx, 'phone on the phone blacklist') : null;
}
export function blacklistedCard(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  return s.lists.card ? hit('PF10025', ctx, 'card BIN or country on the card_bin/card_country blacklist') : null;
}
export function blacklistedCustomer(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  return s.lists.customer ? hit('PF10026', ctx, 'customer_id on the customer_id blacklist') : null;
}

/** SVC2001: decayed fraud evidence on the customer's identities (customer_id, email, phone, userID) >= 0.5. */
export function customerFraudLabel(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const e = s.labels.customer;
  if (!(e >= LIMITS.labelEvidence)) return null;
  return hit('SVC2001', ctx, `fraud evidence ${e.toFixed(2)} on the customer's identities`);
}

/**
 * SVC2002: decayed fraud evidence on the shared identities (device, card, IP) >= 0.5, or any
 * identity of the transaction on the automatic confirmed_fraud list (which does not decay).
 */
export function sharedFraudLabel(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const e = s.labels.shared;
  const why: string[] = [];
  if (e >= LIMITS.labelEvidence) why.push(`fraud evidence ${e.toFixed(2)} on the device, card or IP`);
  if (s.lists.confirmedFraud) why.push('an identity is on the confirmed_fraud list');
  return why.length > 0 ? hit('SVC2002', ctx, why.join('; ')) : null;
}

const CHECKS: Readonly<Record<PaymentRuleId, RuleCheck>> = {
  PF10001: ipVelocity,
  PF10002: customerVelocity,
  PF10003: anonymousIp,
  PF10004: riskyEmail,
  PF10005: riskyPhone,
  PF10006: invalidCoordinates,
  PF10007: invalidBin,
  PF10008: brandMismatch,
  PF10009: highFraudCountry,
  PF10010: highRiskCardCountry,
  PF10011: manyLocations,
  PF10012: cardSharedByCustomers,
  PF10013: deviceNotReal,
  PF10014: highRiskDevice,
  PF10015: modelFlag,
  PF10016: highAmount,
  PF10017: billingMismatch,
  PF10018: customerFraudHistory,
  PF10019: unusualAmount,
  PF10020: newAccount,
  PF10021: manyCards,
  PF10022: blacklistedIp,
  PF10023: blacklistedEmail,
  PF10024: blacklistedPhone,
  PF10025: blacklistedCard,
  PF10026: blacklistedCustomer,
  SVC2001: customerFraudLabel,
  SVC2002: sharedFraudLabel,
};

/** Every rule, in id order (the order of `rules` in the result). */
export const PAYMENT_RULES: readonly PaymentRule[] = PAYMENT_RULE_IDS.map((id) => ({
  id,
  description: PAYMENT_RULE_DESCRIPTIONS[id],
  weight: PAYMENT_RULE_WEIGHTS[id],
  check: CHECKS[id],
}));
