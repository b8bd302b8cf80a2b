import type { Logger } from 'pino';
import type { Policy } from '../policy/index.ts';
import type { Store } from '../store/ports.ts';
import type { PaymentEngines } from './engine-signals.ts';
import { DeletionService } from './deletion-service.ts';
import { FeedbackService } from './feedback-service.ts';
import { IdentityHasher } from './identity-hash.ts';
import { ModelService } from './model-service.ts';
import { OutcomeApplier } from './outcome-applier.ts';
import { PaymentService } from './payment-service.ts';
import { storeVelocity, type VelocitySource } from './velocity.ts';
import type { Counters } from '../store/ports.ts';
import type { PolicySnapshots } from '../policy/snapshots.ts';
import { LabelLookups } from './label-lookups.ts';
import { BacktestLabeller } from './backtest-labels.ts';

/** Payment scoring, feedback, labels, the model and user deletion, composed (see src/app.ts). */
export interface Learning {
  hasher: IdentityHasher;
  payments: PaymentService;
  feedback: FeedbackService;
  deletion: DeletionService;
  model: ModelService;
  labels: LabelLookups;
  snapshots: PolicySnapshots;
  velocity: VelocitySource;
}

export interface LearningOptions {
  store: Store;
  counters: Counters;
  secret: string;
  /** The second key of card identities (src/accounts/card-key.ts). */
  cardSecret: string;
  /** Its lists (automatic `confirmed_fraud`), snapshots, and rules (backtests get their labels from here). */
  policy: Pick<Policy, 'lists' | 'snapshots' | 'rules'>;
  engines: PaymentEngines;
  logger: Logger;
  /** Redis sorted-set windows when REDIS_URL is set; default: the stored scorings. */
  velocity?: VelocitySource;
  /** Writes buffered request-log and decision-log records now (before a user deletion). */
  flushLogs: () => Promise<void>;
  /** How long label lookups trust an account's set of labelled types (POLICY_REFRESH_MS; default 1 s). */
  refreshMs?: number;
  /** Time of backtest label reads (evidence decays); default the system clock. */
  clock?: () => Date;
}

export function createLearning(opts: LearningOptions): Learning {
  const { store, logger } = opts;
  const hasher = new IdentityHasher(opts.secret, opts.cardSecret);
  const model = new ModelService(store.model, undefined, opts.refreshMs);
  const velocity = opts.velocity ?? storeVelocity(store);
  const applier = new OutcomeApplier(model);
  const labels = new LabelLookups(store, hasher, { presenceTtlMs: opts.refreshMs });
  const feedback = new FeedbackService(store, hasher, applier, {
    add: (accountId, keys) => opts.policy.lists.add(accountId, 'confirmed_fraud', keys, { note: 'feedback' }),
  }, logger, (accountId) => labels.forget(accountId));
  opts.policy.rules.useLabels(new BacktestLabeller(store, opts.clock ?? (() => new Date())));
  return {
    hasher,
    model,
    velocity,
    snapshots: opts.policy.snapshots,
    labels,
    payments: new PaymentService({ store, engines: opts.engines, hasher, velocity, model, feedback, labels, logger }),
    feedback,
    deletion: new DeletionService({
      store, counters: opts.counters, hasher, velocity, flushLogs: opts.flushLogs, exclusive: (accountId, work) => feedback.exclusive(accountId, work),
      unlist: async (accountId, keys) => (await opts.policy.lists.remove(accountId, 'confirmed_fraud', keys)).changed,
    }),
  };
}
