import { priorLogit } from '../intel/payment/prior.ts';
import type { ModelPort } from '../store/learning-ports.ts';
import type { FeedbackBatch } from './feedback-batch.ts';
import { BIAS_FEATURE, FTRL_DEFAULTS, predict, stateOf, update, weightOf, type FtrlParams } from './ftrl.ts';

/**
 * The per-account fraud model: FTRL-proximal logistic regression over the features of each
 * transaction (features.ts), learning corrections on top of the rules' documented priors
 * (src/intel/payment/prior.ts): a transaction's logit is priorLogit(features) + Σ learned weights,
 * the same when scoring (score.ts) and when training here, so what the model learns is exactly what
 * the priors got wrong for this account. Weights live in the store; training steps are written with
 * the feedback batch that caused them (one transaction), and batches of an account run one at a time
 * (FeedbackService), so no step reads weights another step is about to replace. Each step is kept in
 * the history.
 */
export class ModelService {
  /** Accounts whose model has learned something (a `bias` weight), and when a "not yet" was last read. */
  readonly #trained = new Map<string, { yes: boolean; at: number }>();

  constructor(
    private readonly port: ModelPort,
    private readonly params: FtrlParams = FTRL_DEFAULTS,
    /** How long a "this account's model has learned nothing" answer is trusted (POLICY_REFRESH_MS). */
    private readonly untrainedTtlMs = 1000,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Whether the account's model has any weight. Every training step writes the `bias` feature, so an
   * account without it has learned nothing: its scorings skip the weight read (most accounts that send
   * no outcomes). Training here counts at once; training on another instance within untrainedTtlMs.
   */
  async #hasLearned(accountId: string): Promise<boolean> {
    const now = this.clock();
    const known = this.#trained.get(accountId);
    if (known && (known.yes || now - known.at < this.untrainedTtlMs)) return known.yes;
    const yes = (await this.port.weights(accountId, [BIAS_FEATURE])).length > 0;
    if (this.#trained.size > 10_000) this.#trained.clear();
    this.#trained.set(accountId, { yes, at: now });
    return yes;
  }

  /** Forgets what is known of an account's model (its weights were replaced or removed). */
  forget(accountId: string): void {
    this.#trained.delete(accountId);
  }

  /** What an account that never learned predicts for a transaction with these features. */
  prior(features: readonly string[] = []): number {
    return predict(features, new Map(), this.params, { logit: priorLogit(features) });
  }

  /** The learned log-odds of each of the features (features without a weight are left out). */
  async learned(accountId: string, features: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!(await this.#hasLearned(accountId))) return out;
    for (const row of await this.port.weights(accountId, features)) {
      const w = weightOf(row, this.params);
      if (w !== 0) out.set(row.feature, w);
    }
    return out;
  }

  /** The account's fraud probability for a transaction with these features (priors + learned weights). */
  async predict(accountId: string, features: readonly string[]): Promise<number> {
    const rows = await this.port.weights(accountId, features);
    return predict(features, stateOf(rows), this.params, { logit: priorLogit(features) });
  }

  /** One training step on one labelled transaction (1 fraud, 0 legit), written into the batch. */
  async train(batch: FeedbackBatch, features: readonly string[], label: 0 | 1, origin: string, at: Date): Promise<void> {
    const state = stateOf(await batch.weights(features));
    const { before, changed } = update(features, state, label, this.params, { logit: priorLogit(features) });
    batch.model(changed, {
      accountId: batch.accountId,
      at: at.toISOString(),
      origin,
      label,
      before,
      weights: Object.fromEntries(changed.map((w) => [w.feature, weightOf(w, this.params)])),
    });
    this.#trained.set(batch.accountId, { yes: true, at: this.clock() });
  }
}
