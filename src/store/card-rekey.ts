/**
 * The upgrade of card identities from scheme 1 (a keyed hash under SECRET_KEY only) to scheme 2 (that hash keyed
 * again under the card key, identity-hash.ts), shared by both stores. The card number is never needed: each stored
 * hash is mapped through `rekey`, so velocity windows, card labels and confirmed_fraud entries carry on.
 */

/** Rewrites one scheme-1 card hash as its scheme-2 hash. */
export type CardRekey = (hash: string) => string;

/** Every distinct scheme-1 card hash the main database holds (the decision log's tokens are matched against these). */
export const CARD_HASHES_SQL = `
  SELECT card_hash AS h FROM payment_scorings WHERE card_hash IS NOT NULL
  UNION SELECT card_hash FROM payment_outcomes WHERE card_hash IS NOT NULL
  UNION SELECT value_hash FROM identity_evidence WHERE type = 'card'
  UNION SELECT identity_hash FROM events WHERE identity_type = 'card' AND identity_hash IS NOT NULL
  UNION SELECT substr(value, 6) FROM blacklist_entries WHERE type = 'confirmed_fraud' AND value LIKE 'card:%'`;

/** How many decision-log rows the upgrade reads at a time. */
export const DECISION_PAGE = 2000;

/**
 * A decision record's identities (space-separated hashes) with its card hashes rewritten, or null when it holds
 * none. A token is a card hash when it is one of the scheme-1 hashes: matching by value makes the step idempotent
 * (a rewritten token is no longer in the set), so an upgrade stopped half-way can simply run again.
 */
export function rekeyTokens(identities: string, old: ReadonlyMap<string, string>): string | null {
  let changed = false;
  const tokens = identities.split(' ').map((t) => {
    const next = old.get(t);
    if (next === undefined) return t;
    changed = true;
    return next;
  });
  return changed ? tokens.join(' ') : null;
}
