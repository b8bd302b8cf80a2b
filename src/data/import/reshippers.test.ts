import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { feedDir, tempDirs } from '../../../test/helpers/shared-data.ts';
import { BUNDLED_RESHIPPERS_FILE, loadBundledReshippers, loadReshipperData } from '../reshipper-data.ts';
import { readCurrent } from './dataset-store.ts';
import { datasetStatus, DatasetError, importDirectory, rollback } from './index.ts';
import { parseReshipperCsv, RESHIPPERS, writeReshipperCsv } from './reshippers.ts';
import { updateDataset } from './update.ts';

const { temp, cleanup } = tempDirs('vigil-reshippers-');
after(cleanup);

const HEADER = 'country,zip,street,city,region,service,kind,source,source_url,checked';
const OPERATOR_LIST = [
  '# our own list',
  HEADER,
  'US,97062,12 Example Way,Tualatin,OR,Acme Forward,address,ops ticket 42,,2026-11-01',
  'us,10001-2233,,New York,NY,Midtown Cluster,ZIP,,,',
  'USA,90250,3501 Jack Northrop Ave,Hawthorne,CA,Shipito,address,,,', // line 5: 3-letter country
  'US,9025,1 Main St,,,X,address,,,', // line 6: 4-digit ZIP
  'US,90250,,,,X,warehouse,,,', // line 7: unknown kind
  'US,90250,Suite 5,,,X,address,,,', // line 8: no house number
  'US,90250,1 Main St,,,,address,,,', // line 9: no service
  'US,90250,1 Main St,,,X,address,,,27/11/2026', // line 10: bad date
  '',
  'GB,"PR3 1NJ","12 Green Lane West, Unit 7",Preston,,"UK ""Forwarder""",address,,,',
].join('\n');

describe('parseReshipperCsv', () => {
  it('accepts valid rows and reports each refused one with its line number', () => {
    const parsed = parseReshipperCsv(OPERATOR_LIST, 'ops.csv');
    assert.deepEqual(parsed.rows.map((r) => [r.country, r.zip, r.kind, r.service]), [
      ['US', '97062', 'address', 'Acme Forward'],
      ['US', '10001-2233', 'zip', 'Midtown Cluster'],
      ['GB', 'PR3 1NJ', 'address', 'UK "Forwarder"'],
    ]);
    assert.equal(parsed.rejected, 6);
    assert.deepEqual(parsed.samples.map((s) => s.split(':')[0]), ['line 5', 'line 6', 'line 7', 'line 8', 'line 9', 'line 10']);
    assert.match(parsed.samples[0] ?? '', /country "USA"/);
    assert.match(parsed.samples[3] ?? '', /house number/);
  });

  it('needs country, zip, service and kind in the header; the other columns are optional and in any order', () => {
    assert.throws(() => parseReshipperCsv('country,zip,street\nUS,90250,1 Main St\n', 'x.csv'), (e: unknown) => e instanceof DatasetError && /lacks service, kind/.test(e.message));
    assert.throws(() => parseReshipperCsv('# only a comment\n', 'x.csv'), DatasetError);
    const parsed = parseReshipperCsv('kind,service,zip,country\nzip,Doral,33166,US\n');
    assert.deepEqual(parsed.rows.map((r) => [r.country, r.zip, r.kind, r.service, r.street, r.source]), [['US', '33166', 'zip', 'Doral', '', '']]);
  });

  it('round-trips through the stored form', () => {
    const rows = parseReshipperCsv(OPERATOR_LIST).rows;
    assert.deepEqual(parseReshipperCsv(writeReshipperCsv(rows)).rows, rows);
  });
});

describe('the bundled list', () => {
  it('parses without a refused row, every entry sourced and dated', () => {
    const parsed = parseReshipperCsv(readFileSync(BUNDLED_RESHIPPERS_FILE, 'utf8'));
    assert.equal(parsed.rejected, 0, parsed.samples.join('; '));
    assert.match(parsed.version ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(parsed.rows.length >= 5);
    for (const r of parsed.rows) {
      assert.ok(r.source !== '' && /^https?:\/\//.test(r.sourceUrl) && r.checked !== '', `${r.service} ${r.zip} lacks its source`);
    }
    const { index, info } = loadBundledReshippers();
    assert.equal(index.size, parsed.rows.length);
    assert.equal(info.name, RESHIPPERS);
    assert.equal(info.version, `bundled-${parsed.version}`);
    assert.equal(index.match({ country: 'US', zip: '90250', street: '3501 Jack Northrop Ave Suite 1234' })?.kind, 'address');
    assert.deepEqual(index.match({ country: 'US', zip: '34238-1234', street: 'Suite 123-456', street2: '4283 Express Ln' }), {
      kind: 'address', service: 'MyUS', source: index.match({ country: 'US', zip: '34238', street: '4283 Express Lane' })?.source,
    });
    assert.equal(index.match({ country: 'US', zip: '97218', street: '6804 NE 79th Court, Building A' })?.service, 'USGoBuy');
  });
});

describe('vigil data import DIR/reshippers', () => {
  it('replaces the bundled list, shows in data status, reports refused lines, and rolls back', () => {
    const dataDir = temp();
    const data = loadReshipperData({ dataDir }, { reloadMs: 0 });
    const shipito = { country: 'US', zip: '90250', street: '3501 Jack Northrop Ave' };
    const acme = { country: 'US', zip: '97062', street: '12 Example Way, Suite 900' };
    // Before any import: the bundled list answers and is the dataset named.
    assert.equal(data.index.match(shipito)?.service, 'Shipito');
    assert.equal(data.index.match(acme), null);
    assert.match(data.datasets[0]?.version ?? '', /^bundled-/);
    assert.equal(datasetStatus(dataDir)[RESHIPPERS], null);

    const dir = feedDir(temp(), RESHIPPERS, { 'ops.csv': OPERATOR_LIST, 'notes.txt': 'ignored' });
    const [report, ...others] = importDirectory(dataDir, dir, new Date('2026-11-27T10:00:00Z'));
    assert.equal(others.length, 0);
    assert.equal(report?.manifest.name, RESHIPPERS);
    assert.equal(report?.manifest.count, 3);
    assert.equal(report?.rejected, 6);
    assert.deepEqual(report?.files, ['ops.csv']);
    assert.match(report?.samples[0] ?? '', /^ops\.csv: line 5: /);

    const status = datasetStatus(dataDir)[RESHIPPERS];
    assert.equal(status?.count, 3);
    assert.equal(status?.version, '20261127T100000000Z');
    assert.match(status?.source ?? '', /ops\.csv$/);

    assert.equal(data.refresh(), true);
    assert.deepEqual(data.index.match(acme), { kind: 'address', service: 'Acme Forward', source: 'ops ticket 42' });
    assert.deepEqual(data.index.match({ country: 'US', zip: '10001', street: '350 5th Ave' }), { kind: 'zip', service: 'Midtown Cluster' });
    // The imported list replaces the bundled one rather than adding to it.
    assert.equal(data.index.match(shipito), null);
    assert.equal(data.datasets[0]?.version, '20261127T100000000Z');

    // A second import, then rollback to the first.
    importDirectory(dataDir, feedDir(temp(), RESHIPPERS, { 'b.csv': `${HEADER}\nUS,19720,,,DE,Qwintry,zip,,,\n` }), new Date('2026-11-28T10:00:00Z'));
    assert.equal(data.refresh(), true);
    assert.equal(data.index.match(acme), null);
    assert.equal(rollback(dataDir, RESHIPPERS).version, '20261127T100000000Z');
    assert.equal(data.refresh(), true);
    assert.equal(data.index.match(acme)?.service, 'Acme Forward');
    data.close();
  });

  it('refuses a folder with no valid row, and one without a CSV file, keeping the current version', () => {
    const dataDir = temp();
    assert.throws(() => importDirectory(dataDir, feedDir(temp(), RESHIPPERS, { 'bad.csv': `${HEADER}\nUSA,1,,,,x,address,,,\n` })), (e: unknown) => e instanceof DatasetError && /no valid row.*line 2/.test(e.message));
    assert.throws(() => importDirectory(dataDir, feedDir(temp(), RESHIPPERS, { 'list.txt': 'x' })), (e: unknown) => e instanceof DatasetError && /no \.csv file/.test(e.message));
    assert.equal(readCurrent(dataDir, RESHIPPERS), null);
  });

  it('imports through vigil data update reshippers --from FILE', async () => {
    const dataDir = temp();
    const file = join(temp(), 'reshippers.csv');
    writeFileSync(file, OPERATOR_LIST);
    const report = await updateDataset(dataDir, RESHIPPERS, { from: file, now: new Date('2026-11-27T11:00:00Z') });
    assert.equal(report.manifest.count, 3);
    assert.equal(report.rejected, 6);
    const data = loadReshipperData({ dataDir }, { reloadMs: 0 });
    assert.equal(data.index.match({ country: 'GB', zip: 'pr31nj', street: '12 Green Lane West' })?.service, 'UK "Forwarder"');
    data.close();
  });
});
