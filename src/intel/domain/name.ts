import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** RFC 1035: a name is at most 253 characters in text form (255 octets on the wire). */
export const MAX_DOMAIN_LENGTH = 253;
/** RFC 1035: a label is at most 63 octets. */
export const MAX_LABEL_LENGTH = 63;

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** A top-level label is letters only (no TLD is numeric, which also rules out IPv4) or an IDN A-label. */
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** Characters the WHATWG host parser would percent-decode, treat as URL syntax or IPv6. */
const URL_SYNTAX = /[\s%/\\:@[\]?#*]/u;
const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * The domain as an ASCII FQDN (lower case, one trailing dot removed, IDN converted to punycode),
 * or null when it is not a fully qualified host name: at least two labels, letters/digits/hyphens
 * (no leading or trailing hyphen, no underscore), labels of 1 to 63 and a name of at most 253
 * characters, a top-level label that is letters or `xn--` (so no IP address passes).
 */
export function normaliseDomain(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let s = raw.trim();
  // Generous pre-bound before any Unicode work: an IDN of 253 ASCII characters is shorter in Unicode.
  if (s === '' || s.length > 4 * MAX_DOMAIN_LENGTH || URL_SYNTAX.test(s)) return null;
  if (!NON_ASCII.test(s) && !/^[A-Za-z0-9.-]+$/.test(s)) return null;
  s = s.toLowerCase();
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s === '' || s.startsWith('.') || s.includes('..')) return null;
  const ascii = NON_ASCII.test(s) || s.includes('xn--') ? domainToASCII(s) : s;
  if (ascii === '' || ascii.length > MAX_DOMAIN_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  for (const label of labels) {
    if (label.length === 0 || label.length > MAX_LABEL_LENGTH || !LABEL.test(label)) return null;
  }
  return TLD.test(labels[labels.length - 1] ?? '') ? ascii : null;
}

/** Why normaliseDomain rejected a value, as a clause for an error description (no input echoed). */
export function domainProblem(raw: string): string {
  const s = raw.trim().replace(/\.$/, '');
  if (s === '') return 'it is empty';
  if (isIP(s) !== 0 || /^\[.*\]$/.test(s) || /^[\d.]+$/.test(s)) return 'IP addresses are not accepted, send a domain name';
  if (s.length > MAX_DOMAIN_LENGTH) return `it is longer than ${MAX_DOMAIN_LENGTH} characters`;
  if (!s.includes('.')) return 'it has a single label; send a name with its top-level domain, such as example.com';
  if (s.split('.').some((l) => l.length > MAX_LABEL_LENGTH)) return `a label is longer than ${MAX_LABEL_LENGTH} characters`;
  if (s.split('.').some((l) => l === '')) return 'it has an empty label (two dots in a row)';
  return 'use letters, digits and hyphens (not at the start or end of a label), and a top-level domain of letters';
}
