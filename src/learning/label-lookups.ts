import type { LabelType } from '../store/learning-ports.ts';
import type { Store } from '../store/ports.ts';
import { EVIDENCE_HALF_LIFE_DAYS } from './evidence.ts';
import type { IdentityHasher } from './identity-hash.ts';
import { normaliseIdentity } from './identity-values.ts';

/** Decayed evidence from which the IP, email and phone checks treat an identity as labelled fraud. */
export const FRAUD_LABEL_THRESHOLD = 0.5;

/**
 * The label seams of the email, phone and IP checks (spec "Identity label": email and phone checks
 * mark a fraud-labelled identity invalid with a reason, IP checks rate it high risk). An identity is
 * `fraud` while its decayed evidence (fraud minus legit, half-life 90 days) is at least 0.5.
 */
export class LabelLookups {
  constructor(
    private readonly store: Store,
    private readonly hasher: IdentityHasher,
  ) {}

  /** The keyed hash of a value of a type, or null when it is not a value of that type. */
  hashOf(type: LabelType, value: string): string | null {
    const normal = normaliseIdentity(type, value);
    return normal === null ? null : this.hasher.hash(type, normal);
  }

  async label(accountId: string, type: LabelType, value: string, now: Date): Promise<'fraud' | null> {
    return (await this.fraudValues(accountId, type, [value], now)).size > 0 ? 'fraud' : null;
  }

  /** Which of the values (as given) are labelled fraud; one store read for all of them. */
  async fraudValues(accountId: string, type: LabelType, values: readonly string[], now: Date): Promise<Set<string>> {
    const byHash = new Map<string, string[]>();
    for (const v of values) {
      const hash = this.hashOf(type, v);
      if (hash !== null) byHash.set(hash, [...(byHash.get(hash) ?? []), v]);
    }
    const out = new Set<string>();
    if (byHash.size === 0) return out;
    const scores = await this.store.evidence.scores(accountId, [...byHash.keys()].map((valueHash) => ({ type, valueHash })), now.toISOString(), EVIDENCE_HALF_LIFE_DAYS);
    for (const { valueHash, score } of scores) {
      if (score >= FRAUD_LABEL_THRESHOLD) for (const v of byHash.get(valueHash) ?? []) out.add(v);
    }
    return out;
  }
}
