import type { Database } from 'better-sqlite3';
import type { Account, AccountsPort, ApiKeyRecord, Plan } from '../ports.ts';
import { accountStatus, decodeSettings, decodeStringList, isoTimestamp, isoTimestampOrNull, settle } from './values.ts';
import { type KeyRow, toKey } from '../rows.ts';

interface PlanRow {
  id: string;
  methods: string;
  modules: string;
  monthly_quota: number | null;
  flood_limit: number;
  flood_window_seconds: number;
}

interface AccountRow {
  id: string;
  status: string;
  plan_id: string;
  subscribed: number;
  subscription_expires_at: string | null;
  settings: string;
  created_at: string;
  /** JSON array of the authorized hosts in their original order. */
  hosts: string;
}

type AccountColumns = Omit<AccountRow, 'hosts'>;


const SELECT_ACCOUNT = `
  SELECT a.*, (SELECT json_group_array(h.host ORDER BY h.ordinal) FROM account_hosts h WHERE h.account_id = a.id) AS hosts
  FROM accounts a`;

/** Prepared once, on first use: the tables exist only after migrate(). */
function prepare(db: Database) {
  return {
    upsertPlan: db.prepare<PlanRow>(`
      INSERT INTO plans (id, methods, modules, monthly_quota, flood_limit, flood_window_seconds)
      VALUES (@id, @methods, @modules, @monthly_quota, @flood_limit, @flood_window_seconds)
      ON CONFLICT (id) DO UPDATE SET
        methods = excluded.methods, modules = excluded.modules, monthly_quota = excluded.monthly_quota,
        flood_limit = excluded.flood_limit, flood_window_seconds = excluded.flood_window_seconds`),
    getPlan: db.prepare<[string], PlanRow>('SELECT * FROM plans WHERE id = ?'),
    listPlans: db.prepare<[], PlanRow>('SELECT * FROM plans ORDER BY id'),
    // ON CONFLICT ... UPDATE rather than INSERT OR REPLACE: REPLACE deletes the row and would cascade to its keys.
    upsertAccount: db.prepare<AccountColumns>(`
      INSERT INTO accounts (id, status, plan_id, subscribed, subscription_expires_at, settings, created_at)
      VALUES (@id, @status, @plan_id, @subscribed, @subscription_expires_at, @settings, @created_at)
      ON CONFLICT (id) DO UPDATE SET
        status = excluded.status, plan_id = excluded.plan_id, subscribed = excluded.subscribed,
        subscription_expires_at = excluded.subscription_expires_at, settings = excluded.settings,
        created_at = excluded.created_at`),
    insertAccount: db.prepare<AccountColumns>(`
      INSERT INTO accounts (id, status, plan_id, subscribed, subscription_expires_at, settings, created_at)
      VALUES (@id, @status, @plan_id, @subscribed, @subscription_expires_at, @settings, @created_at)
      ON CONFLICT (id) DO NOTHING`),
    deleteHosts: db.prepare<[string]>('DELETE FROM account_hosts WHERE account_id = ?'),
    insertHost: db.prepare<[string, number, string]>('INSERT INTO account_hosts (account_id, ordinal, host) VALUES (?, ?, ?)'),
    getAccount: db.prepare<[string], AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = ?`),
    listAccounts: db.prepare<[], AccountRow>(`${SELECT_ACCOUNT} ORDER BY a.id`),
    countAccounts: db.prepare<[], number>('SELECT count(*) FROM accounts').pluck(),
    addKey: db.prepare<KeyRow>(`
      INSERT INTO api_keys (id, account_id, hash, kind, hint, created_at, revoked_at)
      VALUES (@id, @account_id, @hash, @kind, @hint, @created_at, @revoked_at)
      ON CONFLICT DO NOTHING`),
    findKeyByHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?'),
    listKeys: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
    revokeKey: db.prepare<[string, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  };
}

type Statements = ReturnType<typeof prepare>;

export class SqliteAccounts implements AccountsPort {
  #statements: Statements | undefined;
  readonly #replaceAccount: (account: Account) => void;
  readonly #insertAccount: (account: Account) => boolean;

  constructor(private readonly db: Database) {
    this.#replaceAccount = db.transaction((account: Account) => {
      const s = this.statements;
      s.upsertAccount.run(accountColumns(account));
      s.deleteHosts.run(account.id);
      account.authorizedHosts.forEach((host, ordinal) => s.insertHost.run(account.id, ordinal, host));
    });
    this.#insertAccount = db.transaction((account: Account) => {
      const s = this.statements;
      if (s.insertAccount.run(accountColumns(account)).changes === 0) return false;
      account.authorizedHosts.forEach((host, ordinal) => s.insertHost.run(account.id, ordinal, host));
      return true;
    });
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  upsertPlan(plan: Plan): Promise<void> {
    return settle(() => {
      this.statements.upsertPlan.run({
        id: plan.id,
        methods: JSON.stringify(plan.methods),
        modules: JSON.stringify(plan.modules),
        monthly_quota: plan.monthlyQuota,
        flood_limit: plan.flood.limit,
        flood_window_seconds: plan.flood.windowSeconds,
      });
    });
  }

  getPlan(id: string): Promise<Plan | null> {
    return settle(() => {
      const row = this.statements.getPlan.get(id);
      return row ? toPlan(row) : null;
    });
  }

  listPlans(): Promise<Plan[]> {
    return settle(() => this.statements.listPlans.all().map(toPlan));
  }

  upsertAccount(account: Account): Promise<void> {
    return settle(() => {
      this.#replaceAccount(account);
    });
  }

  insertAccount(account: Account): Promise<boolean> {
    return settle(() => this.#insertAccount(account));
  }

  getAccount(id: string): Promise<Account | null> {
    return settle(() => {
      const row = this.statements.getAccount.get(id);
      return row ? toAccount(row) : null;
    });
  }

  listAccounts(): Promise<Account[]> {
    return settle(() => this.statements.listAccounts.all().map(toAccount));
  }

  countAccounts(): Promise<number> {
    return settle(() => this.statements.countAccounts.get() ?? 0);
  }

  addKey(key: ApiKeyRecord): Promise<boolean> {
    return settle(() => {
      const result = this.statements.addKey.run({
        id: key.id,
        account_id: key.accountId,
        hash: key.hash,
        kind: key.kind,
        hint: key.hint,
        created_at: isoTimestamp(key.createdAt),
        revoked_at: isoTimestampOrNull(key.revokedAt),
      });
      return result.changes > 0;
    });
  }

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return settle(() => {
      const row = this.statements.findKeyByHash.get(hash);
      return row ? toKey(row) : null;
    });
  }

  listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return settle(() => this.statements.listKeys.all(accountId).map(toKey));
  }

  revokeKey(id: string, at: string): Promise<boolean> {
    return settle(() => this.statements.revokeKey.run(isoTimestamp(at), id).changes > 0);
  }
}

function accountColumns(account: Account): AccountColumns {
  return {
    id: account.id,
    status: account.status,
    plan_id: account.planId,
    subscribed: account.subscription === null ? 0 : 1,
    subscription_expires_at: isoTimestampOrNull(account.subscription?.expiresAt ?? null),
    settings: JSON.stringify(account.settings),
    created_at: isoTimestamp(account.createdAt),
  };
}

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    methods: decodeStringList(row.methods),
    modules: decodeStringList(row.modules),
    monthlyQuota: row.monthly_quota,
    flood: { limit: row.flood_limit, windowSeconds: row.flood_window_seconds },
  };
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    status: accountStatus(row.status),
    planId: row.plan_id,
    subscription: row.subscribed === 1 ? { expiresAt: row.subscription_expires_at } : null,
    authorizedHosts: decodeStringList(row.hosts),
    settings: decodeSettings(row.settings),
    createdAt: row.created_at,
  };
}

