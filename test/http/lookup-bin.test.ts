/**
 * GET /lookup/bin over HTTP on a real SQLite store, with a BIN dataset the test imports from small
 * CSVs it writes (the shared binlist snapshot is tested in src/data/import/bin-list.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Learning } from '../../src/learning/index.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { loadBinData, type BinData } from '../../src/data/bin-data.ts';
import { importBinList } from '../../src/data/import/bin-list.ts';
import { buildEndpoints, type EngineData } from '../../src/http/routes/index.ts';
import { luhnValid } from '../../src/intel/bin/parse.ts';
import { loggedUrl } from '../../src/logger.ts';
import { parse as parseQuery } from 'node:querystring';

const scrubUrl = (url: string): string => loggedUrl(url, parseQuery(url.slice(url.indexOf('?') + 1)));
import { parseSeed } from '../../src/accounts/seed.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import { adminCall, adminData } from '../helpers/admin-client.ts';
import { ADMIN_TOKEN, liveKey, makeTestApp, sharedEngineData, TEST_CARD_SECRET, TEST_SECRET, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('bin');
const TKEY = testKey('bin');
const RULES_KEY = liveKey('binrules');

const CSV = `iin_start,iin_end,number_length,number_luhn,scheme,brand,type,prepaid,country,bank_name,bank_logo,bank_url,bank_phone,bank_city
411111,,,,visa,,credit,,US,JPMORGAN CHASE BANK N.A.,,www.chase.com,+1 800 935 9935,New York
440647,,,,visa,Classic,debit,,SA,AL RAJHI BANKING AND INVESTMENT CORP.,,www.alrajhibank.com.sa,,Riyadh
529741,,,,mastercard,,debit,,SA,SAUDI NATIONAL BANK,,,,
45717360,,16,,visa,Visa/Dankort,debit,,DK,JYSKE BANK,,www.jyskebank.dk,+4589893300,Hjørring
`;

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-bintest-'));
  dirs.push(d);
  return d;
};

let bins: BinData;
function binData(): BinData {
  const src = temp();
  mkdirSync(join(src, 'bin-list'));
  writeFileSync(join(src, 'bin-list', 'ranges.csv'), CSV);
  const dataDir = temp();
  importBinList(dataDir, src);
  return loadBinData({ dataDir }, { reloadMs: 0 });
}
const withBins = (data: EngineData, learning?: Learning) => buildEndpoints({ ...data, bins }, learning);

let t: TestApp;
before(async () => {
  bins = binData();
  t = await makeTestApp({
    endpoints: withBins,
    seed: { accounts: [{ id: 'b', plan: 'premium', keys: [KEY, TKEY] }, { id: 'br', plan: 'premium', keys: [RULES_KEY] }] },
  });
});
after(async () => {
  await t.close();
  bins.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Body {
  status: string;
  code?: number;
  type?: string;
  description?: string;
  data: Record<string, unknown> & { info: Record<string, unknown> & { scheme: Record<string, unknown>; bank: Record<string, unknown> | null; country: Record<string, unknown> | null; syntax: Record<string, unknown> } };
}

async function raw(query: Record<string, string | string[]>, key = KEY, app: TestApp = t) {
  const res = await app.app.inject({ method: 'GET', url: '/lookup/bin', query: { key, ...query } });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body) as Body;
}
async function get(query: Record<string, string | string[]>, key = KEY): Promise<Body['data']> {
  const body = await raw(query, key);
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data;
}
const admin = (method: Parameters<typeof adminCall>[1], url: string, payload?: unknown) => adminCall(t, method, url, payload);

function withLuhn(prefix: string, length = 16): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let d = 0; d <= 9; d++) if (luhnValid(body + String(d))) return body + String(d);
  throw new Error('unreachable');
}

describe('GET /lookup/bin', () => {
  it('answers the spec shape with issuer and country facts', async () => {
    const data = await get({ bin: '45717360' });
    assert.deepEqual(Object.keys(data), ['reason', 'isValid', 'blacklisted', 'bin', 'info', 'custom_rules_applied']);
    assert.deepEqual(Object.keys(data.info), ['scheme', 'detected_digits', 'syntax', 'bank', 'country']);
    assert.deepEqual(data.info.scheme, {
      name: 'Visa', coName: 'Dankort', isLuha: true, isPrepaid: false, isCommercial: false, type: 'debit', brand: 'Visa/Dankort', currency: 'DKK',
    });
    assert.equal(data.info.detected_digits, '45717360');
    assert.deepEqual(data.info.syntax, { gaps: [4, 8, 12], lengths: [13, 16, 18, 19], code: { name: 'CVV', size: 3 } });
    assert.deepEqual(data.info.bank, {
      id: 'jyske-bank', identifier: '45717360', name: 'Jyske Bank', city: 'Hjørring', url: 'www.jyskebank.dk', phone: '+4589893300', logo: null, latitude: null, longitude: null,
    });
    assert.deepEqual(data.info.country, {
      alpha2: 'DK', name: 'Denmark', code: '45', numeric: '208', emoji: '🇩🇰', continent: 'Europe', languageCode: 'da', languageNative: 'Dansk', source: 'issuer',
    });
    assert.equal(data.isValid, true);
    assert.equal(data.reason, '');
    assert.equal(data.blacklisted, false);
    assert.deepEqual(data.custom_rules_applied, { total: 0, rules: [] });
  });

  it('issuer names in Title Case, acronyms kept', async () => {
    assert.equal((await get({ bin: '411111' })).info.bank?.name, 'JPMorgan Chase Bank N.A.');
    assert.equal((await get({ bin: '440647' })).info.bank?.name, 'Al Rajhi Banking and Investment Corp.');
  });

  it('mada co-badged with Visa and Mastercard', async () => {
    const visa = await get({ bin: withLuhn('440647') });
    assert.deepEqual([visa.info.scheme.name, visa.info.scheme.coName, visa.info.country?.alpha2, visa.info.scheme.currency], ['Visa', 'mada', 'SA', 'SAR']);
    const mc = await get({ bin: '529741' });
    assert.deepEqual([mc.info.scheme.name, mc.info.scheme.coName], ['Mastercard', 'mada']);
    const only = await get({ bin: '588845' });
    assert.deepEqual([only.info.scheme.name, only.info.scheme.coName, only.isValid], ['mada', null, true]);
  });

  // Without an issuer record a domestic scheme gives its country (source "scheme"), the currency and,
  // for mada (debit only: mada.com.sa "How mada works"), the type. Sources: src/intel/bin/domestic.ts.
  it('a domestic scheme without a record: country, currency and debit from the scheme', async () => {
    const mada = await get({ bin: '588845' });
    assert.equal(mada.info.bank, null);
    assert.deepEqual([mada.info.country?.alpha2, mada.info.country?.source, mada.info.scheme.currency, mada.info.scheme.type], ['SA', 'scheme', 'SAR', 'debit']);
    // RuPay 82 (Wikipedia "Payment card number"; NPCI 819900-820199 as in juspay/card-validator).
    const rupay = await get({ bin: withLuhn('820000') });
    assert.deepEqual([rupay.info.scheme.name, rupay.isValid, rupay.info.country?.alpha2, rupay.info.scheme.currency, rupay.info.scheme.type], ['RuPay', true, 'IN', 'INR', null]);
    // A record's country wins and is marked as the issuer's.
    const rec = await get({ bin: '529741' });
    assert.deepEqual([rec.info.country?.alpha2, rec.info.country?.source], ['SA', 'issuer']);
  });

  it('a BIN with no record still gets scheme and syntax; bank and country null', async () => {
    const data = await get({ bin: '378282' });
    assert.equal(data.info.scheme.name, 'American Express');
    assert.deepEqual(data.info.syntax, { gaps: [4, 10], lengths: [15], code: { name: 'CID', size: 4 } });
    assert.equal(data.info.bank, null);
    assert.equal(data.info.country, null);
    assert.equal(data.info.scheme.type, null);
    assert.equal(data.isValid, true);
  });

  it('masked, spaced and full numbers; only leading digits are looked up; bin echoes the input', async () => {
    for (const bin of ['411111******1111', '4111 11XX XXXX 1111', '4111-1111-1111-1111', '4111111111111111']) {
      const data = await get({ bin });
      assert.equal(data.bin, bin);
      assert.equal(data.info.bank?.name, 'JPMorgan Chase Bank N.A.', bin);
      assert.equal(data.isValid, true, bin);
    }
    const luhn = await get({ bin: '4111111111111112' });
    assert.equal(luhn.isValid, false);
    assert.match(String(luhn.reason), /Luhn/);
    const unknown = await get({ bin: '999999' });
    assert.equal(unknown.isValid, false);
    assert.match(String(unknown.reason), /no known card scheme/);
  });

  it('120 for missing, empty, short, too long, letters, oversized, repeated and hostile input; never 5xx', async () => {
    const cases: Array<Record<string, string | string[]>> = [
      {}, { bin: '' }, { bin: '   ' }, { bin: '41111' }, { bin: '12345' }, { bin: '41111111111111111111' }, { bin: '4'.repeat(20) },
      { bin: 'abcdef' }, { bin: '4111ab' }, { bin: 'XXXXXX1111' }, { bin: '4'.repeat(10_240) }, { bin: 'x'.repeat(10_240) },
      { bin: ['411111', '555555'] }, { bin: '<script>alert(1)</script>' }, { bin: "411111'; DROP TABLE events; --" }, { bin: '411111\u0000' },
      { bin: '\ud800411111' }, { bin: '４１１１１１' }, { bin: '411111%00' }, { bin: '4111.1111' }, { bin: '+411111' }, { bin: '411111//' },
    ];
    for (const q of cases) {
      const body = await raw(q);
      assert.equal(body.status, 'error', JSON.stringify(q).slice(0, 80));
      assert.equal(body.code, 120, JSON.stringify(q).slice(0, 80));
      assert.equal(body.type, 'invalid_bin_number');
      assert.ok(typeof body.description === 'string' && body.description.length > 20);
      assert.doesNotMatch(JSON.stringify(body), /<script>|DROP TABLE/);
    }
    assert.match(String((await raw({ bin: '41111' })).description), /at least 6/);
    assert.match(String((await raw({ bin: '4'.repeat(20) })).description), /19/);
  });

  it('renders in CSV', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/lookup/bin', query: { key: KEY, bin: '45717360', format: 'CSV' } });
    const [header] = res.body.split('\r\n');
    assert.match(header ?? '', /^reason,isValid,blacklisted,bin,info\.scheme\.name,info\.scheme\.coName/);
  });

  it('explain=yes lists the bin-list dataset', async () => {
    const data = await get({ bin: '411111', explain: 'yes' });
    const names = (data.explanation as { datasets: Array<{ name: string }> }).datasets.map((d) => d.name);
    assert.ok(names.includes('bin-list'));
  });
});

describe('test mode', () => {
  it('the same answer, deterministic, and no event', async () => {
    const a = await get({ bin: '4111111111111112', userID: 'tm' }, TKEY);
    const b = await get({ bin: '4111111111111112', mode: 'test', userID: 'tm' });
    assert.deepEqual(a, b);
    assert.equal(a.isValid, false);
    assert.equal((await t.store.events.listEvents('b', { kind: 'invalid_bin', userId: 'tm' })).length, 0);
    assert.equal((await raw({ bin: '123' }, TKEY)).code, 120);
  });
});

describe('events', () => {
  it('invalid_bin on a live invalid answer, subject and summary hold the BIN only', async () => {
    await get({ bin: '4111111111111112', userID: 'u-inv' });
    await get({ bin: '4111111111111111', userID: 'u-inv' });
    const events = await t.store.events.listEvents('b', { kind: 'invalid_bin', userId: 'u-inv' });
    assert.equal(events.length, 1);
    const [e] = events;
    assert.ok(e);
    assert.equal(e.risk, 100);
    assert.equal(e.subject, '41111111');
    assert.equal(e.operation, 'lookup.bin');
    assert.deepEqual(e.summary, { bin: '41111111', isValid: false, reason: 'The card number fails the Luhn check digit.', scheme: 'Visa' });
  });
});

describe('custom rules and blacklists', () => {
  const A = 'br';
  it('a card_bin entry matches the 6-8 digit prefixes of the number sent; card_country the issuing country', async () => {
    assert.equal((await get({ bin: '4111111111111111' }, RULES_KEY)).blacklisted, false);
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'card_bin', values: ['41111111'] }));
    assert.equal((await get({ bin: '4111 1111 1111 1111' }, RULES_KEY)).blacklisted, true);
    assert.equal((await get({ bin: '411111' }, RULES_KEY)).blacklisted, false, 'a 6-digit BIN is not under an 8-digit entry');
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'card_country', values: ['DK'] }));
    assert.equal((await get({ bin: '45717360' }, RULES_KEY)).blacklisted, true);
    assert.equal((await get({ bin: '378282' }, RULES_KEY)).blacklisted, false);
    // A country a domestic scheme implies (Mir: Russia, no record) is listed like an issuer's.
    assert.equal((await get({ bin: '220012' }, RULES_KEY)).blacklisted, false);
    adminData(await admin('POST', `/admin/accounts/${A}/blacklists`, { type: 'card_country', values: ['RU'] }));
    const mir = await get({ bin: '220012' }, RULES_KEY);
    assert.deepEqual([mir.blacklisted, mir.info.country?.source], [true, 'scheme']);
  });

  it('rules mark invalid or valid, test scheme fields and the BIN; the final validity drives the event', async () => {
    const rule = (title: string, conditions: unknown, action: unknown) => ({ title, group: 'bin', conditions, action });
    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('no mada', { all: [{ field: 'info.scheme.coName', op: 'eq', value: 'mada' }] }, { type: 'mark_invalid' })), 201);
    const mada = await get({ bin: withLuhn('440647'), userID: 'u-mada' }, RULES_KEY);
    assert.equal(mada.isValid, false);
    assert.equal(mada.reason, 'Marked invalid by a custom rule.');
    assert.equal((mada.custom_rules_applied as { total: number }).total, 1);
    const [e] = await t.store.events.listEvents(A, { kind: 'invalid_bin', userId: 'u-mada' });
    assert.equal(e?.subject, '44064700');
    adminData(await admin('POST', `/admin/accounts/${A}/rules`,
      rule('our test range', { all: [{ field: 'input.bin', op: 'starts_with', value: '999999' }] }, { type: 'mark_valid' })), 201);
    const ours = await get({ bin: '9999990000000000', userID: 'u-ours' }, RULES_KEY);
    assert.equal(ours.isValid, true);
    assert.equal(ours.reason, '');
    assert.equal((await t.store.events.listEvents(A, { kind: 'invalid_bin', userId: 'u-ours' })).length, 0);
  });
});

describe('privacy: a full card number is never stored or logged', () => {
  it('scrubUrl keeps only the first 8 digits of bin (and still redacts keys)', () => {
    assert.equal(scrubUrl('/lookup/bin?key=svc_live_x&bin=4111111111111111&format=JSON'), '/lookup/bin?key=[REDACTED]&bin=41111111[CUT]&format=JSON');
    assert.equal(scrubUrl('/lookup/bin?bin=4111%201111%201111%201111'), '/lookup/bin?bin=41111111[CUT]');
    assert.equal(scrubUrl('/lookup/bin?bin=4111+1111+1111+1111&bin=5555-5555-5555-4444'), '/lookup/bin?bin=41111111[CUT]&bin=55555555[CUT]');
    assert.equal(scrubUrl('/lookup/bin?bin=%E0%A4%A'), '/lookup/bin?bin=[CUT]');
  });

  it('live calls with full numbers leave no trace of them in the store files, the logs or the event log', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, cb) { lines.push(chunk.toString()); cb(); } });
    const dir = temp();
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'debug' });
    const store = await openStore({ dataDir: dir });
    const counters = await openCounters({});
    const built = await buildApp({
      config, store, counters, data: sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, logger: pino({ level: 'debug' }, sink), processMetrics: false,
      endpoints: (learning) => withBins(sharedEngineData(), learning),
    });
    await built.accounts.ensureBuiltinPlans();
    const PKEY = liveKey('binprivacy');
    await built.applySeed(parseSeed(JSON.stringify({ accounts: [{ id: 'p', plan: 'premium', keys: [PKEY] }] })));
    await built.app.ready();
    const app = { ...built, store, counters, config, dir, close: () => Promise.resolve() };
    adminData(await adminCall(app, 'POST', '/admin/accounts/p/rules', {
      title: 'visa seen', group: 'bin', conditions: { all: [{ field: 'info.scheme.name', op: 'eq', value: 'Visa' }] }, action: { type: 'mark_valid' },
    }), 201);
    adminData(await adminCall(app, 'POST', '/admin/accounts/p/blacklists', { type: 'card_bin', values: ['555555'] }));
    const FULL = ['4111111111111111', '4111111111111112', '5555555555554444', '5555555555554445', '378282246310005'];
    const sent = [...FULL, '4111 1111 1111 1111', '5555-5555-5555-4444'];
    for (const bin of sent) {
      const body = await raw({ bin, userID: 'u-privacy' }, PKEY, app);
      assert.equal(body.status, 'success', JSON.stringify(body));
    }
    const events = await store.events.listEvents('p', { userId: 'u-privacy' });
    assert.ok(events.length >= 1, 'the Luhn failures raise invalid_bin (5555555555554445 is blacklisted too)');
    await built.app.close();
    await store.close();
    await counters.close();

    const files: string[] = [];
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(dir);
    assert.ok(files.some((f) => /\.(db|sqlite)/.test(f)), files.join(', '));
    const haystacks = [
      ...files.map((f) => [f, readFileSync(f).toString('latin1')] as const),
      ['logs', lines.join('')] as const,
      ['events', JSON.stringify(events)] as const,
    ];
    assert.ok(lines.some((l) => l.includes('"url":"/lookup/bin?')), 'debug request lines were captured');
    for (const number of FULL) {
      for (const needle of [number, number.slice(-10), number.slice(0, 4) + ' ' + number.slice(4, 8) + ' ' + number.slice(8, 12)]) {
        for (const [where, text] of haystacks) assert.ok(!text.includes(needle), `${needle} found in ${where}`);
      }
    }
  });
});

describe('explain=yes with a list hit', () => {
  it('names the BIN, never the full number', async () => {
    const data = await get({ bin: '4111111111111111', explain: 'yes' }, RULES_KEY);
    assert.equal(data.blacklisted, true);
    const text = JSON.stringify(data.explanation);
    assert.match(text, /"card_bin"/);
    assert.doesNotMatch(text, /4111111111111111/);
  });
});
