import type { Pool } from 'pg';
import type { DecisionDeletion, DecisionLogPort, DecisionRecord } from '../ports.ts';
import { decisionLimit, type DecisionRow, decisionValues, identityHashes, toDecision } from '../policy-rows.ts';
import { isoSql, isoTimestamp } from './values.ts';

const Q = {
  // One statement for the whole batch; WITH ORDINALITY keeps the identity order equal to the batch order
  // (records at the same instant list in the order they were appended).
  append: {
    name: 'vigil_decision_append',
    text: `
      INSERT INTO decision_log (account_id, rule_group, operation, user_id, at, input, result, identities)
      SELECT d.account_id, d.rule_group, d.operation, d.user_id, d.at, d.input, d.result, d.identities
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::jsonb[], $7::jsonb[], $8::text[])
        WITH ORDINALITY AS d (account_id, rule_group, operation, user_id, at, input, result, identities, n)
      ORDER BY d.n`,
  },
  list: {
    name: 'vigil_decision_list',
    text: `
      SELECT account_id, rule_group, operation, user_id, ${isoSql('at')} AS at, input, result, identities FROM decision_log
      WHERE account_id = $1 AND rule_group = $2 AND decision_log.at >= $3 AND decision_log.at < $4
      ORDER BY decision_log.at, id
      LIMIT $5`,
  },
  deleteByUser: { name: 'vigil_decision_delete_by_user', text: 'DELETE FROM decision_log WHERE account_id = $1 AND user_id = $2' },
  // User deletion: a scan of one account's records (rare). Needles are matched as plain substrings (strpos,
  // never LIKE), case-insensitively, in the input and result JSON text; counted per rule group in one statement.
  deleteForUser: {
    name: 'vigil_decision_delete_for_user',
    text: `
      WITH gone AS (
        DELETE FROM decision_log
        WHERE account_id = $1
          AND (user_id = $2::text OR EXISTS (
            SELECT 1 FROM unnest($3::text[]) AS n (needle)
            WHERE strpos(lower(input::text), lower(n.needle)) > 0 OR strpos(lower(result::text), lower(n.needle)) > 0) OR EXISTS (
            SELECT 1 FROM unnest($4::text[]) AS h (hash) WHERE strpos(identities, h.hash) > 0))
        RETURNING rule_group
      )
      SELECT rule_group, count(*) AS n FROM gone GROUP BY rule_group`,
  },
  prune: { name: 'vigil_decision_prune', text: 'DELETE FROM decision_log WHERE at < $1' },
} as const;

/**
 * The needles of deleteForUser as they appear in the stored JSON text: JSON-escaped (a quote or backslash in an
 * email is stored as \" or \\), distinct; empty ones dropped (they would match every record).
 */
function jsonNeedles(needles: readonly string[]): string[] {
  return [...new Set(needles.filter((n) => n !== '').map((n) => JSON.stringify(n).slice(1, -1)))];
}

export class PostgresDecisionLog implements DecisionLogPort {
  constructor(private readonly pool: Pool) {}

  async append(records: DecisionRecord[]): Promise<void> {
    const rows = decisionValues(records);
    if (rows.length === 0) return;
    await this.pool.query({
      ...Q.append,
      values: [
        rows.map((r) => r.accountId),
        rows.map((r) => r.group),
        rows.map((r) => r.operation),
        rows.map((r) => r.userId),
        rows.map((r) => r.at),
        rows.map((r) => r.input),
        rows.map((r) => r.result),
        rows.map((r) => r.identities),
      ],
    });
  }

  async list(accountId: string, group: string, from: string, to: string, limit: number): Promise<DecisionRecord[]> {
    const { rows } = await this.pool.query<DecisionRow>({
      ...Q.list,
      values: [accountId, group, isoTimestamp(from), isoTimestamp(to), decisionLimit(limit)],
    });
    return rows.map(toDecision);
  }

  async deleteByUser(accountId: string, userId: string): Promise<number> {
    const result = await this.pool.query({ ...Q.deleteByUser, values: [accountId, userId] });
    return result.rowCount ?? 0;
  }

  async deleteForUser(accountId: string, who: DecisionDeletion): Promise<Record<string, number>> {
    const userId = who.userId ?? null;
    const needles = jsonNeedles(who.needles);
    const hashes = identityHashes(who.identityHashes);
    if (userId === null && needles.length === 0 && hashes.length === 0) return {};
    const { rows } = await this.pool.query<{ rule_group: string; n: string }>({ ...Q.deleteForUser, values: [accountId, userId, needles, hashes] });
    // fromEntries: a group named like an Object.prototype property is still an own key.
    return Object.fromEntries(rows.map((row) => [row.rule_group, Number(row.n)]));
  }

  async prune(before: string): Promise<number> {
    const result = await this.pool.query({ ...Q.prune, values: [isoTimestamp(before)] });
    return result.rowCount ?? 0;
  }
}
