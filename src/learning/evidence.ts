/**
 * Decayed label evidence (spec "Identity label": "A legit label offsets earlier fraud evidence. Evidence
 * halves every 90 days."). Pure: the caller passes `now`.
 *
 * - Each evidence row weighs 0.5^(ageDays / 90) at `now`: 1 when fresh, 0.5 at 90 days, 0.25 at 180.
 *   A row dated in the future counts as fresh (age 0); a row whose date cannot be read weighs 0.
 * - The score of one identity is Σ fraud weights − Σ legit weights, floored at 0: a legit label
 *   cancels fraud evidence of similar age, and an identity with only legit evidence scores 0, never
 *   below (legit evidence is not credit to spend on later fraud).
 * - A group of identities (the customer identities of SVC2001, the shared ones of SVC2002) scores the
 *   sum of its identities' floored scores: a legit label on one identity does not clear fraud on
 *   another identity of the same group.
 */
import type { Evidence, IdentityScore, LabelType } from '../store/learning-ports.ts';

/** Spec "Limits": label evidence half-life. */
export const EVIDENCE_HALF_LIFE_DAYS = 90;
const DAY_MS = 86_400_000;

/** 0.5^(ageDays / 90); future dates count as age 0, unreadable dates weigh 0. */
export function decayedWeight(occurredAt: string, now: Date): number {
  const at = Date.parse(occurredAt);
  const nowMs = now.getTime();
  if (!Number.isFinite(at) || !Number.isFinite(nowMs)) return 0;
  const ageDays = Math.max(0, nowMs - at) / DAY_MS;
  return Math.pow(0.5, ageDays / EVIDENCE_HALF_LIFE_DAYS);
}

/**
 * Σ fraud weights − Σ legit weights over the rows of one identity, floored at 0: the rule in plain
 * code. The stores compute the same sum in SQL (EvidencePort.scores), checked against this.
 */
export function evidenceScore(rows: readonly Evidence[], now: Date): number {
  let sum = 0;
  for (const row of rows) {
    const w = decayedWeight(row.occurredAt, now);
    sum += row.label === 'fraud' ? w : -w;
  }
  return Math.max(0, sum);
}

/**
 * The evidence of a set of identities (one SVC group, or one identity type) from the per-identity
 * scores the store sums (EvidencePort.scores): each identity's score floored at 0, then added up.
 * Identities listed twice count once; identities without a score count 0.
 */
export function identitiesEvidence(scores: readonly IdentityScore[], identities: ReadonlyArray<{ type: LabelType; valueHash: string }>): number {
  const scoreOf = new Map(scores.map((s) => [`${s.type}\u0000${s.valueHash}`, s.score]));
  const seen = new Set<string>();
  let total = 0;
  for (const { type, valueHash } of identities) {
    const key = `${type}\u0000${valueHash}`;
    if (seen.has(key)) continue;
    seen.add(key);
    total += Math.max(0, scoreOf.get(key) ?? 0);
  }
  return total;
}
