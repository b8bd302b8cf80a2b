import type { Pool } from 'pg';
import type { DecisionLogPort, DecisionRecord } from '../ports.ts';
import { decisionLimit, type DecisionRow, decisionValues, toDecision } from '../policy-rows.ts';
import { isoSql, isoTimestamp } from './values.ts';

const Q = {
  // One statement for the whole batch; WITH ORDINALITY keeps the identity order equal to the batch order
  // (records at the same instant list in the order they were appended).
  append: {
    name: 'vigil_decision_append',
    text: `
      INSERT INTO decision_log (account_id, rule_group, operation, user_id, at, input, result)
      SELECT d.account_id, d.rule_group, d.operation, d.user_id, d.at, d.input, d.result
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::jsonb[], $7::jsonb[])
        WITH ORDINALITY AS d (account_id, rule_group, operation, user_id, at, input, result, n)
      ORDER BY d.n`,
  },
  list: {
    name: 'vigil_decision_list',
    text: `
      SELECT account_id, rule_group, operation, user_id, ${isoSql('at')} AS at, input, result FROM decision_log
      WHERE account_id = $1 AND rule_group = $2 AND decision_log.at >= $3 AND decision_log.at < $4
      ORDER BY decision_log.at, id
      LIMIT $5`,
  },
  deleteByUser: { name: 'vigil_decision_delete_by_user', text: 'DELETE FROM decision_log WHERE account_id = $1 AND user_id = $2' },
  prune: { name: 'vigil_decision_prune', text: 'DELETE FROM decision_log WHERE at < $1' },
} as const;

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

  async prune(before: string): Promise<number> {
    const result = await this.pool.query({ ...Q.prune, values: [isoTimestamp(before)] });
    return result.rowCount ?? 0;
  }
}
