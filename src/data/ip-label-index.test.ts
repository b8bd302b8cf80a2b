import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IpLabelIndex } from './ip-label-index.ts';

describe('IpLabelIndex', () => {
  it('labels addresses by the most specific range, both families', () => {
    const idx = IpLabelIndex.build([
      ['10.0.0.0/8', 'outer'],
      ['10.1.0.0/16', 'inner'],
      ['10.1.2.0/24', 'innermost'],
      ['10.200.0.0/16', 'second inner'],
      ['192.0.2.7', 'host'],
      ['2001:db8::/32', 'v6 outer'],
      ['2001:db8:1::/48', 'v6 inner'],
    ]);
    assert.equal(idx.get('10.0.0.1'), 'outer');
    assert.equal(idx.get('10.1.0.0'), 'inner');
    assert.equal(idx.get('10.1.2.255'), 'innermost');
    assert.equal(idx.get('10.1.3.0'), 'inner');
    assert.equal(idx.get('10.2.0.0'), 'outer');
    assert.equal(idx.get('10.200.255.255'), 'second inner');
    assert.equal(idx.get('10.255.255.255'), 'outer');
    assert.equal(idx.get('11.0.0.0'), null);
    assert.equal(idx.get('9.255.255.255'), null);
    assert.equal(idx.get('192.0.2.7'), 'host');
    assert.equal(idx.get('192.0.2.8'), null);
    assert.equal(idx.get('::ffff:10.1.2.3'), 'innermost');
    assert.equal(idx.get('2001:db8:1:ffff::1'), 'v6 inner');
    assert.equal(idx.get('2001:db8:2::'), 'v6 outer');
    assert.equal(idx.get('2001:db9::'), null);
    assert.equal(idx.get('not an ip'), null);
    assert.equal(idx.size, 7);
  });

  it('keeps the first label of a duplicate and merges adjacent same-label ranges', () => {
    const idx = IpLabelIndex.build([
      ['10.0.0.0/24', 'A'],
      ['10.0.0.0/24', 'B'],
      ['10.0.1.0/24', 'A'],
      ['10.0.2.0/24', 'C'],
      ['bogus', 'X'],
    ]);
    assert.equal(idx.get('10.0.0.5'), 'A');
    assert.equal(idx.get('10.0.1.5'), 'A');
    assert.equal(idx.get('10.0.2.5'), 'C');
    assert.deepEqual(idx.segments, { v4: 2, v6: 0 });
    assert.equal(idx.size, 4);
  });

  it('an empty index answers null', () => {
    assert.equal(IpLabelIndex.build([]).get('10.0.0.1'), null);
    assert.equal(IpLabelIndex.EMPTY.get('::1'), null);
  });

  it('agrees with a linear scan on random nested CIDRs', () => {
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const entries: Array<[string, string, number, number]> = [];
    for (let i = 0; i < 300; i++) {
      const prefix = 8 + rnd(17);
      const base = (((rnd(4) << 24) | (rnd(256) << 16) | (rnd(256) << 8)) >>> 0) & ~((2 ** (32 - prefix)) - 1);
      const start = base >>> 0;
      const end = start + 2 ** (32 - prefix) - 1;
      entries.push([`${start >>> 24}.${(start >>> 16) & 255}.${(start >>> 8) & 255}.${start & 255}/${prefix}`, `L${i}`, start, end]);
    }
    const idx = IpLabelIndex.build(entries.map(([c, l]) => [c, l] as const));
    for (let k = 0; k < 3000; k++) {
      const x = ((rnd(4) << 24) | (rnd(256) << 16) | (rnd(256) << 8) | rnd(256)) >>> 0;
      // Expected: the narrowest range holding x, first listed on a tie.
      let best: [string, string, number, number] | null = null;
      for (const e of entries) if (e[2] <= x && x <= e[3] && (best === null || e[3] - e[2] < best[3] - best[2])) best = e;
      const ip = `${x >>> 24}.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`;
      assert.equal(idx.get(ip), best?.[1] ?? null, ip);
    }
  });
});
