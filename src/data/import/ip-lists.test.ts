import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { feedDir, SHARED_DATA, tempDirs } from '../../../test/helpers/shared-data.ts';
import { gzipSync } from 'node:zlib';
import { DatasetError, readCurrent, readManifest } from './dataset-store.ts';
import { IMPORTERS } from './index.ts';
import {
  canonicalNetwork, CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, importIcloudRelay, importIpcat, importJhassine, importTorExitNodes,
  importX4bnet, parseAsnLine, TOR_EXIT_NODES, torListKind, VPN_DATACENTER_X4BNET, x4bSection,
} from './ip-lists.ts';

const SHARED = SHARED_DATA;
const dirs = tempDirs('vigil-iplists-');
const temp = dirs.temp;
after(dirs.cleanup);

/** A DIR holding DIR/<dataset>/<path> = text (or bytes) for each entry. */
const feed = (dataset: string, files: Record<string, string | Buffer>): string => feedDir(temp(), dataset, files);

const stored = (dataDir: string, name: string): string => readCurrent(dataDir, name)?.content ?? '';

describe('file-name rules', () => {
  it('tells Tor exit lists from relay lists', () => {
    assert.equal(torListKind('tor-exit-nodes.txt'), 'exit');
    assert.equal(torListKind('tor-exit-nodes.list'), 'exit');
    assert.equal(torListKind('cptorlist.list'), 'exit');
    assert.equal(torListKind('torbulkexitlist'), 'exit');
    assert.equal(torListKind('tor-nodes.lst'), 'relay');
    assert.equal(torListKind('tor-all-relays-2024-02.txt'), 'relay');
    assert.equal(torListKind('download'), null);
  });

  it('tells X4BNet sections apart by path, and refuses to guess a bare ipv4.txt', () => {
    assert.equal(x4bSection('vpn-ipv4.txt'), 'vpn');
    assert.equal(x4bSection('output/vpn/ipv6.txt'), 'vpn');
    assert.equal(x4bSection('datacenter-ipv4.txt'), 'datacenter');
    assert.equal(x4bSection('lists_vpn/output/datacenter/ipv4.txt'), 'datacenter');
    assert.equal(x4bSection('input/datacenter/ASN.txt'), 'datacenter-asn');
    assert.equal(x4bSection('vpn-asn.txt'), 'vpn-asn');
    assert.equal(x4bSection('ipv4.txt'), null);
    assert.equal(x4bSection('ASN.txt'), null);
  });

  it('parses ASN lines with comments, tabs or none', () => {
    assert.deepEqual(parseAsnLine('AS9009 # M247, GB (NordVPN)'), [9009, 'M247, GB (NordVPN)']);
    assert.deepEqual(parseAsnLine('AS55286\t# SERVER-MANIA, CA'), [55286, 'SERVER-MANIA, CA']);
    assert.deepEqual(parseAsnLine('13335'), [13335, '']);
    assert.equal(parseAsnLine('ASX # no'), null);
    assert.equal(parseAsnLine('AS0'), null);
  });

  it('canonicalises networks', () => {
    assert.equal(canonicalNetwork(' 10.1.2.3/8 '), '10.0.0.0/8');
    assert.equal(canonicalNetwork('2001:0470:0001:0908:0000:0000:0000:9001'), '2001:470:1:908::9001');
    assert.equal(canonicalNetwork('10.0.0.1/33'), null);
  });
});

describe('importers read the shared data', () => {
  it('imports every IP list from /work/shared/data with nothing rejected', () => {
    const dataDir = temp();
    for (const name of [TOR_EXIT_NODES, VPN_DATACENTER_X4BNET, CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY]) {
      const r = IMPORTERS[name]?.(dataDir, SHARED);
      assert.ok(r, name);
      assert.equal(r.rejected, 0, `${name}: ${r.samples.join('; ')}`);
      assert.ok(r.manifest.count > 1000, `${name}: ${r.manifest.count}`);
    }
    const tor = stored(dataDir, TOR_EXIT_NODES);
    const firstExit = readFileSync(join(SHARED, TOR_EXIT_NODES, 'tor-exit-nodes.txt'), 'utf8').split('\n').find((l) => /^\d/.test(l)) ?? '';
    assert.ok(tor.includes(`exit\t${firstExit}\n`));
    assert.match(tor, /^relay\t2001:470:/m);
    const x4b = stored(dataDir, VPN_DATACENTER_X4BNET);
    assert.match(x4b, /^vpn-asn\t9009\tM247, GB \(NordVPN\)$/m);
    assert.match(x4b, /^datacenter\t2001:310::\/32$/m);
    assert.match(stored(dataDir, CLOUD_RANGES_JHASSINE), /^1\.178\.1\.0\/24\tAWS$/m);
    // ipcat's first range 3.0.0.0 - 3.1.255.255 is exactly one /15.
    assert.match(stored(dataDir, DATACENTER_IPCAT), /^3\.0\.0\.0\/15\tAmazon AWS$/m);
    assert.match(stored(dataDir, DATACENTER_IPCAT), /^64\.5\.32\.0\/19\tThePlanet\.com Internet Services, Inc\.$/m);
    assert.match(stored(dataDir, ICLOUD_PRIVATE_RELAY), /^104\.28\.28\.0\/26$/m);
  });
});

describe('malformed lines, refusals and upstream layouts', () => {
  it('tor: comments skipped, bad lines counted, exits merged, relays separate', () => {
    const dataDir = temp();
    const r = importTorExitNodes(dataDir, feed(TOR_EXIT_NODES, {
      'tor-exit-nodes.list': '# Last updated\n192.0.2.1\n192.0.2.2\nnot-an-ip\n',
      'torbulkexitlist': '192.0.2.2\n198.51.100.7\r\n',
      'tor-nodes.lst': '203.0.113.9\n2001:0db8:0000:0000:0000:0000:0000:0001\n999.1.1.1\n',
      'notes.md': 'ignored\n',
    }));
    assert.equal(r.rejected, 2);
    assert.ok(r.samples.some((s) => s.includes('not-an-ip')));
    assert.ok(r.samples.some((s) => s.startsWith('notes.md')));
    assert.deepEqual(r.files, ['tor-exit-nodes.list', 'tor-nodes.lst', 'torbulkexitlist']);
    assert.equal(stored(dataDir, TOR_EXIT_NODES), 'exit\t192.0.2.1\nexit\t192.0.2.2\nexit\t198.51.100.7\nrelay\t2001:db8::1\nrelay\t203.0.113.9\n');
    assert.equal(r.manifest.count, 5);
  });

  it('tor: a relay-only or garbage import is refused and the current version stays', () => {
    const dataDir = temp();
    const first = importTorExitNodes(dataDir, feed(TOR_EXIT_NODES, { 'tor-exit-nodes.txt': '192.0.2.1\n' }));
    assert.throws(() => importTorExitNodes(dataDir, feed(TOR_EXIT_NODES, { 'tor-nodes.lst': '203.0.113.9\n' })), /no valid Tor exit address/);
    assert.throws(() => importTorExitNodes(dataDir, feed(TOR_EXIT_NODES, { 'tor-exit-nodes.txt': 'garbage\n' })), DatasetError);
    assert.throws(() => importTorExitNodes(dataDir, feed(TOR_EXIT_NODES, { 'download': '192.0.2.1\n' })), /no Tor list file/);
    assert.equal(readManifest(dataDir, TOR_EXIT_NODES)?.version, first.manifest.version);
  });

  it('x4bnet: the repository layout (output/vpn/ipv4.txt, input/*/ASN.txt), bad lines counted', () => {
    const dataDir = temp();
    const r = importX4bnet(dataDir, feed(VPN_DATACENTER_X4BNET, {
      'output/vpn/ipv4.txt': '198.51.100.0/24\n198.51.100.0/24\nbad/99\n',
      'output/vpn/ipv6.txt': '2001:db8::/32\n',
      'output/datacenter/ipv4.txt': '203.0.113.0/24\n',
      'input/vpn/ASN.txt': '# header comment\nAS9009 # M247\nnonsense # x\n',
      'input/datacenter/ASN.txt': 'AS16509\t# AMAZON\n',
      'ipv4.txt': '192.0.2.0/24\n',
    }));
    assert.equal(r.rejected, 2);
    assert.ok(r.samples.some((s) => s.startsWith('ipv4.txt: cannot tell')));
    assert.equal(stored(dataDir, VPN_DATACENTER_X4BNET), [
      'vpn\t198.51.100.0/24', 'vpn\t2001:db8::/32', 'datacenter\t203.0.113.0/24', 'vpn-asn\t9009\tM247', 'datacenter-asn\t16509\tAMAZON', '',
    ].join('\n'));
  });

  it('x4bnet: a single ambiguous download imports nothing', () => {
    assert.throws(() => importX4bnet(temp(), feed(VPN_DATACENTER_X4BNET, { 'ipv4.txt': '192.0.2.0/24\n' })), /no VPN or datacenter list/);
  });

  it('jhassine: gzipped or plain, header by name, bad rows counted', () => {
    const csv = '"cidr","hostmin","hostmax","vendor"\n"192.0.2.0/24","192.0.2.0","192.0.2.255","AWS"\n"nope","","","GCP"\n"2001:db8::/48","","","Azure"\n"broken\n';
    const dataDir = temp();
    const r = importJhassine(dataDir, feed(CLOUD_RANGES_JHASSINE, { 'datacenters.csv.gz': gzipSync(csv) }));
    assert.equal(r.rejected, 2);
    assert.equal(stored(dataDir, CLOUD_RANGES_JHASSINE), '192.0.2.0/24\tAWS\n2001:db8::/48\tAzure\n');
    const plain = importJhassine(temp(), feed(CLOUD_RANGES_JHASSINE, { 'datacenters.csv': 'vendor,cidr\nGCP,198.51.100.0/24\n' }));
    assert.equal(plain.manifest.count, 1);
    assert.throws(() => importJhassine(temp(), feed(CLOUD_RANGES_JHASSINE, { 'datacenters.csv': 'cidr,vendor\nx,y\n' })), /no valid CIDR/);
  });

  it('ipcat: ranges become minimal CIDRs with the provider; bad ranges counted', () => {
    const dataDir = temp();
    const r = importIpcat(dataDir, feed(DATACENTER_IPCAT, {
      'datacenters.csv': '192.0.2.1,192.0.2.10,"Example Hosting, Inc.",http://x\n198.51.100.0,198.51.100.255,Other,\n10.0.0.9,10.0.0.1,Reversed,\n1.2.3.4,1.2.3.5\n',
    }));
    assert.equal(r.rejected, 2);
    assert.equal(stored(dataDir, DATACENTER_IPCAT), [
      '192.0.2.1\tExample Hosting, Inc.', '192.0.2.10\tExample Hosting, Inc.', '192.0.2.2/31\tExample Hosting, Inc.',
      '192.0.2.4/30\tExample Hosting, Inc.', '192.0.2.8/31\tExample Hosting, Inc.', '198.51.100.0/24\tOther', '',
    ].join('\n'));
  });

  it("icloud: bare addresses, CIDRs and Apple's egress-ip-ranges.csv", () => {
    const dataDir = temp();
    const r = importIcloudRelay(dataDir, feed(ICLOUD_PRIVATE_RELAY, {
      'ipv4-ranges.txt': '104.28.28.0/26\n104.28.28.76\nfoo\n',
      'egress-ip-ranges.csv': '172.224.226.0/27,GB,GB-EN,London,\n2a02:26f7:b3c0:4000::/64,GB,GB-EN,London,\n',
    }));
    assert.equal(r.rejected, 1);
    assert.equal(stored(dataDir, ICLOUD_PRIVATE_RELAY), '104.28.28.0/26\n104.28.28.76\n172.224.226.0/27\n2a02:26f7:b3c0:4000::/64\n');
    assert.equal(r.manifest.count, 4);
  });

  it('every IP importer is registered and refuses a missing directory', () => {
    for (const name of [TOR_EXIT_NODES, VPN_DATACENTER_X4BNET, CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY]) {
      const importer = IMPORTERS[name];
      assert.ok(importer, name);
      assert.throws(() => importer(temp(), temp()), /is not a directory/);
    }
  });
});
