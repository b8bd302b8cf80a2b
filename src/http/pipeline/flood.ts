import { ApiError } from '../errors.ts';
import type { Counters, Plan } from '../../store/ports.ts';
import { counterKeys } from '../../store/counter-keys.ts';

/**
 * Step 7: at most `plan.flood.limit` calls per fixed window of `windowSeconds` per account (106).
 * Every authenticated call counts, test mode and free methods included (decisions.md).
 */
export async function checkFlood(counters: Counters, accountId: string, plan: Plan, now: Date): Promise<void> {
  const windowMs = plan.flood.windowSeconds * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs);
  const n = await counters.incr(counterKeys.flood(accountId, windowStart), 1, plan.flood.windowSeconds + 1);
  if (n > plan.flood.limit) {
    throw new ApiError(106, `Too many requests: this account allows ${plan.flood.limit} per ${plan.flood.windowSeconds} s. Slow down and retry shortly.`);
  }
}
