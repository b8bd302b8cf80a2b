/**
 * Central registry of counter keys and TTLs (flood, quota). Redis prefixes every key with
 * `vigil:` (see redis/keys.ts); the in-process counters use the same names.
 */
export const counterKeys = {
  flood: (accountId: string, windowStart: number): string => `flood:${accountId}:${windowStart}`,
  quota: (accountId: string, month: string): string => `quota:${accountId}:${month}`,
};

/** A quota counter outlives its month by a few days so late writes never resurrect it at 0. */
export const QUOTA_TTL_SECONDS = 35 * 24 * 3600;
