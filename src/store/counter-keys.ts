/**
 * Central registry of counter keys and TTLs (flood, quota, daily deletions). Redis prefixes every key with
 * `vigil:` (see redis/keys.ts); the in-process counters use the same names.
 */
export const counterKeys = {
  flood: (accountId: string, windowStart: number): string => `flood:${accountId}:${windowStart}`,
  quota: (accountId: string, month: string): string => `quota:${accountId}:${month}`,
  /** User deletions of one account on one UTC day (`YYYY-MM-DD`), for the daily deletion limit (126). */
  deletions: (accountId: string, day: string): string => `deletions:${accountId}:${day}`,
  /** Failed console sign-ins from one client address in one window (src/dashboard/pages/sign-in.ts). */
  signInFailures: (ip: string, windowStart: number): string => `console-sign-in:${ip}:${windowStart}`,
};

/** Console sign-in throttling: at most this many failures per client address per window. */
export const SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** A deletion counter outlives its UTC day. */
export const DELETION_TTL_SECONDS = 2 * 24 * 3600;

/** A quota counter outlives its month by a few days so late writes never resurrect it at 0. */
export const QUOTA_TTL_SECONDS = 35 * 24 * 3600;
