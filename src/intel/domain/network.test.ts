import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDnsServer, type DnsTestServer } from '../../../test/helpers/dns-server.ts';
import { startRdapServer, type RdapTestServer } from '../../../test/helpers/rdap-server.ts';
import { DnsDomainNetwork, type DnsDomainNetworkOptions } from './network.ts';

const NOW = new Date('2026-06-01T12:00:00Z');
const DKIM_KEY = 'v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC';

let dns: DnsTestServer;
let rdap: RdapTestServer;

before(async () => {
  dns = await startDnsServer({
    mx: {
      'good.com': [{ exchange: 'mx1.good.com', priority: 10 }],
      'nullmx.com': [{ exchange: '', priority: 0 }],
      'slow.com': [{ exchange: 'mx.slow.com', priority: 10 }],
      'dedup.com': [{ exchange: 'mx.dedup.com', priority: 10 }],
      'sub.good.com': [{ exchange: 'mx1.good.com', priority: 10 }],
      'cname-dkim.com': [{ exchange: 'mx.cname-dkim.com', priority: 10 }],
    },
    txt: {
      'good.com': ['google-site-verification=abc', 'v=spf1 include:_spf.good.com ~all'],
      '_dmarc.good.com': ['v=DMARC1; p=reject; rua=mailto:d@good.com'],
      'google._domainkey.good.com': [DKIM_KEY],
      'default._bimi.good.com': ['v=BIMI1; l=https://good.com/logo.svg'],
      'spfish.com': ['v=spf10 not really', 'some v=spf1 in the middle'],
      '_dmarc.spfish.com': ['v=DMARC1'],
      's1._domainkey.spfish.com': ['not a key'],
    },
    cname: { 'selector1._domainkey.cname-dkim.com': 'selector1-cname-dkim-com._domainkey.provider.example' },
    exists: ['bare.com'],
    delayMs: { 'slow.com': 300, 'dedup.com': 150 },
    silent: ['silent.com', '_dmarc.silent.com', 'default._bimi.silent.com', ...['google', 'selector1', 'selector2', 'default', 'k1', 'dkim', 'mail', 's1', 's2'].map((s) => `${s}._domainkey.silent.com`)],
    servfail: ['broken.com'],
  });
  rdap = await startRdapServer({
    registered: {
      'good.com': '2001-05-01T10:20:30Z',
      'young.com': '2026-03-01T00:00:00Z',
      'cname-dkim.com': null,
      'slow.com': '2010-01-01T00:00:00Z',
    },
    delayMs: { 'slow.com': 300 },
    silent: ['silent.com'],
    failing: ['broken.com'],
  });
});
after(async () => {
  await dns.close();
  await rdap.close();
});

function network(extra: Partial<DnsDomainNetworkOptions> = {}): DnsDomainNetwork {
  return new DnsDomainNetwork({
    network: true, servers: [dns.address], budgetMs: 300, timeoutMs: 400, rdapTimeoutMs: 400,
    rdapBootstrap: rdap.bootstrap(['com']), ...extra,
  });
}

const count = (list: readonly string[], item: string): number => list.filter((x) => x === item).length;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('DnsDomainNetwork against a local DNS and RDAP server', () => {
  it('finds MX, SPF, DMARC, DKIM (common selector), BIMI and the registration date', async () => {
    const facts = await network().facts('good.com', { budgetMs: 1000, now: NOW });
    assert.deepEqual(facts, {
      is_mx: true, is_spf: true, is_dmarc: true, is_dkim: true, is_bimi: true, created_at: '2001-05-01T10:20:30Z', is_new: false,
    });
  });

  it('answers false for a domain with no records and null dates when the registry has no record', async () => {
    const facts = await network().facts('bare.com', { budgetMs: 1000, now: NOW });
    assert.deepEqual(facts, { is_mx: false, is_spf: false, is_dmarc: false, is_dkim: false, is_bimi: false, created_at: null, is_new: null });
  });

  it('reads records strictly: SPF and DMARC tags must start the record, a DKIM TXT needs a key', async () => {
    const facts = await network().facts('spfish.com', { budgetMs: 1000, now: NOW });
    assert.equal(facts.is_spf, false);
    assert.equal(facts.is_dmarc, true);
    assert.equal(facts.is_dkim, false);
  });

  it('counts a CNAME under a common selector as DKIM, and a null MX (RFC 7505) as no MX', async () => {
    const net = network();
    const cname = await net.facts('cname-dkim.com', { budgetMs: 1000, now: NOW });
    assert.equal(cname.is_dkim, true);
    assert.equal(cname.created_at, null, 'an RDAP record without a registration event');
    const nullMx = await net.facts('nullmx.com', { budgetMs: 1000, now: NOW });
    assert.equal(nullMx.is_mx, false);
  });

  it('a subdomain falls back to the organisational DMARC record and asks RDAP for the registered domain', async () => {
    const before = rdap.requests.length;
    const facts = await network().facts('Sub.Good.com.', { budgetMs: 1000, now: NOW });
    assert.equal(facts.is_mx, true);
    assert.equal(facts.is_dmarc, true);
    assert.equal(facts.is_spf, false);
    assert.equal(facts.created_at, '2001-05-01T10:20:30Z');
    assert.deepEqual(rdap.requests.slice(before), ['good.com']);
  });

  it('is_new within 365 days of now', async () => {
    const net = network();
    assert.equal((await net.facts('young.com', { budgetMs: 1000, now: NOW })).is_new, true);
    assert.equal((await net.facts('young.com', { budgetMs: 1000, now: new Date('2027-03-02T00:00:00Z') })).is_new, false);
  });

  it('a server that never answers: nulls within the budget', async () => {
    const t0 = performance.now();
    const facts = await network().facts('silent.com', { budgetMs: 200, now: NOW });
    const ms = performance.now() - t0;
    assert.deepEqual(facts, { is_mx: null, is_spf: null, is_dmarc: null, is_dkim: null, is_bimi: null, created_at: null, is_new: null });
    assert.ok(ms < 200 + 100, `answered in ${ms.toFixed(0)} ms`);
  });

  it('a slow server: nulls within the budget, then the cache has the values without asking again', async () => {
    const net = network();
    const t0 = performance.now();
    const first = await net.facts('slow.com', { budgetMs: 150, now: NOW });
    assert.ok(performance.now() - t0 < 150 + 100);
    assert.equal(first.is_mx, null);
    assert.equal(first.created_at, null);
    await sleep(400);
    const queries = dns.queries.length;
    const t1 = performance.now();
    const second = await net.facts('slow.com', { budgetMs: 150, now: NOW });
    assert.ok(performance.now() - t1 < 20, 'answered from the cache');
    assert.equal(second.is_mx, true);
    assert.equal(second.created_at, '2010-01-01T00:00:00Z');
    assert.equal(dns.queries.length, queries, 'no new DNS question');
  });

  it('concurrent callers share one lookup per fact', async () => {
    const net = network();
    const before = count(dns.queries, 'MX dedup.com');
    const answers = await Promise.all([1, 2, 3, 4].map(() => net.facts('dedup.com', { budgetMs: 1000, now: NOW })));
    for (const a of answers) assert.equal(a.is_mx, true);
    assert.equal(count(dns.queries, 'MX dedup.com') - before, 1);
  });

  it('caches positive answers for the positive TTL and "no record" for the negative TTL', async () => {
    let now = 0;
    const net = network({ clock: () => now, positiveTtlMs: 60_000, negativeTtlMs: 5_000 });
    await net.facts('good.com', { budgetMs: 1000, now: NOW });
    await net.facts('bare.com', { budgetMs: 1000, now: NOW });
    const mxGood = count(dns.queries, 'MX good.com');
    const mxBare = count(dns.queries, 'MX bare.com');
    now = 4_000;
    await net.facts('good.com', { budgetMs: 1000, now: NOW });
    await net.facts('bare.com', { budgetMs: 1000, now: NOW });
    assert.equal(count(dns.queries, 'MX good.com'), mxGood);
    assert.equal(count(dns.queries, 'MX bare.com'), mxBare);
    now = 6_000; // past the negative TTL only
    await net.facts('good.com', { budgetMs: 1000, now: NOW });
    await net.facts('bare.com', { budgetMs: 1000, now: NOW });
    assert.equal(count(dns.queries, 'MX good.com'), mxGood);
    assert.equal(count(dns.queries, 'MX bare.com'), mxBare + 1);
  });

  it('past maxInFlight lookups, a new fact is null without a query (and is looked up by a later call)', async () => {
    const net = network({ maxInFlight: 1 });
    const before = dns.queries.length;
    const facts = await net.facts('good.com', { budgetMs: 1000, now: NOW });
    // Only the first fact (MX) got a lookup slot.
    assert.equal(facts.is_mx, true);
    assert.equal(facts.is_spf, null);
    assert.equal(facts.created_at, null);
    assert.deepEqual(dns.queries.slice(before), ['MX good.com']);
    assert.equal((await net.facts('good.com', { budgetMs: 1000, now: NOW })).is_spf, true);
  });

  it('SERVFAIL and RDAP 503 are unknown (null), not "no record"', async () => {
    const facts = await network().facts('broken.com', { budgetMs: 1000, now: NOW });
    assert.equal(facts.is_mx, null);
    assert.equal(facts.is_spf, null);
    assert.equal(facts.created_at, null);
  });

  it('a TLD the bootstrap does not know sends no RDAP request', async () => {
    const before = rdap.requests.length;
    const facts = await network().facts('bare.org', { budgetMs: 1000, now: NOW });
    assert.equal(facts.created_at, null);
    assert.equal(rdap.requests.length, before);
  });

  it('NETWORK=off: nulls at once, nothing sent', async () => {
    const before = dns.queries.length;
    const t0 = performance.now();
    const facts = await network({ network: false }).facts('good.com', { budgetMs: 300, now: NOW });
    assert.ok(performance.now() - t0 < 10);
    assert.deepEqual(facts, { is_mx: null, is_spf: null, is_dmarc: null, is_dkim: null, is_bimi: null, created_at: null, is_new: null });
    assert.equal(dns.queries.length, before);
  });
});

describe('the resolver canary (issue 25 item 5)', () => {
  it('a canary that resolves: negative answers stay false', async () => {
    const net = network({ canaryName: 'good.com' });
    assert.equal((await net.facts('bare.com', { budgetMs: 1000, now: NOW })).is_mx, false);
    assert.equal(net.canary?.peek().state, 'ok');
  });

  it('a canary that fails (NXDOMAIN): negative answers are unknown, found ones stay, and it recovers', async () => {
    let clock = 0;
    const net = network({ canaryName: 'canary.example.com', canaryTtlMs: { ok: 60_000, failing: 1000 }, clock: () => clock });
    const changes: string[] = [];
    net.canary?.onChange((now, before) => changes.push(`${before.state}->${now.state}${now.problem === null ? '' : ` (${now.problem})`}`));
    const bare = await net.facts('bare.com', { budgetMs: 1000, now: NOW });
    assert.deepEqual([bare.is_mx, bare.is_spf, bare.is_dmarc, bare.is_dkim, bare.is_bimi], [null, null, null, null, null]);
    assert.equal((await net.facts('good.com', { budgetMs: 1000, now: NOW })).is_mx, true);
    // Many calls, one change: one log line, not one per request.
    for (const d of ['a-nothing.com', 'b-nothing.com', 'c-nothing.com']) assert.equal((await net.facts(d, { budgetMs: 1000, now: NOW })).is_mx, null);
    assert.deepEqual(changes, ['unchecked->failing (NXDOMAIN)']);
    // The resolver is fixed; past the failing verdict's time to live (and the failure cache), false again.
    dns.zone.mx = { ...dns.zone.mx, 'canary.example.com': [{ exchange: 'mx.canary.example.com', priority: 1 }] };
    clock += 31_000;
    assert.equal((await net.facts('d-nothing.com', { budgetMs: 1000, now: NOW })).is_mx, false);
    assert.deepEqual(changes, ['unchecked->failing (NXDOMAIN)', 'failing->ok']);
    assert.equal(net.canary?.peek().problem, null);
  });

  it('logCanaryChanges logs a failure once and the recovery once', async () => {
    const { DnsCanary, logCanaryChanges } = await import('../../net/dns-canary.ts');
    const { DnsClient } = await import('../../net/dns.ts');
    let clock = 0;
    const canary = new DnsCanary(new DnsClient({ servers: [dns.address], timeoutMs: 400 }), { name: 'canary2.example.com', failTtlMs: 10, clock: () => clock });
    const lines: Array<[string, string]> = [];
    logCanaryChanges(canary, { warn: (_o: unknown, msg: string) => lines.push(['warn', msg]), info: (_o: unknown, msg: string) => lines.push(['info', msg]) } as never);
    for (let i = 0; i < 3; i++) {
      await canary.status();
      clock += 20;
    }
    dns.zone.mx = { ...dns.zone.mx, 'canary2.example.com': [{ exchange: 'mx.example.com', priority: 1 }] };
    for (let i = 0; i < 3; i++) {
      await canary.status();
      clock += 20;
    }
    assert.deepEqual(lines.map(([level]) => level), ['warn', 'info']);
    assert.match(lines[0]![1], /canary2\.example\.com: NXDOMAIN/);
  });
});
