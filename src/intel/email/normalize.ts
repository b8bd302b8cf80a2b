import type { ParsedEmail } from './syntax.ts';

/** Gmail ignores dots in the local part; googlemail.com is the same mailbox as gmail.com. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches, for matching sign-ups that are one person: lower-cased,
 * the `+tag` removed, and for Gmail the dots removed and googlemail.com folded into gmail.com.
 * A local part that is only a tag (`+news@`) keeps its text, as there is nothing else to keep.
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
  }
  return `${local}@${domain}`;
}
