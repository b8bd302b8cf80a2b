/**
 * The IP methods over HTTP on a real SQLite store: GET /lookup/ip, /geoip, /lookup/ip/bulk,
 * /lookup/ip/threats and /lookup/asn, with the bundled GeoLite2 databases and the threat and ASN
 * lists imported from the team's public data folder (known answers are read from those files, not
 * written here), custom rules, blacklists, events and test mode.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { IMPORTERS } from '../../src/data/import/index.ts';
import { loadIpData, type IpData } from '../../src/data/ip-data.ts';
import { buildEndpoints } from '../../src/http/routes/index.ts';
import { adminCall, adminData } from '../helpers/admin-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');
const KEY = liveKey('ip');
const TKEY = testKey('ip');
const STD = liveKey('ipstd');
const RULES = liveKey('iprules');
const A = 'iprules';

/** First data line of a shared list file (known answers come from the data, not from this test). */
function firstEntry(path: string): string {
  const line = readFileSync(join(SHARED, path), 'utf8').split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
  assert.ok(line, path);
  return line.trim();
}
const TOR_EXIT = firstEntry('tor-exit-nodes/tor-exit-nodes.txt');
const VPN_RANGE = firstEntry('vpn-datacenter-x4bnet/vpn-ipv4.txt');
const RELAY_RANGE = firstEntry('icloud-private-relay/ipv4-ranges.txt');
const AWS_RANGE = gunzipSync(readFileSync(join(SHARED, 'cloud-ranges-jhassine/datacenters.csv.gz'))).toString('utf8')
  .split('\n').find((l) => l.endsWith('"AWS"') && !l.includes(':'))!.split(',')[0]!.replace(/"/g, '');
/** An address inside a CIDR (its network address + 1). */
const inside = (cidr: string): string => {
  const [a, b, c, d] = cidr.split('/')[0]!.split('.').map(Number) as [number, number, number, number];
  return `${a}.${b}.${c}.${d + 1}`;
};

const dirs: string[] = [];
let ip: IpData;
let t: TestApp;

before(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-iptest-'));
  dirs.push(dataDir);
  for (const name of ['tor-exit-nodes', 'vpn-datacenter-x4bnet', 'cloud-ranges-jhassine', 'icloud-private-relay', 'asn-bgptools', 'asn-names-asn2org']) {
    IMPORTERS[name]!(dataDir, SHARED);
  }
  ip = loadIpData({ dataDir, network: false, networkTimeoutMs: 500, networkBudgetMs: 100, rdapAsnBootstrapFile: undefined, crawlerRangesFile: undefined }, { reloadMs: 0 });
  t = await makeTestApp({
    endpoints: (data, learning) => buildEndpoints({ ...data, ip }, learning),
    env: { TRUST_PROXY: 'true' },
    seed: {
      accounts: [
        { id: 'ip', plan: 'premium', keys: [KEY, TKEY] },
        { id: 'ipstd', plan: 'standard', keys: [STD] },
        { id: A, plan: 'premium', keys: [RULES] },
      ],
    },
  });
});
after(async () => {
  await t.close();
  ip.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Envelope {
  status: string;
  code?: number;
  description?: string;
  data: Record<string, unknown>;
}

/** A field of a JSON answer by its path of keys (undefined when any step is missing). */
function at(value: unknown, keys: readonly string[]): unknown {
  let v = value;
  for (const k of keys) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

async function call(path: string, query: Record<string, string | string[]>, key = KEY, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: path, query: { key, ...query }, headers });
  assert.equal(res.statusCode, 200, res.body);
  return { body: JSON.parse(res.body) as Envelope, raw: res.body, headers: res.headers };
}
async function ok(path: string, query: Record<string, string | string[]>, key = KEY, headers: Record<string, string> = {}) {
  const { body } = await call(path, query, key, headers);
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data;
}
async function code(path: string, query: Record<string, string | string[]>, key = KEY): Promise<number | undefined> {
  const { body } = await call(path, query, key);
  assert.equal(body.status, 'error');
  assert.equal(typeof body.description, 'string');
  return body.code;
}

describe('GET /lookup/ip: known answers from the real databases', () => {
  it('8.8.8.8 is Google in the US, 1.1.1.1 Cloudflare', async () => {
    const g = await ok('/lookup/ip', { ip: '8.8.8.8' });
    assert.equal(at(g, ['ip']), '8.8.8.8');
    assert.equal(at(g, ['ipType']), 'IPv4');
    assert.equal(at(g, ['IPNumber']), 134744072);
    assert.equal(at(g, ['bogon']), false);
    assert.equal(at(g, ['countryCode']), 'US');
    assert.equal(at(g, ['countryName']), 'United States of America');
    assert.equal(at(g, ['continentCode']), 'NA');
    assert.equal(typeof at(g, ['countryGeoNameID']), 'number');
    assert.equal(at(g, ['asn', 'asn']), 'AS15169');
    const c = await ok('/lookup/ip', { ip: '1.1.1.1' });
    assert.equal(at(c, ['asn', 'asn']), 'AS13335');
    assert.match(String(at(c, ['asn', 'org'])), /Cloudflare/);
    assert.ok(['isp', 'hosting', 'business', 'education', 'government'].includes(String(at(c, ['asn', 'type']))));
  });

  it('IPv6 gets its city, coordinates as strings and an exact IPNumber in the JSON text', async () => {
    const { body, raw } = await call('/lookup/ip', { ip: '2A02:0908:0000::0001' });
    const d = body.data;
    assert.equal(at(d, ['ip']), '2a02:908::1');
    assert.equal(at(d, ['ipType']), 'IPv6');
    assert.equal(at(d, ['countryCode']), 'DE');
    assert.equal(typeof at(d, ['latitude']), 'string');
    assert.equal(typeof at(d, ['longitude']), 'string');
    assert.equal(typeof at(d, ['cityName']), 'string');
    assert.ok(raw.includes('"IPNumber":55838143592195269296365473798046089217,'), raw.slice(0, 200));
  });

  it('translates names per lang, Arabic country names from the country data', async () => {
    const de = await ok('/lookup/ip', { ip: '2a02:908::1', lang: 'DE' });
    assert.equal(at(de, ['countryName']), 'Deutschland');
    const ar = await ok('/lookup/ip', { ip: '2a02:908::1', lang: 'AR' });
    assert.equal(at(ar, ['countryName']), 'ألمانيا');
    // GeoLite2 has no Arabic: region and city fall back to English.
    const en = await ok('/lookup/ip', { ip: '2a02:908::1' });
    assert.equal(at(ar, ['cityName']), at(en, ['cityName']));
  });

  it('bogons have empty geo fields and no AS', async () => {
    for (const addr of ['10.1.2.3', '192.168.0.1', '::1', 'fe80::1', '100.64.0.1', '2001:db8::1', '224.0.0.1']) {
      const d = await ok('/lookup/ip', { ip: addr, params: 'location,currency,timezone,security' });
      assert.equal(at(d, ['bogon']), true, addr);
      for (const f of ['countryCode', 'countryName', 'cityName', 'latitude', 'longitude', 'zipCode', 'location', 'currency', 'timezone']) assert.equal(d[f], null, `${addr} ${f}`);
      assert.equal(at(d, ['asn', 'asn']), null);
      assert.equal(at(d, ['security', 'isTor']), false);
    }
  });

  it('modules appear only when asked for, with every field', async () => {
    const bare = await ok('/lookup/ip', { ip: '8.8.8.8' });
    for (const m of ['location', 'currency', 'timezone', 'security', 'device']) assert.equal(m in bare, false, m);
    const full = await ok('/lookup/ip', { ip: '2a02:908::1', params: 'location,currency,timezone,security' });
    assert.deepEqual(Object.keys(at(full, ['location']) as object).sort(), ['accuracyRadius', 'capital', 'countryIsEU', 'countryNeighbours', 'flag', 'language', 'phoneCode', 'population', 'tld'].sort());
    assert.equal(at(full, ['location', 'countryIsEU']), true);
    assert.equal(at(full, ['currency', 'currencyCode']), 'EUR');
    assert.equal(at(full, ['timezone', 'name']), 'Europe/Berlin');
    assert.equal(typeof at(full, ['timezone', 'sunInfo', 'sunrise']), 'string');
    assert.deepEqual(Object.keys(at(full, ['security']) as object).sort(), ['blacklisted', 'custom_rules_applied', 'isBot', 'isHosting', 'isProxy', 'isRelay', 'isTor', 'proxyType', 'riskScore'].sort());
    assert.deepEqual(Object.keys(at(full, ['asn']) as object).sort(), ['asn', 'created', 'domain', 'email', 'name', 'org', 'phone', 'type'].sort());
  });

  it('the device module is for /geoip and bulk only; security needs the plan feature', async () => {
    assert.notEqual(await code('/lookup/ip', { ip: '8.8.8.8', params: 'device' }), undefined);
    assert.equal(await code('/geoip', { params: 'device' }, STD), 114);
  });
});

describe('security flags from the imported lists', () => {
  it('a listed Tor exit is isTor and a TOR proxy', async () => {
    const d = await ok('/lookup/ip', { ip: TOR_EXIT, params: 'security', explain: 'yes' });
    assert.equal(at(d, ['security', 'isTor']), true);
    assert.equal(at(d, ['security', 'isProxy']), true);
    assert.equal(at(d, ['security', 'proxyType']), 'TOR');
    const sources = (at(d, ['explanation', 'contributions']) as Array<Record<string, unknown>>).filter((c) => c.source === 'security');
    assert.ok(sources.some((s) => s.flag === 'tor' && s.dataset === 'tor-exit-nodes' && typeof s.version === 'string' && s.version !== 'none'));
    const risk = (at(d, ['explanation', 'contributions']) as Array<Record<string, unknown>>).find((c) => c.source === 'risk');
    assert.ok(Number(risk?.risk) >= 50);
  });

  it('a VPN range is a VPN proxy, an AWS range hosting, an iCloud relay range a relay', async () => {
    const vpn = await ok('/lookup/ip', { ip: inside(VPN_RANGE), params: 'security' });
    assert.equal(at(vpn, ['security', 'isProxy']), true);
    assert.equal(at(vpn, ['security', 'proxyType']), 'VPN');
    const aws = await ok('/lookup/ip', { ip: inside(AWS_RANGE), params: 'security', explain: 'yes' });
    assert.equal(at(aws, ['security', 'isHosting']), true);
    assert.ok((at(aws, ['explanation', 'contributions']) as Array<Record<string, unknown>>).some((c) => at(c, ['flag']) === 'hosting' && at(c, ['detail']) === 'AWS'));
    const relay = await ok('/lookup/ip', { ip: inside(RELAY_RANGE), params: 'security' });
    assert.equal(at(relay, ['security', 'isRelay']), true);
  });

  it('a published crawler range is isBot; on /geoip a crawler User-Agent too', async () => {
    const bing = await ok('/lookup/ip', { ip: '157.55.39.10', params: 'security', explain: 'yes' });
    assert.equal(at(bing, ['security', 'isBot']), true);
    const source = (at(bing, ['explanation', 'contributions']) as Array<Record<string, unknown>>).find((c) => c.flag === 'bot');
    assert.equal(source?.detail, 'Bingbot');
    assert.match(String(source?.version), /^\d{4}-\d{2}-\d{2}/);
    const ua = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'x-forwarded-for': '2a02:908::1' };
    const geo = await ok('/geoip', { params: 'security,device' }, KEY, ua);
    assert.equal(at(geo, ['ip']), '2a02:908::1');
    assert.equal(at(geo, ['security', 'isBot']), true);
    assert.equal(at(geo, ['device', 'type']), 'bot');
  });

  it('a clean residential address has no flag', async () => {
    const d = await ok('/lookup/ip', { ip: '2a02:908::1', params: 'security' });
    assert.deepEqual([at(d, ['security', 'isTor']), at(d, ['security', 'isProxy']), at(d, ['security', 'isHosting']), at(d, ['security', 'isRelay']), at(d, ['security', 'isBot']), at(d, ['security', 'blacklisted'])], [false, false, false, false, false, false]);
  });
});

describe('answers no more precise than the data (issue 25 item 1)', () => {
  // GeoLite2 City (the bundled build) holds only a country-level record for these networks: no
  // region, no city, coordinates in the middle of the country. Public fact behind them: each is an
  // anycast resolver or a datacenter network, not a place.
  const countryLevel: Array<[string, string, string | null]> = [
    // address, country, time zone (null: the country has several clocks)
    ['8.8.8.8', 'US', null],
    ['8.8.4.4', 'US', null],
    ['9.9.9.9', 'US', null],
    ['208.67.222.222', 'US', null],
    ['94.23.1.1', 'FR', 'Europe/Paris'],
    ['2a01:4f8::1', 'DE', 'Europe/Berlin'],
  ];
  for (const [addr, country, zone] of countryLevel) {
    it(`${addr}: no invented postal code or city; time zone ${zone ?? 'null (several clocks)'}; accuracy radius shown`, async () => {
      const d = await ok('/lookup/ip', { ip: addr, params: 'location,timezone' });
      assert.equal(at(d, ['countryCode']), country);
      assert.equal(at(d, ['cityName']), null);
      assert.equal(at(d, ['regionName']), null);
      assert.equal(at(d, ['zipCode']), null);
      assert.equal(at(d, ['timezone', 'name']) ?? null, zone);
      const radius = at(d, ['location', 'accuracyRadius']);
      // A country-level point says so with a radius of hundreds of km (or has no point at all).
      assert.ok(radius === null ? at(d, ['latitude']) === null : Number(radius) >= 100, String(radius));
    });
  }

  it('a city record keeps its postal code and time zone, with a city-sized radius', async () => {
    const d = await ok('/lookup/ip', { ip: '2a02:908::1', params: 'location,timezone' });
    assert.equal(typeof at(d, ['cityName']), 'string');
    assert.equal(typeof at(d, ['zipCode']), 'string');
    assert.equal(at(d, ['timezone', 'name']), 'Europe/Berlin');
    const radius = Number(at(d, ['location', 'accuracyRadius']));
    assert.ok(radius > 0 && radius < 500, String(radius));
  });
});

describe('security flags: sources and precedence (issue 25 item 1)', () => {
  const threatData = (): { exits: string[] } => ({
    exits: readFileSync(join(SHARED, 'tor-exit-nodes/tor-exit-nodes.txt'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')),
  });

  it('a Tor exit that an X4BNet VPN range also holds is Tor first: proxyType TOR, the VPN source still explained', async () => {
    // Found in the data, not written here: exits whose address also matches a VPN list.
    const both = threatData().exits.filter((e) => ip.sources.threats(e, ip.sources.asnOf(e)?.autonomous_system_number ?? null).sources.some((s) => s.flag === 'vpn'));
    assert.ok(both.length >= 10, String(both.length));
    for (const exit of both.slice(0, 10)) {
      const d = await ok('/lookup/ip', { ip: exit, params: 'security', explain: 'yes' });
      assert.equal(at(d, ['security', 'isTor']), true, exit);
      assert.equal(at(d, ['security', 'isProxy']), true, exit);
      assert.equal(at(d, ['security', 'proxyType']), 'TOR', exit);
      const flags = (at(d, ['explanation', 'contributions']) as Array<Record<string, unknown>>).map((c) => c.flag);
      assert.ok(flags.includes('tor') && flags.includes('vpn'), exit);
    }
  });

  // The operators' own pages (sources in src/data/ip-infrastructure.ts): anycast resolvers, never a person's line.
  const resolvers: Array<[string, string]> = [
    ['1.1.1.1', 'AS13335'], ['1.0.0.1', 'AS13335'], ['2606:4700:4700::1111', 'AS13335'],
    ['8.8.8.8', 'AS15169'], ['8.8.4.4', 'AS15169'], ['2001:4860:4860::8888', 'AS15169'],
    ['9.9.9.9', 'AS19281'], ['149.112.112.112', 'AS19281'], ['2620:fe::fe', 'AS19281'],
    ['208.67.222.222', 'AS36692'], ['208.67.220.220', 'AS36692'],
  ];
  for (const [addr, asn] of resolvers) {
    it(`public DNS resolver ${addr} (${asn}) is hosting, its AS typed hosting, risk 45 and no event`, async () => {
      const d = await ok('/lookup/ip', { ip: addr, params: 'security', userID: `u-res-${addr}` });
      assert.equal(at(d, ['asn', 'asn']), asn);
      assert.equal(at(d, ['asn', 'type']), 'hosting');
      assert.equal(at(d, ['security', 'isHosting']), true);
      assert.equal(at(d, ['security', 'isProxy']), false);
      assert.equal(at(d, ['security', 'riskScore']), 45);
      assert.equal((await t.store.events.listEvents('ip', { kind: 'suspicious_ip', userId: `u-res-${addr}` })).length, 0);
    });
  }

  it("Mullvad's AS39351 (31173 Services AB, mullvad.net/servers) is a VPN on every prefix it announces", async () => {
    const nets = [...ip.asns.prefixes(39351).ipv4, ...ip.asns.prefixes(39351).ipv6];
    assert.ok(nets.length >= 5, String(nets.length));
    const addrs = nets.map((n) => n.split('/')[0]!.replace(/(\d+)$/, (x) => String(Number(x) + 1)).replace(/::1$/, '::2'));
    const answer = await ok('/lookup/ip/bulk', { ips: addrs.slice(0, 50).join(','), params: 'security', explain: 'yes' });
    for (const a of addrs.slice(0, 50)) {
      assert.equal(at(answer, [a, 'asn', 'asn']), 'AS39351', a);
      assert.equal(at(answer, [a, 'security', 'proxyType']), 'VPN', a);
      assert.equal(at(answer, [a, 'security', 'riskScore']), 84, a);
    }
  });

  it('security.riskScore is the risk behind suspicious_ip: Tor 90 with its event, 0 for a clean address, 100 when blacklisted', async () => {
    const tor = await ok('/lookup/ip', { ip: TOR_EXIT, params: 'security', userID: 'u-risk-tor' });
    assert.equal(at(tor, ['security', 'riskScore']), 90);
    const events = await t.store.events.listEvents('ip', { kind: 'suspicious_ip', userId: 'u-risk-tor' });
    assert.deepEqual(events.map((e) => e.risk), [90]);
    // The signal behind it is stored with the event (the console charts it; webhooks carry it).
    assert.deepEqual(events[0]?.summary.explanation, { contributions: [{ source: 'risk', signal: 'tor', weight: 0.9 }] });
    const clean = await ok('/lookup/ip', { ip: '2a02:908::1', params: 'security' });
    assert.equal(at(clean, ['security', 'riskScore']), 0);
    // Without the security module the score is not shown (it stays available to explain=yes).
    assert.equal('security' in (await ok('/lookup/ip', { ip: TOR_EXIT })), false);
  });
});

describe('GET /geoip', () => {
  it('uses the X-Forwarded-For address when TRUST_PROXY says so, and parses the User-Agent', async () => {
    const d = await ok('/geoip', { params: 'device,location' }, KEY, {
      'x-forwarded-for': '8.8.8.8',
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    });
    assert.equal(at(d, ['ip']), '8.8.8.8');
    assert.equal(at(d, ['countryCode']), 'US');
    assert.equal(at(d, ['device', 'isMobile']), false);
    assert.equal(at(d, ['device', 'OS', 'family']), 'Windows');
    assert.equal(at(d, ['device', 'OS', '64bits_mode']), 1);
    assert.equal(at(d, ['device', 'browser', 'name']), 'Chrome');
    assert.equal(at(d, ['device', 'browser', 'version']), 120);
  });
});

describe('bad input gives 112', () => {
  it('every malformed, empty, oversized, wrong-type and hostile form', async () => {
    for (const bad of ['', ' ', '01.1.1.1', '1.1.1', '256.1.1.1', 'fe80::1%eth0', '1.1.1.1/24', '[::1]', 'localhost', 'x'.repeat(10_000), '<script>alert(1)</script>', "1.1.1.1' OR '1'='1", '١.١.١.١']) {
      assert.equal(await code('/lookup/ip', { ip: bad }), 112, bad);
      assert.equal(await code('/lookup/ip/threats', { ip: bad }), 112, bad);
    }
    assert.equal(await code('/lookup/ip', {}), 112);
    assert.equal(await code('/lookup/ip', { ip: ['1.1.1.1', '8.8.8.8'] }), 112);
  });
});

describe('GET /lookup/ip/bulk', () => {
  it('answers up to 50 mixed addresses keyed as sent, counting one request', async () => {
    const ips = ['8.8.8.8', '2606:4700:4700::1111', '10.0.0.1', TOR_EXIT];
    for (let i = 1; ips.length < 50; i++) ips.push(`9.9.${i}.9`);
    const d = await ok('/lookup/ip/bulk', { ips: ips.join(','), params: 'security' });
    assert.deepEqual(Object.keys(d).sort(), [...ips].sort());
    assert.equal(at(d, ['8.8.8.8', 'asn', 'asn']), 'AS15169');
    assert.equal(at(d, ['2606:4700:4700::1111', 'ipType']), 'IPv6');
    assert.equal(at(d, ['10.0.0.1', 'bogon']), true);
    assert.equal(at(d, [TOR_EXIT, 'security', 'isTor']), true);
  });

  it('keeps the address as sent (IPv6 spelling, spaces trimmed)', async () => {
    const d = await ok('/lookup/ip/bulk', { ips: '2606:4700:4700:0:0:0:0:1111, 1.1.1.1' });
    assert.equal(at(d, ['2606:4700:4700:0:0:0:0:1111', 'ip']), '2606:4700:4700::1111');
    assert.equal(at(d, ['1.1.1.1', 'ip']), '1.1.1.1');
  });

  it('51 addresses, an empty entry, a duplicate or a malformed one fail the call with 112', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `8.8.${i}.8`).join(',');
    assert.equal(await code('/lookup/ip/bulk', { ips: many }), 112);
    assert.equal(await code('/lookup/ip/bulk', { ips: '8.8.8.8,,1.1.1.1' }), 112);
    assert.equal(await code('/lookup/ip/bulk', { ips: '8.8.8.8,' }), 112);
    assert.equal(await code('/lookup/ip/bulk', { ips: '8.8.8.8,8.8.8.8' }), 112);
    assert.equal(await code('/lookup/ip/bulk', { ips: '::ffff:8.8.8.8,8.8.8.8' }), 112);
    assert.equal(await code('/lookup/ip/bulk', { ips: '8.8.8.8,01.1.1.1' }), 112);
    assert.equal(await code('/lookup/ip/bulk', { ips: '' }), 112);
    assert.equal(await code('/lookup/ip/bulk', {}), 112);
  });

  it('renders one CSV block per address', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/lookup/ip/bulk', query: { key: KEY, ips: '8.8.8.8,2a02:908::1', format: 'CSV' } });
    assert.match(res.body, /8\.8\.8\.8/);
    assert.match(res.body, /2a02:908::1/);
    assert.match(res.body, /55838143592195269296365473798046089217/);
  });
});

describe('GET /lookup/ip/threats', () => {
  it('has the decisions.md shape', async () => {
    const d = await ok('/lookup/ip/threats', { ip: TOR_EXIT });
    assert.deepEqual(Object.keys(d).sort(), ['custom_rules_applied', 'ip', 'threats']);
    assert.deepEqual(Object.keys(at(d, ['threats']) as object).sort(), ['blacklisted', 'isBot', 'isHosting', 'isProxy', 'isRelay', 'isTor', 'proxyType']);
    assert.equal(at(d, ['threats', 'isTor']), true);
  });
});

describe('GET /lookup/asn', () => {
  it('AS13335, 13335 and as13335 are the same AS with its announced prefixes', async () => {
    const a = await ok('/lookup/asn', { asn: 'AS13335' });
    assert.equal(at(a, ['asn']), 'AS13335');
    assert.match(String(at(a, ['org'])), /Cloudflare/);
    assert.equal(at(a, ['country']), 'US');
    assert.equal(at(a, ['registry']), 'ARIN');
    assert.ok((at(a, ['prefixes', 'ipv4']) as unknown[]).includes('1.1.1.0/24'));
    assert.ok((at(a, ['prefixes', 'ipv6']) as unknown[]).length > 0);
    assert.equal(at(a, ['prefixes', 'total']), (at(a, ['prefixes', 'ipv4']) as unknown[]).length + (at(a, ['prefixes', 'ipv6']) as unknown[]).length);
    assert.deepEqual(Object.keys(a).sort(), ['asn', 'country', 'created', 'domain', 'email', 'name', 'org', 'phone', 'prefixes', 'registry', 'status', 'type'].sort());
    assert.deepEqual(await ok('/lookup/asn', { asn: '13335' }), a);
    assert.deepEqual(await ok('/lookup/asn', { asn: 'as13335' }), a);
  });

  it('a valid number nobody announces answers with nulls and no prefixes', async () => {
    const d = await ok('/lookup/asn', { asn: '4199999999' });
    assert.deepEqual(at(d, ['prefixes']), { ipv4: [], ipv6: [], total: 0 });
    assert.equal(at(d, ['name']), null);
  });

  it('anything else is 121', async () => {
    for (const bad of ['', 'AS', 'AS0', '0', 'ASX', '-1', '13335.5', 'AS 13335', '4294967296', '013335', 'x'.repeat(5000), '<b>1</b>']) {
      assert.equal(await code('/lookup/asn', { asn: bad }), 121, bad);
    }
    assert.equal(await code('/lookup/asn', {}), 121);
    assert.equal(await code('/lookup/asn', {}, STD), 117);
  });
});

describe('custom rules, blacklists and events', () => {
  const admin = (method: Parameters<typeof adminCall>[1], url: string, payload?: unknown) => adminCall(t, method, url, payload);

  it('an IP blacklist (CIDR) marks security.blacklisted and raises suspicious_ip', async () => {
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'ip', values: ['203.0.113.0/24', '2a02:908::/32'] }));
    const d = await ok('/lookup/ip', { ip: '2a02:908::1', params: 'security', userID: 'u-bl' }, RULES);
    assert.equal(at(d, ['security', 'blacklisted']), true);
    assert.equal(at(d, ['security', 'riskScore']), 100);
    const events = await t.store.events.listEvents(A, { kind: 'suspicious_ip', userId: 'u-bl' });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.risk, 100);
    assert.equal(events[0]!.subject, '2a02:908::1');
    const th = await ok('/lookup/ip/threats', { ip: '2a02:908::2' }, RULES);
    assert.equal(at(th, ['threats', 'blacklisted']), true);
  });

  it('a rule on the security view blacklists even when the module is not shown; whitelist wins later', async () => {
    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      { title: 'No Tor', group: 'ip', conditions: { all: [{ field: 'security.isTor', op: 'eq', value: true }] }, action: { type: 'blacklist' } }), 201);
    const d = await ok('/lookup/ip', { ip: TOR_EXIT, userID: 'u-tor' }, RULES);
    assert.equal(at(d, ['custom_rules_applied', 'total']), 1);
    assert.equal(at(d, ['custom_rules_applied', 'rules', '0', 'title']), 'No Tor');
    assert.equal('security' in d, false);
    const events = await t.store.events.listEvents(A, { kind: 'suspicious_ip', userId: 'u-tor' });
    assert.equal(events.length, 1);
    assert.equal(events[0]!.risk, 100);

    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      { title: 'Office', group: 'ip', conditions: { all: [{ field: 'ip', op: 'in_cidr', value: '2a02:908::/48' }] }, action: { type: 'whitelist' } }), 201);
    const w = await ok('/lookup/ip', { ip: '2a02:908::1', params: 'security', userID: 'u-wl' }, RULES);
    assert.equal(at(w, ['security', 'blacklisted']), false);
    assert.equal(at(w, ['security', 'custom_rules_applied', 'total']), 1);
    assert.equal((await t.store.events.listEvents(A, { kind: 'suspicious_ip', userId: 'u-wl' })).length, 0);
  });

  it('a rule on country applies per address in bulk', async () => {
    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      { title: 'US', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'US' }] }, action: { type: 'blacklist' } }), 201);
    const d = await ok('/lookup/ip/bulk', { ips: '8.8.8.8,2a02:908::1', params: 'security', userID: 'u-bulk' }, RULES);
    assert.equal(at(d, ['8.8.8.8', 'security', 'blacklisted']), true);
    assert.ok((at(d, ['8.8.8.8', 'custom_rules_applied', 'rules']) as unknown[]).some((r) => at(r, ['title']) === 'US'));
    assert.equal((at(d, ['2a02:908::1', 'custom_rules_applied', 'rules']) as unknown[]).some((r) => at(r, ['title']) === 'US'), false);
    const events = await t.store.events.listEvents(A, { kind: 'suspicious_ip', userId: 'u-bulk' });
    assert.deepEqual(events.map((e) => e.subject).sort(), ['8.8.8.8']);
  });

  it('keeps each live evaluation for backtests as JSON: IPv6 IPNumber as text, the full security view, no explanation', async () => {
    await ok('/lookup/ip', { ip: '2a02:908::7', explain: 'yes' }, RULES);
    await t.recorder.flush();
    const records = await t.store.decisions.list(A, 'ip', '2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z', 10_000);
    const rec = records.find((r) => r.input.ip === '2a02:908::7');
    assert.ok(rec, 'the evaluation is in the decision log');
    assert.equal(rec.result.IPNumber, '55838143592195269296365473798046089223');
    // Listed by the CIDR entry, then cleared by the earlier test's whitelist rule on 2a02:908::/48.
    assert.equal(at(rec.result, ['security', 'blacklisted']), false);
    assert.equal(at(rec.result, ['security', 'isTor']), false);
    assert.equal('explanation' in rec.result, false);
  });

  it('a clean address raises no event', async () => {
    await ok('/lookup/ip', { ip: '2a02:908::1', userID: 'u-clean' });
    assert.equal((await t.store.events.listEvents('ip', { kind: 'suspicious_ip', userId: 'u-clean' })).length, 0);
  });
});

describe('test mode', () => {
  it('is realistic, deterministic per address, keeps the address real and raises no event', async () => {
    const a = await ok('/lookup/ip', { ip: '8.8.8.8', params: 'security,timezone', userID: 'tm' }, TKEY);
    const b = await ok('/lookup/ip', { ip: '8.8.8.8', params: 'security,timezone', userID: 'tm' }, TKEY);
    assert.deepEqual(a, b);
    assert.equal(at(a, ['ip']), '8.8.8.8');
    assert.equal(at(a, ['IPNumber']), 134744072);
    assert.equal(typeof at(a, ['countryCode']), 'string');
    assert.equal(typeof at(a, ['cityName']), 'string');
    assert.match(String(at(a, ['asn', 'asn'])), /^AS\d+$/);
    const many = await ok('/lookup/ip/bulk', { ips: Array.from({ length: 50 }, (_, i) => `5.${i}.1.1`).join(','), params: 'security' }, TKEY);
    const countries = new Set(Object.values(many).map((d) => (d as { countryCode: string }).countryCode));
    assert.ok(countries.size > 3, 'test mode spreads addresses over several countries');
    assert.ok(Object.values(many).some((d) => (d as { security: { isTor: boolean } }).security.isTor));
    assert.equal((await t.store.events.listEvents('ip', { userId: 'tm' })).length, 0);
    const bogon = await ok('/lookup/ip', { ip: '192.168.1.1' }, TKEY);
    assert.equal(at(bogon, ['bogon']), true);
    assert.equal(at(bogon, ['countryCode']), null);
  });
});
