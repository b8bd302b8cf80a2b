import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SHARED_DATA } from '../../test/helpers/shared-data.ts';
import { DatasetError } from './import/dataset-store.ts';
import { GEONAMES_POSTAL, GEONAMES_POSTAL_HEADER, importGeonamesPostal } from './import/geonames-postal.ts';
import type { ImportReport } from './import/dangerous-domains.ts';
import { loadPostalData, lookupZip, parsePostalTsv, type PostalData } from './postal-data.ts';

const SHARED = SHARED_DATA;
const hasShared = existsSync(join(SHARED, GEONAMES_POSTAL, 'postal_codes.csv.gz'));

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-postal-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const HEADER = 'country_code,zipcode,place,state,state_code,province,province_code,community,community_code,latitude,longitude';

/** Imports a synthetic CSV (rows after the header) into dataDir. */
function importRows(dataDir: string, rows: readonly string[], now?: Date): ImportReport {
  const dir = temp();
  mkdirSync(join(dir, GEONAMES_POSTAL));
  writeFileSync(join(dir, GEONAMES_POSTAL, 'postal_codes.csv'), [HEADER, ...rows].join('\n'));
  return importGeonamesPostal(dataDir, dir, now);
}

describe('postal data from the real GeoNames import', { skip: hasShared ? false : `${SHARED} not present` }, () => {
  let postal: PostalData;
  let report: ImportReport;
  before(() => {
    const dataDir = temp();
    report = importGeonamesPostal(dataDir, SHARED);
    postal = loadPostalData({ dataDir, reloadMs: 0 });
  });

  it('imports every row of the snapshot', () => {
    assert.deepEqual(report.files, ['postal_codes.csv.gz']);
    assert.equal(report.rejected, 0);
    // 1,201,340 rows less the exact duplicates the snapshot holds.
    assert.ok(report.manifest.count > 1_200_000 && report.manifest.count <= 1_201_340, String(report.manifest.count));
    assert.equal(postal.points, report.manifest.count);
    assert.equal(postal.info.name, GEONAMES_POSTAL);
    assert.equal(postal.info.version, report.manifest.version);
    assert.match(postal.info.license, /CC BY 4\.0/);
  });

  it('answers real rows at their own coordinates with their place name', () => {
    // DE,10117,Berlin,...,52.517,13.3872 / US,90210,Beverly Hills,...,34.0901,-118.4065 / FR,45000,Orléans,...,47.9029,1.9039
    assert.equal(postal.zipFor('DE', 'Berlin', 52.517, 13.3872), '10117');
    assert.equal(postal.zipFor('US', 'Beverly Hills', 34.0901, -118.4065), '90210');
    assert.equal(postal.zipFor('US', 'New York', 40.7484, -73.9967), '10001');
    assert.equal(postal.zipFor('FR', 'Orléans', 47.9029, 1.9039), '45000');
    assert.equal(postal.zipFor('de', 'München', 48.1452, 11.5668), '80333');
  });

  it('matches city names whatever their case and diacritics', () => {
    for (const city of ['München', 'Munchen', 'MUNCHEN', 'münchen']) assert.equal(postal.zipFor('DE', city, 48.1345, 11.571), '80331', city);
    assert.equal(postal.zipFor('FR', 'orleans', 47.9029, 1.9039), '45000');
  });

  it("matches GeoNames' suffixed place names ('Paris 15', 'Marseille 08') nearest to the point", () => {
    // FR,75015,Paris 15,...,48.8412,2.3003 while every plain 'Paris' row sits at 48.8534,2.3488.
    assert.equal(postal.zipFor('FR', 'Paris', 48.8412, 2.3003), '75015');
    assert.equal(postal.zipFor('FR', 'Marseille', 43.2708, 5.3821), '13008');
    // DE,10961,Berlin Kreuzberg,...,52.4926,13.3975: 'Berlin' covers its districts.
    assert.equal(postal.zipFor('DE', 'Berlin', 52.4926, 13.3975), '10961');
  });

  it('prefers a point of the named city over a nearer point of another place', () => {
    // DE,85774,Unterföhring,...,48.1925,11.6429 lies just outside Munich.
    assert.equal(postal.zipFor('DE', null, 48.1922, 11.6436), '85774');
    assert.equal(postal.zipFor('DE', 'Unterföhring', 48.1922, 11.6436), '85774');
    assert.equal(postal.zipFor('DE', 'München', 48.1922, 11.6436), '80939');
  });

  it('falls back to the nearest point of the country without (or with an unknown) city', () => {
    assert.equal(postal.zipFor('US', null, 34.0901, -118.4065), '90210');
    assert.equal(postal.zipFor('DE', 'Atlantis', 52.517, 13.3872), postal.zipFor('DE', null, 52.517, 13.3872));
  });

  it('returns null beyond maxKm (25 km by default)', () => {
    assert.equal(postal.zipFor('DE', null, 54.5, 0), null); // North Sea
    assert.equal(postal.zipFor('US', null, 30, -140), null); // Pacific
    // 40 km west of Helgoland (DE,27498,Helgoland,...,54.1814,7.8863), the nearest German point.
    assert.equal(postal.zipFor('DE', null, 54.18, 7.27), null);
    assert.equal(postal.zipFor('DE', 'Helgoland', 54.18, 7.27), null);
    assert.equal(postal.zipFor('DE', null, 54.18, 7.27, 45), '27498');
    assert.equal(postal.zipFor('DE', null, 54.18, 7.27, 35), null);
  });

  it('searches across the antimeridian', () => {
    // Chukotka: the nearest Russian point to 65N 179.9E lies at 178.8W, 116 km away.
    assert.equal(postal.zipFor('RU', null, 65, 179.9), null);
    assert.match(postal.zipFor('RU', null, 65, 179.9, 200) ?? '', /^6892\d\d$/);
  });

  it('returns null for an unknown country or unusable input', () => {
    assert.equal(postal.zipFor('XX', null, 52.517, 13.3872), null);
    assert.equal(postal.zipFor('JP', 'Tokyo', 35.68, 139.76), null); // not in the snapshot
    assert.equal(postal.zipFor('DE', 'Berlin', Number.NaN, 13.3872), null);
    assert.equal(postal.zipFor('DE', 'Berlin', 95, 13.3872), null);
    assert.equal(postal.zipFor('DE', 'Berlin', 52.517, 13.3872, 0), null);
  });

  it('answers in well under 50 microseconds a call', () => {
    const queries: Array<[string, string | null, number, number]> = [
      ['DE', 'Berlin', 52.52, 13.4], ['SG', null, 1.3, 103.85], ['PT', 'Lisboa', 38.72, -9.14], ['PT', 'Porto', 38.72, -9.14],
      ['US', null, 30, -140], ['FR', 'Paris', 48.85, 2.35], ['DE', null, 54.5, 5],
    ];
    for (const q of queries) postal.zipFor(...q); // warm up
    const n = 20_000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) postal.zipFor(...(queries[i % queries.length] as [string, string | null, number, number]));
    const perCall = Number(process.hrtime.bigint() - start) / 1000 / n;
    // Measured 3-10 us on a busy 2-core box; the bound leaves room for slower CI machines.
    assert.ok(perCall < 50, `${perCall.toFixed(1)} us per call`);
  });
});

describe('postal data edge cases (synthetic)', () => {
  it("before any import: null and version 'none'", () => {
    const postal = loadPostalData({ dataDir: temp(), reloadMs: 0 });
    assert.equal(postal.info.version, 'none');
    assert.equal(postal.points, 0);
    assert.equal(postal.zipFor('DE', 'Berlin', 52.517, 13.3872), null);
    assert.equal(postal.refresh(), false);
    const none = loadPostalData({ dataDir: null });
    assert.equal(none.info.version, 'none');
    assert.equal(none.zipFor('DE', null, 52.517, 13.3872), null);
    postal.close();
  });

  it('refresh() picks up a re-import', () => {
    const dataDir = temp();
    const v1 = importRows(dataDir, ['DE,10117,Berlin,,,,,,,52.517,13.3872'], new Date('2026-01-01T00:00:00Z'));
    const postal = loadPostalData({ dataDir, reloadMs: 0 });
    assert.equal(postal.info.version, v1.manifest.version);
    assert.equal(postal.zipFor('DE', 'Berlin', 52.517, 13.3872), '10117');
    assert.equal(postal.refresh(), false); // nothing new
    const v2 = importRows(dataDir, ['DE,10119,Berlin,,,,,,,52.517,13.3872'], new Date('2026-02-01T00:00:00Z'));
    assert.equal(postal.refresh(), true);
    assert.equal(postal.info.version, v2.manifest.version);
    assert.notEqual(v1.manifest.version, v2.manifest.version);
    assert.equal(postal.zipFor('DE', 'Berlin', 52.517, 13.3872), '10119');
  });

  it('matches a city followed by a space or a digit, not by other letters', () => {
    const dataDir = temp();
    importRows(dataDir, [
      'XA,100,Springfield,,,,,,,10,10',
      'XA,200,Springfield North,,,,,,,10.1,10', // 11 km north
      'XA,300,Springfield2,,,,,,,10.05,10', // 5.5 km north
      'XA,400,Springfieldia,,,,,,,10.01,10', // 1.1 km north: another town
      'XA,500,Other Town,,,,,,,10.002,10',
    ]);
    const postal = loadPostalData({ dataDir, reloadMs: 0 });
    assert.equal(postal.zipFor('XA', 'Springfield', 10.1, 10), '200');
    assert.equal(postal.zipFor('XA', 'Springfield', 10.04, 10), '300');
    assert.equal(postal.zipFor('XA', 'Springfield', 10.01, 10), '100'); // not Springfieldia's 400
    assert.equal(postal.zipFor('XA', 'springfield north', 10, 10), '200');
    assert.equal(postal.zipFor('XA', null, 10.01, 10), '400');
    assert.equal(postal.zipFor('XA', null, 10.0015, 10), '500');
    assert.equal(postal.zipFor('XA', 'Springfield', 10, 10.3), null); // 33 km east of everything
    assert.equal(postal.zipFor('XA', 'Springfield', 10, 10.3, 40), '100');
  });

  it('finds the nearest point across the antimeridian and near the poles', () => {
    const dataDir = temp();
    importRows(dataDir, ['XB,1,East,,,,,,,-17,179.98', 'XB,2,West,,,,,,,-17,-179.9', 'XB,3,Pole,,,,,,,89.99,0']);
    const postal = loadPostalData({ dataDir, reloadMs: 0 });
    assert.equal(postal.zipFor('XB', null, -17, -179.99), '1'); // 3 km across the line
    assert.equal(postal.zipFor('XB', null, -17, 179.95), '1');
    assert.equal(postal.zipFor('XB', null, -17, -179.92), '2');
    assert.equal(postal.zipFor('XB', null, 89.995, 120), '3');
    assert.equal(postal.zipFor('XB', null, 90, 180), '3');
  });

  it('answers for one place at many postal codes with the smallest code, and a named code over it', () => {
    const dataDir = temp();
    importRows(dataDir, [
      'XC,1003,Capital,,,,,,,20,20',
      'XC,1001,Capital,,,,,,,20,20',
      'XC,1002,Capital,,,,,,,20,20',
      'XC,2000,Airport,,,,,,,20,20',
    ]);
    const postal = loadPostalData({ dataDir, reloadMs: 0 });
    assert.equal(postal.zipFor('XC', 'Capital', 20, 20), '1001');
    assert.equal(postal.zipFor('XC', 'Airport', 20.001, 20), '2000');
    assert.equal(postal.zipFor('XC', null, 20, 20), '2000'); // 'airport' sorts first
  });

  it('reads a stored file in any order (not only the importer’s), and rejects a foreign one', () => {
    const content = [
      GEONAMES_POSTAL_HEADER,
      'XD\tB2\tZeta\t1\t1\t',
      'XE\tE1\tOnly\t5\t5\t',
      'XD\tA1\tAlpha\t1.001\t1\t',
      'XD\tbad line',
      'XD\tC3\tAlpha 2\t1.2\t1\tstate',
      '',
    ].join('\n');
    const index = parsePostalTsv(content);
    assert.equal(index.points, 4);
    assert.equal(lookupZip(index, 'XD', 'alpha', 1.19, 1), 'C3');
    assert.equal(lookupZip(index, 'XD', 'Zeta', 1.001, 1), 'B2');
    assert.equal(lookupZip(index, 'XD', null, 1.0009, 1), 'A1');
    assert.equal(lookupZip(index, 'XE', null, 5, 5), 'E1');
    assert.throws(() => parsePostalTsv('country\tzip\n'), DatasetError);
  });
});
