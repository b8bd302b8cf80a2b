import type { Counters } from '../../store/ports.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { OPERATIONS } from '../operations.ts';
import { checkAccountActive } from './account.ts';
import { checkAuthorizedHost } from './authorized-host.ts';
import type { FloodGate } from './flood.ts';
import { checkKey, extractKey, type KeyResolver } from './key.ts';
import { parseOptions } from './options.ts';
import { checkPlan } from './plan.ts';
import type { QuotaGate } from './quota.ts';
import { checkSubscription } from './subscription.ts';

export interface PipelineDeps {
  keys: KeyResolver;
  counters: Counters;
  flood: FloodGate;
  quota: QuotaGate;
}

/** The spec's order of checks; the first failure throws an ApiError and stops the request. */
export async function runPipeline(def: EndpointDef, ctx: RequestContext, deps: PipelineDeps): Promise<void> {
  const op = OPERATIONS[def.operation];
  ctx.options = parseOptions(ctx.query, def.modules ?? []);
  ctx.testMode = ctx.options.mode === 'test';
  if (op.planMethod === null) return;

  const caller = await checkKey(extractKey(ctx.query, ctx.headers.authorization), deps.keys);
  ctx.caller = caller;
  if (caller.key.kind === 'test') ctx.testMode = true;
  checkAccountActive(caller.account);
  checkSubscription(caller.account, ctx.now);
  checkAuthorizedHost(caller, ctx.headers, ctx.ip);
  checkPlan(caller.plan, op.planMethod, ctx.options.modules);
  await deps.flood.check(caller.account.id, caller.plan, ctx.now);
  if (!ctx.testMode && !op.free) ctx.quotaKey = await deps.quota.reserve(caller.account.id, caller.plan, ctx.now);
}
