/**
 * Strict IP text parsing and canonical formatting for the blacklists.
 *
 * Hand-written scanners rather than node:net's isIP regexes plus a split: `IpSet.has` runs on every
 * request that carries an IP, and these parse straight into numbers without allocating. The tests
 * check that they accept exactly what node:net accepts (zone ids aside, which we refuse).
 *
 * IPv4 is one uint32; IPv6 is four big-endian uint32 words. An IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`) is folded to IPv4 everywhere, so one entry catches both spellings.
 */

/** A parsed address or range: the network address with host bits cleared, and its prefix length. */
export type Network =
  | { family: 4; words: [number]; prefix: number }
  | { family: 6; words: [number, number, number, number]; prefix: number };

const groups = new Uint16Array(8);

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Dotted quad in s[from, to) as a uint32, or -1. No leading zeros (`01.2.3.4` is ambiguous: octal?). */
export function parseV4(s: string, from = 0, to = s.length): number {
  let value = 0;
  let parts = 0;
  let i = from;
  while (parts < 4) {
    const start = i;
    let octet = 0;
    while (i < to && i - start < 4 && isDigit(s.charCodeAt(i))) octet = octet * 10 + s.charCodeAt(i++) - 48;
    const len = i - start;
    if (len === 0 || len > 3 || octet > 255 || (len > 1 && s.charCodeAt(start) === 48)) return -1;
    value = value * 256 + octet;
    parts++;
    if (parts < 4) {
      if (i >= to || s.charCodeAt(i) !== 46) return -1;
      i++;
    }
  }
  return i === to ? value : -1;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** Fills the module's `groups` scratch with the 8 groups of an IPv6 text in s[0, to); false if invalid. */
function parseV6(s: string, to: number): boolean {
  let count = 0;
  let gap = -1;
  let i = 0;
  if (to < 2) return false;
  if (s.charCodeAt(0) === 58) {
    if (s.charCodeAt(1) !== 58) return false;
    gap = 0;
    i = 2;
  }
  while (i < to) {
    const start = i;
    let value = 0;
    let h: number;
    while (i < to && (h = hexValue(s.charCodeAt(i))) >= 0) {
      value = value * 16 + h;
      i++;
      if (i - start > 4) break;
    }
    if (i < to && s.charCodeAt(i) === 46) {
      // An embedded IPv4 tail takes the last two groups.
      if (count > 6) return false;
      const v4 = parseV4(s, start, to);
      if (v4 < 0) return false;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      i = to;
      break;
    }
    if (i === start || i - start > 4 || count === 8) return false;
    groups[count++] = value;
    if (i === to) break;
    if (s.charCodeAt(i) !== 58) return false;
    i++;
    if (i < to && s.charCodeAt(i) === 58) {
      if (gap >= 0) return false;
      gap = count;
      i++;
    } else if (i === to) {
      return false; // a single trailing colon
    }
  }
  if (gap < 0) return count === 8;
  // `::` stands for at least one zero group.
  if (count > 7) return false;
  const shift = 8 - count;
  for (let k = count - 1; k >= gap; k--) groups[k + shift] = groups[k]!;
  for (let k = gap; k < gap + shift; k++) groups[k] = 0;
  return true;
}

function isMapped(): boolean {
  return groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff;
}

/**
 * Reads one address (no range, no zone) into `out`: returns 4 with out[0] set, 6 with out[0..3] set,
 * or 0 when the text is not an address. Allocation-free: the lookup hot path.
 */
export function readAddress(s: string, out: Uint32Array): 0 | 4 | 6 {
  if (s.indexOf(':') < 0) {
    const v4 = parseV4(s);
    if (v4 < 0) return 0;
    out[0] = v4;
    return 4;
  }
  if (!parseV6(s, s.length)) return 0;
  if (isMapped()) {
    out[0] = ((groups[6]! << 16) | groups[7]!) >>> 0;
    return 4;
  }
  for (let k = 0; k < 4; k++) out[k] = ((groups[2 * k]! << 16) | groups[2 * k + 1]!) >>> 0;
  return 6;
}

/** Mask keeping the top `bits` (0-32) of a word. */
function wordMask(bits: number): number {
  return bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

/** An address or CIDR range (`a/n`), host bits cleared; null when invalid. Zone ids are invalid. */
export function parseNetwork(s: string): Network | null {
  const slash = s.indexOf('/');
  const addr = slash < 0 ? s : s.slice(0, slash);
  let prefix = -1;
  if (slash >= 0) {
    const p = s.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p)) return null;
    prefix = Number(p);
  }
  if (addr.indexOf(':') < 0) {
    const v4 = parseV4(addr);
    if (v4 < 0 || prefix > 32) return null;
    if (prefix < 0) prefix = 32;
    return { family: 4, words: [(v4 & wordMask(prefix)) >>> 0], prefix };
  }
  if (!parseV6(addr, addr.length) || prefix > 128) return null;
  if (prefix < 0) prefix = 128;
  // A mapped range is an IPv4 range when it lies inside ::ffff:0:0/96; a wider one stays IPv6.
  if (isMapped() && prefix >= 96) {
    const v4 = ((groups[6]! << 16) | groups[7]!) >>> 0;
    return { family: 4, words: [(v4 & wordMask(prefix - 96)) >>> 0], prefix: prefix - 96 };
  }
  const w: [number, number, number, number] = [0, 0, 0, 0];
  for (let k = 0; k < 4; k++) w[k] = (((groups[2 * k]! << 16) | groups[2 * k + 1]!) & wordMask(prefix - 32 * k)) >>> 0;
  return { family: 6, words: w, prefix };
}

/** The last address of a network (all host bits set), in the same word layout. */
export function networkEnd(n: Network): number[] {
  return n.words.map((w, k) => (w | ~wordMask(n.prefix - 32 * k)) >>> 0);
}

export function formatV4(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

/** RFC 5952 text: lower-case, no leading zeros, the longest run (first on a tie) of 2+ zero groups as `::`. */
export function formatV6(words: readonly number[]): string {
  const g: number[] = [];
  for (const w of words) g.push(w >>> 16, w & 0xffff);
  let bestStart = -1;
  let bestLen = 1;
  for (let k = 0; k < 8; ) {
    if (g[k] !== 0) {
      k++;
      continue;
    }
    let end = k;
    while (end < 8 && g[end] === 0) end++;
    if (end - k > bestLen) {
      bestStart = k;
      bestLen = end - k;
    }
    k = end;
  }
  if (bestStart < 0) return hexGroups(g);
  return `${hexGroups(g.slice(0, bestStart))}::${hexGroups(g.slice(bestStart + bestLen))}`;
}

function hexGroups(part: number[]): string {
  return part.map((x) => x.toString(16)).join(':');
}

/** Canonical text: plain address for a single host (/32, /128), else `network/prefix`. */
export function formatNetwork(n: Network): string {
  const addr = n.family === 4 ? formatV4(n.words[0]) : formatV6(n.words);
  const full = n.family === 4 ? 32 : 128;
  return n.prefix === full ? addr : `${addr}/${n.prefix}`;
}
