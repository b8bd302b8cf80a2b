import type { Pool, PoolClient } from 'pg';
import type { BlacklistType, CustomRule } from '../../policy/types.ts';
import type { BlacklistEntry, PolicyPort } from '../ports.ts';
import { PolicyConflictError } from '../policy-errors.ts';
import {
  blacklistColumns,
  type BlacklistRow,
  blacklistType,
  FIRST_RULE_NUMBER,
  isBlacklistType,
  listLimit,
  READ_PAGE,
  ruleId,
  ruleNumber,
  ruleNumberOrNull,
  type RuleRow,
  type RuleValues,
  ruleValues,
  toBlacklistEntry,
  toRule,
  valueAfterWithinType,
  WRITE_CHUNK,
} from '../policy-rows.ts';
import { withTransaction } from './transaction.ts';
import { bigintCount, isoSql } from './values.ts';

const RULE_COLUMNS = `id, title, rule_group, enabled, conditions, action, ${isoSql('created_at')} AS created_at, ${isoSql('updated_at')} AS updated_at`;
const ENTRY_COLUMNS = `type, value, note, ${isoSql('created_at')} AS created_at`;

// type and value are COLLATE "C" columns: ORDER BY and the (type, value) > (...) keyset ranges follow the primary
// key index, in code-point order as in SQLite.
/** The LISTEN/NOTIFY channel of policy changes; the payload is the account id. */
export const POLICY_CHANNEL = 'vigil_policy';

const Q = {
  version: { name: 'vigil_policy_version', text: 'SELECT version::text AS version FROM policy_versions WHERE account_id = $1' },
  // The first statement of every change: locks the account's row until commit, so one account's changes run one
  // at a time (and always take their locks in the same order), and bumps the version.
  // Both also queue a notification on POLICY_CHANNEL, sent by PostgreSQL at commit (never for a rolled-back
  // change): idle instances reload their copy at once (policy-notifications.ts).
  bump: {
    name: 'vigil_policy_bump',
    text: `
      WITH v AS (
        INSERT INTO policy_versions AS v (account_id, version) VALUES ($1, 1)
        ON CONFLICT (account_id) DO UPDATE SET version = v.version + 1
        RETURNING account_id)
      SELECT pg_notify('${POLICY_CHANNEL}', v.account_id) FROM v`,
  },
  // Same lock and bump, and moves the rule counter: to the next number, or up to an explicit one.
  claimRuleNumber: {
    name: 'vigil_policy_claim_rule_number',
    text: `
      WITH v AS (
        INSERT INTO policy_versions AS v (account_id, version, last_rule_number)
        VALUES ($1, 1, COALESCE($2::bigint, ${FIRST_RULE_NUMBER}))
        ON CONFLICT (account_id) DO UPDATE SET
          version = v.version + 1,
          last_rule_number = CASE WHEN $2::bigint IS NULL THEN v.last_rule_number + 1 ELSE GREATEST(v.last_rule_number, $2::bigint) END
        RETURNING account_id, last_rule_number)
      SELECT v.last_rule_number::text AS last_rule_number, pg_notify('${POLICY_CHANNEL}', v.account_id) AS notified FROM v`,
  },
  insertRule: {
    name: 'vigil_policy_insert_rule',
    text: `
      INSERT INTO custom_rules (account_id, id, number, title, rule_group, enabled, conditions, action, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10)
      ON CONFLICT DO NOTHING
      RETURNING ${RULE_COLUMNS}`,
  },
  replaceRule: {
    name: 'vigil_policy_replace_rule',
    text: `
      UPDATE custom_rules SET
        title = $4, rule_group = $5, enabled = $6, conditions = $7::jsonb, action = $8::jsonb, created_at = $9, updated_at = $10
      WHERE account_id = $1 AND id = $2 AND number = $3`,
  },
  deleteRule: { name: 'vigil_policy_delete_rule', text: 'DELETE FROM custom_rules WHERE account_id = $1 AND id = $2' },
  listRules: { name: 'vigil_policy_list_rules', text: `SELECT ${RULE_COLUMNS} FROM custom_rules WHERE account_id = $1 ORDER BY number` },
  getRule: { name: 'vigil_policy_get_rule', text: `SELECT ${RULE_COLUMNS} FROM custom_rules WHERE account_id = $1 AND id = $2` },

  addEntries: {
    name: 'vigil_policy_add_entries',
    text: `
      INSERT INTO blacklist_entries (account_id, type, value, note, created_at)
      SELECT $1, e.type, e.value, e.note, e.created_at
      FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS e (type, value, note, created_at)
      ON CONFLICT DO NOTHING`,
  },
  removeEntries: {
    name: 'vigil_policy_remove_entries',
    text: 'DELETE FROM blacklist_entries WHERE account_id = $1 AND type = $2 AND value = ANY ($3::text[])',
  },
  // One statement per shape, each a range of the primary key: a generic plan with "$n IS NULL OR ..." could not
  // use the index and would rescan the skipped rows on every page.
  listAll: {
    name: 'vigil_policy_list_all',
    text: `SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = $1 ORDER BY type, value LIMIT $2`,
  },
  listAllAfter: {
    name: 'vigil_policy_list_all_after',
    text: `
      SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = $1 AND (type, value) > ($2, $3)
      ORDER BY type, value LIMIT $4`,
  },
  listType: {
    name: 'vigil_policy_list_type',
    text: `SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = $1 AND type = $2 ORDER BY type, value LIMIT $3`,
  },
  listTypeAfter: {
    name: 'vigil_policy_list_type_after',
    text: `
      SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = $1 AND type = $2 AND value > $3
      ORDER BY type, value LIMIT $4`,
  },
  count: {
    name: 'vigil_policy_count',
    text: 'SELECT type, count(*)::text AS count FROM blacklist_entries WHERE account_id = $1 GROUP BY type',
  },
  valuesFirst: {
    name: 'vigil_policy_values_first',
    text: 'SELECT type, value FROM blacklist_entries WHERE account_id = $1 ORDER BY type, value LIMIT $2',
  },
  valuesAfter: {
    name: 'vigil_policy_values_after',
    text: 'SELECT type, value FROM blacklist_entries WHERE account_id = $1 AND (type, value) > ($2, $3) ORDER BY type, value LIMIT $4',
  },
} as const;

/**
 * After a change of this many entries the table is analysed at once. Until autovacuum's next pass, the planner
 * would otherwise take a freshly imported big list for a handful of rows and sort the whole list for each page
 * (measured: 0.5 s instead of 25 ms per 50,000-entry page of a 1,000,000-entry list).
 */
const ANALYZE_AFTER = WRITE_CHUNK;

/** Thrown inside a change's transaction when it changed nothing: rolls the version bump back. */
class NoChange extends Error {}

/**
 * Custom rules, blacklists and the policy version on PostgreSQL. Every change first upserts the account's
 * `policy_versions` row (bumping the version and locking the row until commit), so concurrent changes of one
 * account, from any instance, run one after the other and each commits with its own version.
 */
export class PostgresPolicy implements PolicyPort {
  constructor(private readonly pool: Pool) {}

  async version(accountId: string): Promise<number> {
    const { rows } = await this.pool.query<{ version: string }>({ ...Q.version, values: [accountId] });
    return rows[0] ? bigintCount(rows[0].version) : 0;
  }

  async listRules(accountId: string): Promise<CustomRule[]> {
    const { rows } = await this.pool.query<RuleRow>({ ...Q.listRules, values: [accountId] });
    return rows.map(toRule);
  }

  async getRule(accountId: string, id: string): Promise<CustomRule | null> {
    const { rows } = await this.pool.query<RuleRow>({ ...Q.getRule, values: [accountId, id] });
    return rows[0] ? toRule(rows[0]) : null;
  }

  async insertRule(accountId: string, rule: CustomRule): Promise<CustomRule> {
    const explicit = rule.id === '' ? null : ruleNumber(rule.id);
    const values = ruleValues(rule);
    const row = await withTransaction(this.pool, async (client) => {
      const claimed = await client.query<{ last_rule_number: string }>({ ...Q.claimRuleNumber, values: [accountId, explicit] });
      const last = claimed.rows[0];
      if (!last) throw new Error('policy version upsert returned no row');
      const number = explicit ?? bigintCount(last.last_rule_number);
      const inserted = await client.query<RuleRow>({ ...Q.insertRule, values: ruleParams(accountId, number, values) });
      // Throwing rolls the counter and version back with the failed insert.
      const stored = inserted.rows[0];
      if (!stored) throw new PolicyConflictError(accountId, ruleId(number));
      return stored;
    });
    return toRule(row);
  }

  async replaceRule(accountId: string, rule: CustomRule): Promise<boolean> {
    const number = ruleNumberOrNull(rule.id);
    if (number === null) return false;
    const params = ruleParams(accountId, number, ruleValues(rule));
    const changed = await this.#change(accountId, async (client) => (await client.query({ ...Q.replaceRule, values: params })).rowCount ?? 0);
    return changed > 0;
  }

  async deleteRule(accountId: string, id: string): Promise<boolean> {
    const changed = await this.#change(accountId, async (client) => (await client.query({ ...Q.deleteRule, values: [accountId, id] })).rowCount ?? 0);
    return changed > 0;
  }

  async addBlacklist(accountId: string, entries: BlacklistEntry[]): Promise<number> {
    const { types, values, notes, createdAts } = blacklistColumns(entries);
    if (values.length === 0) return 0;
    const added = await this.#change(accountId, async (client) => {
      let added = 0;
      for (let start = 0; start < values.length; start += WRITE_CHUNK) {
        const end = start + WRITE_CHUNK;
        const result = await client.query({
          ...Q.addEntries,
          values: [accountId, types.slice(start, end), values.slice(start, end), notes.slice(start, end), createdAts.slice(start, end)],
        });
        added += result.rowCount ?? 0;
      }
      return added;
    });
    await this.#analyzeAfter(added);
    return added;
  }

  async removeBlacklist(accountId: string, type: BlacklistType, values: string[]): Promise<number> {
    const checkedType = blacklistType(type);
    if (values.length === 0) return 0;
    const removed = await this.#change(accountId, async (client) => {
      // Each value is one probe of the primary key. With stale statistics (a list imported moments ago) the
      // planner would rather scan the account's whole type and test every row against the array.
      await client.query('SET LOCAL enable_bitmapscan = off');
      let removed = 0;
      for (let start = 0; start < values.length; start += WRITE_CHUNK) {
        const result = await client.query({ ...Q.removeEntries, values: [accountId, checkedType, values.slice(start, start + WRITE_CHUNK)] });
        removed += result.rowCount ?? 0;
      }
      return removed;
    });
    await this.#analyzeAfter(removed);
    return removed;
  }

  async listBlacklist(
    accountId: string,
    opts: { type?: BlacklistType; limit?: number; after?: { type: BlacklistType; value: string } },
  ): Promise<BlacklistEntry[]> {
    const limit = listLimit(opts.limit);
    const { type, after } = opts;
    let query: { name: string; text: string; values: unknown[] };
    if (type === undefined) {
      query = after ? { ...Q.listAllAfter, values: [accountId, after.type, after.value, limit] } : { ...Q.listAll, values: [accountId, limit] };
    } else {
      const checked = blacklistType(type);
      const value = valueAfterWithinType(checked, after);
      if (value === null) return [];
      query = value === undefined ? { ...Q.listType, values: [accountId, checked, limit] } : { ...Q.listTypeAfter, values: [accountId, checked, value, limit] };
    }
    const { rows } = await this.pool.query<BlacklistRow>(query);
    return rows.map(toBlacklistEntry);
  }

  async countBlacklist(accountId: string): Promise<Partial<Record<BlacklistType, number>>> {
    const { rows } = await this.pool.query<{ type: string; count: string }>({ ...Q.count, values: [accountId] });
    const counts: Partial<Record<BlacklistType, number>> = {};
    for (const row of rows) counts[blacklistType(row.type)] = bigintCount(row.count);
    return counts;
  }

  /**
   * Reads keyset pages inside one REPEATABLE READ transaction: every page sees the same snapshot. Each page must
   * be a walk of the primary key from the last pair on; sorts and bitmap scans are ruled out so stale statistics
   * cannot turn each page into a sort of the whole list.
   */
  async allBlacklistValues(accountId: string): Promise<Array<[BlacklistType, string]>> {
    return withTransaction(this.pool, async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off');
      const pairs: Array<[BlacklistType, string]> = [];
      let last: unknown[] | undefined;
      for (;;) {
        const page = await client.query<unknown[]>({
          ...(last ? Q.valuesAfter : Q.valuesFirst),
          values: last ? [accountId, last[0], last[1], READ_PAGE] : [accountId, READ_PAGE],
          rowMode: 'array',
        });
        for (const row of page.rows) {
          const [type, value] = row;
          if (row.length !== 2 || typeof type !== 'string' || typeof value !== 'string' || !isBlacklistType(type)) {
            throw new Error(`unexpected blacklist row in database: ${JSON.stringify(row)}`);
          }
          pairs.push([type, value]);
        }
        if (page.rows.length < READ_PAGE) return pairs;
        last = page.rows[page.rows.length - 1];
      }
    });
  }

  async #analyzeAfter(changed: number): Promise<void> {
    if (changed < ANALYZE_AFTER) return;
    try {
      await this.pool.query('ANALYZE blacklist_entries');
    } catch {
      // Only an optimisation: the change is committed, and autovacuum analyses the table later anyway.
    }
  }

  /** Runs one change after the version bump; rolls everything back when it changed nothing. Returns what it changed. */
  async #change(accountId: string, work: (client: PoolClient) => Promise<number>): Promise<number> {
    try {
      return await withTransaction(this.pool, async (client) => {
        await client.query({ ...Q.bump, values: [accountId] });
        const changed = await work(client);
        if (changed === 0) throw new NoChange();
        return changed;
      });
    } catch (error) {
      if (error instanceof NoChange) return 0;
      throw error;
    }
  }
}

function ruleParams(accountId: string, number: number, values: RuleValues): unknown[] {
  return [
    accountId,
    ruleId(number),
    number,
    values.title,
    values.group,
    values.enabled,
    values.conditions,
    values.action,
    values.createdAt,
    values.updatedAt,
  ];
}
