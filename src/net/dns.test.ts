import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDnsServer, type DnsTestServer } from '../../test/helpers/dns-server.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DnsClient, parseDnsServer } from './dns.ts';

describe('DNS_SERVERS entries', () => {
  const ok: [string, string][] = [
    ['1.1.1.1', '1.1.1.1'], [' 127.0.0.1:5353 ', '127.0.0.1:5353'], ['::1', '::1'], ['2606:4700::1111', '2606:4700::1111'],
    ['[::1]', '[::1]'], ['[2606:4700::1111]:53', '[2606:4700::1111]:53'],
  ];
  for (const [raw, want] of ok) it(`accepts ${raw}`, () => assert.equal(parseDnsServer(raw), want));
  for (const raw of ['', 'dns.google', '1.1.1', '256.1.1.1', '1.1.1.1:0', '1.1.1.1:65536', '1.1.1.1:x', '[1.1.1.1]:53', '[::1]:', 'http://1.1.1.1']) {
    it(`rejects ${JSON.stringify(raw)}`, () => assert.equal(parseDnsServer(raw), null));
  }
  it('config: a list, empty by default, a bad entry stops the start; NETWORK and the budget', () => {
    assert.deepEqual(loadConfig({ DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353' }).dnsServers, ['1.1.1.1', '127.0.0.1:5353']);
    const defaults = loadConfig({});
    assert.deepEqual(defaults.dnsServers, []);
    assert.equal(defaults.network, true);
    assert.equal(defaults.networkBudgetMs, 300);
    assert.equal(loadConfig({ NETWORK: 'off' }).network, false);
    assert.throws(() => loadConfig({ DNS_SERVERS: '1.1.1.1,resolver.local' }), (e: unknown) => e instanceof ConfigError && /DNS_SERVERS="1\.1\.1\.1,resolver\.local": "resolver\.local" is not an IP address/.test(e.message));
    assert.throws(() => loadConfig({ NETWORK: 'maybe' }), /NETWORK/);
    assert.throws(() => loadConfig({ NETWORK_BUDGET_MS: '-1' }), /NETWORK_BUDGET_MS/);
  });
});

describe('DnsClient against a local server', () => {
  let dns: DnsTestServer;
  before(async () => {
    dns = await startDnsServer({
      txt: { 'long.example.com': [['v=spf1 ' + 'include:a.example.com '.repeat(10), 'include:b.example.com '.repeat(4) + '-all']] },
      exists: ['empty.example.com'],
      silent: ['silent.example.com'],
      servfail: ['fail.example.com'],
    });
  });
  after(() => dns.close());

  it('joins the character-strings of a long TXT record', async () => {
    const r = await new DnsClient({ servers: [dns.address], timeoutMs: 500 }).txt('long.example.com');
    assert.equal(r.kind, 'found');
    assert.ok(r.kind === 'found' && r.value[0]?.startsWith('v=spf1 include:a.example.com') && r.value[0].includes('.com include:b.example.com') && r.value[0].endsWith('-all'));
  });

  it('tells NXDOMAIN from NODATA, and both from failures', async () => {
    const c = new DnsClient({ servers: [dns.address], timeoutMs: 300 });
    assert.deepEqual(await c.mx('nothing.example.com'), { kind: 'none', nxdomain: true });
    assert.deepEqual(await c.mx('empty.example.com'), { kind: 'none', nxdomain: false });
    assert.deepEqual(await c.txt('fail.example.com'), { kind: 'error', code: 'ESERVFAIL' });
    const t0 = performance.now();
    assert.deepEqual(await c.txt('silent.example.com'), { kind: 'error', code: 'ETIMEOUT' });
    assert.ok(performance.now() - t0 < 1500, 'one try, bounded by the timeout');
  });
});

describe('DNS_CANARY_NAME', () => {
  it('defaults to gmail.com, takes a domain (lower-cased, trailing dot dropped) or off, and refuses anything else', () => {
    assert.equal(loadConfig({}).dnsCanaryName, 'gmail.com');
    assert.equal(loadConfig({ DNS_CANARY_NAME: '' }).dnsCanaryName, 'gmail.com');
    assert.equal(loadConfig({ DNS_CANARY_NAME: 'Example.COM.' }).dnsCanaryName, 'example.com');
    assert.equal(loadConfig({ DNS_CANARY_NAME: 'off' }).dnsCanaryName, null);
    for (const bad of ['localhost', '1.2.3.4', 'a..com', 'exa mple.com', '-x.com']) {
      assert.throws(() => loadConfig({ DNS_CANARY_NAME: bad }), /DNS_CANARY_NAME/, bad);
    }
  });
});
