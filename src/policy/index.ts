import type { Logger } from 'pino';
import type { Seed } from '../accounts/seed.ts';
import type { PendingDecision, Store } from '../store/ports.ts';
import { EventRaiser } from './events/raise.ts';
import { blacklistType, ListsService } from './lists-service.ts';
import { RulesService } from './rules-service.ts';
import { PolicySnapshots } from './snapshots.ts';
import { PolicyStage } from './stage.ts';
import { WebhookService } from './webhooks/service.ts';
import { WebhookPresence } from './webhooks/presence.ts';
import { WebhookWorker } from './webhooks/worker.ts';
import { NO_PRIVATE_TARGETS, type AllowedTargets } from './webhooks/targets.ts';

export interface PolicyOptions {
  store: Store;
  /** SECRET_KEY: seals webhook secrets at rest. */
  secret: string;
  logger: Logger;
  clock: () => Date;
  refreshMs: number;
  /** Where decisions go for backtests (the recorder's batch); undefined keeps none. */
  logDecision: ((record: PendingDecision) => void) | undefined;
  /** Days decisions are kept; older ones are pruned hourly. */
  decisionLogDays: number;
  /** Start a delivery worker in this process. */
  worker: boolean;
  /** Private webhook targets allowed (WEBHOOK_ALLOW_PRIVATE); none when absent. */
  webhookTargets?: AllowedTargets;
  /** WEBHOOK_TIMEOUT_MS and WEBHOOK_LEASE_MS (the worker's defaults when absent). */
  webhookTiming?: { timeoutMs: number; leaseMs: number };
  /** The keyed hash of a userID as user deletion records it (events of deleted users are not stored). */
  userHash?: (userId: string) => string;
  /** Told of every failed delivery attempt of this process's worker (`givenUp` on the last one). */
  onDeliveryFailure?: (givenUp: boolean) => void;
}

const HOUR_MS = 3_600_000;

/** The policy layer, composed: services for the admin API, CLI and seed, and the pipeline's stage. */
export interface Policy {
  snapshots: PolicySnapshots;
  rules: RulesService;
  lists: ListsService;
  webhooks: WebhookService;
  stage: PolicyStage;
  worker: WebhookWorker | undefined;
  close(): Promise<void>;
}

export function createPolicy(opts: PolicyOptions): Policy {
  const { store, logger, clock } = opts;
  const targets = opts.webhookTargets ?? NO_PRIVATE_TARGETS;
  const snapshots = new PolicySnapshots(store, logger, opts.refreshMs);
  // Changes committed by other instances reach idle copies at once (PostgreSQL); the version check stays behind it.
  store.policyChanges.listen((accountId) => snapshots.changed(accountId)).catch((err: unknown) => {
    logger.error({ err }, 'listening for policy changes failed; retrying every second, the version check every POLICY_REFRESH_MS meanwhile');
  });
  const worker = opts.worker ? new WebhookWorker({ store, serverSecret: opts.secret, logger, clock, targets, ...(opts.webhookTiming && { options: opts.webhookTiming }), ...(opts.onDeliveryFailure && { onFailure: opts.onDeliveryFailure }) }) : undefined;
  const presence = new WebhookPresence(store, opts.refreshMs);
  // After a stored event: wake the worker only if the account may have webhooks (else nothing was queued).
  const raiser = new EventRaiser(store, logger, (accountId) => {
    if (worker && presence.mayHave(accountId)) worker.wake();
  }, opts.userHash);
  worker?.start();
  const prune = (): void => {
    const before = new Date(clock().getTime() - opts.decisionLogDays * 24 * HOUR_MS).toISOString();
    store.decisions.prune(before).catch((err: unknown) => logger.error({ err }, 'pruning the decision log failed'));
  };
  const pruner = opts.logDecision ? setInterval(prune, HOUR_MS) : undefined;
  pruner?.unref();
  return {
    snapshots,
    rules: new RulesService(store, snapshots, clock),
    lists: new ListsService(store, snapshots, clock),
    webhooks: new WebhookService(store, opts.secret, clock, () => worker?.wake(), (accountId) => presence.forget(accountId), targets),
    stage: new PolicyStage(snapshots, raiser, opts.logDecision),
    worker,
    close: async () => {
      clearInterval(pruner);
      await worker?.stop();
    },
  };
}

/**
 * The policy parts of a seed (blacklists, customRules, webhooks), idempotently: list values are
 * added (existing ones kept), rules are created or replaced (by id, else by group and title), and a
 * webhook is added unless the account already has one with the same URL (its secret is then kept).
 */
export async function applyPolicySeed(seed: Seed, policy: Pick<Policy, 'rules' | 'lists' | 'webhooks'>): Promise<{ rules: number; listValues: number; webhooks: number }> {
  let rules = 0;
  let listValues = 0;
  let webhooks = 0;
  for (const account of seed.accounts) {
    for (const list of account.blacklists) listValues += (await policy.lists.add(account.id, blacklistType(list.type), list.values, { note: 'seed' })).changed;
    for (const rule of account.customRules) {
      await policy.rules.upsertFromSeed(account.id, rule);
      rules++;
    }
    const existing = new Set((await policy.webhooks.list(account.id)).map((w) => w.url));
    for (const hook of account.webhooks) {
      if (existing.has(hook.url)) continue;
      await policy.webhooks.add(account.id, hook.url, hook.secret);
      webhooks++;
    }
  }
  return { rules, listValues, webhooks };
}
