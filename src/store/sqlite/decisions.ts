import type { Database } from 'better-sqlite3';
import type { DecisionDeletion, DecisionLogPort, DecisionRecord } from '../ports.ts';
import { decisionLimit, type DecisionRow, type DecisionValues, decisionValues, identityHashes, toDecision } from '../policy-rows.ts';
import { isoTimestamp, settle } from './values.ts';

interface SqliteDecisionRow extends Omit<DecisionRow, 'input' | 'result'> {
  input: string;
  result: string;
}

function prepare(db: Database) {
  return {
    append: db.prepare<DecisionValues>(`
      INSERT INTO decision_log (account_id, rule_group, operation, user_id, at, input, result, identities)
      VALUES (@accountId, @group, @operation, @userId, @at, @input, @result, @identities)`),
    list: db.prepare<[string, string, string, string, number], SqliteDecisionRow>(`
      SELECT account_id, rule_group, operation, user_id, at, input, result FROM decision_log
      WHERE account_id = ? AND rule_group = ? AND at >= ? AND at < ?
      ORDER BY at, id
      LIMIT ?`),
    deleteByUser: db.prepare<[string, string]>('DELETE FROM decision_log WHERE account_id = ? AND user_id = ?'),
    // User deletion: a scan of one account's records (rare). needles: a JSON array of text, matched as plain
    // substrings (instr, never LIKE), case-insensitively, in the input and result JSON text.
    deleteForUser: db.prepare<{ account: string; user: string | null; needles: string; hashes: string }, { rule_group: string }>(`
      DELETE FROM decision_log
      WHERE account_id = @account
        AND (user_id = @user OR EXISTS (
          SELECT 1 FROM json_each(@needles) n
          WHERE instr(lower(input), lower(n.value)) > 0 OR instr(lower(result), lower(n.value)) > 0) OR EXISTS (
          SELECT 1 FROM json_each(@hashes) h WHERE instr(identities, h.value) > 0))
      RETURNING rule_group`),
    prune: db.prepare<[string]>('DELETE FROM decision_log WHERE at < ?'),
  };
}

type Statements = ReturnType<typeof prepare>;

/**
 * The needles of deleteForUser as they appear in the stored JSON text: JSON-escaped (a quote or backslash in an
 * email is stored as \" or \\), distinct; empty ones dropped (they would match every record).
 */
function jsonNeedles(needles: readonly string[]): string[] {
  return [...new Set(needles.filter((n) => n !== '').map((n) => JSON.stringify(n).slice(1, -1)))];
}

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

  deleteForUser(accountId: string, who: DecisionDeletion): Promise<Record<string, number>> {
    return settle(() => {
      const userId = who.userId ?? null;
      const needles = jsonNeedles(who.needles);
      const hashes = identityHashes(who.identityHashes);
      if (userId === null && needles.length === 0 && hashes.length === 0) return {};
      // One statement, so one transaction.
      const rows = this.statements.deleteForUser.all({ account: accountId, user: userId, needles: JSON.stringify(needles), hashes: JSON.stringify(hashes) });
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(row.rule_group, (counts.get(row.rule_group) ?? 0) + 1);
      // fromEntries: a group named like an Object.prototype property is still an own key.
      return Object.fromEntries(counts);
    });
  }

  prune(before: string): Promise<number> {
    return settle(() => this.statements.prune.run(isoTimestamp(before)).changes);
  }
}
