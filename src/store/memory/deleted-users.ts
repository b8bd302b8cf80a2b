import type { DeletedUser, DeletedUsersPort } from '../ports.ts';

/** Tombstones are kept this long, as in PostgreSQL (a call waiting longer than a day is not expected). */
const KEEP_MS = 24 * 3600 * 1000;

/**
 * User deletions for one process writing a SQLite file: it flushes its buffers before a deletion, so guarded
 * writes have nothing to leave out; `find` answers from the deletions this process made (a feedback call that
 * waited in the account's queue behind a deletion writes nothing of the deleted user).
 */
export class InProcessDeletedUsers implements DeletedUsersPort {
  #deleted: DeletedUser[] = [];

  add(accountId: string, valueHashes: readonly string[], deletedAt: string): Promise<void> {
    const oldest = new Date(Date.now() - KEEP_MS).toISOString();
    this.#deleted = this.#deleted.filter((d) => d.deletedAt >= oldest);
    for (const valueHash of new Set(valueHashes)) this.#deleted.push({ accountId, valueHash, deletedAt });
    return Promise.resolve();
  }

  guard<T>(_accountIds: readonly string[], _since: string, work: (deleted: readonly DeletedUser[]) => Promise<T>): Promise<T> {
    return work([]);
  }

  /** Whether one of these hashes of the account was deleted at or after `since` (synchronous, for SQLite's inserts). */
  has(accountId: string, valueHashes: ReadonlyArray<string | null>, since: string): boolean {
    if (this.#deleted.length === 0) return false;
    return this.#deleted.some((d) => d.accountId === accountId && d.deletedAt >= since && valueHashes.includes(d.valueHash));
  }

  find(accountId: string, valueHashes: readonly string[] | null, since: string): Promise<DeletedUser[]> {
    const wanted = valueHashes === null ? null : new Set(valueHashes);
    return Promise.resolve(this.#deleted.filter((d) => d.accountId === accountId && (wanted === null || wanted.has(d.valueHash)) && d.deletedAt >= since));
  }
}
