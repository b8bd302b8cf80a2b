import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { feedDir, SHARED_DATA, tempDirs } from '../../../test/helpers/shared-data.ts';
import { gzipSync } from 'node:zlib';
import { ASN_BGPTOOLS, ASN_NAMES_ASN2ORG, importAsn2org, importBgpTools } from './asn-lists.ts';
import { readCurrent, readManifest } from './dataset-store.ts';
import { parseAsn, parseCsvLine } from './source-files.ts';

const SHARED = SHARED_DATA;
const dirs = tempDirs('vigil-asn-');
const temp = dirs.temp;
after(dirs.cleanup);

/** A DIR holding DIR/<dataset>/<path> = text (or bytes) for each entry. */
const feed = (dataset: string, files: Record<string, string | Buffer>): string => feedDir(temp(), dataset, files);

const stored = (dataDir: string, name: string): string => readCurrent(dataDir, name)?.content ?? '';

describe('parseCsvLine', () => {
  it('splits plain and quoted fields, doubled quotes, empty fields', () => {
    assert.deepEqual(parseCsvLine('AS10,CSNET Coordination,Unknown,US'), ['AS10', 'CSNET Coordination', 'Unknown', 'US']);
    assert.deepEqual(parseCsvLine('AS10002,"IGAUENO CABLE TELEVISION CO.,LTD",Eyeball,JP'), ['AS10002', 'IGAUENO CABLE TELEVISION CO.,LTD', 'Eyeball', 'JP']);
    assert.deepEqual(parseCsvLine('AS50512,"JSC ""ER-Telecom Holding"" Barnaul branch",Eyeball,RU'), ['AS50512', 'JSC "ER-Telecom Holding" Barnaul branch', 'Eyeball', 'RU']);
    assert.deepEqual(parseCsvLine('a,,b,'), ['a', '', 'b', '']);
    assert.deepEqual(parseCsvLine('"a",'), ['a', '']);
    assert.deepEqual(parseCsvLine(''), ['']);
  });

  it('rejects an unterminated quote or text after a closing quote; keeps a stray quote in a bare field', () => {
    assert.equal(parseCsvLine('AS1,"unterminated'), null);
    assert.equal(parseCsvLine('AS1,"closed"then,x'), null);
    assert.deepEqual(parseCsvLine('AS1,say "hi",x'), ['AS1', 'say "hi"', 'x']);
  });

  it('parseAsn', () => {
    assert.equal(parseAsn('AS13335'), 13335);
    assert.equal(parseAsn('as13335'), 13335);
    assert.equal(parseAsn(' 15169 '), 15169);
    assert.equal(parseAsn('4294967295'), 4294967295);
    assert.equal(parseAsn('4294967296'), null);
    assert.equal(parseAsn('AS0'), null);
    assert.equal(parseAsn('ASN'), null);
    assert.equal(parseAsn(undefined), null);
  });
});

describe('asn-bgptools', () => {
  it('imports the shared asns.csv.gz and every tag list into one record per ASN', () => {
    const dataDir = temp();
    const r = importBgpTools(dataDir, SHARED);
    assert.equal(r.files.length, 22);
    // 120,793 rows in asns.csv plus ASNs found only in tag lists.
    assert.ok(r.manifest.count >= 120_793, String(r.manifest.count));
    // tags-feeder.csv is an HTML page in the mirror: its lines are rejected, not imported.
    assert.ok(r.rejected > 0);
    assert.ok(r.samples.every((s) => s.startsWith('tags/tags-feeder.csv')), r.samples.join('\n'));
    const content = stored(dataDir, ASN_BGPTOOLS);
    assert.match(content, /^13335\tCloudflare, Inc\.\tContent\tUS\t[a-z0-9,]*\bcdn\b/m);
    assert.match(content, /^10002\tIGAUENO CABLE TELEVISION CO\.,LTD\tEyeball\tJP\t/m);
    assert.match(content, /^2\tUniversity of Delaware\t[A-Za-z]*\tUS\t(?:[a-z0-9]+,)*uni(?:,|$)/m);
    // The unescaped-quote tag rows still give their ASN its tag.
    assert.match(content, /^56201\t[^\t]*\t[^\t]*\t[^\t]*\t(?:[a-z0-9]+,)*a10k(?:,|$)/m);
  });

  it('tags-only and bgp.tools URL names (vpn.csv), malformed rows counted, empty refused', () => {
    const dataDir = temp();
    const r = importBgpTools(dataDir, feed(ASN_BGPTOOLS, {
      'asns.csv': 'asn,name,class,cc\nAS64500,"Example, Inc.",Content,us\nASX,bad,,\nAS64501,"broken,Unknown,US\n',
      'vpn.csv': 'AS64500,"Example, Inc."\nAS64502,Only Tagged\n',
      'tags/tags-vpsh.csv': 'AS64500,Example\n',
      'tags/tags-counts.txt': 'vpn,2\n',
    }));
    assert.equal(r.rejected, 2);
    assert.equal(stored(dataDir, ASN_BGPTOOLS), '64500\tExample, Inc.\tContent\tUS\tvpn,vpsh\n64502\tOnly Tagged\t\t\tvpn\n');
    const before = readManifest(dataDir, ASN_BGPTOOLS)?.version;
    assert.throws(() => importBgpTools(dataDir, feed(ASN_BGPTOOLS, { 'asns.csv.gz': gzipSync('asn,name,class,cc\nnope,x,y,z\n') })), /no valid ASN/);
    assert.throws(() => importBgpTools(dataDir, feed(ASN_BGPTOOLS, { 'readme.txt': 'x' })), /neither asns\.csv/);
    assert.equal(readManifest(dataDir, ASN_BGPTOOLS)?.version, before);
  });
});

describe('asn-names-asn2org', () => {
  it('imports the shared asns.csv.gz', () => {
    const dataDir = temp();
    const r = importAsn2org(dataDir, SHARED);
    assert.equal(r.rejected, 0);
    assert.equal(r.manifest.count, 103_861);
    const content = stored(dataDir, ASN_NAMES_ASN2ORG);
    assert.match(content, /^15169\tGoogle\t[A-Za-z -]+$/m);
    assert.match(content, /^3\tMassachusetts Institute of Technology\tPeeringDB$/m);
  });

  it('plain asns.csv (the upstream gh-pages file), bad rows counted, empty refused', () => {
    const dataDir = temp();
    const r = importAsn2org(dataDir, feed(ASN_NAMES_ASN2ORG, { 'asns.csv': '"asn","name","source"\n64500,"Example, Org","PeeringDB"\nx,"Bad","DB-IP"\n64501,"","DB-IP"\nAS64502,Other,\n' }));
    assert.equal(r.rejected, 2);
    assert.equal(stored(dataDir, ASN_NAMES_ASN2ORG), '64500\tExample, Org\tPeeringDB\n64502\tOther\t\n');
    assert.throws(() => importAsn2org(dataDir, feed(ASN_NAMES_ASN2ORG, { 'asns.csv': '"asn","name","source"\n' })), /no valid ASN/);
    assert.equal(readCurrent(dataDir, ASN_NAMES_ASN2ORG)?.manifest.version, r.manifest.version);
  });
});
