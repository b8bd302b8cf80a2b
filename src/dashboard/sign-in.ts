import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccountService } from '../accounts/service.ts';
import type { Store } from '../store/ports.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { Principal } from './sessions.ts';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** A hash to check against when the username is unknown, so both cases take the same time. */
let decoy: Promise<string> | undefined;

/** Who a sign-in form names, or why not (one message for every failure: it must not tell which part was wrong). */
export async function authenticate(
  deps: { accounts: AccountService; store: Store; adminToken: string | undefined },
  form: { secret?: string | undefined; username?: string | undefined; password?: string | undefined },
): Promise<Principal | string> {
  const refused = 'Those credentials are not valid. Use the admin token, a live API key, or a dashboard username and password.';
  const secret = form.secret?.trim();
  if (secret) {
    if (deps.adminToken && timingSafeEqual(digest(secret), digest(deps.adminToken))) return { role: 'operator', accountId: null, actor: 'operator', keyId: null };
    const resolved = await deps.accounts.resolveKey(secret);
    if (!resolved) return refused;
    if (resolved.key.kind !== 'live') return 'Sign in with a live key: a test key sees only fake data and stores nothing.';
    if (resolved.account.status !== 'active') return 'This account is inactive; ask the operator.';
    return { role: 'analyst', accountId: resolved.account.id, actor: `key:${resolved.key.id}`, keyId: resolved.key.id };
  }
  const username = form.username?.trim();
  if (username && form.password) {
    const user = await deps.store.console.getUser(username);
    if (!user) {
      decoy ??= hashPassword('decoy password');
      await verifyPassword(form.password, await decoy);
      return refused;
    }
    if (!(await verifyPassword(form.password, user.passwordHash))) return refused;
    return { role: 'analyst', accountId: user.accountId, actor: `user:${user.username}`, keyId: null };
  }
  return 'Enter a token or key, or a username and password.';
}
