import { createHash } from 'node:crypto';
import pg from 'pg';
import type { AccountLocks } from '../ports.ts';

/** How long a caller waits for an account's lock before it fails (generic error 115) rather than hang. */
const LOCK_WAIT_MS = 30_000;

/** A 32-bit signed integer from a string (two of them key a PostgreSQL advisory lock). */
function int4(s: string): number {
  return createHash('sha256').update(s).digest().readInt32BE(0);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Cross-instance mutual exclusion per (scope, account) with PostgreSQL session advisory locks, held on one
 * connection of its own rather than a pooled one: the work done under a lock reads and writes through the
 * pool, and a lock holder waiting for a pooled connection held by another lock waiter would deadlock the
 * pool. `pg_try_advisory_lock` never blocks that connection, so a waiter for one account never delays the
 * lock of another; it polls (2 to 25 ms apart) instead. Two accounts whose keys collide (32 bits of a
 * SHA-256) only wait for each other more often. If the connection drops, the server releases its locks:
 * the next call opens a new connection, and work running at that moment finishes unprotected (logged by
 * the pool's error handler as a dropped connection); a restart of PostgreSQL is the only cause.
 */
export class PostgresAccountLocks implements AccountLocks {
  #client: Promise<pg.Client> | undefined;
  #closed = false;

  constructor(private readonly connectionString: string) {}

  async withAccountLock<T>(scope: string, accountId: string, work: () => Promise<T>): Promise<T> {
    const key = [int4(scope), int4(accountId)];
    const client = await this.#connection();
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', key);
      if (rows[0]?.ok) break;
      if (Date.now() > deadline) throw new Error(`the ${scope} lock of an account was not free within ${LOCK_WAIT_MS} ms`);
      await sleep(Math.min(25, 2 + attempt * 2) * (0.5 + Math.random()));
    }
    try {
      return await work();
    } finally {
      // A dead connection has released the lock already.
      await client.query('SELECT pg_advisory_unlock($1, $2)', key).catch(() => undefined);
    }
  }

  #connection(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('the store is closed'));
    this.#client ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString, application_name: 'vigil-locks', connectionTimeoutMillis: 5000 });
      const forget = (): void => {
        this.#client = undefined;
      };
      client.on('error', forget);
      client.on('end', forget);
      try {
        await client.connect();
      } catch (err) {
        forget();
        throw err;
      }
      return client;
    })();
    return this.#client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
