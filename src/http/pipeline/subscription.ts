import { ApiError } from '../errors.ts';
import type { Account } from '../../store/ports.ts';

/** Step 4: the account has a subscription (127) that has not expired (105). */
export function checkSubscription(account: Account, now: Date): void {
  if (account.subscription === null) throw new ApiError(127);
  const exp = account.subscription.expiresAt;
  if (exp !== null && Date.parse(exp) <= now.getTime()) throw new ApiError(105, `The subscription of this account expired on ${exp}. Renew it to continue.`);
}
