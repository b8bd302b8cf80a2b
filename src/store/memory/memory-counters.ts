import type { Counters, FloodCount, FloodHit } from '../ports.ts';
import { floodStep, type FloodState } from '../flood-state.ts';

export interface MemoryCountersOptions {
  /** Clock in epoch milliseconds; tests inject a fake one to step over TTLs. */
  now?: () => number;
  /** How often expired entries are dropped (ms, default 60 000), so keys never read again do not pile up. */
  sweepIntervalMs?: number;
}

interface Entry {
  value: number;
  /** Epoch ms at which the entry stops existing. */
  expiresAt: number;
}

/**
 * Counters in this process only: right for a single instance; several instances need RedisCounters to share
 * limits. Expired entries are treated as absent when read (so TTLs are exact) and dropped by a periodic sweep.
 */
export class MemoryCounters implements Counters {
  readonly kind = 'memory' as const;
  readonly #entries = new Map<string, Entry>();
  readonly #floods = new Map<string, FloodState & { expiresAt: number }>();
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: MemoryCountersOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => {
      this.sweep();
    }, options.sweepIntervalMs ?? 60_000);
    // The sweep is housekeeping: it must not keep the process alive.
    this.#sweeper.unref();
  }

  /** Entries held, expired-but-unswept ones included. */
  get size(): number {
    return this.#entries.size;
  }

  incr(key: string, by: number, ttlSeconds: number): Promise<number> {
    return settle(() => {
      checkInteger('by', by);
      checkTtl(ttlSeconds);
      const now = this.#now();
      const entry = this.#live(key, now);
      if (entry) {
        // Like Redis: later increments keep the TTL set when the key was created.
        entry.value += by;
        return entry.value;
      }
      this.#entries.set(key, { value: by, expiresAt: now + ttlSeconds * 1000 });
      return by;
    });
  }

  floodHit(key: string, hit: FloodHit): Promise<FloodCount> {
    return settle(() => {
      checkTtl(hit.ttlSeconds);
      const now = this.#now();
      const current = this.#floods.get(key);
      const state = floodStep(current && current.expiresAt > now ? current : undefined, hit);
      this.#floods.set(key, { ...state, expiresAt: now + hit.ttlSeconds * 1000 });
      return { count: state.n, generation: state.g };
    });
  }

  /** Drops a flood key, as a Redis restart or eviction would (tests). */
  loseFlood(key: string): void {
    this.#floods.delete(key);
  }

  incrExisting(key: string, by: number): Promise<number | null> {
    return settle(() => {
      checkInteger('by', by);
      const entry = this.#live(key, this.#now());
      if (!entry) return null;
      entry.value += by;
      return entry.value;
    });
  }

  get(key: string): Promise<number> {
    return settle(() => this.#live(key, this.#now())?.value ?? 0);
  }

  setIfAbsent(key: string, value: number, ttlSeconds: number): Promise<boolean> {
    return settle(() => {
      checkInteger('value', value);
      checkTtl(ttlSeconds);
      const now = this.#now();
      if (this.#live(key, now)) return false;
      this.#entries.set(key, { value, expiresAt: now + ttlSeconds * 1000 });
      return true;
    });
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#entries.clear();
    this.#floods.clear();
    return Promise.resolve();
  }

  /** Drops every expired entry; runs on the timer, callable directly. */
  sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
    for (const [key, entry] of this.#floods) {
      if (entry.expiresAt <= now) this.#floods.delete(key);
    }
  }

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}

function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(work());
  });
}

// Same argument rules as RedisCounters (INCRBY takes integers only), so code tested on memory behaves on Redis.
function checkInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a safe integer, got ${value}`);
}

function checkTtl(ttlSeconds: number): void {
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be a positive number, got ${ttlSeconds}`);
}
