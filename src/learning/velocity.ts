import type { StoredScoring, VelocityQuery } from '../store/learning-ports.ts';
import type { Store } from '../store/ports.ts';

/**
 * Where the exact sliding-window counts of payment velocity come from: the stored scorings
 * themselves on one instance (indexed queries, nothing extra to write), Redis sorted sets when
 * REDIS_URL is set so several instances share them at memory speed.
 */
export interface VelocitySource {
  readonly kind: 'store' | 'redis';
  velocity(accountId: string, queries: readonly VelocityQuery[]): Promise<number[]>;
  /** Adds a new scoring to the windows (the store's own rows need nothing). */
  record(scoring: StoredScoring): Promise<void>;
  /** Removes everything these scorings put in the windows (user deletion). */
  forget(scorings: readonly StoredScoring[]): Promise<void>;
}

export function storeVelocity(store: Store): VelocitySource {
  return {
    kind: 'store',
    velocity: (accountId, queries) => store.scorings.velocity(accountId, queries),
    record: () => Promise.resolve(),
    forget: () => Promise.resolve(),
  };
}
