import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatV4, formatV6 } from './ip-parse.ts';
import { IpSet } from './ip-set.ts';

/** [entries, address, listed?] */
const CASES: Array<[string[], string, boolean]> = [
  // IPv4 range edges
  [['10.0.0.0/8'], '10.0.0.0', true],
  [['10.0.0.0/8'], '10.255.255.255', true],
  [['10.0.0.0/8'], '9.255.255.255', false],
  [['10.0.0.0/8'], '11.0.0.0', false],
  [['10.1.2.3/8'], '10.0.0.1', true],
  [['0.0.0.0/0'], '0.0.0.0', true],
  [['0.0.0.0/0'], '255.255.255.255', true],
  [['0.0.0.0/0'], '::1', false],
  [['255.255.255.255'], '255.255.255.255', true],
  [['255.255.255.255'], '255.255.255.254', false],
  [['255.255.255.0/24'], '255.255.255.255', true],
  [['0.0.0.0'], '0.0.0.0', true],
  [['0.0.0.0'], '0.0.0.1', false],
  [['1.2.3.4/32'], '1.2.3.4', true],
  [['1.2.3.4/32'], '1.2.3.5', false],
  [['1.2.3.4/31'], '1.2.3.5', true],
  [['1.2.3.4/31'], '1.2.3.6', false],
  [['1.2.3.4/31'], '1.2.3.3', false],
  // overlapping and adjacent ranges, exact addresses inside ranges
  [['10.0.0.0/9', '10.128.0.0/9'], '10.127.255.255', true],
  [['10.0.0.0/9', '10.128.0.0/9'], '10.128.0.0', true],
  [['10.0.0.0/8', '10.1.0.0/16', '10.1.2.3'], '10.200.0.0', true],
  [['10.0.0.0/16', '10.0.0.0/8'], '10.9.0.0', true],
  [['1.2.3.4', '1.2.3.5', '1.2.3.7'], '1.2.3.6', false],
  [['1.2.3.4', '1.2.3.5', '1.2.3.7'], '1.2.3.7', true],
  [['1.2.3.4', '1.2.3.4'], '1.2.3.4', true],
  // IPv4-mapped IPv6 on either side
  [['1.2.3.4'], '::ffff:1.2.3.4', true],
  [['1.2.3.4'], '::FFFF:0102:0304', true],
  [['::ffff:1.2.3.4'], '1.2.3.4', true],
  [['::ffff:10.0.0.0/104'], '10.20.30.40', true],
  [['1.2.3.4'], '::1.2.3.4', false],
  [['::/0'], '1.2.3.4', false],
  [['::/0'], '::ffff:1.2.3.4', false],
  // IPv6 range edges
  [['2001:db8::/32'], '2001:db8::', true],
  [['2001:db8::/32'], '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
  [['2001:db8::/32'], '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', false],
  [['2001:db8::/32'], '2001:db9::', false],
  [['2001:db8::/127'], '2001:db8::1', true],
  [['2001:db8::/127'], '2001:db8::2', false],
  [['::/0'], 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
  [['::/0'], '::', true],
  [['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], 'FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF', true],
  [['2001:db8::1/128'], '2001:0db8:0000:0000:0000:0000:0000:0001', true],
  [['2001:db8::1'], '2001:db8::2', false],
  [['2001:db8::/33', '2001:db8:8000::/33'], '2001:db8:7fff:ffff:ffff:ffff:ffff:ffff', true],
  [['2001:db8::/33', '2001:db8:8000::/33'], '2001:db8:8000::', true],
  [['2001:db8::/64'], '2001:db8::ffff:ffff:ffff:ffff', true],
  [['2001:db8::/64'], '2001:db8:0:1::', false],
  // not addresses: false, never a throw
  [['0.0.0.0/0', '::/0'], '', false],
  [['0.0.0.0/0', '::/0'], 'localhost', false],
  [['0.0.0.0/0', '::/0'], '10.0.0.0/8', false],
  [['0.0.0.0/0', '::/0'], 'fe80::1%eth0', false],
  [['0.0.0.0/0', '::/0'], '1.2.3.4\u0000', false],
  [['0.0.0.0/0', '::/0'], '1'.repeat(10_000), false],
  [['0.0.0.0/0', '::/0'], ' 1.2.3.4 ', true],
];

describe('IpSet.has', () => {
  for (const [entries, address, listed] of CASES) {
    it(`${entries.join(', ')} ${listed ? 'holds' : 'does not hold'} ${JSON.stringify(address.slice(0, 40))}`, () => {
      assert.equal(IpSet.build(entries).has(address), listed);
    });
  }

  it('is false for everything when empty, and for non-strings', () => {
    assert.equal(IpSet.EMPTY.has('1.2.3.4'), false);
    assert.equal(IpSet.build([]).has('::'), false);
    assert.equal(IpSet.build(['1.2.3.4']).has(1 as unknown as string), false);
  });

  it('skips values that do not parse and counts the others', () => {
    const set = IpSet.build(['1.2.3.4', 'garbage', '10.0.0.0/33', '2001:db8::/32']);
    assert.equal(set.size, 2);
    assert.equal(set.has('1.2.3.4'), true);
  });

  it('merges overlapping and adjacent intervals', () => {
    const set = IpSet.build(['10.0.0.0/9', '10.128.0.0/9', '10.1.2.3', '1.2.3.4', '1.2.3.5', '2001:db8::/33', '2001:db8:8000::/33', '2001:db8::1']);
    assert.deepEqual(set.intervals, { v4: 2, v6: 1 });
  });
});

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('IpSet against a naive BigInt model', () => {
  it('agrees on 20,000 probes near the edges of 300 random entries per family', () => {
    const r = rng(42);
    const u32 = (): number => Math.floor(r() * 2 ** 32) >>> 0;
    const ranges: Array<{ family: 4 | 6; start: bigint; end: bigint }> = [];
    const entries: string[] = [];
    for (let n = 0; n < 300; n++) {
      // Few high bits vary, so ranges overlap and touch often.
      const v4 = (u32() & 0xff00ff00) >>> 0;
      const p4 = 16 + Math.floor(r() * 17);
      const start4 = BigInt(v4) & (((1n << 32n) - 1n) ^ ((1n << BigInt(32 - p4)) - 1n));
      ranges.push({ family: 4, start: start4, end: start4 | ((1n << BigInt(32 - p4)) - 1n) });
      entries.push(`${formatV4(v4)}/${p4}`);
      const w = [0x20010db8, u32() & 0xff000000, 0, u32() & 0xf];
      const p6 = 32 + Math.floor(r() * 97);
      const big = w.reduce((acc, x) => (acc << 32n) | BigInt(x >>> 0), 0n);
      const hostMask = (1n << BigInt(128 - p6)) - 1n;
      ranges.push({ family: 6, start: big & ~hostMask, end: (big & ~hostMask) | hostMask });
      entries.push(`${formatV6(w)}/${p6}`);
    }
    const set = IpSet.build(entries);
    let listed = 0;
    const text6 = (x: bigint): string => formatV6([0, 1, 2, 3].map((k) => Number((x >> BigInt(96 - 32 * k)) & 0xffffffffn)));
    for (let n = 0; n < 20000; n++) {
      const base = ranges[Math.floor(r() * ranges.length)]!;
      const edge = [base.start - 1n, base.start, base.end, base.end + 1n][n % 4]!;
      const max = base.family === 4 ? (1n << 32n) - 1n : (1n << 128n) - 1n;
      if (edge < 0n || edge > max) continue;
      const expected = ranges.some((x) => x.family === base.family && x.start <= edge && edge <= x.end);
      const text = base.family === 4 ? formatV4(Number(edge)) : text6(edge);
      assert.equal(set.has(text), expected, text);
      if (expected) listed++;
    }
    assert.ok(listed > 10000 && listed < 18000, `${listed} listed: the sample should mix hits and misses`);
  });
});

describe('IpSet with the IPv4 bucket table (16,384+ intervals)', () => {
  it('agrees with a linear scan on 40,000 entries for edges, bucket boundaries and random addresses', () => {
    const r = rng(7);
    const u32 = (): number => Math.floor(r() * 2 ** 32) >>> 0;
    const ranges: Array<[number, number]> = [];
    const entries: string[] = [];
    for (let n = 0; n < 40_000; n++) {
      // A /24 to /32 around random points, some straddling a /16 bucket boundary.
      const prefix = 24 + Math.floor(r() * 9);
      const size = 2 ** (32 - prefix);
      const base = n % 10 === 0 ? ((u32() | 0xffff) - Math.floor(size / 2)) >>> 0 : u32();
      const start = base - (base % size);
      ranges.push([start, start + size - 1]);
      entries.push(`${formatV4(start)}/${prefix}`);
    }
    const set = IpSet.build(entries);
    assert.ok(set.intervals.v4 >= 16_384);
    const probes: number[] = [0, 0xffffffff, 0xffff, 0x10000];
    for (let n = 0; n < 500; n++) {
      const [start, end] = ranges[Math.floor(r() * ranges.length)]!;
      probes.push(start, end, u32(), (u32() | 0xffff) >>> 0, ((u32() | 0xffff) + 1) >>> 0);
      if (start > 0) probes.push(start - 1);
      if (end < 0xffffffff) probes.push(end + 1);
    }
    // The model: a linear scan over flat arrays (fast enough at 40k x 3.5k, and obviously right).
    const starts = Float64Array.from(ranges, ([s]) => s);
    const ends = Float64Array.from(ranges, ([, e]) => e);
    const listedByScan = (x: number): boolean => {
      for (let k = 0; k < starts.length; k++) if (starts[k]! <= x && x <= ends[k]!) return true;
      return false;
    };
    let listed = 0;
    for (const x of probes) {
      const expected = listedByScan(x);
      assert.equal(set.has(formatV4(x)), expected, formatV4(x));
      if (expected) listed++;
    }
    assert.ok(listed > probes.length / 4 && listed < probes.length, `${listed} of ${probes.length}`);
  });
});
