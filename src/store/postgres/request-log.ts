import type { Pool } from 'pg';
import type { RequestLogEntry, RequestLogPort } from '../ports.ts';
import { isoSql, isoTimestamp } from './values.ts';
import { type LogRow, toLogEntry } from '../rows.ts';


const Q = {
  // One statement for the whole batch; WITH ORDINALITY keeps the identity order equal to the batch order.
  append: {
    name: 'vigil_log_append',
    text: `
      INSERT INTO request_log (account_id, user_id, operation, ip, mode, at)
      SELECT e.account_id, e.user_id, e.operation, e.ip, e.mode, e.at
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
        WITH ORDINALITY AS e (account_id, user_id, operation, ip, mode, at, n)
      ORDER BY e.n`,
  },
  listByUser: {
    name: 'vigil_log_list_by_user',
    text: `
      SELECT account_id, user_id, operation, ip, mode, ${isoSql('at')} AS at FROM request_log
      WHERE account_id = $1 AND user_id = $2
      ORDER BY request_log.at, id`,
  },
  deleteByUser: { name: 'vigil_log_delete_by_user', text: 'DELETE FROM request_log WHERE account_id = $1 AND user_id = $2' },
} as const;

export class PostgresRequestLog implements RequestLogPort {
  constructor(private readonly pool: Pool) {}

  async append(entries: RequestLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.pool.query({
      ...Q.append,
      values: [
        entries.map((e) => e.accountId),
        entries.map((e) => e.userId),
        entries.map((e) => e.operation),
        entries.map((e) => e.ip),
        entries.map((e) => e.mode),
        entries.map((e) => isoTimestamp(e.at)),
      ],
    });
  }

  async listByUser(accountId: string, userId: string): Promise<RequestLogEntry[]> {
    const { rows } = await this.pool.query<LogRow>({ ...Q.listByUser, values: [accountId, userId] });
    return rows.map(toLogEntry);
  }

  async deleteByUser(accountId: string, userId: string): Promise<number> {
    const result = await this.pool.query({ ...Q.deleteByUser, values: [accountId, userId] });
    return result.rowCount ?? 0;
  }
}
