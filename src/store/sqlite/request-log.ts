import type { Database } from 'better-sqlite3';
import type { RequestLogEntry, RequestLogPort } from '../ports.ts';
import { isoTimestamp, settle } from './values.ts';
import { type LogRow, toLogEntry } from '../rows.ts';


function prepare(db: Database) {
  return {
    append: db.prepare<LogRow>(`
      INSERT INTO request_log (account_id, user_id, operation, ip, mode, at)
      VALUES (@account_id, @user_id, @operation, @ip, @mode, @at)`),
    listByUser: db.prepare<[string, string], LogRow>(`
      SELECT account_id, user_id, operation, ip, mode, at FROM request_log
      WHERE account_id = ? AND user_id = ?
      ORDER BY at, id`),
    deleteByUser: db.prepare<[string, string]>('DELETE FROM request_log WHERE account_id = ? AND user_id = ?'),
  };
}

type Statements = ReturnType<typeof prepare>;

export class SqliteRequestLog implements RequestLogPort {
  #statements: Statements | undefined;
  readonly #appendAll: (rows: LogRow[]) => void;

  constructor(private readonly db: Database) {
    this.#appendAll = db.transaction((rows: LogRow[]) => {
      for (const row of rows) this.statements.append.run(row);
    });
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  append(entries: RequestLogEntry[]): Promise<void> {
    return settle(() => {
      const rows = entries.map(toRow);
      if (rows.length > 0) this.#appendAll(rows);
    });
  }

  listByUser(accountId: string, userId: string): Promise<RequestLogEntry[]> {
    return settle(() => this.statements.listByUser.all(accountId, userId).map(toLogEntry));
  }

  deleteByUser(accountId: string, userId: string): Promise<number> {
    return settle(() => this.statements.deleteByUser.run(accountId, userId).changes);
  }
}

function toRow(entry: RequestLogEntry): LogRow {
  return {
    account_id: entry.accountId,
    user_id: entry.userId,
    operation: entry.operation,
    ip: entry.ip,
    mode: entry.mode,
    at: isoTimestamp(entry.at),
  };
}

