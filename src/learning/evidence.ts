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
import type { Evidence, LabelType } from '../store/learning-ports.ts';

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

/** Σ fraud weights − Σ legit weights over the rows, floored at 0. Meant for the rows of one identity. */
export function evidenceScore(rows: readonly Evidence[], now: Date): number {
  let sum = 0;
  for (const row of rows) {
    const w = decayedWeight(row.occurredAt, now);
    sum += row.label === 'fraud' ? w : -w;
  }
  return Math.max(0, sum);
}

function identityKey(type: LabelType, hash: string): string {
  return `${type}\u0000${hash}`;
}

/**
 * Scores per group: for each group name, the sum over the identities whose type is in the group of that
 * identity's evidenceScore. Rows of types no group names are ignored; every group is present in the
 * result (0 when it has no evidence).
 */
export function groupEvidence<G extends string>(rows: readonly Evidence[], groups: Readonly<Record<G, readonly LabelType[]>>, now: Date): Record<G, number> {
  const byIdentity = new Map<string, Evidence[]>();
  for (const row of rows) {
    const key = identityKey(row.type, row.valueHash);
    const list = byIdentity.get(key);
    if (list) list.push(row);
    else byIdentity.set(key, [row]);
  }
  const scoreOf = new Map<string, number>();
  for (const [key, list] of byIdentity) scoreOf.set(key, evidenceScore(list, now));

  const result = {} as Record<G, number>;
  for (const name of Object.keys(groups) as G[]) {
    const types = new Set<LabelType>(groups[name]);
    let total = 0;
    for (const [key, list] of byIdentity) if (types.has(list[0]!.type)) total += scoreOf.get(key) ?? 0;
    result[name] = total;
  }
  return result;
}

/**
 * The current label of one identity: the label of its own `label` row (feedback/event by type and value)
 * when there is one; otherwise the label of its latest evidence row by occurredAt (ties: the later
 * updatedAt, then the greater origin, so the answer never depends on row order); null when none.
 */
export function identityLabelOf(rows: readonly Evidence[], type: LabelType, hash: string): 'fraud' | 'legit' | null {
  let latest: Evidence | null = null;
  for (const row of rows) {
    if (row.type !== type || row.valueHash !== hash) continue;
    if (row.origin === 'label') return row.label;
    if (latest === null || compareRows(row, latest) > 0) latest = row;
  }
  return latest?.label ?? null;
}

function compareRows(a: Evidence, b: Evidence): number {
  const ta = Date.parse(a.occurredAt);
  const tb = Date.parse(b.occurredAt);
  const ka = Number.isFinite(ta) ? ta : -Infinity;
  const kb = Number.isFinite(tb) ? tb : -Infinity;
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? -1 : 1;
  return a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0;
}
