/**
 * `vigil data update bin-list --from URL` with a list the size of the large CC BY 4.0 BIN lists
 * users download (about 340,000 rows), generated here and served from 127.0.0.1; `vigil data
 * status` then tells how many BIN records are loaded and how old they are.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadBinData } from '../../src/data/bin-data.ts';
import { updateDataset } from '../../src/data/import/update.ts';
import { ok, tempDir, vigil } from '../helpers/cli-runner.ts';

const ROWS = 340_000;
const SCHEMES = ['VISA', 'MASTERCARD', 'AMERICAN EXPRESS', 'DISCOVER'] as const;
const COUNTRIES = [['DE', 'DEU', 'Germany'], ['SA', 'SAU', 'Saudi Arabia'], ['BR', 'BRA', 'Brazil'], ['IN', 'IND', 'India']] as const;

/** An iannuttall/binlist-data layout file: 340,000 distinct 6-digit BINs from 400000 on, a few quoted issuers with commas. */
function bigList(): string {
  const lines = ['bin,brand,type,category,issuer,alpha_2,alpha_3,country,latitude,longitude,bank_phone,bank_url'];
  for (let i = 0; i < ROWS; i++) {
    const [a2, a3, name] = COUNTRIES[i % COUNTRIES.length]!;
    const issuer = i % 1000 === 0 ? `"BANK ${i}, S.A."` : `BANK ${i % 5000}`;
    lines.push(`${400000 + i},${SCHEMES[i % SCHEMES.length]},${i % 2 === 0 ? 'DEBIT' : 'CREDIT'},CLASSIC,${issuer},${a2},${a3},${name},0,0,,`);
  }
  return lines.join('\n') + '\n';
}

let server: Server;
let base = '';
let body: Buffer;
before(async () => {
  body = Buffer.from(bigList());
  server = createServer((req, res) => {
    if (req.url === '/binlist-data.csv') res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

describe('a 340,000-row BIN list', () => {
  it('downloads and imports within bounded time; data status and the loaded index see every record', async () => {
    const DATA_DIR = tempDir();
    const started = Date.now();
    const progress: string[] = [];
    const report = await updateDataset(DATA_DIR, 'bin-list', { from: `${base}/binlist-data.csv`, progress: (l) => progress.push(l) });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(report.manifest.count, ROWS);
    assert.equal(report.rejected, 0);
    assert.ok(seconds < 60, `took ${seconds} s`);
    assert.ok(progress.includes(`downloading ${base}/binlist-data.csv`));

    const bins = loadBinData({ dataDir: DATA_DIR });
    try {
      assert.equal(bins.index.size, ROWS);
      const hit = bins.index.find('4000011234');
      assert.equal(hit?.country, 'SA');
      assert.equal(bins.index.find('739999')?.start, '739999');
      assert.equal(bins.index.find('4000001')?.bank, 'BANK 0, S.A.');
    } finally {
      bins.close();
    }

    const status = ok<Record<string, { count: number; ageDays: number; importedAt: string } | null>>(await vigil(['data', 'status'], { DATA_DIR }));
    assert.equal(status['bin-list']?.count, ROWS);
    assert.equal(status['bin-list']?.ageDays, 0);
  });
});
