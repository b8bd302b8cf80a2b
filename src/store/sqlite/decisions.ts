import type { Database } from 'better-sqlite3';
import type { DecisionLogPort, DecisionRecord } from '../ports.ts';
import { decisionLimit, type DecisionRow, type DecisionValues, decisionValues, toDecision } from '../policy-rows.ts';
import { isoTimestamp, settle } from './values.ts';

interface SqliteDecisionRow extends Omit<DecisionRow, 'input' | 'result'> {
  input: string;
  result: string;
}

function prepare(db: Database) {
  return {
    append: db.prepare<DecisionValues>(`
      INSERT INTO decision_log (account_id, rule_group, operation, user_id, at, input, result)
      VALUES (@accountId, @group, @operation, @userId, @at, @input, @result)`),
    list: db.prepare<[string, string, string, string, number], SqliteDecisionRow>(`
      SELECT account_id, rule_group, operation, user_id, at, input, result FROM decision_log
      WHERE account_id = ? AND rule_group = ? AND at >= ? AND at < ?
      ORDER BY at, id
      LIMIT ?`),
    deleteByUser: db.prepare<[string, string]>('DELETE FROM decision_log WHERE account_id = ? AND user_id = ?'),
    prune: db.prepare<[string]>('DELETE FROM decision_log WHERE at < ?'),
  };
}

type Statements = ReturnType<typeof prepare>;

export class SqliteDecisionLog implements DecisionLogPort {
  #statements: Statements | undefined;
  readonly #appendAll: (rows: DecisionValues[]) => void;

  constructor(private readonly db: Database) {
    // One transaction per batch: all records or none, and one commit.
    this.#appendAll = db.transaction((rows: DecisionValues[]) => {
      const append = this.statements.append;
      for (const row of rows) append.run(row);
    });
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  append(records: DecisionRecord[]): Promise<void> {
    return settle(() => {
      const rows = decisionValues(records);
      if (rows.length > 0) this.#appendAll(rows);
    });
  }

  list(accountId: string, group: string, from: string, to: string, limit: number): Promise<DecisionRecord[]> {
    return settle(() =>
      this.statements.list
        .all(accountId, group, isoTimestamp(from), isoTimestamp(to), decisionLimit(limit))
        .map((row) => toDecision({ ...row, input: JSON.parse(row.input) as unknown, result: JSON.parse(row.result) as unknown })),
    );
  }

  deleteByUser(accountId: string, userId: string): Promise<number> {
    return settle(() => this.statements.deleteByUser.run(accountId, userId).changes);
  }

  prune(before: string): Promise<number> {
    return settle(() => this.statements.prune.run(isoTimestamp(before)).changes);
  }
}
