/**
 * Central registry of the Redis key space.
 *
 * Every key Vigil writes starts with a prefix (default `vigil:`, configurable per RedisCounters so several
 * deployments or test runs can share one Redis). After the prefix, the key families are:
 *
 * - `flood:<account>`: hash of one account's fixed flood window: `w` the window number (epoch ms / window ms), `s`
 *   its length in seconds, `n` the calls counted in it, `g` the key's generation (set at creation), `c` the window it
 *   was created in, `f` 1 once a lost earlier generation was handled (src/store/flood-state.ts); TTL the window plus
 *   FLOOD_KEY_IDLE_SECONDS (an hour) after the last call.
 * - `quota:<account>:<YYYY-MM>`: units of the monthly quota used; TTL QUOTA_TTL_SECONDS, past the month's end.
 * - `vel:<account>:<field>:<hash>:n`: sorted set of the account's live payment scorings whose identity
 *   `field` (customer, user, email, emailDomain, phone, ip, device, card) has the keyed hash `hash`; member
 *   the scoring id, score its scoredAt in epoch ms. Answers "how many scorings of this IP since t" (ZCOUNT).
 * - `vel:<account>:<field>:<hash>:<other>`: sorted set of the distinct values of another identity seen with
 *   it, for the pairs of VELOCITY_PAIRS (customer→card, card→customer, customer→location, card→email, card→ip,
 *   device→customer, ip→customer, bin→card, binAny→card, device→card, ip→card); `bin` (small amounts) and
 *   `binAny` (every amount) windows are keyed by the card's 6-digit BIN itself (not personal data), and
 *   `vel:<account>:binAny:<BIN>:n` counts every scoring of the BIN; member the other keyed hash,
 *   score the latest time they were seen together (ZADD GT). Answers "how many cards of this customer
 *   since t".
 *   Both velocity families (redis-velocity.ts) keep members of the last VELOCITY_TTL_SECONDS (31 days,
 *   the longest window asked is 30) and expire VELOCITY_TTL_SECONDS after their last write.
 *
 * The flood and quota names and TTLs are built in ../counter-keys.ts, shared with the in-process counters, and
 * re-exported here; the velocity names are built below (velocityKeys). This file is the one place to read the
 * Redis layout.
 */
export const REDIS_PREFIX = 'vigil:';

export { counterKeys, QUOTA_TTL_SECONDS } from '../counter-keys.ts';

/** Members of velocity windows are kept, and their keys live, this long after the last write: 31 days. */
export const VELOCITY_TTL_SECONDS = 31 * 24 * 3600;

/**
 * The account part of a velocity key. Redis Cluster (REDIS_CLUSTER=on) runs a MULTI only on keys of one hash
 * slot, and one scoring's MULTI writes the windows of all its identities: with `tagged` the account is a hash
 * tag (`vel:{acct}:...`), so every key of an account lands in one slot. Off (one Redis), the names stay as
 * they were, so an upgrade keeps its windows; moving to a cluster starts from an empty Redis anyway.
 */
const account = (accountId: string, tagged: boolean): string => (tagged ? `{${accountId}}` : accountId);

/** Names (without the prefix) of the velocity sorted sets (see the registry above). */
export const velocityKeys = {
  /** Scorings of one identity: member scoring id, score scoredAt ms. */
  count: (accountId: string, field: string, hash: string, tagged = false): string => `vel:${account(accountId, tagged)}:${field}:${hash}:n`,
  /** Distinct `other` values seen with one identity: member the other hash, score the latest time ms. */
  distinct: (accountId: string, field: string, hash: string, other: string, tagged = false): string =>
    `vel:${account(accountId, tagged)}:${field}:${hash}:${other}`,
};
