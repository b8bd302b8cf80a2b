import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SHARED_DATA } from '../../test/helpers/shared-data.ts';
import { gunzipSync } from 'node:zlib';
import { ASN_BGPTOOLS, ASN_NAMES_ASN2ORG } from './import/asn-lists.ts';
import { IMPORTERS } from './import/index.ts';
import { readManifest } from './import/dataset-store.ts';
import { CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, TOR_EXIT_NODES, VPN_DATACENTER_X4BNET } from './import/ip-lists.ts';
import { asnTypeFromName, classifyAsn, loadIpThreatData, type IpThreatData, type ThreatMatch } from './ip-threat-data.ts';

const SHARED = SHARED_DATA;
const NAMES = [TOR_EXIT_NODES, VPN_DATACENTER_X4BNET, CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, ASN_BGPTOOLS, ASN_NAMES_ASN2ORG];

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-threat-'));
  dirs.push(d);
  return d;
};

const lines = (path: string): string[] => readFileSync(join(SHARED, path), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
/** The first address of a CIDR, as text. */
const first = (cidr: string): string => cidr.split('/')[0] ?? '';

let dataDir = '';
let data: IpThreatData;
before(() => {
  dataDir = temp();
  for (const name of NAMES) IMPORTERS[name]?.(dataDir, SHARED);
  data = loadIpThreatData({ dataDir, reloadMs: 0 });
});
after(() => {
  data.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every true flag is backed by a source naming an imported dataset and its current version. */
function assertSourced(m: ThreatMatch): void {
  const flags = { tor: m.isTor, vpn: m.proxyType === 'VPN', hosting: m.isHosting, relay: m.isRelay };
  for (const [flag, on] of Object.entries(flags)) {
    if (!on) continue;
    const s = m.sources.find((x) => x.flag === flag);
    assert.ok(s, `no source for ${flag}`);
    assert.equal(s.version, readManifest(dataDir, s.dataset)?.version);
  }
}

describe('loadIpThreatData with the shared datasets imported', () => {
  it('lists every dataset with its imported version and licence', () => {
    assert.deepEqual(data.datasets.map((d) => d.name), NAMES);
    for (const d of data.datasets) {
      assert.equal(d.version, readManifest(dataDir, d.name)?.version);
      assert.notEqual(d.license, 'n/a');
    }
  });

  it('a Tor exit address is Tor (and a TOR proxy); a relay-only address is not Tor', () => {
    const exit = lines('tor-exit-nodes/tor-exit-nodes.txt')[0] ?? '';
    const m = data.match(exit, null);
    assert.equal(m.isTor, true);
    assert.equal(m.isProxy, true);
    assertSourced(m);
    assert.deepEqual(m.sources.find((s) => s.flag === 'tor')?.detail, 'exit');
    const cp = lines('tor-exit-nodes/checkpoint-tor-ips.txt')[0] ?? '';
    assert.equal(data.match(cp, null).isTor, true);

    const exits = new Set([...lines('tor-exit-nodes/tor-exit-nodes.txt'), ...lines('tor-exit-nodes/checkpoint-tor-ips.txt')]);
    const relayOnly = lines('tor-exit-nodes/tor-all-relays-2024-02.txt').find((ip) => !exits.has(ip)) ?? '';
    const r = data.match(relayOnly, null);
    assert.equal(r.isTor, false);
    assert.deepEqual(r.sources.filter((s) => s.flag === 'tor').map((s) => s.detail), ['relay']);
  });

  it('an AWS range of jhassine is hosting with detail AWS', () => {
    const rows = gunzipSync(readFileSync(join(SHARED, 'cloud-ranges-jhassine/datacenters.csv.gz'))).toString('utf8').split('\n');
    const aws = rows.find((r) => r.endsWith('"AWS"'))?.split(',')[1]?.replace(/"/g, '') ?? '';
    const m = data.match(aws, null);
    assert.equal(m.isHosting, true);
    assert.ok(m.sources.some((s) => s.dataset === CLOUD_RANGES_JHASSINE && s.detail === 'AWS'), JSON.stringify(m.sources));
    assertSourced(m);
  });

  it('an ipcat range is hosting with its provider as detail', () => {
    const [start, , provider] = lines('datacenter-ipcat/datacenters.csv')[0]?.split(',') ?? [];
    const m = data.match(start ?? '', null);
    assert.ok(m.sources.some((s) => s.dataset === DATACENTER_IPCAT && s.detail === provider));
  });

  it('an iCloud Private Relay range is a relay, and not a VPN although X4BNet lists it', () => {
    for (const file of ['icloud-private-relay/ipv4-ranges.txt', 'icloud-private-relay/ipv6-ranges.txt']) {
      const m = data.match(first(lines(file)[0] ?? ''), null);
      assert.equal(m.isRelay, true, file);
      assert.equal(m.proxyType, null, file);
      assert.equal(m.isProxy, false, file);
      assertSourced(m);
    }
  });

  it('a VPN CIDR of X4BNet is a VPN proxy and hosting; a VPN operator ASN alone is a VPN', () => {
    const cidr = lines('vpn-datacenter-x4bnet/vpn-ipv4.txt').find((c) => !data.match(first(c), null).isRelay) ?? '';
    const m = data.match(first(cidr), null);
    assert.equal(m.isProxy, true);
    assert.equal(m.proxyType, 'VPN');
    assert.equal(m.isHosting, true);
    assertSourced(m);
    const v6 = data.match(first(lines('vpn-datacenter-x4bnet/vpn-ipv6.txt')[0] ?? ''), null);
    assert.equal(v6.proxyType, 'VPN');
    const byAsn = data.match('192.0.2.1', 9009);
    assert.equal(byAsn.proxyType, 'VPN');
    assert.ok(byAsn.sources.some((s) => s.detail === 'AS9009 (vpn-asn)'));
  });

  it("bgp.tools' vpn tag is not a VPN signal by default, and never for an access network", () => {
    // AS15169 (Google) carries bgp.tools' vpn tag; 8.8.8.8 is not a VPN.
    assert.ok(data.asn(15169)?.tags.includes('vpn'));
    assert.equal(data.match('192.0.2.1', 15169).proxyType, null);
    const opted = loadIpThreatData({ dataDir, reloadMs: 0, bgpVpnTag: true });
    assert.equal(opted.match('192.0.2.1', 15169).proxyType, 'VPN');
    // AS6539 (Bell Canada) is tagged vpn and dsl: an ISP.
    assert.ok(data.asn(6539)?.tags.includes('dsl') && data.asn(6539)?.tags.includes('vpn'));
    assert.equal(opted.match('192.0.2.1', 6539).proxyType, null);
    assert.equal(opted.match('192.0.2.1', 6539).isHosting, false);
    opted.close();
  });

  it('hosting ASNs: X4BNet datacenter-asn and bgp.tools vpsh', () => {
    const dcAsn = Number(/^AS(\d+)/.exec(lines('vpn-datacenter-x4bnet/datacenter-asn.txt')[0] ?? '')?.[1]);
    const m = data.match('192.0.2.1', dcAsn);
    assert.equal(m.isHosting, true);
    assert.ok(m.sources.some((s) => s.detail === `AS${dcAsn} (datacenter-asn)`));
    const vpsh = lines('asn-bgptools/tags/tags-vpsh.csv').map((l) => Number(/^AS(\d+)/.exec(l)?.[1])).find((a) => !data.asn(a)?.tags.some((t) => ['dsl', 'mobile', 'perso', 'satnet', 'biznet'].includes(t)));
    assert.ok(vpsh);
    const v = data.match('192.0.2.1', vpsh);
    assert.equal(v.isHosting, true);
    assert.ok(v.sources.some((s) => s.dataset === ASN_BGPTOOLS && s.detail === `AS${vpsh} (tag vpsh)`));
  });

  // Issue 25: precedence and the curated lists of src/data/ip-infrastructure.ts (sources named there).
  it('Tor before VPN: an exit that a VPN list also holds is proxyType TOR, both sources kept', () => {
    const exits = lines('tor-exit-nodes/tor-exit-nodes.txt');
    const both = exits.filter((e) => data.match(e, null).sources.some((s) => s.flag === 'vpn'));
    assert.ok(both.length > 0);
    for (const e of both) {
      const m = data.match(e, null);
      assert.equal(m.proxyType, 'TOR', e);
      assert.equal(m.isProxy, true, e);
    }
  });

  const table: Array<{ name: string; ip: string; asn: number; proxyType: string | null; hosting: boolean; dataset: string | null; type: string }> = [
    { name: 'Mullvad (31173 Services AB) by AS', ip: '192.0.2.1', asn: 39351, proxyType: 'VPN', hosting: true, dataset: 'vpn-operator-asns', type: 'hosting' },
    { name: 'Mullvad VPN AB by AS', ip: '192.0.2.1', asn: 216025, proxyType: 'VPN', hosting: false, dataset: 'vpn-operator-asns', type: 'hosting' },
    { name: 'NordVPN (PacketHub, AU) by AS', ip: '192.0.2.1', asn: 147049, proxyType: 'VPN', hosting: true, dataset: 'vpn-operator-asns', type: 'hosting' },
    { name: 'Cisco OpenDNS AS36692', ip: '192.0.2.1', asn: 36692, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'hosting' },
    { name: 'Quad9 AS19281', ip: '192.0.2.1', asn: 19281, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'hosting' },
    { name: 'Fastly AS54113 (CDN edge)', ip: '192.0.2.1', asn: 54113, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'hosting' },
    { name: 'Akamai AS20940 (CDN edge)', ip: '192.0.2.1', asn: 20940, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'hosting' },
    { name: 'Cloudflare 1.1.1.1 by range', ip: '1.1.1.1', asn: 64496, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'isp' },
    { name: 'OpenDNS 208.67.220.220 by range', ip: '208.67.220.220', asn: 64496, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'isp' },
    { name: 'Quad9 IPv6 2620:fe::9 by range', ip: '2620:fe::9', asn: 64496, proxyType: null, hosting: true, dataset: 'anycast-infrastructure', type: 'isp' },
    { name: 'a carrier next to Lumen resolvers (4.2.2.7) is not a resolver', ip: '4.2.2.7', asn: 64496, proxyType: null, hosting: false, dataset: null, type: 'isp' },
  ];
  for (const c of table) {
    it(`curated lists: ${c.name}`, () => {
      const m = data.match(c.ip, c.asn);
      assert.equal(m.proxyType, c.proxyType);
      assert.equal(m.isHosting, c.hosting);
      if (c.dataset !== null) assert.ok(m.sources.some((s) => s.dataset === c.dataset && s.version === '2026-11-27' && typeof s.detail === 'string'), JSON.stringify(m.sources));
      else assert.deepEqual(m.sources, []);
      // 64496 is a documentation ASN (RFC 5398): its type falls to the name keywords.
      assert.equal(data.asnType(c.asn, c.asn === 64496 ? 'Example Telecom' : null), c.type);
    });
  }

  it('an iCloud Private Relay egress in a CDN AS is a relay, not made hosting by the anycast list', () => {
    const relay = first(lines('icloud-private-relay/ipv4-ranges.txt')[0] ?? '');
    const m = data.match(relay, 13335);
    assert.equal(m.isRelay, true);
    assert.ok(!m.sources.some((s) => s.dataset === 'anycast-infrastructure'));
  });

  it('an ordinary address matches nothing', () => {
    const m = data.match('192.0.2.1', null);
    assert.deepEqual(m, { isTor: false, isProxy: false, proxyType: null, isHosting: false, isRelay: false, sources: [] });
    assert.equal(data.match('not an address', null).sources.length, 0);
  });

  it('ASN metadata: bgp.tools name, class, country, tags; asn2org organisation', () => {
    const cf = data.asn(13335);
    assert.equal(cf?.name, 'Cloudflare, Inc.');
    assert.equal(cf?.bgpClass, 'Content');
    assert.equal(cf?.country, 'US');
    assert.ok(cf?.tags.includes('cdn'));
    assert.equal(data.asn(15169)?.org, 'Google');
    assert.equal(data.asn(4_294_967_000), null);
  });

  it('asnType: tags first, then class, then the name', () => {
    assert.equal(data.asnType(2, null), 'education'); // University of Delaware, tag uni
    assert.equal(data.asnType(3, null), 'education'); // MIT
    assert.equal(data.asnType(13335, null), 'hosting');
    assert.equal(data.asnType(16509, null), 'hosting');
    assert.equal(data.asnType(7922, null), 'isp'); // Comcast: dsl
    assert.equal(data.asnType(6539, null), 'isp'); // Bell Canada: dsl beats vpsh
    const gov = Number(/^AS(\d+)/.exec(lines('asn-bgptools/tags/tags-gov.csv').find((l) => !lines('asn-bgptools/tags/tags-uni.csv').some((u) => u.startsWith(`${l.split(',')[0]},`))) ?? '')?.[1]);
    assert.equal(data.asnType(gov, null), 'government');
    // Unknown to every dataset: the caller's organisation name decides.
    assert.equal(data.asnType(4_294_967_000, 'Universidad de Chile'), 'education');
    assert.equal(data.asnType(4_294_967_000, null), 'isp');
  });
});

describe('the ASN classifier', () => {
  it('name keywords', () => {
    const cases: Array<[string, string]> = [
      ['University of Example', 'education'],
      ['Technische Universität München', 'education'],
      ['Universidade de São Paulo', 'education'],
      ['Universitas Indonesia', 'education'],
      ['Massachusetts Institute of Technology', 'education'],
      ['Springfield Community College', 'education'],
      ['Ministry of Finance', 'government'],
      ['City of Springfield', 'government'],
      ['Example Government Network', 'government'],
      ['Example Hosting Ltd', 'hosting'],
      ['ExampleCloud GmbH', 'hosting'],
      ['Nordic Data Center AB', 'hosting'],
      ['Dedicated Servers Inc', 'hosting'],
      ['Example VPS LLC', 'hosting'],
      ['First Example Bank', 'business'],
      ['Example Foods Inc.', 'business'],
      ['Beispiel GmbH', 'business'],
      ['Example Telecom Inc.', 'isp'],
      ['Example Broadband LLC', 'isp'],
      ['Example Cable Communications, LLC', 'isp'],
      ['Skynet Ltd', 'isp'],
      ['Nasa Example', 'isp'],
      ['Connecticut Example Corp', 'business'],
      ['', 'isp'],
    ];
    for (const [name, type] of cases) assert.equal(asnTypeFromName(name), type, name);
    assert.equal(asnTypeFromName(null), 'isp');
  });

  it('evidence order: uni/gov, curated hosting, access tags, vpsh/cdn, corp, biznet, class, name', () => {
    const f = { tags: [] as string[], bgpClass: null as string | null, curatedHosting: false, name: null as string | null };
    assert.equal(classifyAsn({ ...f, tags: ['uni', 'vpsh'] }), 'education');
    assert.equal(classifyAsn({ ...f, tags: ['gov', 'dsl'] }), 'government');
    assert.equal(classifyAsn({ ...f, tags: ['dsl'], curatedHosting: true }), 'hosting');
    assert.equal(classifyAsn({ ...f, tags: ['dsl', 'vpsh', 'vpn'] }), 'isp');
    assert.equal(classifyAsn({ ...f, tags: ['vpsh'], bgpClass: 'Eyeball' }), 'hosting');
    assert.equal(classifyAsn({ ...f, tags: ['vpn'], name: 'Rogers Communications Canada Inc.' }), 'isp');
    assert.equal(classifyAsn({ ...f, tags: ['corp'] }), 'business');
    assert.equal(classifyAsn({ ...f, tags: ['biznet'] }), 'isp');
    assert.equal(classifyAsn({ ...f, bgpClass: 'Eyeball', name: 'Example Hosting' }), 'isp');
    assert.equal(classifyAsn({ ...f, bgpClass: 'Content' }), 'hosting');
    assert.equal(classifyAsn({ ...f, name: 'Example Hosting' }), 'hosting');
  });
});

describe('reload and refusal', () => {
  it('refresh() picks up a re-import; an empty import is refused and the loaded version kept', () => {
    const dir = temp();
    const src = temp();
    mkdirSync(join(src, TOR_EXIT_NODES));
    writeFileSync(join(src, TOR_EXIT_NODES, 'tor-exit-nodes.txt'), '192.0.2.1\n');
    const importTor = IMPORTERS[TOR_EXIT_NODES];
    assert.ok(importTor);
    const v1 = importTor(dir, src).manifest.version;
    const d = loadIpThreatData({ dataDir: dir, reloadMs: 0 });
    assert.equal(d.match('192.0.2.1', null).isTor, true);
    assert.equal(d.match('192.0.2.2', null).isTor, false);
    assert.equal(d.datasets.find((x) => x.name === TOR_EXIT_NODES)?.version, v1);
    assert.equal(d.datasets.find((x) => x.name === ASN_BGPTOOLS)?.version, 'none');

    writeFileSync(join(src, TOR_EXIT_NODES, 'tor-exit-nodes.txt'), '192.0.2.2\n');
    const v2 = importTor(dir, src).manifest.version;
    assert.notEqual(v2, v1);
    d.refresh();
    assert.equal(d.match('192.0.2.1', null).isTor, false);
    const m = d.match('192.0.2.2', null);
    assert.equal(m.isTor, true);
    assert.equal(m.sources[0]?.version, v2);

    writeFileSync(join(src, TOR_EXIT_NODES, 'tor-exit-nodes.txt'), 'junk\nmore junk\n');
    assert.throws(() => importTor(dir, src), /no valid Tor exit address/);
    d.refresh();
    assert.equal(d.match('192.0.2.2', null).isTor, true);
    assert.equal(readManifest(dir, TOR_EXIT_NODES)?.version, v2);
    d.close();
  });

  it('without a DATA_DIR every imported answer is empty and every version none; the shipped curated lists still answer', () => {
    const d = loadIpThreatData({ dataDir: null });
    assert.equal(d.match('192.0.2.1', 16509).sources.length, 0);
    assert.deepEqual(d.match('192.0.2.1', 13335).sources.map((s) => s.dataset), ['anycast-infrastructure']);
    assert.equal(d.asn(13335), null);
    assert.equal(d.asnType(13335, 'Cloudflare Hosting'), 'hosting');
    assert.ok(d.datasets.every((x) => x.version === 'none'));
    d.close();
  });
});
