/**
 * Micro benchmark of the in-memory blacklist index at 1,000,000 entries: 600k IPv4 addresses,
 * 100k IPv4 ranges, 100k IPv6 (80k addresses, 20k ranges), 200k emails. Prints normalisation and
 * build time, heap held by the index, and per-lookup cost for hits and misses of each kind.
 * Run: npx tsx bench/blacklist-index.ts   (about 10 s, in-process, no I/O)
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BlacklistIndex } from '../src/policy/blacklists/index.ts';
import { formatV4, formatV6 } from '../src/policy/blacklists/ip-parse.ts';
import { normaliseEntry } from '../src/policy/blacklists/normalise.ts';
import type { BlacklistType, ListProbe } from '../src/policy/types.ts';

// A real heap figure needs a full collection before each reading.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** mulberry32: the same data on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const r = rng(2024);
const u32 = (): number => Math.floor(r() * 2 ** 32) >>> 0;

function heapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
}

const heap0 = heapMb();
// Generator state kept for the probes: typed arrays, so it weighs little next to the index.
const v4Hosts = Uint32Array.from({ length: 600_000 }, u32);
const v4Nets = Uint32Array.from({ length: 100_000 }, () => u32());
const v4Prefixes = Uint8Array.from({ length: 100_000 }, () => 16 + Math.floor(r() * 13));
for (let i = 0; i < v4Nets.length; i++) v4Nets[i] = (v4Nets[i]! & ((0xffffffff << (32 - v4Prefixes[i]!)) >>> 0)) >>> 0;
const v6Hosts = Uint32Array.from({ length: 80_000 * 4 }, (_, i) => (i % 4 === 0 ? 0x20010db8 : u32()));
const v6Of = (i: number): string => formatV6(Array.from(v6Hosts.subarray(i * 4, i * 4 + 4)));
/** Rebuilt on demand, so the probes' strings are not the index's own (the heap figure stays honest). */
const emailOf = (i: number): string => `user${i}.${((i * 2654435761) >>> 0).toString(36)}@domain${i % 5000}.example`;

let pairs: Array<[BlacklistType, string]> = [];
for (const h of v4Hosts) pairs.push(['ip', formatV4(h)]);
for (let i = 0; i < v4Nets.length; i++) pairs.push(['ip', `${formatV4(v4Nets[i]!)}/${v4Prefixes[i]!}`]);
for (let i = 0; i < 80_000; i++) pairs.push(['ip', v6Of(i)]);
for (let i = 0; i < 20_000; i++) pairs.push(['ip', `${formatV6([0x20010db8, u32() & 0xffff0000, 0, 0])}/${48 + (i % 17)}`]);
for (let i = 0; i < 200_000; i++) pairs.push(['email', emailOf(i)]);
const pairsMb = heapMb() - heap0;

const [normalised, normaliseMs] = time(() => pairs.filter(([type, value]) => normaliseEntry(type, value).ok).length);
const built = time(() => BlacklistIndex.build(pairs));
let index = built[0];
const buildMs = built[1];
pairs = [];
const withIndexMb = heapMb();

console.log(`entries: ${index.size.toLocaleString('en')} (all ${normalised.toLocaleString('en')} pass normaliseEntry)`);
console.log(`normaliseEntry x ${normalised.toLocaleString('en')}: ${normaliseMs.toFixed(0)} ms (${((normaliseMs * 1e6) / normalised).toFixed(0)} ns each)`);
console.log(`BlacklistIndex.build: ${buildMs.toFixed(0)} ms`);

const N = 300_000;
/** Best of 3 timed rounds: the figure a quiet machine gives, not the noise of a shared one. */
function bench(label: string, probes: ListProbe[], expectHit: boolean): void {
  let best = Infinity;
  for (let round = 0; round < 4; round++) {
    let hits = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) if (index.has(probes[i % probes.length]!)) hits++;
    const ns = Number(process.hrtime.bigint() - t0) / N;
    if (hits !== (expectHit ? N : 0)) throw new Error(`${label}: ${hits} hits of ${N}`);
    if (round > 0) best = Math.min(best, ns); // round 0 warms up
  }
  console.log(`  ${label.padEnd(44)} ${best.toFixed(0).padStart(5)} ns/lookup  (${(1e3 / best).toFixed(1)} M/s)`);
}

const pick = (n: number): number => Math.floor(r() * n);
const many = <T>(make: () => T): T[] => Array.from({ length: 10_000 }, make);
console.log(`lookups (has(), best of 3 x ${N.toLocaleString('en')}):`);
bench('ipv4 exact hit', many(() => ({ type: 'ip', value: formatV4(v4Hosts[pick(v4Hosts.length)]!) })), true);
bench('ipv4 hit inside a range', many(() => ({ type: 'ip', value: formatV4((v4Nets[pick(v4Nets.length)]! + 1) >>> 0) })), true);
bench('ipv4 miss', many(u32).filter((x) => !index.has({ type: 'ip', value: formatV4(x) })).map((x) => ({ type: 'ip', value: formatV4(x) })), false);
bench('ipv4-mapped ipv6 hit (::ffff:a.b.c.d)', many(() => ({ type: 'ip', value: `::ffff:${formatV4(v4Hosts[pick(v4Hosts.length)]!)}` })), true);
bench('ipv6 exact hit', many(() => ({ type: 'ip', value: v6Of(pick(80_000)) })), true);
bench('ipv6 miss', many(() => ({ type: 'ip', value: formatV6([0x20020000, u32(), u32(), u32()]) })), false);
bench('email hit (as stored)', many(() => ({ type: 'email', value: emailOf(pick(200_000)) })), true);
bench('email hit (upper case, spaces)', many(() => ({ type: 'email', value: ` ${emailOf(pick(200_000)).toUpperCase()} ` })), true);
bench('email miss', many(() => ({ type: 'email', value: `nobody${pick(1e9)}@example.com` })), false);
bench('email_domain on an empty list (skipped)', [{ type: 'email_domain', value: 'mail.example.com' }], false);

const subject: ListProbe[] = [
  { type: 'ip', value: formatV4(v4Hosts[7]!) },
  { type: 'email', value: 'someone@example.com' },
  { type: 'email_domain', value: 'example.com' },
  { type: 'card_bin', value: '411111******1111' },
];
let best = Infinity;
for (let round = 0; round < 4; round++) {
  const t0 = process.hrtime.bigint();
  let listed = 0;
  for (let i = 0; i < 100_000; i++) listed += index.hits(subject).length;
  if (listed !== 100_000) throw new Error(`hits: ${listed}`);
  if (round > 0) best = Math.min(best, Number(process.hrtime.bigint() - t0) / 100_000);
}
console.log(`hits() of a 4-probe subject (ip, email, email_domain, card_bin; 1 hit): ${best.toFixed(0)} ns`);

// The index's own heap: with it minus without it (the generator arrays stay on both sides).
index = BlacklistIndex.EMPTY;
built[0] = index;
const withoutIndexMb = heapMb();
console.log(`heap: input pairs ${pairsMb.toFixed(1)} MB; index ${(withIndexMb - withoutIndexMb).toFixed(1)} MB (heapUsed with minus without, after a full GC)`);
