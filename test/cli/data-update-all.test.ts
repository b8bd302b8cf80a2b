/**
 * `vigil data update --all` and GeoLite2 from MaxMind, as the real CLI, against a local HTTP server
 * on 127.0.0.1 that stands in for the list hosts and for download.maxmind.com (basic auth, the
 * redirect to the storage host, the .sha256 file, a tar.gz built here around the bundled GeoLite2
 * ASN database). Nothing leaves the machine.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { paths as geolite2Paths } from 'geolite2';
import { create as createTar } from 'tar';
import { SHARED_DATA } from '../helpers/shared-data.ts';
import { tempDir, vigil } from '../helpers/cli-runner.ts';
import { readManifest } from '../../src/data/import/dataset-store.ts';
import { DEFAULT_SOURCES } from '../../src/data/import/update.ts';
import { downloadGeoLite2 } from '../../src/data/import/maxmind-download.ts';
import { bundledGeoLite2 } from '../../src/data/data-age.ts';

const ACCOUNT = '123456';
const LICENSE = 'test_licence_key_0123_mmk';
const ASN_DB = geolite2Paths.asn ?? geolite2Paths['GeoLite2-ASN'] ?? assert.fail('no bundled GeoLite2 ASN');

let server: Server;
let storage: Server;
let base = '';
let storageBase = '';
let archive: Buffer;
const seen: Array<{ url: string; auth: string | undefined }> = [];

before(async () => {
  // A tar.gz laid out as MaxMind's: GeoLite2-ASN_YYYYMMDD/{GeoLite2-ASN.mmdb, COPYRIGHT.txt, LICENSE.txt}.
  const work = tempDir();
  const inner = join(work, 'GeoLite2-ASN_20260320');
  mkdirSync(inner);
  copyFileSync(ASN_DB, join(inner, 'GeoLite2-ASN.mmdb'));
  writeFileSync(join(inner, 'COPYRIGHT.txt'), 'Database and Contents Copyright (c) MaxMind, Inc.\n');
  writeFileSync(join(inner, 'LICENSE.txt'), 'Use of this MaxMind product is governed by MaxMind\'s GeoLite2 End User License Agreement.\n');
  await createTar({ gzip: true, cwd: work, file: join(work, 'asn.tar.gz') }, ['GeoLite2-ASN_20260320']);
  archive = readFileSync(join(work, 'asn.tar.gz'));
  const sum = createHash('sha256').update(archive).digest('hex');
  const expectedAuth = `Basic ${Buffer.from(`${ACCOUNT}:${LICENSE}`).toString('base64')}`;

  // The storage host MaxMind redirects to: another origin, which must never see the licence key.
  storage = createServer((req, res) => {
    seen.push({ url: `storage:${req.url ?? ''}`, auth: req.headers.authorization });
    if (req.url === '/asn.tar.gz?X-Signature=abc') res.writeHead(200, { 'content-length': String(archive.length) }).end(archive);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => storage.listen(0, '127.0.0.1', r));
  storageBase = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;

  server = createServer((req, res) => {
    const url = req.url ?? '';
    seen.push({ url, auth: req.headers.authorization });
    if (url.startsWith('/geoip/databases/')) {
      if (req.headers.authorization !== expectedAuth) return void res.writeHead(401).end('Invalid license key');
      if (url === '/geoip/databases/GeoLite2-ASN/download?suffix=tar.gz.sha256') return void res.writeHead(200).end(`${sum}  GeoLite2-ASN_20260320.tar.gz\n`);
      // MaxMind answers the archive with a redirect to its storage host (a presigned URL).
      if (url === '/geoip/databases/GeoLite2-ASN/download?suffix=tar.gz') return void res.writeHead(302, { location: `${storageBase}/asn.tar.gz?X-Signature=abc` }).end();
      if (url.startsWith('/geoip/databases/GeoLite2-City/')) return void res.writeHead(200).end(`${'0'.repeat(64)}  GeoLite2-City_20260320.tar.gz\n`);
      return void res.writeHead(404).end();
    }
    const [, dataset, file] = url.split('/');
    if (dataset && file) {
      let body: Buffer | null = null;
      try {
        body = readFileSync(join(SHARED_DATA, dataset, file));
      } catch {
        // not a shared file: 404 below
      }
      if (body !== null) return void res.writeHead(200).end(body);
    }
    res.writeHead(404).end('not here');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => storage.close(() => r()));
});

/** Every dataset with default sources pointed at the local server: two small ones that exist there, the others missing (404). */
function sourcesFile(): string {
  const good: Record<string, Array<{ url: string; file: string }>> = {
    'datacenter-ipcat': [{ url: `${base}/datacenter-ipcat/datacenters.csv`, file: 'datacenters.csv' }],
    'cloud-ranges-jhassine': [{ url: `${base}/cloud-ranges-jhassine/datacenters.csv.gz`, file: 'datacenters.csv' }],
  };
  const all = Object.fromEntries(Object.keys(DEFAULT_SOURCES).map((name) => [name, good[name] ?? [{ url: `${base}/missing/${name}.txt`, file: 'list.txt' }]]));
  const path = join(tempDir(), 'sources.json');
  writeFileSync(path, JSON.stringify(all));
  return path;
}

interface Summary {
  updated: number;
  failed: number;
  datasets: Array<{ name: string; status: 'updated' | 'failed'; count?: number; error?: string }>;
}

describe('vigil data update --all', () => {
  it('updates every dataset it can, reports each, exits 1 when any failed; GeoLite2 ASN comes from MaxMind', async () => {
    const DATA_DIR = tempDir();
    const r = await vigil(['data', 'update', '--all'], {
      DATA_DIR, DATA_SOURCES_FILE: sourcesFile(), MAXMIND_ACCOUNT_ID: ACCOUNT, MAXMIND_LICENSE_KEY: LICENSE, MAXMIND_BASE_URL: base,
    });
    assert.equal(r.code, 1, r.stderr);
    const summary = JSON.parse(r.stdout) as Summary;
    const by = new Map(summary.datasets.map((d) => [d.name, d]));
    assert.deepEqual([...by.keys()].sort(), [...Object.keys(DEFAULT_SOURCES), 'geolite2-asn', 'geolite2-city'].sort());
    for (const name of ['datacenter-ipcat', 'cloud-ranges-jhassine', 'geolite2-asn']) {
      assert.equal(by.get(name)?.status, 'updated', JSON.stringify(by.get(name)));
      assert.ok((by.get(name)?.count ?? 0) > 1000, name);
      assert.ok(readManifest(DATA_DIR, name) !== null, name);
    }
    assert.equal(summary.updated, 3);
    assert.equal(summary.failed, Object.keys(DEFAULT_SOURCES).length - 2 + 1);
    assert.match(by.get('tor-exit-nodes')?.error ?? '', /HTTP 404/);
    assert.match(by.get('geolite2-city')?.error ?? '', /sha256 mismatch/);
    assert.equal(readManifest(DATA_DIR, 'geolite2-city'), null, 'a failed dataset imports nothing');
    // The summary line and progress lines (not a terminal: lines, no carriage returns).
    assert.match(r.stderr, /vigil: 6 of 9 datasets failed to update: /);
    assert.match(r.stderr, /vigil: dataset 1 of 9: /);
    assert.match(r.stderr, /vigil: downloading GeoLite2-ASN: 100% \(/);
    assert.doesNotMatch(r.stderr, /\r/);

    // The MaxMind build date is kept: status ages GeoLite2 from it, not from the import.
    const asn = readManifest(DATA_DIR, 'geolite2-asn');
    assert.equal(asn?.builtAt, bundledGeoLite2().find((b) => b.dataset === 'geolite2-asn')?.builtAt, 'the database\'s own build epoch');
    const status = JSON.parse((await vigil(['data', 'status'], { DATA_DIR })).stdout) as Record<string, { builtAt: string | null; ageDays: number; count: number } | null> & {
      bundled: Record<string, { builtAt: string; ageDays: number; version: string }>;
    };
    assert.equal(status['geolite2-asn']?.builtAt, asn?.builtAt);
    assert.equal(status['geolite2-asn']?.ageDays, Math.floor((Date.now() - Date.parse(asn?.builtAt ?? '')) / 86_400_000));
    assert.equal(status['datacenter-ipcat']?.builtAt, null);
    assert.equal(status['datacenter-ipcat']?.ageDays, 0);
    assert.match(status.bundled['geolite2-city']?.version ?? '', /^GeoLite2-City \d{4}-\d{2}-\d{2}$/);
    assert.ok((status.bundled['geolite2-city']?.ageDays ?? -1) >= 0);
  });

  it('sends the licence key only to MaxMind (not to the storage host it redirects to) and says what to check on 401', async () => {
    seen.length = 0;
    const work = tempDir();
    const mmdb = await downloadGeoLite2('geolite2-asn', { accountId: ACCOUNT, licenseKey: LICENSE, baseUrl: base }, join(work, 'out'), work);
    assert.deepEqual(readFileSync(mmdb), readFileSync(ASN_DB));
    const fromStorage = seen.filter((s) => s.url.startsWith('storage:'));
    assert.equal(fromStorage.length, 1, JSON.stringify(seen));
    assert.equal(fromStorage[0]?.auth, undefined, 'no Authorization header to the storage host');
    assert.ok(seen.filter((s) => s.url.startsWith('/geoip/')).every((s) => s.auth?.startsWith('Basic ')));
    await assert.rejects(downloadGeoLite2('geolite2-asn', { accountId: ACCOUNT, licenseKey: 'wrong_key_0000', baseUrl: base }, join(work, 'x'), work), /HTTP 401 \(check MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY\)/);
    await assert.rejects(downloadGeoLite2('bin-list', { accountId: ACCOUNT, licenseKey: LICENSE, baseUrl: base }, join(work, 'y'), work), /not a MaxMind edition/);
  });

  it('without MaxMind credentials GeoLite2 is not updatable; one credential without the other is a configuration error', async () => {
    const DATA_DIR = tempDir();
    const usage = await vigil(['data', 'update', 'geolite2-city'], { DATA_DIR });
    assert.equal(usage.code, 2);
    const half = await vigil(['data', 'status'], { DATA_DIR, MAXMIND_ACCOUNT_ID: ACCOUNT });
    assert.equal(half.code, 1);
    assert.match(half.stderr, /MAXMIND_LICENSE_KEY: MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY go together/);
  });
});
