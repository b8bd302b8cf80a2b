/**
 * Email forwarding and relay services: addresses that forward to a real mailbox and hide it
 * (Vigil's curated list; docs/api-decisions.md "Domains"). Long-lived and tied to a real person,
 * so they count as forwarding, not disposable, even where a disposable list names them.
 * A subdomain counts too (per-user relay subdomains such as `alias.anonaddy.com`).
 */
export const FORWARDING_LIST_VERSION = '2026-11-22';

export const FORWARDING_DOMAINS: readonly string[] = [
  // DuckDuckGo Email Protection
  'duck.com',
  // SimpleLogin (Proton)
  'simplelogin.com', 'simplelogin.io', 'simplelogin.co', 'simplelogin.fr', 'slmail.me', 'aleeas.com', 'silomails.com', '8alias.com', 'dralias.com',
  // addy.io (formerly AnonAddy)
  'addy.io', 'anonaddy.com', 'anonaddy.me',
  // Firefox Relay
  'relay.firefox.com', 'mozmail.com',
  // Sign in with Apple private relay, iCloud Hide My Email relay host
  'privaterelay.appleid.com',
  // Proton Pass aliases
  'passmail.net', 'passmail.com', 'passinbox.com', 'passfwd.com',
  // 33mail
  '33mail.com',
  // Erine.email
  'erine.email',
  // Not listed: counted-use relays that expire (spamgourmet) stay disposable. Aliases on a provider's own domain (Fastmail masked email, iCloud Hide My Email at icloud.com,
  // Tutanota, mailbox.org) cannot be told apart from ordinary addresses by domain: not listed.
];
