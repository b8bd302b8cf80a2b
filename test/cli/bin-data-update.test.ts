/** `vigil data update NAME --from URL|FILE [--sha256 HEX]` run as the real CLI, with a file served from 127.0.0.1. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { datasetStatus } from '../../src/data/import/index.ts';
import { updateDataset } from '../../src/data/import/update.ts';
import { failed, tempDir, vigil, type Run } from '../helpers/cli-runner.ts';

/** A successful update: exit 0, the report on stdout (progress goes to stderr). */
function ok<T>(r: Run): T {
  assert.equal(r.code, 0, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const IANNUTTALL = `bin,brand,type,category,issuer,alpha_2,alpha_3,country,latitude,longitude,bank_phone,bank_url
440647,VISA,DEBIT,CLASSIC,AL RAJHI BANKING AND INVESTMENT CORP.,SA,SAU,Saudi Arabia,25,45,,
529741,MASTERCARD,DEBIT,STANDARD,SAUDI NATIONAL BANK,SA,SAU,Saudi Arabia,25,45,,
`;
const VENELIN = `BIN,Brand,Type,Category,Issuer,IssuerPhone,IssuerUrl,isoCode2,isoCode3,CountryName
45717360,VISA,DEBIT,CLASSIC,JYSKE BANK,,,DK,DNK,Denmark
`;
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

interface Imported { name: string; version: string; count: number; previous: string | null; files: string[] }

let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/data/binlist-data.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(IANNUTTALL);
    else if (req.url === '/bin-list-data.csv') res.writeHead(200).end(VENELIN);
    else if (req.url === '/moved.csv') res.writeHead(302, { location: '/bin-list-data.csv' }).end();
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

describe('vigil data update', () => {
  it('downloads, verifies the sha256, imports a new version and keeps the previous one', async () => {
    const DATA_DIR = tempDir();
    const run1 = await vigil(['data', 'update', 'bin-list', '--from', `${base}/data/binlist-data.csv`, '--sha256', sha(IANNUTTALL)], { DATA_DIR });
    const first = ok<Imported>(run1);
    assert.equal(first.name, 'bin-list');
    assert.equal(first.count, 2);
    assert.deepEqual(first.files, ['binlist-data.csv']);
    assert.match(run1.stderr, /downloading .*binlist-data\.csv/);
    assert.match(run1.stderr, /sha256 verified/);
    const second = ok<Imported>(await vigil(['data', 'update', 'bin-list', '--from', `${base}/moved.csv`], { DATA_DIR }));
    assert.equal(second.previous, first.version);
    assert.equal(second.count, 1);
    const status = ok<Record<string, { version: string; count: number; ageDays: number } | null>>(await vigil(['data', 'status'], { DATA_DIR }));
    assert.equal(status['bin-list']?.version, second.version);
    // How many BIN records are loaded and how old the import is.
    assert.equal(status['bin-list']?.count, 1);
    assert.equal(status['bin-list']?.ageDays, 0);
    assert.equal(datasetStatus(DATA_DIR, new Date(Date.now() + 3.5 * 86_400_000))['bin-list']?.ageDays, 3);
    assert.equal(status['iban-registry'], null, 'a dataset never imported');
    const back = ok<{ version: string }>(await vigil(['data', 'rollback', 'bin-list'], { DATA_DIR }));
    assert.equal(back.version, first.version);
  });

  it('a wrong sha256, a failed download or an unknown dataset imports nothing (exit 1)', async () => {
    const DATA_DIR = tempDir();
    failed(await vigil(['data', 'update', 'bin-list', '--from', `${base}/data/binlist-data.csv`, '--sha256', sha('other')], { DATA_DIR }), /sha256 mismatch/);
    failed(await vigil(['data', 'update', 'bin-list', '--from', `${base}/missing.csv`], { DATA_DIR }), /HTTP 404/);
    failed(await vigil(['data', 'update', 'nope', '--from', `${base}/missing.csv`], { DATA_DIR }), /unknown dataset/);
    failed(await vigil(['data', 'update', 'bin-list', '--from', 'ftp://example.com/x.csv'], { DATA_DIR }), /http\(s\) URL or a file path/);
    failed(await vigil(['data', 'update', 'bin-list', '--from', `${base}/data/binlist-data.csv`, '--sha256', 'xyz'], { DATA_DIR }), /64 hexadecimal/);
    assert.equal(existsSync(join(DATA_DIR, 'datasets', 'bin-list', 'manifest.json')), false);
  });

  it('usage (exit 2) without --from', async () => {
    const r = await vigil(['data', 'update', 'bin-list'], { DATA_DIR: tempDir() });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /vigil data update NAME --from/);
  });

  it('imports a local file too (in process)', async () => {
    const src = join(tempDir(), 'bin-list-data.csv');
    writeFileSync(src, VENELIN);
    const progress: string[] = [];
    const report = await updateDataset(tempDir(), 'bin-list', { from: src, progress: (l) => progress.push(l) });
    assert.equal(report.manifest.count, 1);
    assert.ok(progress.some((l) => /importing bin-list/.test(l)));
  });
});
