/**
 * The payment rules (spec "Payment result", decisions.md "Payment rules beyond PF10017"), one
 * small function each, with their weights and thresholds. Documented for users in docs/payment.md;
 * keep the two in step.
 *
 * Every rule reads the validated input, the signals the service gathered and the context (country
 * lists, digital goods). A rule whose inputs are missing does not fire. A rule that fires names
 * itself and, when graded, its grade; what it weighs (log-odds) is prior.ts's documented knowledge
 * plus what the account's model learned, and score.ts combines them.
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
  check: RuleCheck;
}

export const PAYMENT_RULE_IDS = [
  'PF10001', 'PF10002', 'PF10003', 'PF10004', 'PF10005', 'PF10006', 'PF10007', 'PF10008', 'PF10009',
  'PF10010', 'PF10011', 'PF10012', 'PF10013', 'PF10014', 'PF10015', 'PF10016', 'PF10017', 'PF10018',
  'PF10019', 'PF10020', 'PF10021', 'PF10022', 'PF10023', 'PF10024', 'PF10025', 'PF10026', 'PF10027',
  'PF10028', 'PF10029', 'PF10030', 'PF10031', 'PF10032', 'PF10033',
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
  PF10027: 'Card testing: repeated attempts with this card or device within minutes',
  PF10028: 'Many email addresses or IP addresses used this card',
  PF10029: 'Countries of the card, IP address, shipping address or phone disagree',
  PF10030: 'Device or IP address shared by many customer accounts',
  PF10031: 'High amount for a customer without history',
  PF10032: 'Shipping address is a known package forwarder',
  PF10033: 'Many different cards from one BIN, device or IP address within minutes',
  SVC2001: 'Same customer reused after a fraud label',
  SVC2002: 'Shared device, card or IP reused after a fraud label',
};

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
  /** PF10012 at short windows: distinct customers of the card in the last hour. */
  cardCustomersLastHour: { standard: 3, digital: 2 },
  /** PF10021 at short windows: distinct cards of the customer in the last hour. */
  customerCardsLastHour: { standard: 3, digital: 2 },
  /** PF10027: earlier attempts with the card in ten minutes; with the device in ten minutes. */
  cardLast10Minutes: { standard: 1, digital: 1 },
  deviceLast10Minutes: { standard: 5, digital: 3 },
  /** PF10027 across one BIN: distinct cards of the BIN in ten minutes, with a small amount. */
  binCardsSmall: { standard: 5, digital: 4 },
  /** PF10033: distinct earlier cards from the device in ten minutes; from the IP in ten minutes and in one minute. */
  deviceCardsLast10Minutes: { standard: 3, digital: 3 },
  ipCardsLast10Minutes: { standard: 5, digital: 4 },
  ipCardsLastMinute: { standard: 3, digital: 3 },
  /** PF10033: the fewest distinct cards of one BIN (in one or ten minutes) that can be a BIN attack, however quiet the BIN. */
  binAnyCards: { standard: 5, digital: 4 },
  /** PF10028: distinct emails or IPs of the card in 24 hours. */
  cardEmailsLastDay: { standard: 3, digital: 3 },
  cardIpsLastDay: { standard: 3, digital: 3 },
  /** PF10030: distinct customers of the device in 30 days; of the IP in 24 hours. */
  deviceCustomers30d: { standard: 3, digital: 3 },
  ipCustomersLastDay: { standard: 5, digital: 4 },
} as const satisfies Record<string, { standard: number; digital: number }>;

/** Fixed thresholds (docs/payment.md). */
export const LIMITS = {
  /** PF10004: the email engine's score from which an address is spam (as the spam_email event). */
  emailSpamScore: 2,
  /** PF10005: phone number types treated as spam. */
  phoneSpamTypes: ['VOIP', 'PREMIUM_RATE'] as readonly string[],
  /** PF10015: the learned part of the logit (log-odds) from which the model "flags" a transaction scored >= 50. */
  modelLearnedLogOdds: 0.5,
  modelScore: 50,
  /** PF10027: an amount below this is a "small" test charge (in any currency), one grade up. */
  smallAmount: 5,
  /**
   * PF10033: a BIN's limit over a window whose usual count is λ (from the BIN's own rate at this account) is
   * max(binAnyCards, ⌈p + z·√p⌉ + 3) with p = binPeakFactor × λ: busy hours run at about twice the day's average,
   * and z = 3 standard deviations of a Poisson count above that is rare noise.
   */
  binPeakFactor: 2,
  binSurgeZ: 3,
  /** PF10033: the most rows of one BIN a window counts (VELOCITY_ROWS of the store; the service clamps Redis's to it). */
  binRows: 200,
  /** PF10029: IP location farther than this from the shipping coordinates counts as another place (km). */
  shippingDistanceKm: 1000,
  /** PF10031: z-score of the amount against the account's history for a customer without history. */
  newCustomerAccountZ: 2,
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

function hit(id: PaymentRuleId, detail: string, grade?: string): RuleHit {
  return grade === undefined ? { id, description: PAYMENT_RULE_DESCRIPTIONS[id], detail } : { id, description: PAYMENT_RULE_DESCRIPTIONS[id], grade, detail };
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

/** Whether any count reached twice its threshold (grade `x2` of the velocity rules). */
function twiceOver(pairs: ReadonlyArray<[string, number | undefined, keyof typeof THRESHOLDS]>, ctx: RuleContext): boolean {
  return pairs.some(([, value, key]) => value !== undefined && value >= 2 * threshold(key, ctx));
}

// ---------------------------------------------------------------------------------------------
// Velocity

/** PF10001: earlier purchases from the same IP (last hour, last day) or the same device (last day). */
export function ipVelocity(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const pairs: Array<[string, number | undefined, keyof typeof THRESHOLDS]> = [
    ['purchases from this IP in the last hour', v.ipLastHour, 'ipLastHour'],
    ['purchases from this IP in the last 24 hours', v.ipLastDay, 'ipLastDay'],
    ['purchases from this device in the last 24 hours', v.deviceLastDay, 'deviceLastDay'],
  ];
  const over = overThresholds(pairs, ctx);
  return over.length > 0 ? hit('PF10001', over.join('; '), twiceOver(pairs, ctx) ? 'x2' : undefined) : null;
}

/** PF10002: earlier purchases by the same customer_id (last hour, last day) or with the same card (last day). */
export function customerVelocity(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const pairs: Array<[string, number | undefined, keyof typeof THRESHOLDS]> = [
    ['purchases by this customer in the last hour', v.customerLastHour, 'customerLastHour'],
    ['purchases by this customer in the last 24 hours', v.customerLastDay, 'customerLastDay'],
    ['purchases with this card in the last 24 hours', v.cardLastDay, 'cardLastDay'],
  ];
  const over = overThresholds(pairs, ctx);
  return over.length > 0 ? hit('PF10002', over.join('; '), twiceOver(pairs, ctx) ? 'x2' : undefined) : null;
}

// ---------------------------------------------------------------------------------------------
// The other engines' verdicts

/**
 * PF10003: the IP engine says Tor, proxy/VPN, hosting, bot or relay. The grade is the strongest kind
 * present (tor, proxy, bot, hosting, relay: a privacy relay such as iCloud Private Relay is used by
 * ordinary iPhone owners and weighs little).
 */
export function anonymousIp(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const ip = s.ip;
  if (!ip || !ip.valid) return null;
  const kinds: string[] = [];
  if (ip.isTor) kinds.push('Tor exit');
  else if (ip.isProxy) kinds.push(ip.proxyType ?? 'proxy');
  if (ip.isHosting) kinds.push('hosting network');
  if (ip.isBot) kinds.push('bot');
  if (ip.isRelay) kinds.push('privacy relay');
  if (kinds.length === 0) return null;
  const grade = ip.isTor ? 'tor' : ip.isProxy ? 'proxy' : ip.isBot ? 'bot' : ip.isHosting ? 'hosting' : 'relay';
  return hit('PF10003', `IP is ${kinds.join(', ')}`, grade);
}

/** PF10004: the email engine says invalid, disposable, or score >= 2. */
export function riskyEmail(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const e = s.email;
  if (!e) return null;
  const why: string[] = [];
  if (!e.valid) why.push('invalid');
  if (e.disposable) why.push('disposable');
  if (e.score >= LIMITS.emailSpamScore) why.push(`email score ${e.score}`);
  if (why.length === 0) return null;
  const grade = !e.valid ? 'invalid' : e.disposable ? 'disposable' : 'spam';
  return hit('PF10004', e.reason ? `${why.join(', ')}: ${e.reason}` : why.join(', '), grade);
}

/** PF10005: the phone engine says invalid, disposable, VOIP or premium rate. */
export function riskyPhone(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const p = s.phone;
  if (!p) return null;
  const why: string[] = [];
  if (!p.valid) why.push('invalid');
  if (p.disposable) why.push('disposable');
  if (p.type !== null && LIMITS.phoneSpamTypes.includes(p.type)) why.push(`type ${p.type}`);
  if (why.length === 0) return null;
  const grade = p.disposable ? 'disposable' : !p.valid ? 'invalid' : 'type';
  return hit('PF10005', p.reason ? `${why.join(', ')}: ${p.reason}` : why.join(', '), grade);
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
export function invalidCoordinates(input: PaymentInput): RuleHit | null {
  const problems: string[] = [];
  for (const [name, p] of [['customer', input.customer], ['billing', input.billing], ['shipping', input.shipping]] as const) {
    const why = coordinateProblem(p);
    if (why !== null) problems.push(`${name}: ${why}`);
  }
  return problems.length > 0 ? hit('PF10006', problems.join('; ')) : null;
}

// ---------------------------------------------------------------------------------------------
// Card

/** PF10007: the BIN engine says the card number's BIN is invalid. */
export function invalidBin(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  if (!s.bin || s.bin.valid) return null;
  return hit('PF10007', s.bin.reason ?? 'BIN not valid');
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
export function brandMismatch(input: PaymentInput, s: PaymentSignals): RuleHit | null {
  if (input.paymentType === undefined || input.cardNumber === undefined) return null;
  const type = normalisePaymentType(input.paymentType);
  if (NOT_CARD.has(type)) return hit('PF10008', `payment_type ${type} sent with a card number`);
  if (!LOCAL.has(type) || !s.bin || !s.bin.valid) return null;
  const schemes = [s.bin.scheme, s.bin.coScheme].filter((x): x is string => x !== null && x !== '');
  if (schemes.length === 0) return null;
  if (schemes.some((x) => normalisePaymentType(x) === type)) return null;
  return hit('PF10008', `payment_type ${type} but the card is ${schemes.join('/')}`);
}

// ---------------------------------------------------------------------------------------------
// Countries

/** PF10009: the customer's country (customer_country, else billing_country) is on the high-fraud list. */
export function highFraudCountry(input: PaymentInput, _s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const country = input.customer.country ?? input.billing.country;
  if (country === undefined || !ctx.countries.customer.has(country)) return null;
  return hit('PF10009', `customer country ${country}`);
}

/** PF10010: the card's issuing country (BIN engine) is on the high-risk list. */
export function highRiskCardCountry(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const country = s.bin?.country;
  if (!country || !ctx.countries.card.has(country)) return null;
  return hit('PF10010', `card issued in ${country}`);
}

// ---------------------------------------------------------------------------------------------
// History of the customer and the card

/** PF10011: the customer bought from many distinct locations in 30 days. */
export function manyLocations(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const over = overThresholds([['distinct locations in 30 days', s.velocity.customerLocations30d, 'customerLocations30d']], ctx);
  return over.length > 0 ? hit('PF10011', over.join('; ')) : null;
}

/**
 * PF10012: the card was used by several customer_ids in 30 days, or in the last hour. Graded by the
 * number of accounts: 3-4, 5-9, 10 and more (a household shares a card between two).
 */
export function cardSharedByCustomers(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const over = overThresholds([
    ['customer accounts of this card in 30 days', v.cardCustomers30d, 'cardCustomers30d'],
    ['customer accounts of this card in the last hour', v.cardCustomersLastHour, 'cardCustomersLastHour'],
  ], ctx);
  if (over.length === 0) return null;
  const n = Math.max(v.cardCustomers30d ?? 0, v.cardCustomersLastHour ?? 0);
  return hit('PF10012', over.join('; '), n >= 10 ? '10' : n >= 5 ? '5' : '3');
}

// ---------------------------------------------------------------------------------------------
// Device

/**
 * Device verdicts by User-Agent. A shop's traffic comes from a few thousand browsers' User-Agents, and a
 * verdict is a pure function of the text (about 30 µs of regular expressions and parsing between requests),
 * so each is worked out once; the table is emptied when full.
 */
const deviceChecks = new Map<string, DeviceCheck>();
const DEVICE_CHECKS = 5000;

/** checkDevice, remembered per User-Agent (PF10013 and PF10014 read the same one). */
function device(ua: string): DeviceCheck {
  let check = deviceChecks.get(ua);
  if (check === undefined) {
    check = Object.freeze(checkDevice(ua));
    if (deviceChecks.size >= DEVICE_CHECKS) deviceChecks.clear();
    deviceChecks.set(ua, check);
  }
  return check;
}

/** PF10013: the User-Agent is a bot, a tool, an impossible combination or absurd (device.ts). */
export function deviceNotReal(input: PaymentInput): RuleHit | null {
  if (input.userAgent === undefined) return null;
  const why = device(input.userAgent).notReal;
  return why === null ? null : hit('PF10013', why);
}

/** PF10014: the User-Agent names an emulator or virtual device (device.ts). */
export function highRiskDevice(input: PaymentInput): RuleHit | null {
  if (input.userAgent === undefined) return null;
  const which = device(input.userAgent).highRisk;
  return which === null ? null : hit('PF10014', which);
}

// ---------------------------------------------------------------------------------------------
// Model and amounts

/**
 * PF10015 reads the combined score, so score.ts decides it after every other rule (modelFlagHit): the
 * account's learned model raised the log-odds by LIMITS.modelLearnedLogOdds or more and the score is
 * LIMITS.modelScore or more. It has no prior of its own: its effect is the model's contribution.
 */
export function modelFlag(): RuleHit | null {
  return null;
}

/** PF10015's hit, for score.ts. */
export function modelFlagHit(learnedLogOdds: number, score: number): RuleHit | null {
  if (!(learnedLogOdds >= LIMITS.modelLearnedLogOdds) || !(score >= LIMITS.modelScore)) return null;
  return hit('PF10015', `the account's model adds ${learnedLogOdds.toFixed(2)} log-odds; its share is in the model's contribution`);
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
export function highAmount(input: PaymentInput, s: PaymentSignals): RuleHit | null {
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
  return why.length > 0 ? hit('PF10016', why.join('; ')) : null;
}

/** PF10019: |z| of the amount against the customer's own history > 2.5 (at least 3 amounts): unusually high or low. */
export function unusualAmount(input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const amount = input.amount;
  const cust = s.amounts.customer;
  if (amount === undefined || !cust || cust.count < LIMITS.customerMinSamples) return null;
  const z = amountZ(amount, cust);
  if (Math.abs(z) <= LIMITS.customerZ) return null;
  return hit('PF10019', `z-score ${z.toFixed(2)} against the customer's ${cust.count} amounts (${z > 0 ? 'high' : 'low'})`);
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
export function billingMismatch(input: PaymentInput, s: PaymentSignals): RuleHit | null {
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
  return why.length > 0 ? hit('PF10017', why.join('; ')) : null;
}

// ---------------------------------------------------------------------------------------------
// Learning and the account's verdicts

/** PF10018: at least 2 transactions of this customer with a fraud outcome in 30 days. */
export function customerFraudHistory(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const n = s.labels.customerFraud30d;
  if (!(n >= LIMITS.customerFraud30d)) return null;
  return hit('PF10018', `${n} fraud outcomes in 30 days`);
}

/** PF10020: customer_registration_date within 24 hours (digital goods: 72) before now. */
export function newAccount(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const reg = input.registrationDate;
  if (reg === undefined) return null;
  const ageSeconds = s.now.getTime() / 1000 - reg;
  const hours = threshold('registrationHours', ctx);
  if (ageSeconds < -LIMITS.registrationFutureSkewSeconds || ageSeconds >= hours * 3600) return null;
  const age = Math.max(0, ageSeconds);
  const grade = age < 60 ? 'lt1m' : age < 600 ? 'lt10m' : age < 3600 ? 'lt1h' : age < 86_400 ? 'lt1d' : 'lt3d';
  const shown = age < 3600 ? `${Math.round(age)} seconds` : `${(age / 3600).toFixed(1)} hours`;
  return hit('PF10020', `registered ${shown} before the purchase (window ${hours} hours)`, grade);
}

/** PF10021: many distinct cards of the customer in 24 hours or 7 days. */
export function manyCards(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const over = overThresholds([
    ['cards of this customer in the last hour', s.velocity.customerCardsLastHour, 'customerCardsLastHour'],
    ['cards of this customer in the last 24 hours', s.velocity.customerCardsLastDay, 'customerCardsLastDay'],
    ['cards of this customer in the last 7 days', s.velocity.customerCards7d, 'customerCards7d'],
  ], ctx);
  return over.length > 0 ? hit('PF10021', over.join('; ')) : null;
}

/** PF10022-PF10026: the account's blacklists. */
export function blacklistedIp(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  return s.lists.ip ? hit('PF10022', 'IP on the ip blacklist') : null;
}
export function blacklistedEmail(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  return s.lists.email ? hit('PF10023', 'email or its domain on the email/email_domain blacklist') : null;
}
export function blacklistedPhone(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  return s.lists.phone ? hit('PF10024', 'phone on the phone blacklist') : null;
}
export function blacklistedCard(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  return s.lists.card ? hit('PF10025', 'card BIN or country on the card_bin/card_country blacklist') : null;
}
export function blacklistedCustomer(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  return s.lists.customer ? hit('PF10026', 'customer_id on the customer_id blacklist') : null;
}

/** SVC2001: decayed fraud evidence on the customer's identities (customer_id, email, phone, userID) >= 0.5. */
export function customerFraudLabel(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const e = s.labels.customer;
  if (!(e >= LIMITS.labelEvidence)) return null;
  return hit('SVC2001', `fraud evidence ${e.toFixed(2)} on the customer's identities`);
}

/**
 * SVC2002: decayed fraud evidence on the shared identities (device, card, IP) >= 0.5, or any
 * identity of the transaction on the automatic confirmed_fraud list (which does not decay).
 */
export function sharedFraudLabel(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const e = s.labels.shared;
  const why: string[] = [];
  if (e >= LIMITS.labelEvidence) why.push(`fraud evidence ${e.toFixed(2)} on the device, card or IP`);
  if (s.lists.confirmedFraud) why.push('an identity is on the confirmed_fraud list');
  return why.length > 0 ? hit('SVC2002', why.join('; ')) : null;
}


// ---------------------------------------------------------------------------------------------
// Textbook fraud patterns

/**
 * PF10027, card testing: earlier attempts with the same card within ten minutes (any customer), many
 * with the same device, or many cards of the same BIN with small amounts (a BIN attack: generated
 * numbers of one issuer's range tried with test charges; the service reads a BIN's window only for small
 * amounts, since a popular BIN has thousands of ordinary payments in ten minutes at a busy shop).
 * Graded by the card's attempts: 1, 2-3, 4-7, 8 and more; a device or a BIN over its threshold counts
 * as 2; a small amount (below LIMITS.smallAmount, the usual test charge) doubles the count.
 */
export function cardTesting(input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const small = input.amount !== undefined && input.amount < LIMITS.smallAmount;
  const over = overThresholds([
    ['attempts with this card in the last 10 minutes', v.cardLast10Minutes, 'cardLast10Minutes'],
    ['attempts from this device in the last 10 minutes', v.deviceLast10Minutes, 'deviceLast10Minutes'],
    ['cards of this BIN in the last 10 minutes (small amounts)', small ? v.binCardsLast10Minutes : undefined, 'binCardsSmall'],
  ], ctx);
  if (over.length === 0) return null;
  const card = v.cardLast10Minutes ?? 0;
  const device = v.deviceLast10Minutes ?? 0;
  const bin = v.binCardsLast10Minutes ?? 0;
  // A device over its threshold counts as two attempts on a card: scripts rotate cards on one device.
  let n = Math.max(card, device >= threshold('deviceLast10Minutes', ctx) ? 2 : 0);
  if (small && bin >= threshold('binCardsSmall', ctx)) n = Math.max(n, 2);
  if (small) {
    n = n * 2;
    over.push(`small amount ${fmt(input.amount!)}`);
  }
  if (v.cardLastMinute !== undefined && v.cardLastMinute > 0) over.push(`${v.cardLastMinute} in the last minute`);
  return hit('PF10027', over.join('; '), n >= 8 ? '8' : n >= 4 ? '4' : n >= 2 ? '2' : '1');
}

/** Ten-minute windows in the 24 hours before the last ten minutes, and in the 50 minutes of the hour before them. */
const TEN_MINUTES_PER_DAY = 143;
const TEN_MINUTES_PER_HOUR = 5;

/**
 * PF10033: the usual number of scorings of the card's BIN in ten minutes at this account, from its scorings in the last
 * 24 hours (`day`), hour (`hour`) and ten minutes (`recent`), each at most LIMITS.binRows: the larger of the 24 hours'
 * average and the last hour's, both before the last ten minutes. The hour follows a busy evening, an account younger
 * than a day, and a BIN whose day is beyond the rows a window counts; the day keeps a morning's ramp-up from looking
 * like an attack. The price: an attack sustained for more than about twenty minutes becomes the hour's usual.
 */
export function binUsualPer10Minutes(day: number, hour: number, recent: number): number {
  const perDay = Math.max(0, day - recent) / TEN_MINUTES_PER_DAY;
  return Math.max(perDay, Math.max(0, hour - recent) / TEN_MINUTES_PER_HOUR);
}

/** PF10033: the distinct cards of one BIN in a window whose usual count is `usual` from which it is an attack. */
export function binSurgeLimit(usual: number, ctx: RuleContext): number {
  const peak = LIMITS.binPeakFactor * usual;
  return Math.max(threshold('binAnyCards', ctx), Math.ceil(peak + LIMITS.binSurgeZ * Math.sqrt(peak)) + 3);
}

/**
 * PF10033, many cards in minutes (a BIN attack, card enumeration): distinct cards of the card's BIN in the last
 * minute or ten minutes far above the BIN's usual rate at this account, whatever the amounts (ordinary amounts,
 * unlike the test charges of PF10027); many distinct cards from one device (3 in ten minutes) or one IP address
 * (5 in ten minutes, 3 in one). Graded by the attack's size: the BIN's cards above its usual peak, or the device's
 * or IP's cards: 3-4, 5-7, 8 and more.
 */
export function manyCardsInMinutes(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const over = overThresholds([
    ['cards from this device in the last 10 minutes', v.deviceCardsLast10Minutes, 'deviceCardsLast10Minutes'],
    ['cards from this IP in the last 10 minutes', v.ipCardsLast10Minutes, 'ipCardsLast10Minutes'],
    ['cards from this IP in the last minute', v.ipCardsLastMinute, 'ipCardsLastMinute'],
  ], ctx);
  let n = 0;
  for (const [value, key] of [[v.deviceCardsLast10Minutes, 'deviceCardsLast10Minutes'], [v.ipCardsLast10Minutes, 'ipCardsLast10Minutes'], [v.ipCardsLastMinute, 'ipCardsLastMinute']] as const) {
    if (value !== undefined && value >= threshold(key, ctx)) n = Math.max(n, value);
  }
  const usual = v.binUsualPer10Minutes;
  if (usual !== undefined) {
    for (const [label, cards, per] of [['10 minutes', v.binAnyCardsLast10Minutes, usual], ['minute', v.binAnyCardsLastMinute, usual / 10]] as const) {
      if (cards === undefined) continue;
      const limit = binSurgeLimit(per, ctx);
      if (cards < limit) continue;
      over.push(`cards of this BIN in the last ${label} ${cards} (limit ${limit}; usual ${fmtRate(per)})`);
      n = Math.max(n, cards - Math.floor(LIMITS.binPeakFactor * per));
    }
  }
  if (over.length === 0) return null;
  return hit('PF10033', over.join('; '), n >= 8 ? '8' : n >= 5 ? '5' : '3');
}

function fmtRate(n: number): string {
  return n < 0.1 ? n.toFixed(3) : n.toFixed(1);
}

/** PF10028: many distinct emails or IP addresses used the card in 24 hours (3-4, 5 and more). */
export function manyIdentitiesOnCard(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const over = overThresholds([
    ['emails of this card in 24 hours', v.cardEmailsLastDay, 'cardEmailsLastDay'],
    ['IP addresses of this card in 24 hours', v.cardIpsLastDay, 'cardIpsLastDay'],
  ], ctx);
  if (over.length === 0) return null;
  const n = Math.max(v.cardEmailsLastDay ?? 0, v.cardIpsLastDay ?? 0);
  return hit('PF10028', over.join('; '), n >= 5 ? '5' : '3');
}

/**
 * PF10029: the countries of the card (BIN), the IP address, the shipping address and the phone number
 * disagree (billing against the IP is PF10017). Graded by the number of distinct countries among those
 * known: 2, or 3 and more. IP coordinates more than LIMITS.shippingDistanceKm from valid shipping
 * coordinates count as a second place when the countries agree.
 */
export function countryMismatch(input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const ip = s.ip && s.ip.valid && !s.ip.bogon ? s.ip : null;
  const places: Array<[string, string | null | undefined]> = [
    ['card', s.bin?.country],
    ['IP', ip?.country?.toUpperCase()],
    ['shipping', input.shipping.country],
    ['phone', s.phone?.country],
  ];
  const known = places.filter((p): p is [string, string] => typeof p[1] === 'string' && p[1] !== '');
  const distinct = new Set(known.map((p) => p[1]));
  const why: string[] = [];
  if (distinct.size >= 2) why.push(known.map(([name, cc]) => `${name} ${cc}`).join(', '));
  let places2 = distinct.size;
  if (ip && ip.latitude !== null && ip.longitude !== null && validCoordinates(input.shipping)) {
    const km = haversineKm(input.shipping.latitude, input.shipping.longitude, ip.latitude, ip.longitude);
    if (km > LIMITS.shippingDistanceKm) {
      why.push(`shipping location ${Math.round(km)} km from the IP's`);
      places2 = Math.max(places2, 2);
    }
  }
  if (places2 < 2) return null;
  return hit('PF10029', why.join('; '), places2 >= 3 ? '3' : '2');
}

/** PF10030: the device was used by 3 or more customer accounts in 30 days (5+ stronger), or the IP by 5 or more in 24 hours. */
export function sharedByAccounts(_input: PaymentInput, s: PaymentSignals, ctx: RuleContext): RuleHit | null {
  const v = s.velocity;
  const over = overThresholds([
    ['customer accounts of this device in 30 days', v.deviceCustomers30d, 'deviceCustomers30d'],
    ['customer accounts of this IP in 24 hours', v.ipCustomersLastDay, 'ipCustomersLastDay'],
  ], ctx);
  if (over.length === 0) return null;
  const device = v.deviceCustomers30d ?? 0;
  const grade = device >= 5 ? 'device5' : device >= threshold('deviceCustomers30d', ctx) ? 'device3' : 'ip';
  return hit('PF10030', over.join('; '), grade);
}

/**
 * PF10031: a customer without history (no earlier scoring of the customer_id in 30 days and no earlier
 * amount in 365, or no customer_id) pays an amount high against the account's own distribution (z > 2
 * over at least 20 amounts).
 */
export function highAmountNewCustomer(input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const amount = input.amount;
  const acc = s.amounts.account;
  if (amount === undefined || amount <= 0 || !acc || acc.count < LIMITS.accountMinSamples) return null;
  // The customer's amounts reach back 365 days; the velocity count 30 days (the Redis windows).
  if ((s.velocity.customerHistory ?? 0) > 0 || (s.amounts.customer?.count ?? 0) > 0) return null;
  const z = amountZ(amount, acc);
  if (!(z > LIMITS.newCustomerAccountZ)) return null;
  return hit('PF10031', `new customer; z-score ${z.toFixed(2)} against the account's ${acc.count} amounts`);
}

/** PF10032: the shipping address is a package forwarder's warehouse (`address`) or in a forwarder ZIP code (`zip`). */
export function reshipper(_input: PaymentInput, s: PaymentSignals): RuleHit | null {
  const r = s.reshipper;
  if (!r) return null;
  return hit('PF10032', r.kind === 'address' ? `shipping address of ${r.service}` : `shipping postal code of package forwarders (${r.service})`, r.kind);
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
  PF10027: cardTesting,
  PF10028: manyIdentitiesOnCard,
  PF10029: countryMismatch,
  PF10030: sharedByAccounts,
  PF10031: highAmountNewCustomer,
  PF10032: reshipper,
  PF10033: manyCardsInMinutes,
  SVC2001: customerFraudLabel,
  SVC2002: sharedFraudLabel,
};

/** Every rule, in id order (the order of `rules` in the result). */
export const PAYMENT_RULES: readonly PaymentRule[] = PAYMENT_RULE_IDS.map((id) => ({
  id,
  description: PAYMENT_RULE_DESCRIPTIONS[id],
  check: CHECKS[id],
}));
