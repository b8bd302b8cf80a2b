import type { Pool } from 'pg';
import type { DeletedUser, DeletedUsersPort } from '../ports.ts';
import { isoTimestamp } from '../values.ts';
import { isoSql } from './values.ts';
import { withTransaction } from './transaction.ts';

/** Advisory lock key of the barrier between deletions and buffered writes: "vigildel" as a 64-bit integer. */
const BARRIER = '8532464671518336364';
/** Tombstones are kept this long: a record buffered longer than a day (a store outage) is written anyway. */
const KEEP = '1 day';

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
