import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/ports.ts';
import { AccountsError, type AccountService } from './service.ts';

export const BOOTSTRAP_FILE = 'bootstrap-keys.json';

export interface BootstrapResult {
  accountId: string;
  liveKey: string;
  testKey: string;
  file: string;
}

/**
 * First start with an empty store (decisions.md): one `premium` account with one live and one test
 * key, written to DATA_DIR/bootstrap-keys.json (0600); printed by bootstrapNotice once a server listens.
 * Single-shot across instances: the check and the creation run under the store's lock (a PostgreSQL advisory
 * lock), so replicas starting together on an empty database create one account and one pair of keys, and the
 * others find it there (null: their DATA_DIR gets no file).
 */
export async function bootstrapIfEmpty(store: Store, accounts: AccountService, dataDir: string): Promise<BootstrapResult | null> {
  if ((await store.accounts.countAccounts()) > 0) return null;
  return store.locks.withAccountLock('bootstrap', '*', async () => {
    if ((await store.accounts.countAccounts()) > 0) return null;
    let account;
    try {
      account = await accounts.createAccount({ id: 'default', plan: 'premium' });
    } catch (err) {
      // An account "default" made meanwhile by something that does not take the lock (the admin API).
      if (err instanceof AccountsError && err.kind === 'conflict') return null;
      throw err;
    }
    const live = await accounts.createKey(account.id, 'live');
    const test = await accounts.createKey(account.id, 'test');
    // DATA_DIR holds the store and its secrets: created for its owner only (an existing one keeps its mode).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const file = join(dataDir, BOOTSTRAP_FILE);
    const body = { accountId: account.id, plan: 'premium', liveKey: live.key, testKey: test.key, createdAt: account.createdAt };
    writeFileSync(file, JSON.stringify(body, null, 2) + '\n', { mode: 0o600 });
    return { accountId: account.id, liveKey: live.key, testKey: test.key, file };
  });
}

/** DATA_DIR/bootstrap-keys.json as written by bootstrapIfEmpty; `shownAt` once a started server printed it. */
interface BootstrapFile {
  accountId: string;
  liveKey: string;
  testKey: string;
  shownAt?: string;
}

/** What a server that is now listening tells about the first keys (null: no bootstrap file, nothing to say). */
export type BootstrapNotice =
  | { kind: 'keys'; accountId: string; liveKey: string; testKey: string; file: string }
  | { kind: 'where'; accountId: string; file: string };

/**
 * The first keys are printed by the first start that gets as far as listening, not by the start that created
 * them: that one can still fail after the store is written (port busy, bad HOST) and its keys would be lost
 * from view. Afterwards, every start names the file for as long as it exists. Call once listening.
 */
export function bootstrapNotice(dataDir: string, now: Date = new Date()): BootstrapNotice | null {
  const file = join(dataDir, BOOTSTRAP_FILE);
  let body: BootstrapFile;
  try {
    body = JSON.parse(readFileSync(file, 'utf8')) as BootstrapFile;
  } catch {
    // No file (deleted by the operator, another instance bootstrapped) or not ours to read: nothing to tell.
    return null;
  }
  if (typeof body.liveKey !== 'string' || typeof body.testKey !== 'string') return null;
  const accountId = typeof body.accountId === 'string' ? body.accountId : 'default';
  if (body.shownAt !== undefined) return { kind: 'where', accountId, file };
  writeFileSync(file, JSON.stringify({ ...body, shownAt: now.toISOString() }, null, 2) + '\n', { mode: 0o600 });
  return { kind: 'keys', accountId, liveKey: body.liveKey, testKey: body.testKey, file };
}
