import type { Database } from 'better-sqlite3';
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
  ruleId,
  ruleNumber,
  ruleNumberOrNull,
  type RuleValues,
  ruleValues,
  toBlacklistEntry,
  toRule,
  valueAfterWithinType,
} from '../policy-rows.ts';
import { settle } from './values.ts';

interface SqliteRuleRow {
  id: string;
  title: string;
  rule_group: string;
  enabled: number;
  conditions: string;
  action: string;
  created_at: string;
  updated_at: string;
}

interface RuleParams {
  account_id: string;
  id: string;
  number: number;
  title: string;
  rule_group: string;
  enabled: number;
  conditions: string;
  action: string;
  created_at: string;
  updated_at: string;
}

const RULE_COLUMNS = 'id, title, rule_group, enabled, conditions, action, created_at, updated_at';
const ENTRY_COLUMNS = 'type, value, note, created_at';

/** Prepared once, on first use: the tables exist only after migrate(). */
function prepare(db: Database) {
  return {
    version: db.prepare<[string], number>('SELECT version FROM policy_versions WHERE account_id = ?').pluck(),
    bump: db.prepare<[string]>(`
      INSERT INTO policy_versions (account_id, version) VALUES (?, 1)
      ON CONFLICT (account_id) DO UPDATE SET version = version + 1`),
    // Bumps the version and moves the rule counter: to the next number, or up to an explicit one.
    claimRuleNumber: db
      .prepare<{ account_id: string; explicit: number | null }, number>(`
        INSERT INTO policy_versions (account_id, version, last_rule_number)
        VALUES (@account_id, 1, coalesce(@explicit, ${FIRST_RULE_NUMBER}))
        ON CONFLICT (account_id) DO UPDATE SET
          version = version + 1,
          last_rule_number = CASE WHEN @explicit IS NULL THEN last_rule_number + 1 ELSE max(last_rule_number, @explicit) END
        RETURNING last_rule_number`)
      .pluck(),
    insertRule: db.prepare<RuleParams, SqliteRuleRow>(`
      INSERT INTO custom_rules (account_id, id, number, title, rule_group, enabled, conditions, action, created_at, updated_at)
      VALUES (@account_id, @id, @number, @title, @rule_group, @enabled, @conditions, @action, @created_at, @updated_at)
      ON CONFLICT DO NOTHING
      RETURNING ${RULE_COLUMNS}`),
    replaceRule: db.prepare<RuleParams>(`
      UPDATE custom_rules SET
        title = @title, rule_group = @rule_group, enabled = @enabled, conditions = @conditions, action = @action,
        created_at = @created_at, updated_at = @updated_at
      WHERE account_id = @account_id AND id = @id`),
    deleteRule: db.prepare<[string, string]>('DELETE FROM custom_rules WHERE account_id = ? AND id = ?'),
    listRules: db.prepare<[string], SqliteRuleRow>(`SELECT ${RULE_COLUMNS} FROM custom_rules WHERE account_id = ? ORDER BY number`),
    getRule: db.prepare<[string, string], SqliteRuleRow>(`SELECT ${RULE_COLUMNS} FROM custom_rules WHERE account_id = ? AND id = ?`),

    addEntry: db.prepare<[string, string, string, string | null, string]>(`
      INSERT INTO blacklist_entries (account_id, type, value, note, created_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING`),
    removeEntry: db.prepare<[string, string, string]>('DELETE FROM blacklist_entries WHERE account_id = ? AND type = ? AND value = ?'),
    // One statement per shape, each a range of the primary key (keyset pagination never scans skipped rows).
    listAll: db.prepare<[string, number], BlacklistRow>(`
      SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = ?
      ORDER BY type, value LIMIT ?`),
    listAllAfter: db.prepare<[string, string, string, number], BlacklistRow>(`
      SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = ? AND (type, value) > (?, ?)
      ORDER BY type, value LIMIT ?`),
    listType: db.prepare<[string, string, number], BlacklistRow>(`
      SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = ? AND type = ?
      ORDER BY type, value LIMIT ?`),
    listTypeAfter: db.prepare<[string, string, string, number], BlacklistRow>(`
      SELECT ${ENTRY_COLUMNS} FROM blacklist_entries WHERE account_id = ? AND type = ? AND value > ?
      ORDER BY type, value LIMIT ?`),
    count: db.prepare<[string], { type: string; count: number }>(`
      SELECT type, count(*) AS count FROM blacklist_entries WHERE account_id = ? GROUP BY type`),
    allValues: db.prepare<[string], unknown[]>('SELECT type, value FROM blacklist_entries WHERE account_id = ? ORDER BY type, value').raw(),
  };
}

type Statements = ReturnType<typeof prepare>;

/**
 * Custom rules, blacklists and the policy version on SQLite. Every write runs in an IMMEDIATE transaction: the
 * file's write lock is taken before anything is read, so two processes cannot both claim a rule number, and the
 * version bump commits with the change it counts.
 */
export class SqlitePolicy implements PolicyPort {
  #statements: Statements | undefined;
  readonly #insertRule: { immediate(accountId: string, values: RuleValues, explicit: number | null): SqliteRuleRow };
  readonly #change: { immediate(accountId: string, work: () => number): number };

  constructor(private readonly db: Database) {
    this.#insertRule = db.transaction((accountId: string, values: RuleValues, explicit: number | null): SqliteRuleRow => {
      const s = this.statements;
      const claimed = s.claimRuleNumber.get({ account_id: accountId, explicit });
      if (claimed === undefined) throw new Error('policy version upsert returned no row');
      const number = explicit ?? claimed;
      const row = s.insertRule.get(ruleParams(accountId, number, values));
      // Throwing rolls the counter and version back with the failed insert.
      if (row === undefined) throw new PolicyConflictError(accountId, ruleId(number));
      return row;
    });
    // Runs one change; bumps the version when it changed anything.
    this.#change = db.transaction((accountId: string, work: () => number): number => {
      const changed = work();
      if (changed > 0) this.statements.bump.run(accountId);
      return changed;
    });
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  version(accountId: string): Promise<number> {
    return settle(() => this.statements.version.get(accountId) ?? 0);
  }

  listRules(accountId: string): Promise<CustomRule[]> {
    return settle(() => this.statements.listRules.all(accountId).map(fromSqlite));
  }

  getRule(accountId: string, id: string): Promise<CustomRule | null> {
    return settle(() => {
      const row = this.statements.getRule.get(accountId, id);
      return row ? fromSqlite(row) : null;
    });
  }

  insertRule(accountId: string, rule: CustomRule): Promise<CustomRule> {
    return settle(() => {
      const explicit = rule.id === '' ? null : ruleNumber(rule.id);
      return fromSqlite(this.#insertRule.immediate(accountId, ruleValues(rule), explicit));
    });
  }

  replaceRule(accountId: string, rule: CustomRule): Promise<boolean> {
    return settle(() => {
      const number = ruleNumberOrNull(rule.id);
      if (number === null) return false;
      const params = ruleParams(accountId, number, ruleValues(rule));
      return this.#change.immediate(accountId, () => this.statements.replaceRule.run(params).changes) > 0;
    });
  }

  deleteRule(accountId: string, id: string): Promise<boolean> {
    return settle(() => this.#change.immediate(accountId, () => this.statements.deleteRule.run(accountId, id).changes) > 0);
  }

  addBlacklist(accountId: string, entries: BlacklistEntry[]): Promise<number> {
    return settle(() => {
      const { types, values, notes, createdAts } = blacklistColumns(entries);
      if (values.length === 0) return 0;
      const add = this.statements.addEntry;
      return this.#change.immediate(accountId, () => {
        let added = 0;
        for (let i = 0; i < values.length; i++) added += add.run(accountId, types[i] ?? '', values[i] ?? '', notes[i] ?? null, createdAts[i] ?? '').changes;
        return added;
      });
    });
  }

  removeBlacklist(accountId: string, type: BlacklistType, values: string[]): Promise<number> {
    return settle(() => {
      const checkedType = blacklistType(type);
      if (values.length === 0) return 0;
      const remove = this.statements.removeEntry;
      return this.#change.immediate(accountId, () => {
        let removed = 0;
        for (const value of values) removed += remove.run(accountId, checkedType, value).changes;
        return removed;
      });
    });
  }

  listBlacklist(
    accountId: string,
    opts: { type?: BlacklistType; limit?: number; after?: { type: BlacklistType; value: string } },
  ): Promise<BlacklistEntry[]> {
    return settle(() => {
      const s = this.statements;
      const limit = listLimit(opts.limit);
      const { type, after } = opts;
      let rows: BlacklistRow[];
      if (type === undefined) {
        rows = after ? s.listAllAfter.all(accountId, after.type, after.value, limit) : s.listAll.all(accountId, limit);
      } else {
        const checked = blacklistType(type);
        const value = valueAfterWithinType(checked, after);
        if (value === null) rows = [];
        else rows = value === undefined ? s.listType.all(accountId, checked, limit) : s.listTypeAfter.all(accountId, checked, value, limit);
      }
      return rows.map(toBlacklistEntry);
    });
  }

  countBlacklist(accountId: string): Promise<Partial<Record<BlacklistType, number>>> {
    return settle(() => {
      const counts: Partial<Record<BlacklistType, number>> = {};
      for (const row of this.statements.count.all(accountId)) counts[blacklistType(row.type)] = row.count;
      return counts;
    });
  }

  allBlacklistValues(accountId: string): Promise<Array<[BlacklistType, string]>> {
    return settle(() => {
      const pairs: Array<[BlacklistType, string]> = [];
      for (const [type, value] of this.statements.allValues.iterate(accountId)) {
        if (typeof type !== 'string' || typeof value !== 'string' || !isBlacklistType(type)) {
          throw new Error(`unexpected blacklist row in database: ${JSON.stringify([type, value])}`);
        }
        pairs.push([type, value]);
      }
      return pairs;
    });
  }
}

function ruleParams(accountId: string, number: number, values: RuleValues): RuleParams {
  return {
    account_id: accountId,
    id: ruleId(number),
    number,
    title: values.title,
    rule_group: values.group,
    enabled: values.enabled ? 1 : 0,
    conditions: values.conditions,
    action: values.action,
    created_at: values.createdAt,
    updated_at: values.updatedAt,
  };
}

function fromSqlite(row: SqliteRuleRow): CustomRule {
  return toRule({
    ...row,
    enabled: row.enabled === 1,
    conditions: JSON.parse(row.conditions) as unknown,
    action: JSON.parse(row.action) as unknown,
  });
}
