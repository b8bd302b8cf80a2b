import { join } from 'node:path';
import { MemoryCounters } from './memory/memory-counters.ts';
import type { Counters, Store } from './ports.ts';
import { PostgresStore } from './postgres/postgres-store.ts';
import { RedisCounters } from './redis/redis-counters.ts';
import { SqliteStore } from './sqlite/sqlite-store.ts';
import { databaseError, redisError, sqliteError } from '../ops/startup-errors.ts';

export { MemoryCounters, PostgresStore, RedisCounters, SqliteStore };

/** PostgreSQL when `databaseUrl` is set, else SQLite at `<dataDir>/vigil.db`; migrated and ready to use. */
export async function openStore(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL pool size (DATABASE_POOL_SIZE; default 10). */
  poolSize?: number;
  /** SQLite: WAL checkpoints on a worker thread (the server), told here if that worker fails. */
  backgroundCheckpoint?: { onFailure: (err: Error) => void };
  /** SQLite: told when buffered payment scorings could not be written (sqlite/scoring-buffer.ts). */
  onScoringWriteFailure?: (err: unknown, detail: { rows: number; dropped: boolean }) => void;
}): Promise<Store> {
  // Failures name the variable, the address and the fix (src/ops/startup-errors.ts).
  const explain = (error: unknown): unknown => (opts.databaseUrl ? databaseError(opts.databaseUrl, error) : sqliteError(opts.dataDir, error));
  let store: Store;
  try {
    store = opts.databaseUrl
      ? new PostgresStore({ connectionString: opts.databaseUrl, ...(opts.poolSize !== undefined && { max: opts.poolSize }) })
      : new SqliteStore({
        path: join(opts.dataDir, 'vigil.db'),
        ...(opts.backgroundCheckpoint && { backgroundCheckpoint: true, onCheckpointFailure: opts.backgroundCheckpoint.onFailure }),
        ...(opts.onScoringWriteFailure && { onScoringWriteFailure: opts.onScoringWriteFailure }),
      });
  } catch (error) {
    throw explain(error);
  }
  try {
    await store.migrate();
  } catch (error) {
    // Do not leak the pool or file handle of a store the caller never receives.
    await store.close().catch(() => undefined);
    throw explain(error);
  }
  return store;
}

/**
 * Redis counters when `redisUrl` is set (checked with a PING, so a wrong URL fails at boot rather than on the
 * first request), else in-process counters. `redisPrefix` defaults to `vigil:`; tests pass their own.
 */
export async function openCounters(opts: { redisUrl?: string | undefined; redisPrefix?: string | undefined; redisCluster?: boolean }): Promise<Counters> {
  if (!opts.redisUrl) return new MemoryCounters();
  const counters = new RedisCounters({ url: opts.redisUrl, prefix: opts.redisPrefix, cluster: opts.redisCluster });
  try {
    await counters.ping();
  } catch (error) {
    const cause = counters.connectionError();
    await counters.close();
    throw redisError(opts.redisUrl, error, cause);
  }
  return counters;
}
