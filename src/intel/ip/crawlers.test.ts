import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildCrawlerRanges, crawlerRangesFromJson, DEFAULT_CRAWLER_RANGES_FILE, loadCrawlerRanges, parsePublishedRanges } from './crawlers.ts';

const INFO = { name: 'test', version: '2026-01-01', source: 'test', license: 'test' };

describe('shipped crawler ranges', () => {
  const ranges = loadCrawlerRanges();

  it('loads with dataset info', () => {
    assert.deepEqual(ranges.names, ['Googlebot', 'Bingbot', 'Applebot']);
    assert.equal(ranges.info.name, 'crawler-ranges');
    assert.match(ranges.info.version, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(ranges.prefixCount > 300, String(ranges.prefixCount));
  });

  it('matches addresses inside published ranges', () => {
    assert.equal(ranges.match('66.249.66.1'), 'Googlebot');
    assert.equal(ranges.match('66.249.64.31'), 'Googlebot');
    assert.equal(ranges.match('2001:4860:4801:10::1'), 'Googlebot');
    assert.equal(ranges.match('::ffff:66.249.66.1'), 'Googlebot');
    assert.equal(ranges.match('157.55.39.200'), 'Bingbot');
    assert.equal(ranges.match('40.77.189.1'), 'Bingbot'); // inside 40.77.188.0/22
    assert.equal(ranges.match('17.241.208.170'), 'Applebot');
  });

  it('does not match outside them, nor non-addresses', () => {
    for (const ip of ['8.8.8.8', '66.249.67.96', '66.249.79.96', '2001:4860:4801:11::1', '17.241.208.1', '127.0.0.1', '', 'not-an-ip', '66.249.66.1/24']) {
      assert.equal(ranges.match(ip), null, ip);
    }
  });

  it('every shipped prefix is canonical and no crawler repeats one', () => {
    const doc = JSON.parse(readFileSync(DEFAULT_CRAWLER_RANGES_FILE, 'utf8')) as { crawlers: Array<{ name: string; prefixes: string[] }> };
    for (const c of doc.crawlers) {
      const published = parsePublishedRanges({ prefixes: c.prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })) });
      assert.deepEqual(published.prefixes, c.prefixes, c.name);
    }
  });
});

describe('parsePublishedRanges (Google layout)', () => {
  const google = {
    creationTime: '2026-03-16T15:46:38.000000',
    prefixes: [{ ipv6Prefix: '2001:4860:4801:10::/64' }, { ipv4Prefix: '66.249.64.0/27' }, { ipv4Prefix: '66.249.64.0/27' }, { ipv4Prefix: '66.249.64.5/27' }],
  };

  it('reads both families, canonicalises and removes duplicates', () => {
    assert.deepEqual(parsePublishedRanges(google), { creationTime: '2026-03-16T15:46:38.000000', prefixes: ['2001:4860:4801:10::/64', '66.249.64.0/27'] });
  });

  it('a single address keeps its /32', () => {
    assert.deepEqual(parsePublishedRanges({ prefixes: [{ ipv4Prefix: '20.50.49.0/32' }] }).prefixes, ['20.50.49.0/32']);
  });

  it('refuses other shapes, invalid prefixes and overly broad ones', () => {
    assert.throws(() => parsePublishedRanges({ items: [] }), /not a published range file/);
    assert.throws(() => parsePublishedRanges([]), /not a published range file/);
    assert.throws(() => parsePublishedRanges({ prefixes: [] }), /no prefixes/);
    assert.throws(() => parsePublishedRanges({ prefixes: [{ ipv4Prefix: 'nope' }] }), /not a CIDR prefix/);
    assert.throws(() => parsePublishedRanges({ prefixes: [{ ipv4Prefix: '66.249.64.1' }] }), /not a CIDR prefix/);
    assert.throws(() => parsePublishedRanges({ prefixes: [{ ipv4Prefix: '0.0.0.0/0' }] }), /too broad/);
    assert.throws(() => parsePublishedRanges({ prefixes: [{ ipv6Prefix: '2001::/16' }] }), /too broad/);
  });

  it('a refreshed operator file can replace one crawler', () => {
    const refreshed = parsePublishedRanges({ prefixes: [{ ipv4Prefix: '192.0.2.0/24' }] });
    const r = buildCrawlerRanges([{ name: 'Googlebot', prefixes: refreshed.prefixes }], INFO);
    assert.equal(r.match('192.0.2.9'), 'Googlebot');
    assert.equal(r.match('66.249.66.1'), null);
  });
});

describe('crawler ranges documents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-crawlers-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a crawler entry may hold prefix strings or pasted operator objects; first listed wins on overlap', () => {
    const r = crawlerRangesFromJson({
      source: 'test',
      published: '2026-01-02',
      crawlers: [
        { name: 'A', prefixes: ['192.0.2.0/25'] },
        { name: 'B', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }, { ipv6Prefix: '2001:db8::/48' }] },
      ],
    });
    assert.equal(r.match('192.0.2.1'), 'A');
    assert.equal(r.match('192.0.2.200'), 'B');
    assert.equal(r.match('2001:db8::5'), 'B');
    assert.equal(r.info.version, '2026-01-02');
  });

  it('loads a file, and refuses a bad one with a clear message', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ source: 's', published: '2026-01-02', crawlers: [{ name: 'X', prefixes: ['198.51.100.0/24'] }] }));
    assert.equal(loadCrawlerRanges(good).match('198.51.100.7'), 'X');

    const operator = join(dir, 'googlebot.json');
    writeFileSync(operator, JSON.stringify({ creationTime: 'x', prefixes: [{ ipv4Prefix: '66.249.64.0/27' }] }));
    assert.throws(() => loadCrawlerRanges(operator), /operator file; read it with parsePublishedRanges/);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    assert.throws(() => loadCrawlerRanges(broken), /cannot read/);
    assert.throws(() => loadCrawlerRanges(join(dir, 'missing.json')), /cannot read/);
    assert.throws(() => crawlerRangesFromJson({ source: 's', published: '2026/01/02', crawlers: [{ name: 'X', prefixes: ['198.51.100.0/24'] }] }), /YYYY-MM-DD/);
    assert.throws(() => crawlerRangesFromJson({ source: 's', published: '2026-01-02', crawlers: [{ name: 'X', prefixes: ['0.0.0.0/1'] }] }), /X\.prefixes\[0\].*too broad/);
  });
});
