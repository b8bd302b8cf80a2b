import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { loadDomainData, type DomainData } from '../../src/data/domain-data.ts';
import { importDirectory } from '../../src/data/import/index.ts';
import { DKIM_SELECTORS } from '../../src/intel/domain/network.ts';
import { buildEndpoints } from '../../src/http/routes/index.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';
import { startRdapServer, type RdapTestServer } from '../helpers/rdap-server.ts';

const KEY = liveKey('domain');
const TKEY = testKey('domain');
const BUDGET_MS = 200;
const FIELDS = ['name', 'is_dangerous', 'is_disposable', 'is_forwarding', 'is_spf', 'is_dmarc', 'is_dkim', 'is_mx', 'is_bimi', 'created_at', 'is_new'];

interface Body {
  status: string;
  code?: number;
  type?: string;
  description?: string;
  data: Record<string, unknown>;
}

let dns: DnsTestServer;
let rdap: RdapTestServer;
let dir: string;
let domains: DomainData;
let offDomains: DomainData;
let t: TestApp;
let off: TestApp;

const seed = { accounts: [{ id: 'd', plan: 'premium', keys: [KEY, TKEY] }] };

before(async () => {
  dns = await startDnsServer({
    mx: {
      'good.com': [{ exchange: 'mx.good.com', priority: 10 }],
      'slow.com': [{ exchange: 'mx.slow.com', priority: 10 }],
      'xn--bcher-kva.com': [{ exchange: 'mx.xn--bcher-kva.com', priority: 10 }],
    },
    txt: {
      'good.com': ['v=spf1 -all'],
      '_dmarc.good.com': ['v=DMARC1; p=none'],
      'selector1._domainkey.good.com': ['k=rsa; p=MIGfMA0G'],
    },
    delayMs: { 'slow.com': 300 },
    silent: ['silent.com', '_dmarc.silent.com', 'default._bimi.silent.com', ...DKIM_SELECTORS.map((sel) => `${sel}._domainkey.silent.com`)],
  });
  rdap = await startRdapServer({
    registered: { 'good.com': '1999-12-31T23:00:00Z', 'slow.com': '2026-01-15T00:00:00Z' },
    delayMs: { 'slow.com': 300 },
    silent: ['silent.com'],
  });
  dir = mkdtempSync(join(tmpdir(), 'vigil-domain-'));
  const bootstrapFile = join(dir, 'dns.json');
  writeFileSync(bootstrapFile, JSON.stringify(rdap.bootstrap(['com'])));
  const env = { DATA_DIR: dir, DNS_SERVERS: dns.address, DNS_CANARY_NAME: 'good.com', NETWORK_BUDGET_MS: String(BUDGET_MS), NETWORK_TIMEOUT_MS: '400', RDAP_BOOTSTRAP_FILE: bootstrapFile };
  domains = loadDomainData(loadConfig(env), { reloadMs: 50 });
  offDomains = loadDomainData(loadConfig({ ...env, NETWORK: 'off' }), { reloadMs: 0 });
  t = await makeTestApp({ seed, endpoints: (data, learning) => buildEndpoints({ ...data, domains }, learning) });
  off = await makeTestApp({ seed, endpoints: (data, learning) => buildEndpoints({ ...data, domains: offDomains }, learning) });
});
after(async () => {
  domains.lists.close();
  offDomains.lists.close();
  await t.close();
  await off.close();
  await dns.close();
  await rdap.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(query: Record<string, string | string[]>, app: TestApp = t, key = KEY): Promise<Body> {
  const res = await app.app.inject({ method: 'GET', url: '/lookup/domain', query: { key, ...query } });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body) as Body;
}

async function timed(query: Record<string, string>, app: TestApp = t): Promise<{ body: Body; ms: number }> {
  const t0 = performance.now();
  const body = await get(query, app);
  return { body, ms: performance.now() - t0 };
}

describe('GET /lookup/domain', () => {
  it('answers the whole domain result, in the spec order, from the local DNS and RDAP servers', async () => {
    const body = await get({ domain: 'good.com' });
    assert.equal(body.status, 'success');
    assert.deepEqual(Object.keys(body.data), FIELDS);
    assert.deepEqual(body.data, {
      name: 'good.com', is_dangerous: false, is_disposable: false, is_forwarding: false,
      is_spf: true, is_dmarc: true, is_dkim: true, is_mx: true, is_bimi: false,
      created_at: '1999-12-31T23:00:00Z', is_new: false,
    });
  });

  it('accepts an internationalised name and answers it in punycode', async () => {
    const body = await get({ domain: 'BÜCHER.com.' });
    assert.equal(body.data.name, 'xn--bcher-kva.com');
    assert.equal(body.data.is_mx, true);
  });

  it('flags disposable and forwarding domains (subdomains too) from the lists', async () => {
    assert.equal((await get({ domain: 'mailinator.com' })).data.is_disposable, true);
    assert.equal((await get({ domain: 'x.mailinator.com' })).data.is_disposable, true);
    const relay = await get({ domain: 'duck.com' });
    assert.equal(relay.data.is_forwarding, true);
    assert.equal(relay.data.is_disposable, false);
  });

  const bad: [string, Record<string, string | string[]>][] = [
    ['missing', {}],
    ['empty', { domain: '' }],
    ['blank', { domain: '   ' }],
    ['longer than 253', { domain: `${'a'.repeat(62)}.${'b'.repeat(62)}.${'c'.repeat(62)}.${'d'.repeat(62)}.com` }],
    ['a label over 63', { domain: `${'a'.repeat(64)}.com` }],
    ['invalid characters', { domain: 'exa_mple.com' }],
    ['a space', { domain: 'exa mple.com' }],
    ['a URL', { domain: 'https://example.com/' }],
    ['an email address', { domain: 'a@example.com' }],
    ['a single label', { domain: 'localhost' }],
    ['an IPv4 address', { domain: '192.0.2.1' }],
    ['an IPv6 address', { domain: '2001:db8::1' }],
    ['a bracketed IPv6 address', { domain: '[::1]' }],
    ['an empty label', { domain: 'example..com' }],
    ['a repeated parameter', { domain: ['example.com', 'example.org'] }],
    ['a 10,000-character value', { domain: 'a.'.repeat(5000) }],
  ];
  for (const [what, query] of bad) {
    it(`128 for ${what}`, async () => {
      const body = await get(query);
      assert.equal(body.status, 'error');
      assert.equal(body.code, 128);
      assert.equal(body.type, 'invalid_domain');
      assert.ok(typeof body.description === 'string' && body.description.length > 20);
    });
  }

  it('a server that never answers: nulls within the budget, and the next answer is cached', async () => {
    const first = await timed({ domain: 'silent.com' });
    assert.ok(first.ms < BUDGET_MS + 150, `answered in ${first.ms.toFixed(0)} ms`);
    for (const f of ['is_spf', 'is_dmarc', 'is_dkim', 'is_mx', 'is_bimi', 'created_at', 'is_new']) assert.equal(first.body.data[f], null, f);
    await new Promise((r) => setTimeout(r, 1700)); // past the DNS (400 ms) and RDAP (4 x 400 ms) timeouts
    const queries = dns.queries.length;
    const second = await timed({ domain: 'silent.com' });
    assert.ok(second.ms < 50, `answered in ${second.ms.toFixed(0)} ms`);
    assert.equal(second.body.data.is_mx, null);
    assert.equal(dns.queries.length, queries, 'the failure is cached for a while, not retried on every call');
  });

  it('a slow server: nulls within the budget, later the values from the cache', async () => {
    const first = await timed({ domain: 'slow.com' });
    assert.ok(first.ms < BUDGET_MS + 150, `answered in ${first.ms.toFixed(0)} ms`);
    assert.equal(first.body.data.is_mx, null);
    assert.equal(first.body.data.created_at, null);
    await new Promise((r) => setTimeout(r, 300));
    const second = await timed({ domain: 'slow.com' });
    assert.ok(second.ms < 50, `answered in ${second.ms.toFixed(0)} ms`);
    assert.equal(second.body.data.is_mx, true);
    assert.equal(second.body.data.created_at, '2026-01-15T00:00:00Z');
    assert.equal(second.body.data.is_new, true);
  });

  it('NETWORK=off: nulls at once, lists still answered, nothing sent', async () => {
    const queries = dns.queries.length;
    const requests = rdap.requests.length;
    const { body, ms } = await timed({ domain: 'mailinator.com' }, off);
    assert.ok(ms < 50);
    assert.equal(body.data.is_disposable, true);
    for (const f of ['is_spf', 'is_dmarc', 'is_dkim', 'is_mx', 'is_bimi', 'created_at', 'is_new']) assert.equal(body.data[f], null, f);
    assert.equal(dns.queries.length, queries);
    assert.equal(rdap.requests.length, requests);
  });

  it('test mode: realistic fake data, the same for the same input, no network', async () => {
    const queries = dns.queries.length;
    const requests = rdap.requests.length;
    const a = await get({ domain: 'never-asked.com' }, t, TKEY);
    const b = await get({ domain: 'never-asked.com', mode: 'test' });
    assert.deepEqual(a.data, b.data);
    assert.deepEqual(Object.keys(a.data), FIELDS);
    for (const f of ['is_spf', 'is_dmarc', 'is_dkim', 'is_mx', 'is_bimi', 'is_new']) assert.equal(typeof a.data[f], 'boolean', f);
    assert.match(String(a.data.created_at), /^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    assert.equal(dns.queries.length, queries);
    assert.equal(rdap.requests.length, requests);
    assert.equal((await get({ domain: 'localhost' }, t, TKEY)).code, 128);
  });

  it('a dangerous-domains import is picked up without restart; explain names its version', async () => {
    assert.equal((await get({ domain: 'login.phish-bank.com' })).data.is_dangerous, false);
    const src = join(dir, 'import');
    mkdirSync(join(src, 'dangerous-domains'), { recursive: true });
    writeFileSync(join(src, 'dangerous-domains', 'hosts'), '# feed\n0.0.0.0 phish-bank.com\n');
    const [report] = importDirectory(dir, src);
    const deadline = Date.now() + 3000;
    let body = await get({ domain: 'login.phish-bank.com', explain: 'yes' });
    while (body.data.is_dangerous !== true && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      body = await get({ domain: 'login.phish-bank.com', explain: 'yes' });
    }
    assert.equal(body.data.is_dangerous, true);
    const datasets = (body.data.explanation as { datasets: { name: string; version: string }[] }).datasets;
    assert.equal(datasets.find((d) => d.name === 'dangerous-domains')?.version, report?.manifest.version);
    assert.ok(datasets.some((d) => d.name === 'rdap-bootstrap'));
  });
});
