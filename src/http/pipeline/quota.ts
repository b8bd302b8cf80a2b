import { ApiError } from '../errors.ts';
import { utcMonth } from '../../intel/time/utc-calendar.ts';
import type { Counters, Plan, UsagePort } from '../../store/ports.ts';
import { counterKeys, QUOTA_TTL_SECONDS } from '../../store/counter-keys.ts';

/**
 * Step 8: reserves one unit of the monthly quota (103). The counter starts from the month's stored
 * usage the first time this process (or a fresh Redis) sees it, so restarts do not reset quotas.
 * Reserving before the work keeps concurrent calls exact; a failed call gives its unit back.
 */
export class QuotaGate {
  /** When each counter was last seeded; re-checked now and then in case Redis lost the key. */
  private readonly seeded = new Map<string, number>();
  private static readonly RESEED_MS = 10 * 60 * 1000;

  constructor(
    private readonly counters: Counters,
    private readonly usage: UsagePort,
  ) {}

  /** Returns the counter key to release on failure, or undefined when the plan is unlimited. */
  async reserve(accountId: string, plan: Plan, now: Date): Promise<string | undefined> {
    if (plan.monthlyQuota === null) return undefined;
    const month = utcMonth(now);
    const key = counterKeys.quota(accountId, month);
    const seededAt = this.seeded.get(key);
    if (seededAt === undefined || now.getTime() - seededAt > QuotaGate.RESEED_MS) {
      // setIfAbsent is a no-op while the counter exists, so re-seeding never double counts.
      if (seededAt === undefined || (await this.counters.get(key)) === 0) {
        await this.counters.setIfAbsent(key, await this.usage.monthTotal(accountId, month), QUOTA_TTL_SECONDS);
      }
      this.seeded.set(key, now.getTime());
    }
    const n = await this.counters.incr(key, 1, QUOTA_TTL_SECONDS);
    if (n > plan.monthlyQuota) {
      await this.counters.incr(key, -1, QUOTA_TTL_SECONDS);
      throw new ApiError(103, `The monthly quota of ${plan.monthlyQuota} requests is used up for ${month}.`);
    }
    return key;
  }

  async release(key: string): Promise<void> {
    await this.counters.incr(key, -1, QUOTA_TTL_SECONDS);
  }
}
