import { randomUUID } from 'node:crypto';
import type { Account, AccountSettings, ApiKeyRecord, KeyKind, Plan, Store, Subscription } from '../store/ports.ts';
import { invalidHostEntry } from './authorized-hosts.ts';
import { BUILTIN_PLANS } from './plans.ts';
import { generateKey, hashKey, keyKind, newKeyId } from './keys.ts';
import { ID_PATTERN, ID_RULE, type Seed } from './seed.ts';

/** A failure an operator caused (unknown plan, bad host entry...); CLI and admin API show its message. */
export class AccountsError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

export interface NewAccount {
  id?: string | undefined;
  plan: string;
  status?: 'active' | 'inactive' | undefined;
  subscription?: Subscription | null | undefined;
  authorizedHosts?: string[] | undefined;
  settings?: Partial<AccountSettings> | undefined;
}

export type AccountPatch = Partial<Omit<NewAccount, 'id'>>;

export interface ResolvedKey {
  key: ApiKeyRecord;
  account: Account;
  plan: Plan;
}

const DEFAULT_SETTINGS: AccountSettings = { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 100 };

/** Accounts, plans and keys: the operations shared by the CLI, the admin API and bootstrap. */
export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly secret: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates the built-in plans that are missing; an operator's edits to one are kept across restarts. */
  async ensureBuiltinPlans(): Promise<void> {
    const existing = new Set((await this.store.accounts.listPlans()).map((p) => p.id));
    for (const plan of BUILTIN_PLANS) {
      if (!existing.has(plan.id)) await this.store.accounts.upsertPlan({ ...plan, methods: [...plan.methods], modules: [...plan.modules] });
    }
  }

  listPlans(): Promise<Plan[]> {
    return this.store.accounts.listPlans();
  }

  async upsertPlan(plan: Plan): Promise<void> {
    await this.store.accounts.upsertPlan(plan);
  }

  listAccounts(): Promise<Account[]> {
    return this.store.accounts.listAccounts();
  }

  async getAccount(id: string): Promise<Account> {
    const account = await this.store.accounts.getAccount(id);
    if (!account) throw new AccountsError('not_found', `no account with id "${id}"`);
    return account;
  }

  async createAccount(input: NewAccount): Promise<Account> {
    const id = input.id ?? `acct_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    if (!ID_PATTERN.test(id)) throw new AccountsError('invalid', `account ${ID_RULE}`);
    const account: Account = {
      id,
      status: input.status ?? 'active',
      planId: input.plan,
      subscription: input.subscription === undefined ? { expiresAt: null } : input.subscription,
      authorizedHosts: input.authorizedHosts ?? [],
      settings: { ...DEFAULT_SETTINGS, ...input.settings },
      createdAt: this.now().toISOString(),
    };
    await this.validate(account);
    const stored = this.normalise(account);
    if (!(await this.store.accounts.insertAccount(stored))) throw new AccountsError('conflict', `account "${id}" already exists`);
    return stored;
  }

  async updateAccount(id: string, patch: AccountPatch): Promise<Account> {
    const current = await this.getAccount(id);
    const next: Account = {
      ...current,
      status: patch.status ?? current.status,
      planId: patch.plan ?? current.planId,
      subscription: patch.subscription === undefined ? current.subscription : patch.subscription,
      authorizedHosts: patch.authorizedHosts ?? current.authorizedHosts,
      settings: { ...current.settings, ...patch.settings },
    };
    await this.validate(next);
    const stored = this.normalise(next);
    await this.store.accounts.upsertAccount(stored);
    return stored;
  }

  disableAccount(id: string): Promise<Account> {
    return this.updateAccount(id, { status: 'inactive' });
  }

  /** Creates a random key; the plaintext is returned once and never stored. */
  async createKey(accountId: string, kind: KeyKind): Promise<{ key: string; record: ApiKeyRecord }> {
    await this.getAccount(accountId);
    const key = generateKey(kind);
    const record = this.keyRecord(accountId, key, kind);
    await this.store.accounts.addKey(record);
    return { key, record };
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    await this.getAccount(accountId);
    return this.store.accounts.listKeys(accountId);
  }

  async revokeKey(keyId: string): Promise<void> {
    if (!(await this.store.accounts.revokeKey(keyId, this.now().toISOString()))) {
      throw new AccountsError('not_found', `no active key with id "${keyId}"`);
    }
  }

  /** Key, account and plan for a plaintext key; null when unknown, revoked or malformed. */
  async resolveKey(plaintext: string): Promise<ResolvedKey | null> {
    if (keyKind(plaintext) === null) return null;
    const key = await this.store.accounts.findKeyByHash(hashKey(this.secret, plaintext));
    if (!key || key.revokedAt !== null) return null;
    const account = await this.store.accounts.getAccount(key.accountId);
    if (!account) return null;
    const plan = await this.store.accounts.getPlan(account.planId);
    if (!plan) return null;
    return { key, account, plan };
  }

  /** Loads a seed idempotently: plans and accounts are upserted, known keys are left as they are. */
  async applySeed(seed: Seed): Promise<{ plans: number; accounts: number; keysAdded: number }> {
    for (const p of seed.plans) await this.store.accounts.upsertPlan(p);
    let keysAdded = 0;
    for (const a of seed.accounts) {
      const existing = await this.store.accounts.getAccount(a.id);
      const account: Account = {
        id: a.id,
        status: a.status,
        planId: a.plan,
        subscription: a.subscription,
        authorizedHosts: a.authorizedHosts,
        settings: a.settings,
        createdAt: existing?.createdAt ?? this.now().toISOString(),
      };
      await this.validate(account);
      await this.store.accounts.upsertAccount(account);
      for (const key of a.keys) {
        const kind = keyKind(key);
        if (kind === null) throw new AccountsError('invalid', `seed key for "${a.id}" has no svc_live_/svc_test_ prefix`);
        const existingKey = await this.store.accounts.findKeyByHash(hashKey(this.secret, key));
        if (existingKey && existingKey.accountId !== a.id) {
          throw new AccountsError('conflict', `a seed key of "${a.id}" already belongs to account "${existingKey.accountId}"`);
        }
        if (await this.store.accounts.addKey(this.keyRecord(a.id, key, kind))) keysAdded++;
      }
    }
    return { plans: seed.plans.length, accounts: seed.accounts.length, keysAdded };
  }

  private keyRecord(accountId: string, key: string, kind: KeyKind): ApiKeyRecord {
    return {
      id: newKeyId(),
      accountId,
      hash: hashKey(this.secret, key),
      kind,
      hint: key.slice(-4),
      createdAt: this.now().toISOString(),
      revokedAt: null,
    };
  }

  /** Stored form of an expiry (what the store gives back), so every answer shows the same text. */
  private normalise(account: Account): Account {
    const exp = account.subscription?.expiresAt;
    if (exp == null || Number.isNaN(Date.parse(exp))) return account;
    return { ...account, subscription: { expiresAt: new Date(exp).toISOString() } };
  }

  private async validate(account: Account): Promise<void> {
    if (!(await this.store.accounts.getPlan(account.planId))) {
      throw new AccountsError('invalid', `unknown plan "${account.planId}"`);
    }
    for (const h of account.authorizedHosts) {
      const why = invalidHostEntry(h);
      if (why) throw new AccountsError('invalid', `authorized host ${why}`);
    }
    const exp = account.subscription?.expiresAt;
    if (exp != null && Number.isNaN(Date.parse(exp))) throw new AccountsError('invalid', `subscription.expiresAt "${exp}" is not a date`);
    if (!Number.isInteger(account.settings.dailyDeletionLimit) || account.settings.dailyDeletionLimit < 0) {
      throw new AccountsError('invalid', 'settings.dailyDeletionLimit must be a non-negative integer');
    }
  }
}
