/**
 * Addresses that cannot be placed on a map: IANA's IPv4 and IPv6 special-purpose address registries
 * (entries not "globally reachable"), multicast, the IPv4 limited broadcast, and for IPv6 anything
 * outside 2000::/3, the only block IANA allocates as global unicast today. Special ranges that are
 * globally reachable (AS112 192.31.196.0/24 and 192.175.48.0/24, AMT 192.52.193.0/24, 6to4
 * 2002::/16, Teredo 2001::/32) are ordinary addresses here.
 */
import { parseNetwork, networkEnd } from '../../policy/blacklists/ip-parse.ts';

export type BogonKind =
  | 'this-network' | 'private' | 'cgnat' | 'loopback' | 'link-local' | 'ietf-protocol' | 'documentation'
  | 'relay-6to4' | 'benchmarking' | 'multicast' | 'reserved' | 'broadcast' | 'unspecified' | 'unique-local'
  | 'site-local' | 'discard' | 'nat64-local' | 'orchid' | 'not-allocated';

/** [range, kind], most specific first where ranges nest (the first match wins). */
export const BOGON_RANGES: ReadonlyArray<readonly [string, BogonKind]> = [
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'ietf-protocol'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'relay-6to4'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'nat64-local'],
  ['100::/64', 'discard'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'orchid'],
  ['2001:20::/28', 'orchid'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
];

interface Span {
  start: readonly number[];
  end: readonly number[];
  kind: BogonKind;
}

const V4: Span[] = [];
const V6: Span[] = [];
for (const [cidr, kind] of BOGON_RANGES) {
  const net = parseNetwork(cidr);
  if (!net) throw new Error(`bad bogon range ${cidr}`);
  (net.family === 4 ? V4 : V6).push({ start: net.words, end: networkEnd(net), kind });
}

function cmp(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** The special-purpose block holding the address, or null for a public address. */
export function bogonKind(family: 4 | 6, words: readonly number[]): BogonKind | null {
  const spans = family === 4 ? V4 : V6;
  for (const s of spans) if (cmp(words, s.start) >= 0 && cmp(words, s.end) <= 0) return s.kind;
  // Outside 2000::/3 (first three bits 001) nothing is allocated for global unicast.
  if (family === 6 && words[0]! >>> 29 !== 1) return 'not-allocated';
  return null;
}
