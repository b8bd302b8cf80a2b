import { normaliseDomain } from '../domain/name.ts';

/** RFC 5321 4.5.3.1.1: a local part is at most 64 octets. */
export const MAX_LOCAL_OCTETS = 64;
/** RFC 5321 4.5.3.1.3 (a path of 256 octets minus the angle brackets; RFC 3696 erratum 1690). */
export const MAX_ADDRESS_OCTETS = 254;
/** Anything longer is refused before any Unicode work (an IDN address is longer in Unicode than in punycode, but not 4x). */
const MAX_RAW_CHARS = 4 * MAX_ADDRESS_OCTETS;

/**
 * One dot-atom character of a local part: RFC 5322 `atext` (what HTML's `type=email` accepts too),
 * or, for internationalised addresses (RFC 6531), a Unicode letter, mark or digit. Symbols,
 * punctuation, blanks, controls and invisible format characters outside ASCII are refused.
 */
const LOCAL_ATOM = /^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[\p{L}\p{M}\p{N}])+$/u;
const NON_ASCII = /\P{ASCII}/u;

export interface ParsedEmail {
  /** The local part as sent (case kept). */
  local: string;
  /** The domain in lower-case ASCII (IDN as punycode). */
  domain: string;
}

export type SyntaxResult = { ok: true; email: ParsedEmail } | { ok: false; problem: string };

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Parses an address the way mail providers accept it at sign-up (docs/api-decisions.md "Email"):
 * `local@domain`, a dot-atom local part (no quoted strings, comments or leading, trailing or
 * double dots) of at most 64 octets, a fully qualified host name as domain (IDN allowed, no
 * address literal, no trailing dot), at most 254 octets in all with the domain in punycode.
 * The problem text is a sentence for the caller.
 */
export function parseEmail(raw: string): SyntaxResult {
  if (raw.length > MAX_RAW_CHARS) return { ok: false, problem: `The address is longer than ${MAX_ADDRESS_OCTETS} characters.` };
  if (raw.trim() === '') return { ok: false, problem: 'The "email" parameter is empty.' };
  if (/\s/u.test(raw)) return { ok: false, problem: 'The address contains blanks.' };
  // NFC so that an accented letter typed in two code points counts once, as mail systems compare it (RFC 6532).
  const s = NON_ASCII.test(raw) ? raw.normalize('NFC') : raw;
  const at = s.lastIndexOf('@');
  if (at < 0) return { ok: false, problem: 'The address has no "@".' };
  const local = s.slice(0, at);
  const domainRaw = s.slice(at + 1);
  if (local === '') return { ok: false, problem: 'The part before "@" is empty.' };
  if (local.includes('@')) return { ok: false, problem: 'The address has more than one "@" (quoted local parts are not accepted).' };
  if (local.startsWith('"')) return { ok: false, problem: 'Quoted local parts ("...") are not accepted.' };
  if (local.startsWith('.') || local.endsWith('.')) return { ok: false, problem: 'The part before "@" starts or ends with a dot.' };
  if (local.includes('..')) return { ok: false, problem: 'The part before "@" has two dots in a row.' };
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) {
    return { ok: false, problem: 'The part before "@" contains a character addresses cannot hold.' };
  }
  if (utf8Length(local) > MAX_LOCAL_OCTETS) return { ok: false, problem: `The part before "@" is longer than ${MAX_LOCAL_OCTETS} octets.` };
  if (domainRaw === '') return { ok: false, problem: 'The domain after "@" is empty.' };
  if (domainRaw.startsWith('[')) return { ok: false, problem: 'Address literals ([192.0.2.1]) are not accepted as a domain.' };
  if (domainRaw.endsWith('.')) return { ok: false, problem: 'The domain ends with a dot.' };
  const domain = normaliseDomain(domainRaw);
  if (domain === null) return { ok: false, problem: 'The domain after "@" is not a valid fully qualified domain name.' };
  if (utf8Length(local) + 1 + domain.length > MAX_ADDRESS_OCTETS) {
    return { ok: false, problem: `The address is longer than ${MAX_ADDRESS_OCTETS} octets.` };
  }
  return { ok: true, email: { local, domain } };
}
