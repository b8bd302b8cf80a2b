/**
 * AS registry contacts through the IP methods, with a real RDAP server on 127.0.0.1: /lookup/ip
 * answers at once (null contacts) and the cache fills in the background; /lookup/asn waits up to
 * NETWORK_BUDGET_MS; a slow, failing or malformed registry never delays or breaks an answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { loadIpData, type IpData } from '../../src/data/ip-data.ts';
import { buildEndpoints } from '../../src/http/routes/index.ts';
import { startRdapAsnServer, type RdapAsnTestServer } from '../helpers/rdap-asn-server.ts';
import { liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('iprdap');
const vcard = (...props: unknown[]): unknown[] => ['vcard', [['version', {}, 'text', '4.0'], ...props]];
const autnum = (asn: number, email: string) => ({
  objectClassName: 'autnum',
  handle: `AS${asn}`,
  status: ['active'],
  events: [{ eventAction: 'registration', eventDate: '2010-07-14T00:00:00Z' }],
  entities: [{ roles: ['abuse'], vcardArray: vcard(['fn', {}, 'text', 'Abuse'], ['tel', { type: ['voice'] }, 'text', '+1-650-319-8930'], ['email', {}, 'text', email]) }],
});

let rdap: RdapAsnTestServer;
let ip: IpData;
let t: TestApp;
let dir: string;

before(async () => {
  rdap = await startRdapAsnServer({
    13335: { body: autnum(13335, 'abuse@cloudflare.com') },
    15169: { body: autnum(15169, 'network-abuse@google.com'), delayMs: 1200 },
    3209: { raw: '{not json' },
  });
  dir = mkdtempSync(join(tmpdir(), 'vigil-iprdap-'));
  const bootstrap = join(dir, 'asn.json');
  writeFileSync(bootstrap, JSON.stringify(rdap.bootstrap(['1-4199999999'])));
  ip = loadIpData({ dataDir: dir, network: true, networkTimeoutMs: 1000, networkBudgetMs: 100, rdapAsnBootstrapFile: bootstrap, crawlerRangesFile: undefined }, { reloadMs: 0 });
  ip.warm();
  t = await makeTestApp({ endpoints: (data) => buildEndpoints({ ...data, ip }), seed: { accounts: [{ id: 'r', plan: 'premium', keys: [KEY] }] } });
});
after(async () => {
  await t.close();
  ip.close();
  await rdap.close();
  rmSync(dir, { recursive: true, force: true });
});

async function data(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await t.app.inject({ method: 'GET', url: path, query: { key: KEY, ...query } });
  const body = JSON.parse(res.body) as { status: string; data: Record<string, unknown> };
  assert.equal(body.status, 'success', res.body);
  return body.data;
}
const asnOf = (d: Record<string, unknown>) => d.asn as Record<string, unknown>;

describe('AS contacts from RDAP', () => {
  it('the first lookup answers at once with nulls; the next one has the registry contacts', async () => {
    const first = await data('/lookup/ip', { ip: '1.1.1.1' });
    assert.equal(asnOf(first).email, null);
    assert.equal(asnOf(first).phone, null);
    for (let i = 0; i < 150 && ip.registry.pending > 0; i++) await sleep(20);
    const second = await data('/lookup/ip', { ip: '1.1.1.1' });
    assert.equal(asnOf(second).email, 'abuse@cloudflare.com');
    assert.equal(asnOf(second).phone, '+1-650-319-8930');
    assert.equal(asnOf(second).domain, 'cloudflare.com');
    assert.equal(asnOf(second).created, '2010-07-14');
    assert.equal(rdap.requests.filter((a) => a === 13335).length, 1);
  });

  it('a slow registry does not hold the answer; /lookup/asn waits only NETWORK_BUDGET_MS', async () => {
    const t0 = performance.now();
    const d = await data('/lookup/asn', { asn: 'AS15169' });
    const waited = performance.now() - t0;
    assert.equal(d.email, null);
    assert.ok(waited < 900, `answered after ${waited.toFixed(0)} ms; the registry takes 1,200`);
    assert.ok((d.prefixes as { total: number }).total > 0);
    for (let i = 0; i < 150 && ip.registry.pending > 0; i++) await sleep(20);
    const later = await data('/lookup/asn', { asn: '15169' });
    assert.equal(later.email, 'network-abuse@google.com');
    assert.equal(later.status, 'active');
  });

  it('malformed registry JSON and unknown ASNs leave the contacts null', async () => {
    await data('/lookup/ip', { ip: '2a02:908::1' });
    for (let i = 0; i < 150 && ip.registry.pending > 0; i++) await sleep(20);
    const d = await data('/lookup/ip', { ip: '2a02:908::1' });
    assert.equal(asnOf(d).asn, 'AS3209');
    assert.equal(asnOf(d).email, null);
    const unknown = await data('/lookup/asn', { asn: 'AS4100000000' });
    assert.equal(unknown.email, null);
  });
});
