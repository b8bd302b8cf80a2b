/**
 * IP parsing and CIDR sets for the `in_cidr` operator. Hand-rolled because node:net's
 * BlockList.check costs about 2 µs a call, more than a whole rule may take; these parsers allocate
 * nothing per call. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is treated as the IPv4 address,
 * both in rule values and in the tested field, so one rule covers both spellings.
 */
import { isIP } from 'node:net';

/** Parsed IPv6 groups of the last `parseIp` call that returned IS_V6 (reused: no allocation). */
const groups = new Uint16Array(8);
/** `parseIp` result: the address is IPv6 and its groups are in `groups`. */
const IS_V6 = -2;
const INVALID = -1;

/** Dotted-quad IPv4 in s[start, end) to an unsigned 32-bit number, or -1. Leading zeros are refused, as node:net does. */
export function parseIPv4(s: string, start = 0, end = s.length): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || ++dots > 3) return INVALID;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return INVALID;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return INVALID;
    } else {
      return INVALID;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + part : INVALID;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** IPv6 (optionally with a `%zone`, ignored) into `out`; false when malformed. */
function parseIPv6(s: string, out: Uint16Array): boolean {
  let end = s.indexOf('%');
  if (end === -1) end = s.length;
  else if (end === s.length - 1) return false;
  let n = 0;
  let gap = -1;
  let i = 0;
  if (s.charCodeAt(0) === 58 /* : */) {
    if (s.charCodeAt(1) !== 58) return false;
    gap = 0;
    i = 2;
  }
  while (i < end) {
    if (n === 8) return false;
    let j = i;
    let v = 0;
    for (; j < end; j++) {
      const d = hexDigit(s.charCodeAt(j));
      if (d < 0) break;
      if (j - i === 4) return false;
      v = v * 16 + d;
    }
    if (j < end && s.charCodeAt(j) === 46 /* . */) {
      // Embedded IPv4 tail: the last 32 bits.
      if (n > 6) return false;
      const v4 = parseIPv4(s, i, end);
      if (v4 < 0) return false;
      out[n++] = Math.floor(v4 / 65536);
      out[n++] = v4 % 65536;
      break;
    }
    if (j === i) return false;
    out[n++] = v;
    if (j === end) break;
    if (s.charCodeAt(j) !== 58) return false;
    if (s.charCodeAt(j + 1) === 58) {
      if (gap !== -1) return false;
      gap = n;
      i = j + 2;
    } else {
      i = j + 1;
      if (i === end) return false;
    }
  }
  if (gap === -1) return n === 8;
  if (n === 8) return false;
  const tail = n - gap;
  for (let k = 0; k < tail; k++) out[7 - k] = out[n - 1 - k] ?? 0;
  for (let k = gap; k < 8 - tail; k++) out[k] = 0;
  return true;
}

function isMapped(g: Uint16Array): boolean {
  return g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
}

/** IPv4 (or mapped IPv6) as an unsigned number; IS_V6 with the groups in `groups`; INVALID otherwise. */
function parseIp(s: string): number {
  if (s.length > 64) return INVALID;
  if (s.indexOf(':') === -1) return parseIPv4(s);
  if (!parseIPv6(s, groups)) return INVALID;
  return isMapped(groups) ? (groups[6] ?? 0) * 65536 + (groups[7] ?? 0) : IS_V6;
}

/** True when `s` is an IPv4 or IPv6 address by this module's parser (what `in_cidr` accepts as a field). */
export function isIpAddress(s: string): boolean {
  return parseIp(s) !== INVALID;
}

type Cidr = { v4: true; start: number; end: number } | { v4: false; net: Uint16Array; prefix: number };

/**
 * A CIDR (`10.0.0.0/8`, `2001:db8::/32`) or a single address, or null when malformed. Syntax is
 * checked with node:net; host bits past the prefix are ignored (`10.1.2.3/8` is `10.0.0.0/8`).
 */
export function parseCidr(entry: string): Cidr | null {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const text = entry.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(text)) return null;
    prefix = Number(text);
    if (prefix > max) return null;
  }
  const parsed = parseIp(address);
  if (parsed === INVALID) return null;
  if (parsed >= 0) {
    // A mapped IPv6 CIDR covers IPv4 space only from /96 on; shorter ones stay IPv6 ranges.
    const bits = family === 4 ? prefix : prefix - 96;
    if (bits >= 0) {
      const size = 2 ** (32 - bits);
      const start = parsed - (parsed % size);
      return { v4: true, start, end: start + size - 1 };
    }
  }
  const net = Uint16Array.from(groups);
  for (let bit = prefix; bit < 128; bit++) {
    const g = bit >> 4;
    net[g] = (net[g] ?? 0) & ~(0x8000 >> (bit & 15));
  }
  return { v4: false, net, prefix };
}

/** A set of CIDR ranges: IPv4 as sorted merged [start, end] pairs (binary search), IPv6 as a short list. */
export class CidrSet {
  readonly #v4: Float64Array;
  readonly #v6: ReadonlyArray<{ net: Uint16Array; prefix: number }>;

  private constructor(v4: Float64Array, v6: Array<{ net: Uint16Array; prefix: number }>) {
    this.#v4 = v4;
    this.#v6 = v6;
  }

  /** Builds the set; returns the malformed entries instead when there are any. */
  static build(entries: readonly string[]): CidrSet | { invalid: string[] } {
    const ranges: Array<[number, number]> = [];
    const v6: Array<{ net: Uint16Array; prefix: number }> = [];
    const invalid: string[] = [];
    for (const entry of entries) {
      const cidr = parseCidr(entry);
      if (!cidr) invalid.push(entry);
      else if (cidr.v4) ranges.push([cidr.start, cidr.end]);
      else {
        v6.push({ net: cidr.net, prefix: cidr.prefix });
        // A wide IPv6 range (::/0, ::/80) also holds the mapped IPv4 space, which is tested as IPv4.
        if (cidr.prefix <= 80 && inRange(MAPPED_SPACE, cidr.net, cidr.prefix)) ranges.push([0, 2 ** 32 - 1]);
      }
    }
    if (invalid.length > 0) return { invalid };
    ranges.sort((a, b) => a[0] - b[0]);
    const merged: number[] = [];
    for (const [start, end] of ranges) {
      const last = merged.length - 1;
      if (merged.length > 0 && start <= (merged[last] ?? 0) + 1) merged[last] = Math.max(merged[last] ?? 0, end);
      else merged.push(start, end);
    }
    return new CidrSet(Float64Array.from(merged), v6);
  }

  /** True when `address` is an IP inside one of the ranges; false for anything that is not an IP. */
  has(address: string): boolean {
    const ip = parseIp(address);
    if (ip === INVALID) return false;
    return ip >= 0 ? this.#hasV4(ip) : this.#hasV6();
  }

  #hasV4(ip: number): boolean {
    const r = this.#v4;
    let lo = 0;
    let hi = r.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ip < (r[2 * mid] ?? 0)) hi = mid - 1;
      else if (ip > (r[2 * mid + 1] ?? 0)) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /** Compares the groups left in `groups` by parseIp with each IPv6 range. */
  #hasV6(): boolean {
    for (const { net, prefix } of this.#v6) if (inRange(groups, net, prefix)) return true;
    return false;
  }
}

/** The first address of ::ffff:0:0/96. */
const MAPPED_SPACE = Uint16Array.of(0, 0, 0, 0, 0, 0xffff, 0, 0);

function inRange(address: Uint16Array, net: Uint16Array, prefix: number): boolean {
  const whole = prefix >> 4;
  for (let g = 0; g < whole; g++) if (address[g] !== net[g]) return false;
  const rest = prefix & 15;
  if (rest === 0) return true;
  const mask = (0xffff << (16 - rest)) & 0xffff;
  return ((address[whole] ?? 0) & mask) === net[whole];
}
