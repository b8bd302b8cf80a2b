import type { IdentityScore, LabelType } from '../store/learning-ports.ts';
import type { Store } from '../store/ports.ts';
import { EVIDENCE_HALF_LIFE_DAYS } from './evidence.ts';
import type { IdentityHasher } from './identity-hash.ts';
import { normaliseIdentity } from './identity-values.ts';

/** Decayed evidence from which the IP, email and phone checks treat an identity as labelled fraud. */
export const FRAUD_LABEL_THRESHOLD = 0.5;

export interface LabelLookupOptions {
  /**
   * How long the account's set of labelled types is trusted (default 1 s, POLICY_REFRESH_MS): labels
   * written through this process count at once; through another instance, within this interval.
   */
  presenceTtlMs?: number;
  /** Milliseconds clock for that interval (tests). */
  clock?: () => number;
}

interface Presence {
  types: ReadonlySet<LabelType> | Promise<ReadonlySet<LabelType>>;
  expires: number;
}

/**
 * The label seams of the email, phone and IP checks (spec "Identity label": email and phone checks
 * mark a fraud-labelled identity invalid with a reason, IP checks rate it high risk). An identity is
 * `fraud` while its decayed evidence (fraud minus legit, half-life 90 days) is at least 0.5.
 */
export class LabelLookups {
  /**
   * Per account, the identity types with any evidence. Most calls are about an identity type the
   * account never labelled (no feedback, or feedback on other types): they then cost no keyed hash
   * and no store read.
   */
  readonly #presence = new Map<string, Presence>();
  readonly #ttlMs: number;
  readonly #clock: () => number;

  constructor(
    private readonly store: Store,
    private readonly hasher: IdentityHasher,
    opts: LabelLookupOptions = {},
  ) {
    this.#ttlMs = opts.presenceTtlMs ?? 1000;
    this.#clock = opts.clock ?? Date.now;
  }

  /** The keyed hash of a value of a type, or null when it is not a value of that type. */
  hashOf(type: LabelType, value: string): string | null {
    const normal = normaliseIdentity(type, value);
    return normal === null ? null : this.hasher.hash(type, normal);
  }

  /** Called once evidence of the account was written here: the next lookup reads the store. */
  forget(accountId: string): void {
    this.#presence.delete(accountId);
  }

  async label(accountId: string, type: LabelType, value: string, now: Date): Promise<'fraud' | null> {
    return (await this.fraudValues(accountId, type, [value], now)).size > 0 ? 'fraud' : null;
  }

  /** Which of the values (as given) are labelled fraud; one store read for all of them, none when the type has no labels. */
  async fraudValues(accountId: string, type: LabelType, values: readonly string[], now: Date): Promise<Set<string>> {
    const out = new Set<string>();
    if (values.length === 0 || !(await this.#labelledTypes(accountId)).has(type)) return out;
    const byHash = new Map<string, string[]>();
    for (const v of values) {
      const hash = this.hashOf(type, v);
      if (hash !== null) byHash.set(hash, [...(byHash.get(hash) ?? []), v]);
    }
    if (byHash.size === 0) return out;
    const scores = await this.store.evidence.scores(accountId, [...byHash.keys()].map((valueHash) => ({ type, valueHash })), now.toISOString(), EVIDENCE_HALF_LIFE_DAYS);
    for (const { valueHash, score } of scores) {
      if (score >= FRAUD_LABEL_THRESHOLD) for (const v of byHash.get(valueHash) ?? []) out.add(v);
    }
    return out;
  }

  /**
   * The decayed evidence of identities already hashed (payment scoring): only those of types the
   * account has labels of are read, and nothing when there are none.
   */
  async scores(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>, now: Date): Promise<IdentityScore[]> {
    if (identities.length === 0) return [];
    const labelled = await this.#labelledTypes(accountId);
    const asked = identities.filter((i) => labelled.has(i.type));
    return asked.length === 0 ? [] : this.store.evidence.scores(accountId, asked, now.toISOString(), EVIDENCE_HALF_LIFE_DAYS);
  }

  #labelledTypes(accountId: string): ReadonlySet<LabelType> | Promise<ReadonlySet<LabelType>> {
    const now = this.#clock();
    const cached = this.#presence.get(accountId);
    if (cached && cached.expires > now) return cached.types;
    // Concurrent calls share one read; a forget() while it runs drops it (the entry is no longer this one).
    const entry: Presence = {
      expires: now + this.#ttlMs,
      types: this.store.evidence.labelledTypes(accountId).then(
        (types) => {
          const set = new Set(types);
          if (this.#presence.get(accountId) === entry) entry.types = set;
          return set;
        },
        (err: unknown) => {
          if (this.#presence.get(accountId) === entry) this.#presence.delete(accountId);
          throw err;
        },
      ),
    };
    this.#presence.set(accountId, entry);
    return entry.types;
  }
}
