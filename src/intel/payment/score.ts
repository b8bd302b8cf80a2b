/**
 * The payment score (docs/payment.md "How the score is made"): every rule of PAYMENT_RULES runs,
 * the fired ones add their points, the account's model adds MODEL_POINTS × probability, and a sum
 * above 100 is scaled down to 100. The contributions explain the score exactly: rounded to cents,
 * they add up to the score to the cent.
 */
import { countryRiskLists, type CountryRiskLists } from './countries.ts';
import { PAYMENT_RULES, type RuleContext } from './rules.ts';
import type { PaymentContribution, PaymentInput, PaymentScore, PaymentSignals, RuleHit } from './types.ts';

/** Points of the model at probability 1 (it adds MODEL_POINTS × probability). */
export const MODEL_POINTS = 30;
/** The highest score; a larger sum of points is scaled down to it. */
export const MAX_SCORE = 100;
/** `rulesChecked`: every rule is evaluated on every payment (26 PF rules + SVC2001 + SVC2002). */
export const RULES_CHECKED = PAYMENT_RULES.length;

export interface ScoreOptions {
  /** PF10009/PF10010 lists; the defaults of countries.ts when absent. */
  countries?: CountryRiskLists;
}

const DEFAULT_COUNTRIES = countryRiskLists();

/** Runs every rule; the hits in id order. */
export function runRules(input: PaymentInput, signals: PaymentSignals, ctx: RuleContext): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of PAYMENT_RULES) {
    const h = rule.check(input, signals, ctx);
    if (h !== null) hits.push(h);
  }
  return hits;
}

function clampProbability(p: number): number {
  return Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0;
}

/**
 * Rounds contributions to cents so that they add up exactly to `totalCents`: each is rounded, and
 * the remainder goes to the largest (the first of equals). Should the remainder be larger than the
 * largest can give (a theoretical case), the next largest give the rest.
 */
export function apportionCents(values: readonly number[], totalCents: number): number[] {
  const cents = values.map((v) => Math.round(v * 100));
  let diff = totalCents - cents.reduce((a, b) => a + b, 0);
  if (diff === 0 || cents.length === 0) return cents;
  const order = cents.map((_, i) => i).sort((a, b) => (values[b]! - values[a]!) || a - b);
  for (const i of order) {
    const next = Math.max(0, cents[i]! + diff);
    diff -= next - cents[i]!;
    cents[i] = next;
    if (diff === 0) break;
  }
  return cents;
}

/** Scores one payment (see the file comment). Pure: `signals.now` is the only clock. */
export function scorePayment(input: PaymentInput, signals: PaymentSignals, ctx?: ScoreOptions): PaymentScore {
  const ruleCtx: RuleContext = { countries: ctx?.countries ?? DEFAULT_COUNTRIES, digital: input.isDigitalProducts };
  const hits = runRules(input, signals, ruleCtx);
  const probability = clampProbability(signals.model.probability);

  const parts: Array<Omit<PaymentContribution, 'points'> & { raw: number }> = hits.map((h) => ({
    source: 'rule' as const,
    id: h.id,
    raw: h.points,
    ...(h.detail !== undefined ? { detail: h.detail } : {}),
  }));
  parts.push({ source: 'model', id: 'model', raw: MODEL_POINTS * probability, detail: `fraud probability ${probability.toFixed(3)} × ${MODEL_POINTS}` });

  const sum = parts.reduce((a, p) => a + p.raw, 0);
  const scale = sum > MAX_SCORE ? MAX_SCORE / sum : 1;
  const scaled = parts.map((p) => p.raw * scale);
  const scoreCents = Math.min(MAX_SCORE * 100, Math.max(0, Math.round(scaled.reduce((a, b) => a + b, 0) * 100)));
  const cents = apportionCents(scaled, scoreCents);

  // Object.assign on the fresh rest object, not `{ ...p, points }`: on Node 20 a spread followed by another
  // property gives every object a hidden class of its own (docs/benchmarks.md, 2026-11-24).
  const contributions: PaymentContribution[] = parts.map(({ raw: _raw, ...p }, i) => Object.assign(p, { points: cents[i]! / 100 }));
  return {
    score: scoreCents / 100,
    rules: hits.map((h) => ({ id: h.id, description: h.description })),
    rulesChecked: RULES_CHECKED,
    rulesDetected: hits.length,
    contributions,
  };
}
