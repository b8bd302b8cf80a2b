import type { Evidence, LabelType, LearningWrite, ModelUpdate, ModelWeight, OutcomeRecord, PaymentOutcome } from '../store/learning-ports.ts';
import type { Store } from '../store/ports.ts';

const evidenceKey = (type: LabelType, hash: string, origin: string): string => `${type}\u0000${hash}\u0000${origin}`;

/**
 * The writes of one feedback call (one item, or a whole bulk of 1000), kept in memory and committed
 * in one store transaction (LearningWriter.apply): an outcome and its effects are never split by a
 * crash, and a bulk costs one commit. Reads go through the batch first, so item 5 sees what item 1
 * wrote. One account per batch; batches of an account run one at a time (FeedbackService).
 */
export class FeedbackBatch {
  readonly writes: LearningWrite[] = [];
  /** confirmed_fraud keys (`<type>:<hash>`) to add once the batch is committed. */
  readonly blacklist = new Set<string>();
  readonly #outcomes = new Map<string, OutcomeRecord>();
  readonly #evidence = new Map<string, Evidence | null>();
  readonly #dropped = new Set<string>();
  /** Keys of #evidence per origin, so dropping an origin does not walk the whole batch. */
  readonly #byOrigin = new Map<string, Set<string>>();
  readonly #weights = new Map<string, ModelWeight>();

  constructor(
    private readonly store: Store,
    readonly accountId: string,
  ) {}

  async outcome(transactionId: string): Promise<OutcomeRecord | null> {
    return this.#outcomes.get(transactionId) ?? (await this.store.outcomes.get(this.accountId, transactionId));
  }

  putOutcome(record: OutcomeRecord): void {
    this.#outcomes.set(record.transactionId, record);
    this.writes.push({ kind: 'outcome', record });
  }

  setScoringOutcome(transactionId: string, outcome: PaymentOutcome, fraud: boolean): void {
    this.writes.push({ kind: 'scoringOutcome', accountId: this.accountId, transactionId, outcome, fraud });
  }

  async evidence(type: LabelType, hash: string, origin: string): Promise<Evidence | null> {
    const key = evidenceKey(type, hash, origin);
    if (this.#evidence.has(key)) return this.#evidence.get(key) ?? null;
    if (this.#dropped.has(origin)) return null;
    return this.store.evidence.get(this.accountId, type, hash, origin);
  }

  putEvidence(evidence: Evidence): void {
    const key = evidenceKey(evidence.type, evidence.valueHash, evidence.origin);
    this.#evidence.set(key, evidence);
    let keys = this.#byOrigin.get(evidence.origin);
    if (!keys) this.#byOrigin.set(evidence.origin, (keys = new Set()));
    keys.add(key);
    this.writes.push({ kind: 'evidence', evidence });
  }

  dropEvidenceOrigin(origin: string): void {
    this.#dropped.add(origin);
    for (const key of this.#byOrigin.get(origin) ?? []) this.#evidence.set(key, null);
    this.#byOrigin.delete(origin);
    this.writes.push({ kind: 'dropEvidenceOrigin', accountId: this.accountId, origin });
  }

  /** Coordinates of the features: this batch's own updates first, then the store. */
  async weights(features: readonly string[]): Promise<ModelWeight[]> {
    const missing = features.filter((f) => !this.#weights.has(f));
    const stored = missing.length > 0 ? await this.store.model.weights(this.accountId, missing) : [];
    const out = features.map((f) => this.#weights.get(f)).filter((w): w is ModelWeight => w !== undefined);
    return [...out, ...stored];
  }

  model(weights: readonly ModelWeight[], history: ModelUpdate): void {
    for (const w of weights) this.#weights.set(w.feature, w);
    this.writes.push({ kind: 'model', accountId: this.accountId, weights, history });
  }

  /** Transactions whose outcome this batch leaves pending (no scoring of theirs was found). */
  pendingWritten(): string[] {
    return [...this.#outcomes.values()].filter((o) => o.status === 'pending').map((o) => o.transactionId);
  }

  commit(): Promise<void> {
    return this.writes.length === 0 ? Promise.resolve() : this.store.learning.apply(this.writes);
  }
}
