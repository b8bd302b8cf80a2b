import type { ParsedEmail } from './syntax.ts';

/**
 * Provider rules, each from the provider's own documentation (docs/email-scoring.md "normalized"):
 * - every domain: the `+tag` is dropped (plus addressing: Gmail, Outlook.com/Hotmail/Live/MSN,
 *   iCloud/me.com/mac.com, Fastmail, Proton Mail, Yahoo ignores it: no harm in dropping it there);
 * - Gmail ignores dots in the local part; googlemail.com is the same mailbox as gmail.com;
 * - Yahoo disposable addresses are `basename-keyword@`: a Yahoo ID holds no `-`, so the part from
 *   the first `-` is the keyword (yahoo.<country>, ymail.com, rocketmail.com);
 * - Fastmail subdomain addressing: `anything@user.fastmail.com` is delivered to user@fastmail.com.
 */
const GMAIL_DOMAINS: ReadonlySet<string> = new Set(['gmail.com', 'googlemail.com']);
/** yahoo.com, yahoo.fr, yahoo.co.uk, yahoo.com.br... and Yahoo's other consumer domains. */
const YAHOO = /^yahoo\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/;
const YAHOO_OTHER: ReadonlySet<string> = new Set(['ymail.com', 'rocketmail.com']);
/** `user.fastmail.com`: the account's own subdomain on a Fastmail domain (the local part is the folder). */
const FASTMAIL_SUBDOMAIN = /^([a-z0-9][a-z0-9_-]*)\.(fastmail\.(?:com|fm))$/;

/** True for the domains whose `-keyword` is a Yahoo disposable address. */
export function isYahooDomain(domain: string): boolean {
  return YAHOO_OTHER.has(domain) || YAHOO.test(domain);
}

/**
 * The mailbox an address reaches, for matching sign-ups that are one person: lower-cased, the
 * `+tag` removed, then the provider's own rule above. A local part that is only a tag (`+news@`,
 * `-news@`) keeps its text, as there is nothing else to keep.
 */
export function normalizeEmail(email: ParsedEmail): string {
  let local = email.local.toLowerCase();
  let domain = email.domain;
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    const undotted = local.replaceAll('.', '');
    if (undotted !== '') local = undotted;
  } else if (isYahooDomain(domain)) {
    const dash = local.indexOf('-');
    if (dash > 0) local = local.slice(0, dash);
  } else if (domain.includes('.fastmail.')) {
    const m = FASTMAIL_SUBDOMAIN.exec(domain);
    if (m !== null) [local, domain] = [m[1] as string, m[2] as string];
  }
  return `${local}@${domain}`;
}
