/**
 * Throwaway-address services missing from both npm lists (disposable-email-domains, mailchecker),
 * added by Vigil (docs/api-decisions.md "Domains"). Only services whose own site says they give out
 * temporary addresses are listed, each with that source; new providers between releases come
 * through `vigil data import` (DIR/disposable-domains/*). A domain that a later package version
 * lists too is harmless here: the effective list is the union.
 */
export const DISPOSABLE_SUPPLEMENT_VERSION = '2026-11-27';

export const DISPOSABLE_SUPPLEMENT: ReadonlyArray<{ readonly domain: string; readonly source: string }> = [
  // "MinuteInbox | 10 Minute Mail Address": temporary addresses for 10 minutes up to a month.
  { domain: 'minuteinbox.com', source: 'https://www.minuteinbox.com/' },
  // "Mail.gw is a free 10 minute temporary mail service" (its public API serves throwaway inboxes).
  { domain: 'mail.gw', source: 'https://mail.gw/' },
  // "Temp mail ... a disposable inbox in seconds ... 24-hour inbox".
  { domain: 'tmailor.com', source: 'https://tmailor.com/temp-mail' },
];
