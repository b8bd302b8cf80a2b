import { ApiError } from '../errors.ts';
import { utcMonth } from '../../intel/time/utc-calendar.ts';
import type { Counters, Plan, UsagePort } from '../../store/ports.ts';
import { counterKeys, QUOTA_TTL_SECONDS } from '../../store/counter-keys.ts';

/**
 * Step 8: reserves one unit of the monthly quota (103). The counter starts from the month's stored
 * usage whenever it does not exist: the first call of the month, a restarted Redis without
 * persistence, an evicted or deleted key. The increment only applies to an existing counter (one
 * atomic step), so a lost counter is never recreated at 1: it is seeded first, from the usage rows in
 * the store plus this instance's usage not yet written (`monthUsage`, read between this instance's usage
 * writes), after the other instances' next usage write when the month already had usage (#seed), and
 * setIfAbsent makes instances that notice the loss together seed it once. Reserving before the work keeps
 * concurrent calls exact; a failed call gives its unit back.
 */
export class QuotaGate {
  /** Seeds in progress in this process, one per counter (concurrent calls wait for the same one). */
  readonly #seeding = new Map<string, Promise<void>>();

  constructor(
    private readonly counters: Counters,
    usage: UsagePort,
    /**
     * The account's usage of the month: the store's total plus this instance's counted calls not in the store
     * yet, read while none of its usage writes is in flight (Recorder.monthUsage); without a recorder, the store's.
     */
    private readonly monthUsage: (accountId: string, month: string) => Promise<number> = (accountId, month) => usage.monthTotal(accountId, month),
    /** How long every instance takes at most to write its usage (the recorder's interval plus a margin). */
    private readonly settleMs = 0,
  ) {}

  /**
   * A missing counter with usage already counted this month was lost, not new: the other instances may hold
   * up to one interval of usage they have not written yet, so the seed waits for their next write first (once
   * per lost counter; calls of the account wait with it rather than be granted on a count that is short).
   */
  #seed(key: string, accountId: string, month: string): Promise<void> {
    let seeding = this.#seeding.get(key);
    if (seeding) return seeding;
    seeding = (async () => {
      let used = await this.monthUsage(accountId, month);
      if (this.settleMs > 0 && used > 0) {
        await new Promise((r) => setTimeout(r, this.settleMs));
        used = await this.monthUsage(accountId, month);
      }
      await this.counters.setIfAbsent(key, used, QUOTA_TTL_SECONDS);
    })().finally(() => this.#seeding.delete(key));
    this.#seeding.set(key, seeding);
    return seeding;
  }

  /** Returns the counter key to release on failure, or undefined when the plan is unlimited. */
  async reserve(accountId: string, plan: Plan, now: Date): Promise<string | undefined> {
    if (plan.monthlyQuota === null) return undefined;
    const month = utcMonth(now);
    const key = counterKeys.quota(accountId, month);
    let n = await this.counters.incrExisting(key, 1);
    if (n === null) {
      await this.#seed(key, accountId, month);
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
