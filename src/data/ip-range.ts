import { formatNetwork, networkEnd, parseNetwork, type Network } from '../policy/blacklists/ip-parse.ts';

/**
 * Address arithmetic for building the IP-list indexes: a network as an inclusive [start, end]
 * pair of bigints, and an arbitrary address range as the fewest CIDRs covering exactly it.
 * Build-time only (bigints allocate); lookups use the typed arrays of ip-label-index.ts and IpSet.
 */

export type Family = 4 | 6;

function wordsToBig(words: readonly number[]): bigint {
  let v = 0n;
  for (const w of words) v = (v << 32n) | BigInt(w >>> 0);
  return v;
}

/** The inclusive range of a parsed network. */
export function networkRange(n: Network): { family: Family; start: bigint; end: bigint } {
  return { family: n.family, start: wordsToBig(n.words), end: wordsToBig(networkEnd(n)) };
}

/** A bigint address back to the word layout of ip-parse (one word for IPv4, four for IPv6). */
export function bigToWords(v: bigint, family: Family): number[] {
  if (family === 4) return [Number(v & 0xffffffffn)];
  return [Number((v >> 96n) & 0xffffffffn), Number((v >> 64n) & 0xffffffffn), Number((v >> 32n) & 0xffffffffn), Number(v & 0xffffffffn)];
}

function toNetwork(v: bigint, prefix: number, family: Family): Network {
  const w = bigToWords(v, family);
  return family === 4 ? { family: 4, words: [w[0] ?? 0], prefix } : { family: 6, words: [w[0] ?? 0, w[1] ?? 0, w[2] ?? 0, w[3] ?? 0], prefix };
}

/**
 * The minimal list of CIDRs covering exactly the addresses from `start` to `end` inclusive (both
 * single addresses of one family, start <= end), in canonical text; null otherwise. Greedy from
 * the bottom: at each step the largest block that is aligned at the current address and does not
 * pass `end`. That is optimal because any cover must split at exactly those alignment points, and
 * it takes at most 2 x (address bits) blocks.
 */
export function rangeToCidrs(start: string, end: string): string[] | null {
  const a = parseNetwork(start.trim());
  const b = parseNetwork(end.trim());
  if (a === null || b === null || a.family !== b.family) return null;
  const bits = a.family === 4 ? 32 : 128;
  if (a.prefix !== bits || b.prefix !== bits) return null;
  let s = wordsToBig(a.words);
  const e = wordsToBig(b.words);
  if (s > e) return null;
  const out: string[] = [];
  const full = 1n << BigInt(bits);
  while (s <= e) {
    // Largest power of two dividing s (the whole space when s is 0), then halved until it fits.
    let size = s === 0n ? full : s & -s;
    const remaining = e - s + 1n;
    while (size > remaining) size >>= 1n;
    let log = 0;
    for (let x = size; x > 1n; x >>= 1n) log++;
    out.push(formatNetwork(toNetwork(s, bits - log, a.family)));
    s += size;
  }
  return out;
}
