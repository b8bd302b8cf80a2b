import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.ts';
import type { Counters, Plan } from '../../store/ports.ts';
import { counterKeys, FLOOD_KEY_IDLE_SECONDS } from '../../store/counter-keys.ts';

/** A generation this instance saw is trusted to still exist this long less than the key's lifetime. */
const TRUST_MARGIN_MS = 5000;

/**
 * Step 7: at most `plan.flood.limit` calls per fixed window of `windowSeconds` per account (106).
 * Every authenticated call counts, test mode and free methods included (decisions.md).
 *
 * The count lives in one key per account (shared through Redis by every instance). A key lost during its window
 * (a Redis restart without persistence, an eviction, a deletion) cannot be recounted: the window is usually one
 * second, and no store keeps every call (the request log holds only calls with a userID, the usage rows only
 * counted calls, per day). So the loss is detected instead and the window is treated as full: the key lives an
 * hour past its window and carries a generation set at creation; each instance remembers the generation it last
 * saw per account, and a different one while the remembered key must still exist means the key was created
 * again. The first instance that notices fills the window the key was created in (count limit + 1), so every
 * instance refuses the rest of it (docs/operations.md, "Running several instances", for the bound).
 */
export class FloodGate {
  /** Per account: the generation of its key last seen here, and when (this instance's monotonic clock, ms). */
  readonly #seen = new Map<string, { generation: string; at: number }>();
  readonly #prefix = randomBytes(6).toString('hex');
  #created = 0;
  #sweptAt = 0;

  constructor(
    private readonly counters: Counters,
    /** Monotonic milliseconds (performance.now by default; tests step it). */
    private readonly elapsed: () => number = () => performance.now(),
  ) {}

  async check(accountId: string, plan: Plan, now: Date): Promise<void> {
    const { limit, windowSeconds } = plan.flood;
    const ttlSeconds = windowSeconds + FLOOD_KEY_IDLE_SECONDS;
    const at = this.elapsed();
    const seen = this.#seen.get(accountId);
    const known = seen !== undefined && at - seen.at < ttlSeconds * 1000 - TRUST_MARGIN_MS ? seen.generation : null;
    const { count, generation } = await this.counters.floodHit(counterKeys.flood(accountId), {
      window: Math.floor(now.getTime() / (windowSeconds * 1000)),
      windowSeconds,
      limit,
      ttlSeconds,
      newGeneration: `${this.#prefix}.${(this.#created++).toString(36)}`,
      knownGeneration: known,
    });
    this.#seen.set(accountId, { generation, at });
    this.#sweep(at);
    if (count > limit) {
      throw new ApiError(106, `Too many requests: this account allows ${limit} per ${windowSeconds} s. Slow down and retry shortly.`);
    }
  }

  /** Forgets accounts not seen for longer than any key lives (once a minute), so the map holds the active ones. */
  #sweep(at: number): void {
    if (at - this.#sweptAt < 60_000) return;
    this.#sweptAt = at;
    for (const [accountId, seen] of this.#seen) if (at - seen.at > (86_400 + FLOOD_KEY_IDLE_SECONDS) * 1000) this.#seen.delete(accountId);
  }
}
