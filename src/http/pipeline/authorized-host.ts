import { ApiError } from '../errors.ts';
import type { Caller } from '../context.ts';

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Step 5: Origin host, then Referer host, then caller IP must be on the account's list (113). */
export function checkAuthorizedHost(caller: Caller, headers: Readonly<Record<string, string | string[] | undefined>>, ip: string): void {
  if (caller.hosts.unrestricted) return;
  if (!caller.hosts.allows({ origin: header(headers.origin), referer: header(headers.referer), ip })) throw new ApiError(113);
}
