/**
 * Issue 25 item 5 through the real app: a resolver that answers NXDOMAIN for every name (a real
 * DNS server on 127.0.0.1, test/helpers/dns-server.ts) fails the canary (DNS_CANARY_NAME, default
 * gmail.com), so jane.doe@gmail.com is not scored "no MX record": the DNS facts are unknown (null).
 * /readyz says so in its details and stays ready. A resolver that answers the canary keeps its
 * negative answers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { loadDomainData, type DomainData } from '../../src/data/domain-data.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { liveKey, makeTestApp, sharedEngineData, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('dnscanary');
const seed = { accounts: [{ id: 'dc', plan: 'premium', keys: [KEY] }] };

let nxdomain: DnsTestServer;
let honest: DnsTestServer;
let dir: string;
const domains: DomainData[] = [];
let broken: TestApp;
let working: TestApp;

async function appOn(server: DnsTestServer): Promise<TestApp> {
  // An RDAP bootstrap with no servers: nothing leaves the machine (created_at is not what this is about).
  const bootstrap = join(dir, 'no-rdap.json');
  writeFileSync(bootstrap, JSON.stringify({ version: '1.0', publication: '2026-11-27T00:00:00Z', services: [] }));
  const env = { DATA_DIR: dir, DNS_SERVERS: server.address, NETWORK_BUDGET_MS: '500', NETWORK_TIMEOUT_MS: '400', RDAP_BOOTSTRAP_FILE: bootstrap };
  const d = loadDomainData(loadConfig(env), { reloadMs: 0 });
  domains.push(d);
  return makeTestApp({ seed, data: { ...sharedEngineData(), domains: d } });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-dnscanary-'));
  nxdomain = await startDnsServer({});
  honest = await startDnsServer({
    mx: { 'gmail.com': [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
    exists: ['nomx.example.com'],
  });
  broken = await appOn(nxdomain);
  working = await appOn(honest);
});
after(async () => {
  await broken.close();
  await working.close();
  for (const d of domains) d.lists.close();
  await nxdomain.close();
  await honest.close();
  rmSync(dir, { recursive: true, force: true });
});

async function email(t: TestApp, address: string): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: '/scoring/email', query: { key: KEY, email: address } });
  const body = JSON.parse(res.body) as { status: string; data: Record<string, unknown> };
  assert.equal(body.status, 'success', res.body);
  return body.data;
}

describe('a resolver that answers NXDOMAIN for everything', () => {
  it('jane.doe@gmail.com is not "no MX record": the DNS facts are unknown and the score 0', async () => {
    const d = await email(broken, 'jane.doe@gmail.com');
    const dom = d.domain as Record<string, unknown>;
    assert.deepEqual([dom.is_mx, dom.is_spf, dom.is_dmarc, dom.is_dkim, dom.is_bimi], [null, null, null, null, null]);
    assert.doesNotMatch(String(d.reason), /MX/);
    assert.equal(d.score, 0);
    assert.ok(nxdomain.queries.includes('MX gmail.com'), 'the canary was asked');
  });

  it('/readyz stays ready (HTTP 200) and shows the failing canary in its details', async () => {
    const res = await broken.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200, res.body);
    const body = JSON.parse(res.body) as { status: string; details: { dns: Record<string, unknown> } };
    assert.equal(body.status, 'ready');
    assert.equal(body.details.dns.state, 'failing');
    assert.equal(body.details.dns.name, 'gmail.com');
    assert.equal(body.details.dns.problem, 'NXDOMAIN');
    assert.equal(typeof body.details.dns.checkedAt, 'string');
  });
});

describe('a resolver that answers the canary', () => {
  it('keeps a real "no MX record" negative, and /readyz says ok', async () => {
    const d = await email(working, 'someone@nomx.example.com');
    assert.equal((d.domain as Record<string, unknown>).is_mx, false);
    assert.match(String(d.reason), /no MX record/);
    assert.equal(((await email(working, 'jane.doe@gmail.com')).domain as Record<string, unknown>).is_mx, true);
    const res = await working.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal((JSON.parse(res.body) as { details: { dns: { state: string } } }).details.dns.state, 'ok');
  });

  it('with the network off the details say off', async () => {
    const off = await makeTestApp({ seed });
    try {
      const res = await off.app.inject({ method: 'GET', url: '/readyz' });
      assert.deepEqual((JSON.parse(res.body) as { details: { dns: unknown } }).details.dns, { state: 'off' });
    } finally {
      await off.close();
    }
  });
});
