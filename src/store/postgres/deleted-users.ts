import type { Pool } from 'pg';
import type { DeletedUser, DeletedUsersPort } from '../ports.ts';
import { isoTimestamp } from '../values.ts';
import { isoSql } from './values.ts';
import { withTransaction } from './transaction.ts';

/** Advisory lock key of the barrier between deletions and buffered writes: "vigildel" as a 64-bit integer. */
const BARRIER = '8532464671518336364';
/** Tombstones are kept this long: a record buffered longer than a day (a store outage) is written anyway. */
const KEEP = '1 day';
/** A deletion waits at most this long for transactions older than its tombstone (a long one of another tool: go on). */
const OLDER_WAIT_MS = 5000;

/**
 * User deletions across instances. A guarded write (a batch of the request log or the decision log) holds
 * the barrier lock in SHARED mode from its read of the tombstones until its rows are committed; a deletion
 * commits its tombstone, then takes the barrier EXCLUSIVE for an instant, which waits for every guarded
 * write in progress. A write that read the tombstones before the deletion's commit has therefore committed
 * before the deletion removes anything (and is removed with the rest); one that reads them after sees the
 * tombstone and leaves the user's records out. Shared holders never wait for each other.
 *
 * The guard takes one pooled connection for the lock while the write takes another: callers run one guarded
 * write at a time (the recorder's flushes are queued), so a pool is never drained by guards.
 */
export class PostgresDeletedUsers implements DeletedUsersPort {
  constructor(private readonly pool: Pool) {}

  async add(accountId: string, valueHashes: readonly string[], deletedAt: string): Promise<void> {
    await this.pool.query({
      name: 'vigil_deleted_users_add',
      text: `INSERT INTO deleted_users (account_id, value_hash, deleted_at) SELECT $1, h, $3 FROM unnest($2::text[]) AS h ON CONFLICT DO NOTHING`,
      values: [accountId, [...new Set(valueHashes)], isoTimestamp(deletedAt)],
    });
    await this.pool.query({ name: 'vigil_deleted_users_prune', text: `DELETE FROM deleted_users WHERE deleted_at < now() - interval '${KEEP}'` });
    await withTransaction(this.pool, (client) => client.query('SELECT pg_advisory_xact_lock($1::bigint)', [BARRIER]));
    await this.#olderTransactionsEnded();
  }

  /**
   * Waits (up to OLDER_WAIT_MS) until every transaction of another session of this database that began before the
   * tombstone was committed has ended. A write that checks the tombstone in its own statement (a payment scoring,
   * an event) but read before the commit has then committed, and what the deletion removes next includes it;
   * one that began later sees the tombstone. The database's own clock orders both, so instances' clocks do not
   * matter. Sessions of other roles show no start time (not waited for: Vigil's sessions share one role).
   */
  async #olderTransactionsEnded(): Promise<void> {
    const { rows } = await this.pool.query<{ t: string }>('SELECT clock_timestamp()::text AS t');
    const committedBy = rows[0]?.t;
    const deadline = Date.now() + OLDER_WAIT_MS;
    for (;;) {
      const { rows: older } = await this.pool.query<{ n: number }>({
        name: 'vigil_deleted_users_older',
        text: `SELECT count(*)::int AS n FROM pg_stat_activity
               WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND xact_start < $1::timestamptz`,
        values: [committedBy],
      });
      if ((older[0]?.n ?? 0) === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async find(accountId: string, valueHashes: readonly string[] | null, since: string): Promise<DeletedUser[]> {
    if (valueHashes?.length === 0) return [];
    const { rows } = await this.pool.query<{ value_hash: string; deleted_at: string }>({
      name: 'vigil_deleted_users_find',
      text: `SELECT value_hash, ${isoSql('deleted_at')} AS deleted_at FROM deleted_users
             WHERE account_id = $1 AND ($2::text[] IS NULL OR value_hash = ANY($2::text[])) AND deleted_at >= $3`,
      values: [accountId, valueHashes === null ? null : [...new Set(valueHashes)], isoTimestamp(since)],
    });
    return rows.map((r) => ({ accountId, valueHash: r.value_hash, deletedAt: r.deleted_at }));
  }

  async guard<T>(accountIds: readonly string[], since: string, work: (deleted: readonly DeletedUser[]) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      // BEGIN and the lock in one round trip (a simple query: the key is a constant).
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock_shared(${BARRIER}::bigint)`);
      const { rows } = await client.query<{ account_id: string; value_hash: string; deleted_at: string }>({
        name: 'vigil_deleted_users_since',
        text: `SELECT account_id, value_hash, ${isoSql('deleted_at')} AS deleted_at FROM deleted_users WHERE account_id = ANY($1::text[]) AND deleted_at >= $2`,
        values: [[...new Set(accountIds)], isoTimestamp(since)],
      });
      const result = await work(rows.map((r) => ({ accountId: r.account_id, valueHash: r.value_hash, deletedAt: r.deleted_at })));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
