import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNetwork } from '../policy/blacklists/ip-parse.ts';
import { networkRange, rangeToCidrs } from './ip-range.ts';

/** Sum of the CIDRs' sizes and their union's bounds, to check a cover is exact. */
function cover(cidrs: readonly string[]): { first: bigint; last: bigint; size: bigint } {
  let first = -1n;
  let last = -1n;
  let size = 0n;
  for (const c of cidrs) {
    const n = parseNetwork(c);
    assert.ok(n, c);
    const { start, end } = networkRange(n);
    if (first < 0n) first = start;
    else assert.equal(start, last + 1n, `${c} does not follow the previous block`);
    last = end;
    size += end - start + 1n;
  }
  return { first, last, size };
}

describe('rangeToCidrs', () => {
  it('a single address is one /32 (or /128)', () => {
    assert.deepEqual(rangeToCidrs('10.1.2.3', '10.1.2.3'), ['10.1.2.3']);
    assert.deepEqual(rangeToCidrs('2001:db8::1', '2001:db8::1'), ['2001:db8::1']);
  });

  it('an aligned range is one CIDR', () => {
    assert.deepEqual(rangeToCidrs('3.0.0.0', '3.1.255.255'), ['3.0.0.0/15']);
    assert.deepEqual(rangeToCidrs('2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'), ['2001:db8::/32']);
  });

  it('the whole space and nearly all of it', () => {
    assert.deepEqual(rangeToCidrs('0.0.0.0', '255.255.255.255'), ['0.0.0.0/0']);
    assert.deepEqual(rangeToCidrs('::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), ['::/0']);
    const most = rangeToCidrs('0.0.0.1', '255.255.255.254') ?? [];
    // 1 address short at each end: /32 /31 ... /1 on the way up and down again, 62 blocks.
    assert.equal(most.length, 62);
    assert.deepEqual(cover(most), { first: 1n, last: 0xfffffffen, size: 0xfffffffen });
  });

  it('an unaligned range is the minimal exact cover', () => {
    assert.deepEqual(rangeToCidrs('192.168.0.1', '192.168.0.10'), ['192.168.0.1', '192.168.0.2/31', '192.168.0.4/30', '192.168.0.8/31', '192.168.0.10']);
    assert.deepEqual(rangeToCidrs('10.0.0.255', '10.0.1.0'), ['10.0.0.255', '10.0.1.0']);
    const v6 = rangeToCidrs('2001:db8::ff', '2001:db8::1:0') ?? [];
    assert.deepEqual(v6[0], '2001:db8::ff');
    assert.deepEqual(v6[v6.length - 1], '2001:db8::1:0');
    const c = cover(v6);
    assert.equal(c.size, 0x1_0000n - 0xffn + 1n);
  });

  it('refuses reversed, mixed-family, CIDR or invalid bounds', () => {
    assert.equal(rangeToCidrs('10.0.0.2', '10.0.0.1'), null);
    assert.equal(rangeToCidrs('10.0.0.1', '2001:db8::1'), null);
    assert.equal(rangeToCidrs('10.0.0.0/8', '10.255.255.255'), null);
    assert.equal(rangeToCidrs('10.0.0.300', '10.0.1.0'), null);
    assert.equal(rangeToCidrs('', ''), null);
  });

  it('IPv4-mapped IPv6 bounds are IPv4', () => {
    assert.deepEqual(rangeToCidrs('::ffff:10.0.0.0', '::ffff:10.0.0.255'), ['10.0.0.0/24']);
  });
});
