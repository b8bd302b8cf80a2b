/**
 * The address of an IP lookup: strict parsing, canonical text, numeric form and the bogon check.
 *
 * Decisions (docs/ip.md):
 * - Surrounding spaces are trimmed; anything else that node:net would not accept as one address is
 *   malformed: leading zeros (`01.1.1.1`, octal or decimal?), zone ids (`fe80::1%eth0`, meaningless
 *   to a remote service), CIDR suffixes, brackets, inner spaces.
 * - An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is the IPv4 address it carries: the same host,
 *   the same geolocation, the same blacklist entries.
 * - `IPNumber` is the address as an unsigned integer: a JS number for IPv4, a bigint for IPv6 (up
 *   to 2^128 - 1), which the JSON writer prints as an exact integer literal.
 */
import { formatV4, formatV6, readAddress } from '../../policy/blacklists/ip-parse.ts';
import { bogonKind, type BogonKind } from './bogons.ts';

export interface IpAddress {
  /** Canonical text: dotted quad, or RFC 5952 IPv6. */
  ip: string;
  family: 4 | 6;
  /** IPv4: one word; IPv6: four big-endian 32-bit words. */
  words: readonly number[];
  ipNumber: number | bigint;
  /** Why the address cannot be placed geographically, or null for a public address. */
  bogon: BogonKind | null;
}

export type ParsedIp = { ok: true; value: IpAddress } | { ok: false; problem: string };

/** Longest accepted text (an IPv6 with an embedded IPv4 tail is 45 characters). */
export const MAX_IP_TEXT = 64;

const scratch = new Uint32Array(4);

export function ipNumberOf(family: 4 | 6, words: readonly number[]): number | bigint {
  if (family === 4) return words[0]!;
  let n = 0n;
  for (const w of words) n = (n << 32n) | BigInt(w);
  return n;
}

/** Parses one address as a caller sent it. Never throws. */
export function parseIpInput(raw: unknown): ParsedIp {
  if (typeof raw !== 'string') return { ok: false, problem: 'the address must be a single text value' };
  const text = raw.trim();
  if (text === '') return { ok: false, problem: 'the address is empty' };
  if (text.length > MAX_IP_TEXT) return { ok: false, problem: `the address is longer than ${MAX_IP_TEXT} characters` };
  if (text.includes('%')) return { ok: false, problem: 'zone ids (such as %eth0) are not accepted' };
  if (text.includes('/')) return { ok: false, problem: 'send one address, not a CIDR range' };
  const family = readAddress(text, scratch);
  if (family === 0) {
    const hint = /(^|\.)0\d/.test(text) && !text.includes(':') ? ' (an IPv4 part may not have leading zeros)' : '';
    return { ok: false, problem: `"${text.slice(0, 48)}" is not an IPv4 or IPv6 address${hint}` };
  }
  const words = family === 4 ? [scratch[0]!] : [scratch[0]!, scratch[1]!, scratch[2]!, scratch[3]!];
  return {
    ok: true,
    value: {
      ip: family === 4 ? formatV4(words[0]!) : formatV6(words),
      family,
      words,
      ipNumber: ipNumberOf(family, words),
      bogon: bogonKind(family, words),
    },
  };
}
