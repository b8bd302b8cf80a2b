/**
 * The documented knowledge of the payment rules, in log-odds (docs/payment.md "How the score is made").
 *
 * The score is a logistic model: score = 100 × sigmoid(BASE_LOGIT + Σ prior(fired rule) + Σ learned).
 * Before an account has labels, `learned` is 0 and the score is this table's judgement; each account's
 * online model (src/learning/ftrl.ts) then learns corrections on top of it, feature by feature, with
 * nothing capping how far they move the score. A fired rule enters the model as the feature
 * `rule:<id>` or, for a graded rule, `rule:<id>:<grade>`; its prior is read here, both when scoring and
 * when training (ModelService), so the two always agree.
 *
 * Scale: a log-odds of +0.7 doubles the odds of fraud, +2.3 multiplies them by ten. From the base
 * rate (1.8 %): +2.3 gives ~15, +4 gives 50, +5 gives ~73. One weak signal stays low, two or three
 * medium ones reach review (30), and the textbook patterns (card testing, a card across many customers,
 * a purchase within a minute of sign-up, Tor with a throw-away email) reach the fraud_payment event
 * (50) or the high band (60) alone or together. Signals compound: log-odds add, so two strong signals
 * together are more certain than either, yet the score never reaches 100.
 */

/** The logit is clamped to ±MAX_LOGIT: a probability stays strictly inside (0, 1) in float64. */
export const MAX_LOGIT = 35;

/** 1 / (1 + e^−logit), the logit clamped to ±MAX_LOGIT (the score and the account's model share it). */
export function sigmoid(logit: number): number {
  const x = Math.max(-MAX_LOGIT, Math.min(MAX_LOGIT, logit));
  return 1 / (1 + Math.exp(-x));
}

/** The base rate an account without labels starts from: logit(0.018) ≈ −4.0 (a card-not-present fraud rate). */
export const BASE_LOGIT = -4;

/**
 * Log-odds of each rule (`ID`) and each grade of a graded rule (`ID:grade`). Rules without an entry
 * (PF10015, whose effect is the learned model's own contribution) add nothing.
 */
export const PRIOR_LOG_ODDS: Readonly<Record<string, number>> = {
  // Velocity from the same IP or device; twice the threshold is a script, not a household.
  PF10001: 1.5,
  'PF10001:x2': 2.5,
  // Velocity of the customer or card.
  PF10002: 1.5,
  'PF10002:x2': 2.5,
  // Anonymisers: the strongest kind present decides.
  PF10003: 1.5,
  'PF10003:tor': 3,
  'PF10003:proxy': 2,
  'PF10003:bot': 2,
  'PF10003:hosting': 1.5,
  'PF10003:relay': 0.4,
  // Email: invalid, disposable, spam-like.
  PF10004: 1.5,
  'PF10004:invalid': 2.5,
  'PF10004:disposable': 2.2,
  'PF10004:spam': 1.5,
  // Phone: invalid, disposable, VoIP or premium rate.
  PF10005: 1,
  'PF10005:invalid': 1.2,
  'PF10005:disposable': 2,
  'PF10005:type': 1,
  PF10006: 0.7,
  PF10007: 2,
  PF10008: 1.2,
  PF10009: 0.8,
  PF10010: 1,
  PF10011: 1.2,
  // Distinct customer accounts on the card (30 days, or 3 within the hour).
  PF10012: 2.5,
  'PF10012:3': 2.5,
  'PF10012:5': 3.5,
  'PF10012:10': 4.5,
  PF10013: 2,
  PF10014: 2.5,
  PF10016: 1.3,
  PF10017: 1,
  PF10018: 3.5,
  PF10019: 0.6,
  // Account age at the purchase: a purchase within a minute of sign-up is a script or a bust-out.
  PF10020: 1.5,
  'PF10020:lt1m': 5,
  'PF10020:lt10m': 3.5,
  'PF10020:lt1h': 2.5,
  'PF10020:lt1d': 1.5,
  'PF10020:lt3d': 0.8,
  PF10021: 2,
  // The account's own verdicts.
  PF10022: 4,
  PF10023: 4.5,
  PF10024: 4.5,
  PF10025: 4.5,
  PF10026: 5,
  // Card testing: earlier attempts with the same card (or device) within ten minutes.
  PF10027: 2.5,
  'PF10027:1': 1.2,
  'PF10027:2': 2.5,
  'PF10027:4': 3.5,
  'PF10027:8': 4.5,
  // Many emails or IP addresses on one card within a day.
  PF10028: 1.5,
  'PF10028:3': 1.5,
  'PF10028:5': 2.5,
  // Countries of the card, the IP, the shipping address and the phone disagree.
  PF10029: 1.3,
  'PF10029:2': 1.3,
  'PF10029:3': 3.3,
  // A device or an IP shared by many customer accounts (fraud rings).
  PF10030: 2,
  'PF10030:ip': 1.2,
  'PF10030:device3': 2,
  'PF10030:device5': 3,
  // A high amount from a customer without history.
  PF10031: 1.5,
  // Shipping to a package forwarder.
  PF10032: 1.5,
  'PF10032:address': 2.3,
  'PF10032:zip': 0.8,
  // Many different cards from one BIN (far above its usual rate), one device or one IP within minutes.
  PF10033: 2.5,
  'PF10033:3': 2.5,
  'PF10033:5': 3.5,
  'PF10033:8': 4.5,
  SVC2001: 3.5,
  SVC2002: 3,
};

/** Digital goods are delivered at once and resold easily: these rules weigh DIGITAL_FACTOR times more. */
export const DIGITAL_FACTOR = 1.5;
export const DIGITAL_BOOSTED: ReadonlySet<string> = new Set(['PF10003', 'PF10013', 'PF10014', 'PF10017', 'PF10029']);

/** The key of a fired rule in PRIOR_LOG_ODDS: `<id>` or `<id>:<grade>`. */
export function ruleKey(id: string, grade: string | undefined): string {
  return grade === undefined ? id : `${id}:${grade}`;
}

/** The model feature of a fired rule: `rule:<id>` or `rule:<id>:<grade>`. */
export function ruleFeature(id: string, grade: string | undefined): string {
  return `rule:${ruleKey(id, grade)}`;
}

/** The prior log-odds of a model feature: a rule's documented weight, 0 for every other feature. */
export function featurePrior(feature: string, digital: boolean): number {
  if (!feature.startsWith('rule:')) return 0;
  const key = feature.slice(5);
  const w = PRIOR_LOG_ODDS[key];
  if (w === undefined) return 0;
  const colon = key.indexOf(':');
  const id = colon === -1 ? key : key.slice(0, colon);
  return digital && DIGITAL_BOOSTED.has(id) ? w * DIGITAL_FACTOR : w;
}

/** The feature that marks a payment for digital goods (features.ts emits it). */
export const DIGITAL_FEATURE = 'digital:1';

/** The prior logit of a whole feature list: the base rate plus every rule feature's prior. */
export function priorLogit(features: readonly string[]): number {
  const digital = features.includes(DIGITAL_FEATURE);
  let sum = BASE_LOGIT;
  for (const f of features) sum += featurePrior(f, digital);
  return sum;
}
