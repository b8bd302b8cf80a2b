/**
 * Blacklist values in one canonical text per type (decisions.md "Blacklists and custom rules").
 * Operators' entries go through `normaliseEntry` before they are stored; values an endpoint asks
 * about go through `probeKeys`, which applies the same rules, so a stored entry and a probe meet
 * on the same string whatever spelling either side used.
 */
import * as isoCountries from 'i18n-iso-countries/index.js';
import { BLACKLIST_TYPES, type BlacklistType, type ListProbe } from '../types.ts';
import { domainOf } from './domain.ts';
import { formatNetwork, formatV4, formatV6, parseNetwork, readAddress } from './ip-parse.ts';

export type Normalised = { ok: true; value: string } | { ok: false; error: string };

/** Longest raw input looked at: bounds the work and the error text for hostile input. */
export const MAX_RAW_LENGTH = 1024;
const MAX_CUSTOMER_ID = 255;
/** RFC 5321: a forward path holds at most 254 characters of address. */
const MAX_EMAIL = 254;

/** Identity types the learning feature keys confirmed-fraud entries by (`<type>:<hex hash>`). */
export const CONFIRMED_FRAUD_IDENTITIES = ['ip', 'email', 'email_domain', 'phone', 'card_bin', 'customer_id', 'device_id', 'text', 'card'] as const;
const CONFIRMED_FRAUD = new RegExp(`^(?:${CONFIRMED_FRAUD_IDENTITIES.join('|')}):[0-9a-f]{16,128}$`);

// Postgres text cannot hold NUL, and control characters or lone surrogates in an identifier are
// always a client bug or an attack, never a real id.
const CONTROL = /[\p{Cc}\p{Cs}]/u;
/** Characters that cannot appear unquoted in an address (RFC 5322 specials, whitespace, controls). */
const EMAIL_LOCAL_FORBIDDEN = /[\s\p{Cc}\p{Cs}"(),:;<>[\\\]@]/u;
const NON_ASCII = /[\u0080-\uffff]/;
const ALPHA2 = new Set(Object.keys(isoCountries.getAlpha2Codes()));

const ok = (value: string): Normalised => ({ ok: true, value });
const fail = (error: string): Normalised => ({ ok: false, error });

/** The raw value quoted for an error: JSON escapes make NULs and controls visible, long input is cut. */
function quote(raw: string): string {
  return JSON.stringify(raw.length > 64 ? `${raw.slice(0, 64)}…` : raw);
}

function normaliseIp(raw: string): Normalised {
  const s = raw.trim();
  if (s.includes('%')) return fail(`${quote(raw)} has a zone id: list the address without %zone`);
  const net = parseNetwork(s);
  return net ? ok(formatNetwork(net)) : fail(`${quote(raw)} is not an IP address or CIDR range`);
}

function normaliseDomain(raw: string): Normalised {
  const d = domainOf(raw);
  return 'ascii' in d ? ok(d.ascii) : fail(`${quote(raw)} is not a domain: ${d.reason}`);
}

function normaliseEmail(raw: string): Normalised {
  const s = raw.trim();
  const at = s.indexOf('@');
  if (at < 0 || s.indexOf('@', at + 1) >= 0) return fail(`${quote(raw)} is not an email address: it needs exactly one @`);
  const rawLocal = s.slice(0, at);
  // NFC so composed and decomposed spellings of a non-ASCII local part meet; ASCII is already NFC.
  const local = (NON_ASCII.test(rawLocal) ? rawLocal.normalize('NFC') : rawLocal).toLowerCase();
  if (local === '') return fail(`${quote(raw)} is not an email address: the part before @ is empty`);
  if (EMAIL_LOCAL_FORBIDDEN.test(local)) return fail(`${quote(raw)} is not an email address: the part before @ has spaces, controls or "(),:;<>[\\]`);
  const domain = domainOf(s.slice(at + 1));
  if (!('ascii' in domain)) return fail(`${quote(raw)} is not an email address: ${domain.reason}`);
  const value = `${local}@${domain.ascii}`;
  return value.length > MAX_EMAIL ? fail(`${quote(raw)} is not an email address: longer than ${MAX_EMAIL} characters`) : ok(value);
}

function normalisePhone(raw: string): Normalised {
  let s = raw.trim().replace(/[\s\-.]/g, '');
  let international = false;
  if (s.startsWith('+')) [s, international] = [s.slice(1), true];
  else if (s.startsWith('00')) [s, international] = [s.slice(2), true];
  // `+44 (0)20 ...`: the bracketed trunk 0 is dialled only from inside the country.
  if (international) s = s.replace('(0)', '');
  s = s.replace(/[()]/g, '');
  if (!/^\d+$/.test(s)) return fail(`${quote(raw)} is not a phone number: only digits, spaces, dashes, dots, brackets and a leading + or 00`);
  if (s.startsWith('0')) return fail(`${quote(raw)} must start with the country code (no leading 0)`);
  if (s.length < 7 || s.length > 15) return fail(`${quote(raw)} is not a phone number: 7 to 15 digits with the country code`);
  return ok(s);
}

function normaliseCustomerId(raw: string): Normalised {
  const s = raw.trim();
  if (s === '') return fail('customer id is empty');
  if (CONTROL.test(s)) return fail(`${quote(raw)} contains control characters`);
  // Counted in code points, as a database column of 255 characters counts them.
  if (s.length > MAX_CUSTOMER_ID && Array.from(s).length > MAX_CUSTOMER_ID) return fail(`customer id is longer than ${MAX_CUSTOMER_ID} characters`);
  return ok(s);
}

function normaliseCardBin(raw: string): Normalised {
  const s = raw.trim().replace(/[\s-]/g, '');
  return /^\d{6,8}$/.test(s) ? ok(s) : fail(`${quote(raw)} is not a card BIN: 6 to 8 digits`);
}

function normaliseCountry(raw: string): Normalised {
  const s = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(s) && ALPHA2.has(s) ? ok(s) : fail(`${quote(raw)} is not an ISO 3166-1 alpha-2 country code`);
}

function normaliseConfirmedFraud(raw: string): Normalised {
  // Written by the learning feature, never typed by hand: exactly its shape or nothing.
  return CONFIRMED_FRAUD.test(raw) ? ok(raw) : fail(`${quote(raw)} is not a confirmed-fraud key (<identity type>:<lower-case hex hash>)`);
}

/** Validates and canonicalises one value an operator adds to a list of the given type. */
export function normaliseEntry(type: BlacklistType, raw: string): Normalised {
  if (raw.length > MAX_RAW_LENGTH) return fail(`value is too long (${raw.length} characters, at most ${MAX_RAW_LENGTH})`);
  if (raw.trim() === '') return fail('value is empty');
  switch (type) {
    case 'ip':
      return normaliseIp(raw);
    case 'email':
      return normaliseEmail(raw);
    case 'email_domain':
      return normaliseDomain(raw);
    case 'phone':
      return normalisePhone(raw);
    case 'customer_id':
      return normaliseCustomerId(raw);
    case 'card_bin':
      return normaliseCardBin(raw);
    case 'card_country':
      return normaliseCountry(raw);
    case 'confirmed_fraud':
      return normaliseConfirmedFraud(raw);
  }
}

const ipWords = new Uint32Array(4);
const KNOWN_TYPES: ReadonlySet<string> = new Set(BLACKLIST_TYPES);
/** Masked digits seen in card numbers endpoints receive (`411111******1111`, `4111 11XX XXXX 1111`). */
const CARD_PROBE = /^\d{6}[\dxX*#•]{0,13}$/;

function keysOf(result: Normalised): string[] {
  return result.ok ? [result.value] : [];
}

/**
 * The keys a lookup of one probe value checks against the list of its type; [] when the value
 * cannot be valid (it could not match any stored entry). Never throws: probes come from callers.
 *
 * - ip: the canonical address; ranges are matched by IpSet itself, so this key is for display.
 * - email_domain: the domain and every parent with at least one dot, most specific first:
 *   listing `example.com` also catches `mail.example.com` (but `com` alone is never a key).
 * - card_bin: a BIN or a longer, possibly masked card number gives its leading 6, 7 and 8 digit
 *   prefixes that are all digits, so 6- and 8-digit BIN entries both match.
 */
export function probeKeys(probe: ListProbe): string[] {
  const raw = probe.value;
  // Probes are typed, but they are built from caller input: an odd one is a miss, not a crash.
  if (!KNOWN_TYPES.has(probe.type) || typeof raw !== 'string' || raw.length > MAX_RAW_LENGTH || raw.trim() === '') return [];
  switch (probe.type) {
    case 'ip': {
      const family = readAddress(raw.trim(), ipWords);
      if (family === 0) return [];
      return [family === 4 ? formatV4(ipWords[0]!) : formatV6(Array.from(ipWords))];
    }
    case 'email_domain': {
      const domain = domainOf(raw);
      if (!('ascii' in domain)) return [];
      const labels = domain.ascii.split('.');
      const keys: string[] = [];
      for (let k = 0; k <= labels.length - 2; k++) keys.push(labels.slice(k).join('.'));
      return keys;
    }
    case 'card_bin': {
      const s = raw.trim().replace(/[\s-]/g, '');
      if (!CARD_PROBE.test(s)) return [];
      const digits = /^\d+/.exec(s)?.[0] ?? '';
      const keys: string[] = [];
      for (let len = 6; len <= Math.min(8, digits.length); len++) keys.push(digits.slice(0, len));
      return keys;
    }
    case 'card_country': {
      const s = raw.trim().toUpperCase();
      return /^[A-Z]{2}$/.test(s) ? [s] : [];
    }
    case 'email':
      return keysOf(normaliseEmail(raw));
    case 'phone':
      return keysOf(normalisePhone(raw));
    case 'customer_id':
      return keysOf(normaliseCustomerId(raw));
    case 'confirmed_fraud':
      return keysOf(normaliseConfirmedFraud(raw));
  }
}
