import { compileHostMatcher } from '../accounts/authorized-hosts.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Caller } from './context.ts';
import type { KeyResolver } from './pipeline/key.ts';

/**
 * Resolves keys through a short-lived in-process cache so the hot path does not hit the store on
 * every call. Admin changes made through this process clear it at once; other instances see them
 * within `ttlMs` (documented in docs/operations.md). Unknown keys are cached too (bounded), so
 * guessing keys cannot hammer the store.
 */
export class CachedKeyResolver implements KeyResolver {
  private readonly entries = new Map<string, { caller: Caller | null; expires: number }>();
  private nextSweep = 0;

  constructor(
    private readonly accounts: AccountService,
    private readonly ttlMs = 5000,
    private readonly maxEntries = 10000,
  ) {}

  async resolve(plaintext: string): Promise<Caller | null> {
    // Keyed by the key as sent, in this process's memory for at most `ttlMs`: a request's key is in
    // memory while it is served anyway, and only its keyed hash (HMAC under SECRET_KEY) is stored.
    // The SHA-256 digest this cache used to be keyed by cost ~10 µs a request on an idle CPU.
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now);
    const hit = this.entries.get(plaintext);
    if (hit && hit.expires > now) return hit.caller;
    const resolved = await this.accounts.resolveKey(plaintext);
    const caller = resolved ? { ...resolved, hosts: compileHostMatcher(resolved.account.authorizedHosts) } : null;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(plaintext, { caller, expires: now + this.ttlMs });
    return caller;
  }

  /** Drops expired entries (at most once per `ttlMs`), so no key stays in memory long after its last use. */
  private sweep(now: number): void {
    this.nextSweep = now + this.ttlMs;
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }

  /** Entries held, expired-but-unswept ones included. */
  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
