import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressRefusal, isPrivateAddress, parseAllowedTargets, urlRefusal } from './targets.ts';

describe('isPrivateAddress', () => {
  const cases: Array<[string, boolean]> = [
    ['169.254.169.254', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['8.8.8.8', false],
    ['203.0.113.5', false],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['febf::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:a00:1', true],
    ['::ffff:8.8.8.8', false],
    ['::127.0.0.1', true],
    ['64:ff9b::a00:1', true],
    ['2001:4860:4860::8888', false],
    ['not an address', true],
  ];
  for (const [address, expected] of cases) it(address, () => assert.equal(isPrivateAddress(address), expected));
});

describe('parseAllowedTargets (WEBHOOK_ALLOW_PRIVATE)', () => {
  it('reads host:port, [v6]:port, addresses and CIDR ranges, blanks ignored', () => {
    const t = parseAllowedTargets(' 127.0.0.1:9000, Hooks.Internal:8443 ,[::1]:9001, 10.0.0.0/8, fd00::/8, 192.168.1.5,');
    assert.deepEqual([...t.hostPorts].sort(), ['127.0.0.1:9000', '::1:9001', 'hooks.internal:8443']);
    assert.ok(t.networks.check('10.9.9.9', 'ipv4'));
    assert.ok(t.networks.check('fd00::5', 'ipv6'));
    assert.ok(t.networks.check('192.168.1.5', 'ipv4'));
    assert.ok(!t.networks.check('192.168.1.6', 'ipv4'));
  });
  for (const bad of ['10.0.0.0/33', 'fd00::/129', 'host', 'host:0', 'host:70000', '10.0.0.0/x', 'http://host:80'])
    it(`refuses ${bad}`, () => assert.throws(() => parseAllowedTargets(bad), RangeError));
});

describe('urlRefusal (registration) and addressRefusal (delivery)', () => {
  const none = parseAllowedTargets('');
  const u = (s: string) => new URL(s);
  const refused: string[] = [
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:9000/hook',
    'http://127.1/hook', // WHATWG URL reads it as 127.0.0.1
    'http://0x7f000001/hook',
    'http://10.0.0.5/hook',
    'http://172.20.1.1/hook',
    'http://192.168.0.10/hook',
    'http://[::1]:9000/hook',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/hook',
    'http://localhost:9000/hook',
    'http://localhost.:9000/hook',
    'http://api.localhost/hook',
  ];
  for (const url of refused) {
    it(`refuses ${url} by default`, () => assert.match(String(urlRefusal(none, u(url))), /private, loopback or link-local|loopback name.*WEBHOOK_ALLOW_PRIVATE/));
  }
  it('lets names and public addresses through registration (names are checked at delivery)', () => {
    for (const url of ['https://hooks.example.com/in', 'http://8.8.8.8/in', 'http://[2001:db8::1]/in', 'http://internal.corp/in']) assert.equal(urlRefusal(none, u(url)), null, url);
  });
  it('allows what WEBHOOK_ALLOW_PRIVATE names: host:port exactly, or the resolved address in a range', () => {
    const t = parseAllowedTargets('127.0.0.1:9000,hooks.internal:8080,10.1.0.0/16,[::1]:9001');
    assert.equal(urlRefusal(t, u('http://127.0.0.1:9000/hook')), null);
    assert.notEqual(urlRefusal(t, u('http://127.0.0.1:9002/hook')), null, 'another port');
    assert.equal(urlRefusal(t, u('http://[::1]:9001/hook')), null);
    assert.equal(urlRefusal(t, u('http://10.1.2.3/hook')), null);
    assert.notEqual(urlRefusal(t, u('http://10.2.0.1/hook')), null);
    assert.equal(addressRefusal(t, u('http://hooks.internal:8080/x'), '10.9.9.9'), null, 'the name and port are allowed, whatever they resolve to');
    assert.match(String(addressRefusal(t, u('http://hooks.internal:8081/x'), '10.9.9.9')), /hooks\.internal resolves to 10\.9\.9\.9/);
    assert.equal(addressRefusal(t, u('http://other.internal/x'), '10.1.0.7'), null, 'resolved into an allowed range');
    assert.match(String(addressRefusal(none, u('https://rebind.example/x'), '::ffff:169.254.169.254')), /resolves to ::ffff:169\.254\.169\.254/);
    assert.equal(addressRefusal(none, u('https://hooks.example.com/x'), '93.184.216.34'), null);
  });
});
