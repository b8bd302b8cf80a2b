/**
 * Domains as the blacklists compare them (email and email_domain entries and probes): lower-case
 * ASCII with IDNs in punycode, the way url.domainToASCII (WHATWG URL, IDNA UTS #46) spells them.
 */
import { domainToASCII } from 'node:url';

/** Lower-case letters, digits, dots and hyphens, the last label starting with a letter. */
const PLAIN_ASCII_DOMAIN = /^(?:[a-z0-9-]*\.)*[a-z][a-z0-9-]*$/;
const PUNYCODE_LABEL = /(?:^|\.)xn--/;

/**
 * url.domainToASCII (IDNA UTS #46, as browsers do; '' when it cannot be a host name) with a fast
 * path: it costs about 1 us a call, most probes are plain ASCII already, and for those (no punycode
 * label to check, last label not a number WHATWG would read as IPv4) it is the identity.
 */
export function toAsciiDomain(lowerCased: string): string {
  return PLAIN_ASCII_DOMAIN.test(lowerCased) && !PUNYCODE_LABEL.test(lowerCased) ? lowerCased : domainToASCII(lowerCased);
}

/**
 * Why an ASCII domain is not a list-worthy host name, or null: labels of 1-63 letters, digits or
 * inner hyphens, at least two of them, the last not all digits (domainToASCII turns `0x7f.1` into
 * 127.0.0.1: an address, not a domain). One pass without allocating: probes run this per request.
 */
function labelProblem(s: string): string | null {
  let labels = 0;
  let len = 0;
  let digitsOnly = true;
  let prev = 46;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 46;
    if (c === 46) {
      if (len === 0 || len > 63 || prev === 45) return 'domain labels are 1-63 letters, digits or inner hyphens';
      labels++;
      if (i < s.length) {
        len = 0;
        digitsOnly = true;
      }
    } else if ((c >= 97 && c <= 122) || (c === 45 && len > 0)) {
      len++;
      digitsOnly = false;
    } else if (c >= 48 && c <= 57) {
      len++;
    } else {
      return 'domain labels are 1-63 letters, digits or inner hyphens';
    }
    prev = c;
  }
  if (labels < 2) return 'the domain needs at least one dot';
  return digitsOnly ? 'the domain is an IP address' : null;
}

/**
 * Shared by email and email_domain: lower-case ASCII (punycode) with at least two labels, or the
 * reason it is not one (the caller words the error for its type).
 */
export function domainOf(raw: string): { ascii: string } | { reason: string } {
  let s = raw.trim().toLowerCase();
  if (s.startsWith('@')) s = s.slice(1);
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s === '') return { reason: 'the domain is empty' };
  const ascii = toAsciiDomain(s);
  if (ascii === '' || ascii.length > 253) return { reason: 'the domain is not a valid host name' };
  const problem = labelProblem(ascii);
  return problem === null ? { ascii } : { reason: problem };
}
