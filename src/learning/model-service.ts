import type { ModelPort } from '../store/learning-ports.ts';
import type { FeedbackBatch } from './feedback-batch.ts';
import { FTRL_DEFAULTS, FTRL_PRIOR, predict, stateOf, update, weightOf, type FtrlParams, type FtrlPrior } from './ftrl.ts';

/**
 * The per-account fraud model (PF10015): FTRL-proximal logistic regression over the hashed
 * features of each transaction (features.ts), starting from the documented prior and learning from
 * payment outcomes. Weights live in the store; training steps are written with the feedback batch
 * that caused them (one transaction), and batches of an account run one at a time (FeedbackService),
 * so no step reads weights another step is about to replace. Each step is kept in the history.
 */
export class ModelService {
  constructor(
    private readonly port: ModelPort,
    private readonly params: FtrlParams = FTRL_DEFAULTS,
    private readonly priorLogit: FtrlPrior = FTRL_PRIOR,
  ) {}

  /** What an account that never learned predicts for any transaction. */
  prior(): number {
    return predict([], new Map(), this.params, this.priorLogit);
  }

  async predict(accountId: string, features: readonly string[]): Promise<number> {
    const rows = await this.port.weights(accountId, features);
    return predict(features, stateOf(rows), this.params, this.priorLogit);
  }

  /** One training step on one labelled transaction (1 fraud, 0 legit), written into the batch. */
  async train(batch: FeedbackBatch, features: readonly string[], label: 0 | 1, origin: string, at: Date): Promise<void> {
    const state = stateOf(await batch.weights(features));
    const { before, changed } = update(features, state, label, this.params, this.priorLogit);
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
