import type { Pool } from 'pg';
import type { Account, AccountsPort, ApiKeyRecord, Plan } from '../ports.ts';
import { withTransaction } from './transaction.ts';
import {
  accountStatus,
  bigintCount,
  bigintCountOrNull,
  decodeSettings,
  decodeStringList,
  isoSql,
  isoTimestamp,
  isoTimestampOrNull,
} from './values.ts';
import { type KeyRow, toKey } from '../rows.ts';

interface PlanRow {
  id: string;
  methods: unknown;
  modules: unknown;
  monthly_quota: string | null;
  flood_limit: number;
  flood_window_seconds: number;
}

interface AccountRow {
  id: string;
  status: string;
  plan_id: string;
  subscribed: boolean;
  subscription_expires_at: string | null;
  settings: unknown;
  created_at: string;
  hosts: unknown;
}


const PLAN_COLUMNS = 'id, methods, modules, monthly_quota::text AS monthly_quota, flood_limit, flood_window_seconds';

const SELECT_ACCOUNT = `
  SELECT a.id, a.status, a.plan_id, a.subscribed, a.settings,
         ${isoSql('a.subscription_expires_at')} AS subscription_expires_at,
         ${isoSql('a.created_at')} AS created_at,
         COALESCE((SELECT array_agg(h.host ORDER BY h.ordinal) FROM account_hosts h WHERE h.account_id = a.id), '{}') AS hosts
  FROM accounts a`;

const KEY_COLUMNS = `id, account_id, hash, kind, hint, ${isoSql('created_at')} AS created_at, ${isoSql('revoked_at')} AS revoked_at`;

// Named statements are parsed once per pooled connection. ORDER BY ... COLLATE "C" sorts by code point,
// as SQLite does, whatever the database's collation.
const Q = {
  upsertPlan: {
    name: 'vigil_upsert_plan',
    text: `
      INSERT INTO plans (id, methods, modules, monthly_quota, flood_limit, flood_window_seconds)
      VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $6)
      ON CONFLICT (id) DO UPDATE SET
        methods = EXCLUDED.methods, modules = EXCLUDED.modules, monthly_quota = EXCLUDED.monthly_quota,
        flood_limit = EXCLUDED.flood_limit, flood_window_seconds = EXCLUDED.flood_window_seconds`,
  },
  getPlan: { name: 'vigil_get_plan', text: `SELECT ${PLAN_COLUMNS} FROM plans WHERE id = $1` },
  listPlans: { name: 'vigil_list_plans', text: `SELECT ${PLAN_COLUMNS} FROM plans ORDER BY id COLLATE "C"` },
  upsertAccount: {
    name: 'vigil_upsert_account',
    text: `
      INSERT INTO accounts (id, status, plan_id, subscribed, subscription_expires_at, settings, created_at)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
      ON CONFLICT (id) DO UPDATE SET
        status = EXCLUDED.status, plan_id = EXCLUDED.plan_id, subscribed = EXCLUDED.subscribed,
        subscription_expires_at = EXCLUDED.subscription_expires_at, settings = EXCLUDED.settings,
        created_at = EXCLUDED.created_at`,
  },
  insertAccount: {
    name: 'vigil_insert_account',
    text: `
      INSERT INTO accounts (id, status, plan_id, subscribed, subscription_expires_at, settings, created_at)
      VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
      ON CONFLICT (id) DO NOTHING`,
  },
  deleteHosts: { name: 'vigil_delete_hosts', text: 'DELETE FROM account_hosts WHERE account_id = $1' },
  insertHosts: {
    name: 'vigil_insert_hosts',
    text: `
      INSERT INTO account_hosts (account_id, ordinal, host)
      SELECT $1, t.ordinal - 1, t.host FROM unnest($2::text[]) WITH ORDINALITY AS t (host, ordinal)`,
  },
  getAccount: { name: 'vigil_get_account', text: `${SELECT_ACCOUNT} WHERE a.id = $1` },
  listAccounts: { name: 'vigil_list_accounts', text: `${SELECT_ACCOUNT} ORDER BY a.id COLLATE "C"` },
  countAccounts: { name: 'vigil_count_accounts', text: 'SELECT count(*)::text AS count FROM accounts' },
  addKey: {
    name: 'vigil_add_key',
    text: `
      INSERT INTO api_keys (id, account_id, hash, kind, hint, created_at, revoked_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT DO NOTHING`,
  },
  findKeyByHash: { name: 'vigil_find_key_by_hash', text: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1` },
  listKeys: {
    name: 'vigil_list_keys',
    text: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY api_keys.created_at, id COLLATE "C"`,
  },
  revokeKey: { name: 'vigil_revoke_key', text: 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL' },
} as const;

export class PostgresAccounts implements AccountsPort {
  constructor(private readonly pool: Pool) {}

  async upsertPlan(plan: Plan): Promise<void> {
    await this.pool.query({
      ...Q.upsertPlan,
      // JSON.stringify by hand: pg would send a JS array as a PostgreSQL array literal, not JSON.
      values: [plan.id, JSON.stringify(plan.methods), JSON.stringify(plan.modules), plan.monthlyQuota, plan.flood.limit, plan.flood.windowSeconds],
    });
  }

  async getPlan(id: string): Promise<Plan | null> {
    const { rows } = await this.pool.query<PlanRow>({ ...Q.getPlan, values: [id] });
    return rows[0] ? toPlan(rows[0]) : null;
  }

  async listPlans(): Promise<Plan[]> {
    const { rows } = await this.pool.query<PlanRow>(Q.listPlans);
    return rows.map(toPlan);
  }

  async upsertAccount(account: Account): Promise<void> {
    const values = accountValues(account);
    // The account upsert locks its row first, so concurrent upserts of one account replace hosts one at a time.
    await withTransaction(this.pool, async (client) => {
      await client.query({ ...Q.upsertAccount, values });
      await client.query({ ...Q.deleteHosts, values: [account.id] });
      await client.query({ ...Q.insertHosts, values: [account.id, account.authorizedHosts] });
    });
  }

  async insertAccount(account: Account): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      const inserted = await client.query({ ...Q.insertAccount, values: accountValues(account) });
      if (inserted.rowCount === 0) return false;
      await client.query({ ...Q.insertHosts, values: [account.id, account.authorizedHosts] });
      return true;
    });
  }

  async getAccount(id: string): Promise<Account | null> {
    const { rows } = await this.pool.query<AccountRow>({ ...Q.getAccount, values: [id] });
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async listAccounts(): Promise<Account[]> {
    const { rows } = await this.pool.query<AccountRow>(Q.listAccounts);
    return rows.map(toAccount);
  }

  async countAccounts(): Promise<number> {
    const { rows } = await this.pool.query<{ count: string }>(Q.countAccounts);
    return bigintCount(rows[0]?.count ?? '0');
  }

  async addKey(key: ApiKeyRecord): Promise<boolean> {
    const result = await this.pool.query({
      ...Q.addKey,
      values: [key.id, key.accountId, key.hash, key.kind, key.hint, isoTimestamp(key.createdAt), isoTimestampOrNull(key.revokedAt)],
    });
    return (result.rowCount ?? 0) > 0;
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.pool.query<KeyRow>({ ...Q.findKeyByHash, values: [hash] });
    return rows[0] ? toKey(rows[0]) : null;
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.pool.query<KeyRow>({ ...Q.listKeys, values: [accountId] });
    return rows.map(toKey);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    const result = await this.pool.query({ ...Q.revokeKey, values: [isoTimestamp(at), id] });
    return (result.rowCount ?? 0) > 0;
  }
}

function accountValues(account: Account): unknown[] {
  return [
    account.id,
    account.status,
    account.planId,
    account.subscription !== null,
    isoTimestampOrNull(account.subscription?.expiresAt ?? null),
    JSON.stringify(account.settings),
    isoTimestamp(account.createdAt),
  ];
}

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    methods: decodeStringList(row.methods),
    modules: decodeStringList(row.modules),
    monthlyQuota: bigintCountOrNull(row.monthly_quota),
    flood: { limit: row.flood_limit, windowSeconds: row.flood_window_seconds },
  };
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    status: accountStatus(row.status),
    planId: row.plan_id,
    subscription: row.subscribed ? { expiresAt: row.subscription_expires_at } : null,
    authorizedHosts: decodeStringList(row.hosts),
    settings: decodeSettings(row.settings),
    createdAt: row.created_at,
  };
}

