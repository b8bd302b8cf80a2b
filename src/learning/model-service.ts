import { priorLogit } from '../intel/payment/prior.ts';
import type { ModelPort } from '../store/learning-ports.ts';
import type { FeedbackBatch } from './feedback-batch.ts';
import { FTRL_DEFAULTS, predict, stateOf, update, weightOf, type FtrlParams } from './ftrl.ts';

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
  constructor(
    private readonly port: ModelPort,
    private readonly params: FtrlParams = FTRL_DEFAULTS,
  ) {}

  /** What an account that never learned predicts for a transaction with these features. */
  prior(features: readonly string[] = []): number {
    return predict(features, new Map(), this.params, { logit: priorLogit(features) });
  }

  /** The learned log-odds of each of the features (features without a weight are left out). */
  async learned(accountId: string, features: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
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
  }
}
