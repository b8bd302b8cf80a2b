import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import { CidrSet, isIpAddress, parseCidr, parseIPv4 } from './ip.ts';

describe('parseIPv4', () => {
  const cases: Array<[string, number]> = [
    ['0.0.0.0', 0],
    ['1.2.3.4', 0x01020304],
    ['255.255.255.255', 0xffffffff],
    ['256.1.1.1', -1],
    ['1.2.3', -1],
    ['1.2.3.4.5', -1],
    ['01.2.3.4', -1],
    ['1..3.4', -1],
    ['1.2.3.', -1],
    ['', -1],
    [' 1.2.3.4', -1],
  ];
  for (const [text, expected] of cases) it(`${JSON.stringify(text)} -> ${expected}`, () => assert.equal(parseIPv4(text), expected));
});

describe('isIpAddress agrees with node:net', () => {
  const corpus = [
    '1.2.3.4', '0.0.0.0', '255.255.255.255', '256.0.0.0', '1.2.3', '01.2.3.4', '1.2.3.04', '1.2.3.4 ', 'a.b.c.d',
    '::', '::1', '1::', '1::2', '2001:db8::1', '2001:DB8:0:0:0:0:0:1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::', '::1:2:3:4:5:6:7', '1:2:3:4:5:6::7:8', ':1', '1:', ':::', '1:::2', '1::2::3', '12345::',
    'g::1', '::ffff:1.2.3.4', '::ffff:1.2.3', '::1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4',
    'fe80::1%eth0', 'fe80::1%', '::ffff:256.1.1.1', '', 'localhost', '1.2.3.4/8',
  ];
  for (const text of corpus) {
    it(JSON.stringify(text), () => assert.equal(isIpAddress(text), isIP(text) !== 0));
  }
});

describe('parseCidr', () => {
  it('refuses malformed entries', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/08', '10.0.0/8', '2001:db8::/129', 'x/8', '', '1.2.3.4/8/9']) {
      assert.equal(parseCidr(bad), null, bad);
    }
  });

  it('masks host bits', () => {
    assert.deepEqual(parseCidr('10.1.2.3/8'), { v4: true, start: 0x0a000000, end: 0x0affffff });
    const v6 = parseCidr('2001:db8::ffff/32');
    assert.ok(v6 && !v6.v4);
    assert.deepEqual([...v6.net], [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
  });

  it('reads a mapped IPv6 range of /96 or longer as IPv4', () => {
    assert.deepEqual(parseCidr('::ffff:10.0.0.0/104'), { v4: true, start: 0x0a000000, end: 0x0affffff });
    assert.equal(parseCidr('::ffff:0:0/95')?.v4, false);
  });

  it('CidrSet.build lists the invalid entries', () => {
    assert.deepEqual(CidrSet.build(['10.0.0.0/8', 'nope', '1.2.3.4/40']), { invalid: ['nope', '1.2.3.4/40'] });
  });
});
