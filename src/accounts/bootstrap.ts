import { writeFileSync, mkdirSync } from 'node:fs';
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
 * key, written to DATA_DIR/bootstrap-keys.json (0600) for the caller to print once.
 */
export async function bootstrapIfEmpty(store: Store, accounts: AccountService, dataDir: string): Promise<BootstrapResult | null> {
  if ((await store.accounts.countAccounts()) > 0) return null;
  let account;
  try {
    account = await accounts.createAccount({ id: 'default', plan: 'premium' });
  } catch (err) {
    // Another instance sharing the store bootstrapped first: its keys are the ones printed.
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
}
