import { TtlCache } from '../../net/ttl-cache.ts';
import type { Store } from '../../store/ports.ts';

/** Accounts whose answer is held at once; more are read again (the oldest go first). */
const MAX_ACCOUNTS = 10_000;

/**
 * Which accounts have webhooks, as last read (at most `ttlMs` ago): the delivery worker is woken
 * after a stored event only when deliveries may have been queued. An outbox read costs ~0.1 ms per
 * event, paid for nothing by accounts without webhooks. Unknown or stale counts as "may have" (and
 * is read again in the background); webhooks added or removed through this process count at once,
 * through another instance within `ttlMs`, and their deliveries are picked up by the worker's poll
 * meanwhile, so nothing is lost, only started up to a poll interval later.
 */
export class WebhookPresence {
  readonly #known: TtlCache<boolean>;
  readonly #reading = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    clock: () => number = Date.now,
  ) {
    this.#known = new TtlCache(MAX_ACCOUNTS, clock);
  }

  /** False only when the account was seen without webhooks within the last `ttlMs`. */
  mayHave(accountId: string): boolean {
    const known = this.#known.get(accountId);
    if (known) return known.value;
    this.#refresh(accountId);
    return true;
  }

  /** The account's webhooks changed here: the next event wakes the worker and reads again. */
  forget(accountId: string): void {
    this.#known.delete(accountId);
  }

  #refresh(accountId: string): void {
    if (this.#reading.has(accountId)) return;
    this.#reading.add(accountId);
    this.store.events
      .listWebhooks(accountId)
      .then(
        (webhooks) => this.#known.set(accountId, webhooks.length > 0, this.ttlMs),
        // A failed read leaves the account unknown: events keep waking the worker.
        () => undefined,
      )
      .finally(() => this.#reading.delete(accountId));
  }
}
