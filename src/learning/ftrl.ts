/**
 * FTRL-proximal logistic regression (McMahan et al., "Ad Click Prediction: a View from the Trenches",
 * KDD 2013, algorithm 1), the per-account model of payment learning. Pure: no clock, no I/O; the state
 * is a map feature → {z, n} the caller loads from and writes back to the store (ModelPort).
 *
 * Features are binary (present = 1, absent = 0), so a prediction is
 *
 *   p = sigmoid(clamp(prior.logit + Σ_{i ∈ features} w_i, ±35))
 *
 * with each coordinate's weight given lazily by its (z, n):
 *
 *   w_i = 0                                                   when |z_i| ≤ l1
 *   w_i = −(z_i − sign(z_i)·l1) / ((beta + √n_i)/alpha + l2)  otherwise
 *
 * and one example (features, label y) updates each present coordinate with g = p − y:
 *
 *   σ = (√(n + g²) − √n) / alpha;  z ← z + g − σ·w;  n ← n + g²
 *
 * The prior. An untrained account must not score every payment as 50 % fraud, so the sum starts from a
 * prior logit given per example: with an empty state (every z = n = 0, so every w = 0) the model predicts
 * exactly sigmoid(prior.logit). The payment model passes the rules' priors of the transaction
 * (priorLogit in src/intel/payment/prior.ts, via ModelService); FTRL_PRIOR (FTRL_BASE_RATE = 2 %) is only
 * the default of a caller that gives none. The learnable intercept is the ordinary feature `bias` (always emitted by features.ts): it starts
 * at weight 0 on top of the prior and moves the account's base rate as outcomes arrive. Because the prior
 * is a constant offset, not a stored weight, changing it never needs a migration of stored coordinates.
 */
import { MAX_LOGIT, sigmoid } from '../intel/payment/prior.ts';
import type { ModelWeight } from '../store/learning-ports.ts';

export interface FtrlParams {
  /** Per-coordinate learning-rate scale. */
  alpha: number;
  /** Learning-rate smoothing: the first steps of a coordinate are alpha / beta. */
  beta: number;
  /** L1 strength: a coordinate stays exactly 0 until its accumulated gradient |z| exceeds it. */
  l1: number;
  /** L2 strength: shrinks every non-zero weight. */
  l2: number;
}

/**
 * Defaults, chosen for a small per-account model fed by rare labels (tens to thousands of outcomes, not
 * billions of clicks as in the paper):
 * - alpha 0.5: larger than the paper's 0.1 so a few dozen outcomes can move a weight noticeably;
 *   the per-coordinate rate alpha / (beta + √n) still decays as a feature gathers evidence.
 * - beta 1: the paper's value; the first step of a coordinate is at most alpha.
 * - l1 1: one fraud outcome (gradient ≈ −0.98 at the 2 % prior) is not enough to give a feature any
 *   weight; it takes about two fraud outcomes sharing the feature, or ~50 legitimate ones at the prior
 *   rate. Features seen once stay exactly 0 (sparse model, no memorising of single transactions;
 *   single labelled identities are handled by the evidence rules SVC2001/SVC2002 instead).
 * - l2 1: keeps weights modest (after two shared fraud outcomes a weight is about 0.17).
 */
export const FTRL_DEFAULTS: Readonly<FtrlParams> = Object.freeze({ alpha: 0.5, beta: 1, l1: 1, l2: 1 });

/** The fixed prior of the model: a logit added to every sum. */
export interface FtrlPrior {
  logit: number;
}

/** Fraud rate an untrained model predicts. */
export const FTRL_BASE_RATE = 0.02;
/** logit(0.02) = ln(0.02 / 0.98) ≈ −3.892. */
export const FTRL_PRIOR: Readonly<FtrlPrior> = Object.freeze({ logit: Math.log(FTRL_BASE_RATE / (1 - FTRL_BASE_RATE)) });

/** The logit is clamped to ±MAX_LOGIT before the sigmoid; both are the payment score's own (prior.ts). */
export { MAX_LOGIT, sigmoid };

/** The learnable intercept, present in every example (see features.ts). */
export const BIAS_FEATURE = 'bias';

/** One coordinate's state. Absent coordinates are {z: 0, n: 0}. */
export interface FtrlCoordinate {
  z: number;
  n: number;
}

export type FtrlState = ReadonlyMap<string, FtrlCoordinate>;

const ZERO: FtrlCoordinate = Object.freeze({ z: 0, n: 0 });

/** The weight of one coordinate (0 inside the L1 band). */
export function weightOf(w: FtrlCoordinate, params: FtrlParams = FTRL_DEFAULTS): number {
  const { z, n } = w;
  if (!Number.isFinite(z) || !Number.isFinite(n) || n < 0) return 0;
  if (Math.abs(z) <= params.l1) return 0;
  return -(z - Math.sign(z) * params.l1) / ((params.beta + Math.sqrt(n)) / params.alpha + params.l2);
}

/** Each feature once, in sorted order (features are binary; duplicates would count twice). */
function distinct(features: readonly string[]): string[] {
  return [...new Set(features)].sort();
}

function logitOf(features: readonly string[], state: FtrlState, params: FtrlParams, prior: FtrlPrior): number {
  let sum = prior.logit;
  for (const f of features) sum += weightOf(state.get(f) ?? ZERO, params);
  return Math.max(-MAX_LOGIT, Math.min(MAX_LOGIT, sum));
}

/** The fraud probability of an example. With an empty state it is exactly sigmoid(prior.logit). */
export function predict(features: readonly string[], state: FtrlState, params: FtrlParams = FTRL_DEFAULTS, prior: FtrlPrior = FTRL_PRIOR): number {
  return sigmoid(logitOf(distinct(features), state, params, prior));
}

export interface FtrlUpdate {
  /** The prediction before the update. */
  before: number;
  /** The new z and n of every feature of the example, sorted by feature. */
  changed: ModelWeight[];
}

/**
 * One online step on an example. Pure: `state` is not modified; write `changed` back (applyWeights, or
 * ModelPort.update) to make the step take effect.
 */
export function update(
  features: readonly string[],
  state: FtrlState,
  label: 0 | 1,
  params: FtrlParams = FTRL_DEFAULTS,
  prior: FtrlPrior = FTRL_PRIOR,
): FtrlUpdate {
  const fs = distinct(features);
  const before = sigmoid(logitOf(fs, state, params, prior));
  const g = before - label;
  const changed: ModelWeight[] = [];
  for (const feature of fs) {
    const cur = state.get(feature) ?? ZERO;
    const z0 = Number.isFinite(cur.z) ? cur.z : 0;
    const n0 = Number.isFinite(cur.n) && cur.n > 0 ? cur.n : 0;
    const w = weightOf({ z: z0, n: n0 }, params);
    const n = n0 + g * g;
    const sigma = (Math.sqrt(n) - Math.sqrt(n0)) / params.alpha;
    changed.push({ feature, z: z0 + g - sigma * w, n });
  }
  return { before, changed };
}

/** Writes coordinates into a mutable state (for replays, training loops and tests). */
export function applyWeights(state: Map<string, FtrlCoordinate>, weights: readonly ModelWeight[]): void {
  for (const { feature, z, n } of weights) state.set(feature, { z, n });
}

/** A state map from stored coordinates. */
export function stateOf(weights: readonly ModelWeight[]): Map<string, FtrlCoordinate> {
  const state = new Map<string, FtrlCoordinate>();
  applyWeights(state, weights);
  return state;
}
