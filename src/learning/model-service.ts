import type { ModelPort, ModelUpdate } from '../store/learning-ports.ts';
import { FTRL_DEFAULTS, FTRL_PRIOR, predict, stateOf, update, weightOf, type FtrlParams, type FtrlPrior } from './ftrl.ts';

/**
 * The per-account fraud model (PF10015): FTRL-proximal logistic regression over the hashed
 * features of each transaction (features.ts), starting from the documented prior and learning from
 * payment outcomes and labels. Weights live in the store; updates of one account are applied one at
 * a time in this process (read-modify-write of a few coordinates), and each is kept in the history.
 */
export class ModelService {
  readonly #chains = new Map<string, Promise<unknown>>();

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

  /** One training step on one labelled transaction (1 fraud, 0 legit); serialised per account. */
  learn(accountId: string, features: readonly string[], label: 0 | 1, origin: string, at: Date): Promise<void> {
    const previous = this.#chains.get(accountId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(async () => {
      const state = stateOf(await this.port.weights(accountId, features));
      const { before, changed } = update(features, state, label, this.params, this.priorLogit);
      const history: ModelUpdate = {
        accountId,
        at: at.toISOString(),
        origin,
        label,
        before,
        weights: Object.fromEntries(changed.map((w) => [w.feature, weightOf(w, this.params)])),
      };
      await this.port.update(accountId, changed, history);
    });
    this.#chains.set(accountId, next);
    void next.finally(() => {
      if (this.#chains.get(accountId) === next) this.#chains.delete(accountId);
    }).catch(() => undefined);
    return next;
  }
}
