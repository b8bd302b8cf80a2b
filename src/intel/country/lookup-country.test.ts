import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCountryData } from '../../data/countries.ts';
import { countryFacts, lookupCountry, type LookupCountryOptions } from './lookup-country.ts';
import { COUNTRY_MODULES, LANGS, type CountryModule, type CountryResult, type Lang } from './types.ts';

const data = loadCountryData();
const ALL_MODULES: ReadonlySet<CountryModule> = new Set(COUNTRY_MODULES);
const JULY = new Date('2025-07-15T10:00:00Z');
const JANUARY = new Date('2025-01-15T10:00:00Z');
const BASE = 'https://vigil.example';

function options(overrides: Partial<LookupCountryOptions> = {}): LookupCountryOptions {
  return { lang: 'EN', modules: ALL_MODULES, now: JULY, flagBaseUrl: BASE, ...overrides };
}

function lookup(code: string, overrides: Partial<LookupCountryOptions> = {}): CountryResult {
  const result = lookupCountry(data, code, options(overrides));
  assert.ok(result, `no result for ${code}`);
  return result;
}

describe('lookupCountry: every code', () => {
  it('returns a complete result for all 250 codes in all 8 languages', () => {
    for (const code of data.byCode.keys()) {
      for (const lang of LANGS) {
        const r = lookup(code, { lang });
        assert.equal(r.countryCode, code);
        assert.ok(r.countryName.trim().length > 0, `${code} ${lang}`);
        assert.ok(r.continentName.trim().length > 0, `${code} ${lang}`);
        assert.match(r.continentCode, /^(AF|AN|AS|EU|NA|OC|SA)$/);
        assert.ok(Number.isInteger(r.continentGeoNameID));
        assert.ok(Number.isInteger(r.countryGeoNameID), `${code} geoname id`);
        assert.match(r.phoneCode ?? '', /^\d+$/, `${code} phone`);
        assert.match(r.countryNeighbours, /^([A-Z]{2}(,[A-Z]{2})*)?$/);
        assert.ok(r.timezone, `${code} timezone`);
        assert.ok(r.flag, `${code} flag`);
        assert.equal(typeof r.countryIsEU, 'boolean');
        // Currency and language are null only for Antarctica.
        assert.equal(r.currency === null, code === 'AQ', `${code} currency`);
        assert.equal(r.language === null, code === 'AQ', `${code} language`);
      }
    }
  });
});

describe('lookupCountry: DE', () => {
  it('has the known facts', () => {
    const r = lookup('DE');
    assert.equal(r.countryName, 'Germany');
    assert.equal(r.capital, 'Berlin');
    assert.equal(r.phoneCode, '49');
    assert.deepEqual(r.currency, { currencyName: 'Euro', currencyCode: 'EUR', currencySymbol: '€' });
    assert.deepEqual(r.language, { name: 'German', code: 'de', native: 'Deutsch' });
    assert.equal(r.countryIsEU, true);
    assert.ok(r.countryNeighbours.split(',').includes('FR'));
    assert.equal(r.countryGeoNameID, 2921044);
    assert.equal(r.tld, '.de');
    assert.equal(r.continentCode, 'EU');
    assert.equal(r.continentGeoNameID, 6255148);
    assert.equal(r.timezone?.name, 'Europe/Berlin');
  });

  const translated: Record<Lang, [country: string, continent: string, currency: string, language: string]> = {
    EN: ['Germany', 'Europe', 'Euro', 'German'],
    AR: ['ألمانيا', 'أوروبا', 'يورو', 'الألمانية'],
    DE: ['Deutschland', 'Europa', 'Euro', 'Deutsch'],
    FR: ['Allemagne', 'Europe', 'euro', 'allemand'],
    ES: ['Alemania', 'Europa', 'euro', 'alemán'],
    JA: ['ドイツ', 'ヨーロッパ', 'ユーロ', 'ドイツ語'],
    ZH: ['德国', '欧洲', '欧元', '德语'],
    RU: ['Германия', 'Европа', 'евро', 'немецкий'],
  };
  for (const lang of LANGS) {
    it(`is translated in ${lang}`, () => {
      const r = lookup('DE', { lang });
      assert.deepEqual([r.countryName, r.continentName, r.currency?.currencyName, r.language?.name], translated[lang]);
      // Untranslated fields stay as they are.
      assert.equal(r.capital, 'Berlin');
      assert.equal(r.language?.native, 'Deutsch');
    });
  }

  it('is in DST in July (offset 7200) and not in January (offset 3600)', () => {
    const july = lookup('DE', { now: JULY }).timezone;
    assert.equal(july?.isDST, true);
    assert.equal(july.offset, 7200);
    assert.equal(july.abbreviation, 'CEST');
    const january = lookup('DE', { now: JANUARY }).timezone;
    assert.equal(january?.isDST, false);
    assert.equal(january.offset, 3600);
    assert.equal(january.abbreviation, 'CET');
  });

  it('builds flag URLs on the base address', () => {
    assert.deepEqual(lookup('DE', { flagBaseUrl: `${BASE}/` }).flag, {
      emoji: '🇩🇪',
      unicode: 'U+1F1E9 U+1F1EA',
      png: {
        '1000px': `${BASE}/flags/png/1000px/de.png`,
        '250px': `${BASE}/flags/png/250px/de.png`,
        '100px': `${BASE}/flags/png/100px/de.png`,
      },
      svg: `${BASE}/flags/svg/de.svg`,
    });
  });

  it('keeps the spec order of fields', () => {
    assert.deepEqual(Object.keys(lookup('DE')), [
      'countryCode',
      'countryName',
      'countryGeoNameID',
      'capital',
      'population',
      'phoneCode',
      'currency',
      'language',
      'timezone',
      'flag',
      'countryIsEU',
      'countryNeighbours',
      'tld',
      'continentName',
      'continentCode',
      'continentGeoNameID',
    ]);
  });
});

describe('lookupCountry: other countries', () => {
  it("uses the capital's zone for the multi-zone US", () => {
    const r = lookup('US');
    assert.equal(r.timezone?.name, 'America/New_York');
    assert.equal(r.timezone.abbreviation, 'EDT');
    assert.equal(r.phoneCode, '1');
    assert.equal(r.countryIsEU, false);
  });

  it('does not throw in polar day and night (SJ, AQ)', () => {
    for (const now of [new Date('2025-06-21T12:00:00Z'), new Date('2025-12-21T12:00:00Z')]) {
      const sj = lookup('SJ', { now }).timezone?.sunInfo;
      const aq = lookup('AQ', { now }).timezone?.sunInfo;
      assert.ok(sj && aq);
      assert.equal(sj.sunrise, null);
      assert.equal(aq.sunrise, null);
      assert.notEqual(sj.dayLength, aq.dayLength);
    }
  });

  it('answers Antarctica with null currency and language', () => {
    const r = lookup('AQ');
    assert.equal(r.currency, null);
    assert.equal(r.language, null);
    assert.equal(r.capital, null);
    assert.equal(r.continentCode, 'AN');
  });

  it('accepts XK (Kosovo, user-assigned but in common use)', () => {
    assert.equal(lookup('XK').countryName, 'Kosovo');
  });
});

describe('lookupCountry: input', () => {
  it('accepts lower and mixed case', () => {
    assert.equal(lookup('de').countryCode, 'DE');
    assert.equal(lookup('dE').countryCode, 'DE');
  });

  const invalid: [string, string][] = [
    ['empty', ''],
    ['one letter', 'D'],
    ['alpha-3', 'DEU'],
    ['unassigned XX', 'XX'],
    ['unassigned ZZ', 'ZZ'],
    ['digits', '12'],
    ['numeric code', '276'],
    ['letter and digit', 'd3'],
    ['UK (reserved, not the code of GB)', 'UK'],
    ['EU (reserved)', 'EU'],
    ['AC (not in ISO 3166-1)', 'AC'],
    ['leading space', ' DE'],
    ['trailing space', 'DE '],
    ['trailing newline', 'DE\n'],
    ['full-width letters', 'ＤＥ'],
    ['non-ASCII letters', 'ÄÖ'],
    ['combining mark', 'D\u0301E'],
    ['regional indicator emoji', '🇩🇪'],
    ['very long string', 'D'.repeat(100_000)],
  ];
  for (const [label, code] of invalid) {
    it(`returns null for ${label}`, () => {
      assert.equal(lookupCountry(data, code, options()), null);
      assert.equal(countryFacts(data, code), null);
    });
  }
});

describe('lookupCountry: modules and freshness', () => {
  it('leaves every module out when none is requested', () => {
    const r = lookup('DE', { modules: new Set() });
    for (const key of COUNTRY_MODULES) assert.equal(key in r, false, key);
    assert.equal(r.countryName, 'Germany');
  });

  for (const only of COUNTRY_MODULES) {
    it(`includes only ${only} when only ${only} is requested`, () => {
      const r = lookup('DE', { modules: new Set([only]) });
      for (const key of COUNTRY_MODULES) assert.equal(key in r, key === only, key);
    });
  }

  it('keeps null modules as keys when requested (AQ currency)', () => {
    const r = lookup('AQ', { modules: new Set(['currency']) });
    assert.ok('currency' in r);
    assert.equal(r.currency, null);
  });

  it('returns a fresh object each call that callers may change', () => {
    const first = lookup('DE');
    const second = lookup('DE');
    assert.notEqual(first, second);
    assert.notEqual(first.currency, second.currency);
    first.countryName = 'changed';
    if (first.currency) first.currency.currencyName = 'changed';
    first.flag = null;
    assert.deepEqual(lookup('DE'), second);
  });

  it('gives countryFacts the shared record for any case', () => {
    const facts = countryFacts(data, 'de');
    assert.equal(facts, countryFacts(data, 'DE'));
    assert.equal(facts?.code, 'DE');
    assert.ok(Object.isFrozen(facts));
  });
});
