import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import { parseIpInput } from './address.ts';
import { BOGON_RANGES } from './bogons.ts';
import { networkEnd, parseNetwork, formatV4, formatV6 } from '../../policy/blacklists/ip-parse.ts';

const ok = (text: string) => {
  const r = parseIpInput(text);
  if (!r.ok) assert.fail(`${text}: ${r.problem}`);
  return r.value;
};
const bad = (text: unknown) => {
  const r = parseIpInput(text);
  assert.equal(r.ok, false, `${String(text)} should be malformed`);
};

void describe('parseIpInput', () => {
  void it('gives canonical text, type and number for IPv4', () => {
    const a = ok('8.8.8.8');
    assert.deepEqual([a.ip, a.family, a.ipNumber, a.bogon], ['8.8.8.8', 4, 134744072, null]);
    assert.equal(ok('255.255.255.254').ipNumber, 4294967294);
    assert.equal(ok('0.0.0.0').ipNumber, 0);
  });

  void it('canonicalises IPv6 (RFC 5952) and gives an exact bigint number', () => {
    const a = ok('2001:4860:4860:0000:0000:0000:0000:8888');
    assert.equal(a.ip, '2001:4860:4860::8888');
    assert.equal(a.family, 6);
    assert.equal(a.ipNumber, 0x20014860486000000000000000008888n);
    assert.equal(ok('2606:4700:4700::1111').ip, '2606:4700:4700::1111');
    assert.equal(ok('2A02:0908::0001').ip, '2a02:908::1');
    assert.equal(ok('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff').ipNumber, (1n << 128n) - 1n);
  });

  void it('folds IPv4-mapped IPv6 to the IPv4 address', () => {
    const a = ok('::ffff:1.2.3.4');
    assert.deepEqual([a.ip, a.family], ['1.2.3.4', 4]);
    assert.equal(ok('::FFFF:0102:0304').ip, '1.2.3.4');
  });

  void it('trims surrounding whitespace only', () => {
    assert.equal(ok('  1.1.1.1 ').ip, '1.1.1.1');
    assert.equal(ok('\t::1\n').ip, '::1');
    bad('1.1. 1.1');
    bad('2001:db8:: 1');
  });

  void it('refuses every malformed form', () => {
    for (const t of [
      '', '   ', '01.1.1.1', '1.1.1.01', '1.1.1', '1.1.1.1.1', '256.1.1.1', '1.1.1.-1', '1.1.1.1/32', 'fe80::1%eth0', 'fe80::1%25eth0',
      '[::1]', '::1::', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', 'localhost', '0x7f.0.0.1', '017700000001', '1.1.1.1:80', ':::', '1.2.3.4 5.6.7.8',
      'x'.repeat(100), '٣.٣.٣.٣', '1.1.1.1\u0000',
    ]) bad(t);
    for (const v of [undefined, null, 42, ['1.1.1.1'], { ip: '1.1.1.1' }]) bad(v);
  });

  void it('accepts what node:net accepts, and nothing else, on a sample', () => {
    const samples = ['1.2.3.4', '::', '::1', '1::', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:1.2.3.4', '::1.2.3.4', '1::1.2.3.4', '0.0.0.0', '00.0.0.0', '1.2.3.04', 'a:b:c:d:e:f:0:1', '::ffff:255.255.255.255'];
    for (const s of samples) assert.equal(parseIpInput(s).ok, isIP(s) !== 0, s);
  });
});

void describe('bogons', () => {
  void it('marks the first and last address of every special range, and the neighbours outside stay public', () => {
    for (const [cidr, kind] of BOGON_RANGES) {
      const net = parseNetwork(cidr)!;
      const fmt = (w: readonly number[]) => (net.family === 4 ? formatV4(w[0]!) : formatV6(w));
      assert.equal(ok(fmt(net.words)).bogon, kind, `${cidr} first`);
      // 240.0.0.0/4 ends in 255.255.255.255, which the more specific broadcast entry names.
      const last = fmt(networkEnd(net));
      assert.equal(ok(last).bogon, last === '255.255.255.255' ? 'broadcast' : kind, `${cidr} last`);
    }
    for (const pub of ['9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '223.255.255.255', '192.31.196.1', '192.175.48.1', '192.52.193.1']) {
      assert.equal(ok(pub).bogon, null, pub);
    }
  });

  void it('covers both families as the IANA registries say', () => {
    const kinds: Array<[string, string]> = [
      ['10.1.2.3', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'], ['100.64.0.1', 'cgnat'], ['127.0.0.1', 'loopback'],
      ['169.254.1.1', 'link-local'], ['192.0.2.1', 'documentation'], ['198.51.100.7', 'documentation'], ['203.0.113.9', 'documentation'],
      ['224.0.0.1', 'multicast'], ['239.255.255.255', 'multicast'], ['240.0.0.1', 'reserved'], ['255.255.255.255', 'broadcast'], ['0.1.2.3', 'this-network'],
      ['198.19.0.1', 'benchmarking'], ['::', 'unspecified'], ['::1', 'loopback'], ['fe80::1', 'link-local'], ['fd00::1', 'unique-local'], ['fc00::', 'unique-local'],
      ['ff02::1', 'multicast'], ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'], ['100::1', 'discard'], ['64:ff9b:1::1', 'nat64-local'],
      ['::ffff:10.0.0.1', 'private'], ['4000::1', 'not-allocated'], ['1fff::1', 'not-allocated'],
    ];
    for (const [ip, kind] of kinds) assert.equal(ok(ip).bogon, kind, ip);
    for (const pub of ['2001:4860:4860::8888', '2a02:908::1', '2002:c000:0204::1', '2001:0:4136:e378::1', '3ffe::1']) assert.equal(ok(pub).bogon, null, pub);
  });
});
