import { ApiError } from '../errors.ts';
import { utcMonth } from '../../intel/time/utc-calendar.ts';
import type { Counters, Plan, UsagePort } from '../../store/ports.ts';
import { counterKeys, QUOTA_TTL_SECONDS } from '../../store/counter-keys.ts';

/**
 * Step 8: reserves one unit of the monthly quota (103). The counter starts from the month's stored
 * usage whenever it does not exist: the first call of the month, a restarted Redis without
 * persistence, an evicted or deleted key. The increment only applies to an existing counter (one
 * atomic step), so a lost counter is never recreated at 1: it is seeded first, from the usage rows in
 * the store plus this instance's usage not yet written (`unflushed`), and setIfAbsent makes instances
 * that notice the loss together seed it once. The usage other instances have not written yet (up to
 * one second of their calls, see Recorder) is the only thing a seed can miss. Reserving before the
 * work keeps concurrent calls exact; a failed call gives its unit back.
 */
export class QuotaGate {
  constructor(
    private readonly counters: Counters,
    private readonly usage: UsagePort,
    /** This instance's counted calls of the account in the month that are not in the store yet. */
    private readonly unflushed: (accountId: string, month: string) => number = () => 0,
  ) {}

  /** Returns the counter key to release on failure, or undefined when the plan is unlimited. */
  async reserve(accountId: string, plan: Plan, now: Date): Promise<string | undefined> {
    if (plan.monthlyQuota === null) return undefined;
    const month = utcMonth(now);
    const key = counterKeys.quota(accountId, month);
    let n = await this.counters.incrExisting(key, 1);
    if (n === null) {
      const used = (await this.usage.monthTotal(accountId, month)) + this.unflushed(accountId, month);
      await this.counters.setIfAbsent(key, used, QUOTA_TTL_SECONDS);
      n = await this.counters.incr(key, 1, QUOTA_TTL_SECONDS);
    }
    if (n > plan.monthlyQuota) {
      await this.counters.incrExisting(key, -1);
      throw new ApiError(103, `The monthly quota of ${plan.monthlyQuota} requests is used up for ${month}.`);
    }
    return key;
  }

  /** Gives a unit back; a counter lost meanwhile is left absent (recreated at -1 it would skip the next seed). */
  async release(key: string): Promise<void> {
    await this.counters.incrExisting(key, -1);
  }
}
