/**
 * The payment score (docs/payment.md "How the score is made"): a calibrated probability.
 *
 *   logit = BASE_LOGIT + Σ_fired rules (prior(rule) + learned(rule)) + Σ_other features learned(feature)
 *   score = 100 × sigmoid(logit), rounded to cents
 *
 * prior.ts holds the rules' documented log-odds; `learned` is the account's online model (FTRL,
 * src/learning/ftrl.ts), whose weights are corrections on top of the priors and can move the score
 * anywhere in 0-100. The explanation lists the base rate, every fired rule (its prior plus what the
 * model learned about it) and the model's other features, each with its log-odds (they add up to the
 * logit) and its points (they add up exactly to the score, to the cent; see `pointsOf`).
 */
import { countryRiskLists, type CountryRiskLists } from './countries.ts';
import { BASE_LOGIT, featurePrior, MAX_LOGIT, ruleFeature, sigmoid } from './prior.ts';
import { modelFlagHit, PAYMENT_RULES, type RuleContext } from './rules.ts';
import type { PaymentContribution, PaymentInput, PaymentScore, PaymentSignals, RuleHit } from './types.ts';

/** The highest score. */
export const MAX_SCORE = 100;
/** `rulesChecked`: every rule is evaluated on every payment (32 PF rules + SVC2001 + SVC2002). */
export const RULES_CHECKED = PAYMENT_RULES.length;
/** How many learned features the model's contribution names in its detail. */
const DETAIL_FEATURES = 4;

export interface ScoreOptions {
  /** PF10009/PF10010 lists; the defaults of countries.ts when absent. */
  countries?: CountryRiskLists;
}

const DEFAULT_COUNTRIES = countryRiskLists();
/** What an account whose model learned nothing (and test mode) contributes. */
export const NO_LEARNING: ReadonlyMap<string, number> = new Map();

export { sigmoid };

/** The rules' context of a payment: the country lists (the defaults of countries.ts unless given) and digital goods. */
export function ruleContext(input: PaymentInput, ctx?: ScoreOptions): RuleContext {
  return { countries: ctx?.countries ?? DEFAULT_COUNTRIES, digital: input.isDigitalProducts };
}

/** Runs every rule; the hits in id order (PF10015, which reads the score, is decided by `combine`). */
export function runRules(input: PaymentInput, signals: PaymentSignals, ctx: RuleContext): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of PAYMENT_RULES) {
    const h = rule.check(input, signals, ctx);
    if (h !== null) hits.push(h);
  }
  return hits;
}

/**
 * Rounds signed contributions to cents so that they add up exactly to `totalCents`: each is rounded,
 * and the remainder goes to the contributions of largest magnitude, one cent at a time, in the
 * direction that brings each closer to its unrounded value first.
 */
export function apportionCents(values: readonly number[], totalCents: number): number[] {
  const cents = values.map((v) => Math.round(v * 100));
  let diff = totalCents - cents.reduce((a, b) => a + b, 0);
  if (diff === 0 || cents.length === 0) return cents;
  const step = Math.sign(diff);
  // Who gains (or loses) a cent: the largest magnitudes first, then the ones rounded furthest the other way.
  const order = cents.map((_, i) => i).sort((a, b) => (Math.abs(values[b]!) - Math.abs(values[a]!)) || a - b);
  for (let k = 0; diff !== 0; k++) {
    const i = order[k % order.length]!;
    cents[i]! += step;
    diff -= step;
  }
  return cents;
}

/**
 * Points of each contribution. The base rate's points are 100 × sigmoid(BASE_LOGIT); the rest of the
 * score (score − base points) is shared among the other contributions in proportion to their log-odds
 * (the secant of the sigmoid between the base and the score, at most 25 points a unit of log-odds), so
 * a contribution that lowers the odds has negative points. Rounded to cents by apportionCents.
 */
function pointsOf(logOdds: readonly number[], baseIndex: number, logit: number, scoreCents: number): number[] {
  const base = MAX_SCORE * sigmoid(BASE_LOGIT);
  const rest = logit - BASE_LOGIT;
  const slope = Math.abs(rest) > 1e-9 ? (scoreCents / 100 - base) / rest : MAX_SCORE * sigmoid(BASE_LOGIT) * (1 - sigmoid(BASE_LOGIT));
  const raw = logOdds.map((l, i) => (i === baseIndex ? base : l * slope));
  return apportionCents(raw, scoreCents).map((c) => c / 100);
}

/** The learned features that moved the logit most, as "feature +w" phrases. */
function learnedDetail(entries: ReadonlyArray<[string, number]>): string {
  const top = [...entries].filter(([, w]) => w !== 0).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, DETAIL_FEATURES);
  if (top.length === 0) return "the account's model has learned nothing that applies here yet";
  return `learned from the account's outcomes: ${top.map(([f, w]) => `${f} ${w >= 0 ? '+' : ''}${w.toFixed(2)}`).join(', ')}`;
}

/**
 * Combines fired rules and the account's learned weights into the score (see the file comment).
 * `learned` maps model features to learned log-odds; a rule's learned weight is that of its feature.
 */
export function combine(hits: readonly RuleHit[], learned: ReadonlyMap<string, number>, digital: boolean): PaymentScore {
  const ruleFeatures = new Set<string>();
  const parts: Array<Omit<PaymentContribution, 'points'>> = [
    { source: 'base', id: 'base', logOdds: BASE_LOGIT, detail: `base rate ${(100 * sigmoid(BASE_LOGIT)).toFixed(2)}% before any signal` },
  ];
  let learnedTotal = 0;
  for (const h of hits) {
    const feature = ruleFeature(h.id, h.grade);
    ruleFeatures.add(feature);
    const prior = featurePrior(feature, digital);
    const learnt = learned.get(feature) ?? 0;
    learnedTotal += learnt;
    const why = learnt === 0 ? '' : ` (prior ${prior.toFixed(2)}, learned ${learnt >= 0 ? '+' : ''}${learnt.toFixed(2)})`;
    parts.push({ source: 'rule', id: h.id, logOdds: prior + learnt, ...(h.detail !== undefined ? { detail: h.detail + why } : why ? { detail: why.trim() } : {}) });
  }
  const other: Array<[string, number]> = [];
  let model = 0;
  for (const [f, w] of learned) {
    if (ruleFeatures.has(f) || !Number.isFinite(w)) continue;
    model += w;
    other.push([f, w]);
  }
  learnedTotal += model;
  parts.push({ source: 'model', id: 'model', logOdds: model, detail: learnedDetail(other) });

  const logit = Math.max(-MAX_LOGIT, Math.min(MAX_LOGIT, parts.reduce((a, p) => a + p.logOdds, 0)));
  const scoreCents = Math.round(MAX_SCORE * 100 * sigmoid(logit));
  const flag = modelFlagHit(learnedTotal, scoreCents / 100);
  const fired = flag === null ? [...hits] : [...hits, flag].sort((a, b) => ruleOrder(a.id) - ruleOrder(b.id));
  const points = pointsOf(parts.map((p) => p.logOdds), 0, logit, scoreCents);
  // Object.assign on the part, not `{ ...p, points }`: on Node 20 a spread followed by another property
  // gives every object a hidden class of its own (docs/benchmarks.md, 2026-11-24).
  const contributions: PaymentContribution[] = parts.map((p, i) => Object.assign(p, { points: points[i]!, logOdds: round4(p.logOdds) }));
  return {
    score: scoreCents / 100,
    rules: fired.map((h) => ({ id: h.id, description: h.description })),
    rulesChecked: RULES_CHECKED,
    rulesDetected: fired.length,
    contributions,
  };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

const ORDER = new Map(PAYMENT_RULES.map((r, i) => [r.id as string, i]));
function ruleOrder(id: string): number {
  return ORDER.get(id) ?? ORDER.size;
}

/** Scores one payment with the rules and `signals.model.learned` (see the file comment). Pure: `signals.now` is the only clock. */
export function scorePayment(input: PaymentInput, signals: PaymentSignals, ctx?: ScoreOptions): PaymentScore {
  return combine(runRules(input, signals, ruleContext(input, ctx)), signals.model.learned ?? NO_LEARNING, input.isDigitalProducts);
}
