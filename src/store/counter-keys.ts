/**
 * Central registry of counter keys and TTLs (flood, quota, daily deletions). Redis prefixes every key with
 * `vigil:` (see redis/keys.ts); the in-process counters use the same names.
 */
export const counterKeys = {
  /** An account's flood window: a hash of the window, its count and the key's generation (src/store/flood-state.ts). */
  flood: (accountId: string): string => `flood:${accountId}`,
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

/** A flood key lives this long after its window's last call, so a key lost and created again is told from one that expired. */
export const FLOOD_KEY_IDLE_SECONDS = 3600;
