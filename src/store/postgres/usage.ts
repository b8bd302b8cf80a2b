import type { Pool } from 'pg';
import type { UsagePort, UsageRow } from '../ports.ts';
import { bigintCount, calendarDay, integerCount, monthDays } from './values.ts';

interface UsageDbRow {
  account_id: string;
  method: string;
  day: string;
  count: string;
}

const Q = {
  // One statement for the whole batch. Rows are summed per key first because ON CONFLICT DO UPDATE may not touch
  // the same row twice in one statement, and inserted in key order so concurrent batches lock rows in the same
  // order and cannot deadlock.
  add: {
    name: 'vigil_usage_add',
    text: `
      INSERT INTO usage (account_id, method, day, count)
      SELECT b.account_id, b.method, b.day, sum(b.count)::bigint
      FROM unnest($1::text[], $2::text[], $3::date[], $4::bigint[]) AS b (account_id, method, day, count)
      GROUP BY b.account_id, b.method, b.day
      ORDER BY b.account_id, b.method, b.day
      ON CONFLICT (account_id, method, day) DO UPDATE SET count = usage.count + EXCLUDED.count`,
  },
  list: {
    name: 'vigil_usage_list',
    text: `
      SELECT account_id, method, to_char(day, 'YYYY-MM-DD') AS day, count::text AS count FROM usage
      WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date
      ORDER BY usage.day, method COLLATE "C"`,
  },
  monthTotal: {
    name: 'vigil_usage_month_total',
    text: `
      SELECT COALESCE(sum(count), 0)::text AS total FROM usage
      WHERE account_id = $1 AND day >= $2::date AND day < $3::date`,
  },
} as const;

export class PostgresUsage implements UsagePort {
  constructor(private readonly pool: Pool) {}

  async add(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.pool.query({
      ...Q.add,
      values: [
        rows.map((row) => row.accountId),
        rows.map((row) => row.method),
        rows.map((row) => calendarDay(row.day)),
        rows.map((row) => integerCount(row.count)),
      ],
    });
  }

  async list(accountId: string, fromDay: string, toDay: string): Promise<UsageRow[]> {
    const { rows } = await this.pool.query<UsageDbRow>({ ...Q.list, values: [accountId, calendarDay(fromDay), calendarDay(toDay)] });
    return rows.map((row) => ({ accountId: row.account_id, method: row.method, day: row.day, count: bigintCount(row.count) }));
  }

  async monthTotal(accountId: string, month: string): Promise<number> {
    const { from, until } = monthDays(month);
    const { rows } = await this.pool.query<{ total: string }>({ ...Q.monthTotal, values: [accountId, from, until] });
    return bigintCount(rows[0]?.total ?? '0');
  }
}
