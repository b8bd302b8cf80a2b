import type { Database } from 'better-sqlite3';
import type { DecisionDeletion, DecisionLogPort, DecisionRecord } from '../ports.ts';
import { decisionLimit, type DecisionRow, decisionValues, identityHashes, toDecision } from '../policy-rows.ts';
import { isoTimestamp } from './values.ts';
import type { Params, StatementRunner } from './worker-connection.ts';

interface SqliteDecisionRow extends Omit<DecisionRow, 'input' | 'result'> {
  input: string;
  result: string;
}

/**
 * The statements of the decision log, by name. The same text runs on the serving connection (an in-memory
 * store) or on the decision log's own file on a worker thread (decisionLogPath, sqlite-store.ts).
 */
export const DECISION_STATEMENTS = {
  append: `
    INSERT INTO decision_log (account_id, rule_group, operation, user_id, at, input, result, identities)
    VALUES (@accountId, @group, @operation, @userId, @at, @input, @result, @identities)`,
  list: `
    SELECT account_id, rule_group, operation, user_id, at, input, result, identities FROM decision_log
    WHERE account_id = ? AND rule_group = ? AND at >= ? AND at < ?
    ORDER BY at, id
    LIMIT ?`,
  deleteByUser: 'DELETE FROM decision_log WHERE account_id = ? AND user_id = ?',
  // User deletion: a scan of one account's records (rare). needles: a JSON array of text, matched as plain
  // substrings (instr, never LIKE), case-insensitively, in the input and result JSON text.
  deleteForUser: `
    DELETE FROM decision_log
    WHERE account_id = @account
      AND (user_id = @user OR EXISTS (
        SELECT 1 FROM json_each(@needles) n
        WHERE instr(lower(input), lower(n.value)) > 0 OR instr(lower(result), lower(n.value)) > 0) OR EXISTS (
        SELECT 1 FROM json_each(@hashes) h WHERE instr(identities, h.value) > 0))
    RETURNING rule_group`,
  prune: 'DELETE FROM decision_log WHERE at < ?',
  // The card identity upgrade (card-rekey.ts): payment records' identities, a page at a time, and their rewrite.
  rekeyPage: "SELECT id, identities FROM decision_log WHERE rule_group = 'payment' AND identities != '' AND id > ? ORDER BY id LIMIT ?",
  rekeySet: 'UPDATE decision_log SET identities = ? WHERE id = ?',
} as const;

/**
 * The table and indexes of the decision log in its own file: the same as in the serving database
 * (migrations 2 and 6), which keeps it for in-memory stores and for records written before the move.
 */
export function decisionLogSchema(schema = 'main'): string {
  return `
  CREATE TABLE IF NOT EXISTS ${schema}.decision_log (
    id         INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    rule_group TEXT NOT NULL,
    operation  TEXT NOT NULL,
    user_id    TEXT,
    at         TEXT NOT NULL,
    input      TEXT NOT NULL, -- JSON object
    result     TEXT NOT NULL, -- JSON object
    identities TEXT NOT NULL DEFAULT ''
  ) STRICT;
  CREATE INDEX IF NOT EXISTS ${schema}.decision_log_account_group_at ON decision_log (account_id, rule_group, at, id);
  CREATE INDEX IF NOT EXISTS ${schema}.decision_log_account_user ON decision_log (account_id, user_id) WHERE user_id IS NOT NULL;
  CREATE INDEX IF NOT EXISTS ${schema}.decision_log_at ON decision_log (at);
`;
}

const COLUMNS = 'id, account_id, rule_group, operation, user_id, at, input, result, identities';

/**
 * Moves the records of the serving database's decision_log into the decision log's own file (created if
 * absent), keeping their ids, then empties the old table. Run at start, before the file's worker opens it.
 * Each file commits on its own: if the process stops in between, the next start copies again, and
 * `INSERT OR IGNORE` on the kept ids makes that a no-op. Returns how many records were moved.
 */
export function moveDecisionLog(db: Database, file: string): number {
  const waiting = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM decision_log').get()?.n ?? 0;
  if (waiting === 0) return 0;
  db.prepare('ATTACH DATABASE ? AS decision_file').run(file);
  try {
    db.exec(decisionLogSchema('decision_file'));
    db.exec(`INSERT OR IGNORE INTO decision_file.decision_log (${COLUMNS}) SELECT ${COLUMNS} FROM main.decision_log`);
    db.exec('DELETE FROM main.decision_log');
  } finally {
    db.exec('DETACH DATABASE decision_file');
  }
  return waiting;
}

/**
 * The needles of deleteForUser as they appear in the stored JSON text: JSON-escaped (a quote or backslash in an
 * email is stored as \" or \\), distinct; empty ones dropped (they would match every record).
 */
function jsonNeedles(needles: readonly string[]): string[] {
  return [...new Set(needles.filter((n) => n !== '').map((n) => JSON.stringify(n).slice(1, -1)))];
}

/**
 * The decision log on SQLite, through a StatementRunner: on a file store, its own file written by a worker
 * thread (thousands of records of a few KB per second would otherwise cost the event loop a quarter of
 * an IP lookup's time, docs/benchmarks.md); on an in-memory store, the serving connection.
 */
export class SqliteDecisionLog implements DecisionLogPort {
  constructor(private readonly db: StatementRunner) {}

  async append(records: DecisionRecord[]): Promise<void> {
    // One transaction per batch: all records or none, and one commit.
    await this.db.runEach('append', decisionValues(records) as unknown as Params[]);
  }

  async list(accountId: string, group: string, from: string, to: string, limit: number): Promise<DecisionRecord[]> {
    const rows = await this.db.all<SqliteDecisionRow>('list', [accountId, group, isoTimestamp(from), isoTimestamp(to), decisionLimit(limit)]);
    return rows.map((row) => toDecision({ ...row, input: JSON.parse(row.input) as unknown, result: JSON.parse(row.result) as unknown }));
  }

  async deleteByUser(accountId: string, userId: string): Promise<number> {
    return this.db.run('deleteByUser', [accountId, userId]);
  }

  async deleteForUser(accountId: string, who: DecisionDeletion): Promise<Record<string, number>> {
    const userId = who.userId ?? null;
    const needles = jsonNeedles(who.needles);
    const hashes = identityHashes(who.identityHashes);
    if (userId === null && needles.length === 0 && hashes.length === 0) return {};
    // One statement, so one transaction.
    const rows = await this.db.all<{ rule_group: string }>('deleteForUser', { account: accountId, user: userId, needles: JSON.stringify(needles), hashes: JSON.stringify(hashes) });
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.rule_group, (counts.get(row.rule_group) ?? 0) + 1);
    // fromEntries: a group named like an Object.prototype property is still an own key.
    return Object.fromEntries(counts);
  }

  // async: a bad timestamp rejects, as every port call does.
  async prune(before: string): Promise<number> {
    return this.db.run('prune', [isoTimestamp(before)]);
  }
}
