import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { readCurrent, readManifest } from './dataset-store.ts';
import { DatasetError } from './dataset-store.ts';
import { CsvPieces, GEONAMES_POSTAL, GEONAMES_POSTAL_HEADER, importGeonamesPostal, importGeonamesPostalStreaming, parsePostalCsv, placeKey, type CsvPiece } from './geonames-postal.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-postal-import-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const HEADER = 'country_code,zipcode,place,state,state_code,province,province_code,community,community_code,latitude,longitude';

/** A source directory DIR holding DIR/geonames-postal/<name> files. */
function source(files: Record<string, string | Buffer>): string {
  const dir = temp();
  mkdirSync(join(dir, GEONAMES_POSTAL));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, GEONAMES_POSTAL, name), content);
  return dir;
}

const GOOD = [
  'DE,80331,München,Bayern,BY,,,,,48.1345,11.571',
  'DE,10117,Berlin,Berlin,BE,,,"Berlin, Stadt",11000,52.517,13.3872',
  'AL,1020,"Tirana 8/1, 8/2, 33",Tirana,50,,,,,41.3247,19.7974',
  'US,90210,Beverly Hills,California,CA,,,,,34.090123,-118.40656',
];
const BAD = [
  'D1,11111,Bad Country,,,,,,,50,10', // country not two letters
  'DE,,No Zip,,,,,,,50,10', // empty zip
  'DE,22222,Far North,,,,,,,91,10', // latitude out of range
  'DE,33333,Far East,,,,,,,50,181', // longitude out of range
  'DE,44444,No Coordinates,,,,,,,,', // missing lat/lon
  'DE,55555,Null Island,,,,,,,0,0', // placeholder coordinates
  'DE,66666,Not A Number,,,,,,,abc,10',
];

describe('placeKey', () => {
  it('ignores case and diacritics, and folds the letters NFD leaves alone', () => {
    assert.equal(placeKey('München'), 'munchen');
    assert.equal(placeKey('MUNCHEN'), 'munchen');
    assert.equal(placeKey('Munchen'), 'munchen');
    assert.equal(placeKey('Łódź'), 'lodz');
    assert.equal(placeKey('Straße'), 'strasse');
    assert.equal(placeKey('İstanbul'), 'istanbul');
    assert.equal(placeKey('e\u0301cole'), 'ecole'); // already decomposed
  });
  it('trims and collapses white space, and keeps other scripts', () => {
    assert.equal(placeKey('  São\u00a0 Paulo '), 'sao paulo');
    assert.equal(placeKey('Москва'), 'москва');
    assert.equal(placeKey(''), '');
  });
});

describe('parsePostalCsv', () => {
  it('finds columns by header name and rejects (counts) malformed rows', () => {
    const p = parsePostalCsv([HEADER, ...GOOD, ...BAD].join('\n'));
    assert.ok(p);
    assert.equal(p.rows, GOOD.length);
    assert.equal(p.rejected, BAD.length);
    assert.equal(p.samples.length, 5);
    assert.match(p.samples[0] as string, /^line 6: D1,11111/);
    // Quoted place with commas survives whole; coordinates keep at most 4 decimals.
    assert.deepEqual(p.byCountry.get('AL')?.get('tirana 8/1, 8/2, 33'), ['AL\t1020\tTirana 8/1, 8/2, 33\t41.3247\t19.7974\tTirana']);
    assert.deepEqual(p.byCountry.get('US')?.get('beverly hills'), ['US\t90210\tBeverly Hills\t34.0901\t-118.4066\tCalifornia']);
  });
  it('returns null for a header without the needed columns', () => {
    assert.equal(parsePostalCsv('a,b,c\n1,2,3\n'), null);
  });
  it('reads other column orders and names, place and state optional', () => {
    const p = parsePostalCsv('lng,lat,postal_code,country\n2.3417,48.8592,75001,fr\n');
    assert.deepEqual(p?.byCountry.get('FR')?.get(''), ['FR\t75001\t\t48.8592\t2.3417\t']);
  });
});

describe('importGeonamesPostal', () => {
  it('stores a sorted, de-duplicated TSV and reports the rejected rows', () => {
    const dataDir = temp();
    const csv = [HEADER, ...GOOD, ...BAD, GOOD[0] as string].join('\r\n');
    const dir = source({
      'postal_codes.csv.gz': gzipSync(csv),
      'postal_codes.csv': 'ignored,because,the,gzipped,one,wins\n',
      'zipcodes.fr.csv': `${HEADER}\nFR,75015,Paris 15,,,,,,,48.8412,2.3003\nFR,75001,Paris,,,,,,,48.8534,2.3488\n`,
      'README.txt': 'not data',
    });
    const report = importGeonamesPostal(dataDir, dir, new Date('2026-03-30T00:00:00Z'));
    assert.deepEqual(report.files, ['postal_codes.csv.gz', 'zipcodes.fr.csv']);
    assert.equal(report.rejected, BAD.length);
    assert.equal(report.manifest.count, GOOD.length + 2); // the repeated München row is dropped
    assert.equal(report.manifest.version, '20260330T000000000Z');
    assert.match(report.manifest.license, /CC BY 4\.0/);
    const stored = readCurrent(dataDir, GEONAMES_POSTAL);
    assert.deepEqual(stored?.content.split('\n'), [
      GEONAMES_POSTAL_HEADER,
      'AL\t1020\tTirana 8/1, 8/2, 33\t41.3247\t19.7974\tTirana',
      'DE\t10117\tBerlin\t52.517\t13.3872\tBerlin',
      'DE\t80331\tMünchen\t48.1345\t11.571\tBayern',
      'FR\t75001\tParis\t48.8534\t2.3488\t',
      'FR\t75015\tParis 15\t48.8412\t2.3003\t',
      'US\t90210\tBeverly Hills\t34.0901\t-118.4066\tCalifornia',
      '',
    ]);
  });

  it('with no valid row throws and leaves the current version current', () => {
    const dataDir = temp();
    const first = importGeonamesPostal(dataDir, source({ 'postal_codes.csv': `${HEADER}\n${GOOD[0] as string}\n` }));
    assert.throws(() => importGeonamesPostal(dataDir, source({ 'postal_codes.csv': [HEADER, ...BAD].join('\n') })), DatasetError);
    assert.throws(() => importGeonamesPostal(dataDir, source({ 'postal_codes.csv': 'a,b\n1,2\n' })), /no valid postal code row/);
    assert.throws(() => importGeonamesPostal(dataDir, source({ 'other.csv': 'x' })), /holds neither/);
    assert.throws(() => importGeonamesPostal(dataDir, temp()), /is not a directory/);
    assert.equal(readManifest(dataDir, GEONAMES_POSTAL)?.version, first.manifest.version);
  });
});

describe('CsvPieces (the import reads the postal file in pieces)', () => {
  const csv = 'a,b\nr1,x\nr2,"quoted\nline, break"\nr3,"""q"""\nr4,z\nr5,é\n';
  it('cuts only after line ends outside quotes, whatever the chunks it is fed; each piece leads with the header and knows its first line', () => {
    for (const size of [1, 2, 3, 5, 7, 64]) {
      for (const pieceBytes of [1, 4, 9, 1000]) {
        const cutter = new CsvPieces(pieceBytes);
        const bytes = Buffer.from(csv);
        const pieces: CsvPiece[] = [];
        for (let i = 0; i < bytes.length; i += size) pieces.push(...cutter.push(bytes.subarray(i, i + size)));
        pieces.push(...cutter.push(Buffer.alloc(0), true));
        assert.equal(pieces.map((p) => p.text.slice('a,b\n'.length)).join(''), csv.slice('a,b\n'.length), `${size}/${pieceBytes}`);
        for (const p of pieces) {
          assert.ok(p.text.startsWith('a,b\n'));
          assert.equal((p.text.match(/"/g) ?? []).length % 2, 0, 'no piece ends inside quotes');
        }
        // r3 is on file line 5 (the quoted line break counts): its piece's first line says where it starts.
        const r3 = pieces.find((p) => p.text.includes('r3'));
        assert.equal((r3?.firstLine ?? 0) + r3!.text.slice('a,b\n'.length).split('\n').findIndex((l) => l.startsWith('r3')), 5);
        assert.equal(pieces.at(-1)?.end, bytes.length);
      }
    }
  });
  it('the streaming import stores the same bytes as the synchronous one', async () => {
    const csv = [HEADER, ...GOOD, ...BAD, GOOD[0] as string].join('\r\n');
    const dir = source({ 'postal_codes.csv.gz': gzipSync(csv), 'zipcodes.fr.csv': `${HEADER}\nFR,75015,Paris 15,,,,,,,48.8412,2.3003\n` });
    const a = importGeonamesPostal(temp(), dir, new Date('2026-03-30T00:00:00Z'));
    const b = await importGeonamesPostalStreaming(temp(), dir, new Date('2026-03-30T00:00:00Z'));
    assert.equal(b.manifest.sha256, a.manifest.sha256);
    assert.equal(b.manifest.count, a.manifest.count);
    assert.deepEqual(b.samples, a.samples);
    assert.deepEqual(b.files, a.files);
    await assert.rejects(importGeonamesPostalStreaming(temp(), source({ 'postal_codes.csv': 'a,b\n1,2\n' })), /no valid postal code row/);
  });
});
