import { ApiError } from '../errors.ts';
import type { Account } from '../../store/ports.ts';

/** Step 3: the account is active (102). */
export function checkAccountActive(account: Account): void {
  if (account.status !== 'active') throw new ApiError(102);
}
