import type { Database } from 'better-sqlite3';
import type { UsagePort, UsageRow } from '../ports.ts';
import { calendarDay, integerCount, monthDays, settle } from './values.ts';

interface UsageDbRow {
  account_id: string;
  method: string;
  day: string;
  count: number;
}

function prepare(db: Database) {
  return {
    add: db.prepare<[string, string, string, number]>(`
      INSERT INTO usage (account_id, method, day, count) VALUES (?, ?, ?, ?)
      ON CONFLICT (account_id, method, day) DO UPDATE SET count = count + excluded.count`),
    list: db.prepare<[string, string, string], UsageDbRow>(`
      SELECT account_id, method, day, count FROM usage
      WHERE account_id = ? AND day BETWEEN ? AND ?
      ORDER BY day, method`),
    monthTotal: db
      .prepare<[string, string, string], number>('SELECT coalesce(sum(count), 0) FROM usage WHERE account_id = ? AND day >= ? AND day < ?')
      .pluck(),
  };
}

type Statements = ReturnType<typeof prepare>;

export class SqliteUsage implements UsagePort {
  #statements: Statements | undefined;
  readonly #addAll: (rows: UsageRow[]) => void;

  constructor(private readonly db: Database) {
    // One transaction per batch: all rows or none, and one commit instead of one per row.
    this.#addAll = db.transaction((rows: UsageRow[]) => {
      for (const row of rows) this.statements.add.run(row.accountId, row.method, row.day, row.count);
    });
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  add(rows: UsageRow[]): Promise<void> {
    return settle(() => {
      // Validate the whole batch first so a bad row rejects it before anything is written.
      for (const row of rows) {
        calendarDay(row.day);
        integerCount(row.count);
      }
      if (rows.length > 0) this.#addAll(rows);
    });
  }

  list(accountId: string, fromDay: string, toDay: string): Promise<UsageRow[]> {
    return settle(() =>
      this.statements.list.all(accountId, calendarDay(fromDay), calendarDay(toDay)).map((row) => ({
        accountId: row.account_id,
        method: row.method,
        day: row.day,
        count: row.count,
      })),
    );
  }

  monthTotal(accountId: string, month: string): Promise<number> {
    return settle(() => {
      const { from, until } = monthDays(month);
      return this.statements.monthTotal.get(accountId, from, until) ?? 0;
    });
  }
}
