import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCountryData } from '../../data/countries.ts';
import { keepsOneClock, precisionOf } from './precision.ts';

const countries = loadCountryData();
const NOW = new Date('2026-11-27T12:00:00Z');

describe('keepsOneClock: the country zones GeoNames lists, read through ICU', () => {
  // Public facts (IANA tz database): one clock in FR, DE (Busingen keeps Berlin's), GB, JP, IN, SG;
  // several in US, RU, BR, AU, CA, ES (Canaries one hour behind), PT (Azores).
  const table: Array<[string, boolean]> = [
    ['FR', true], ['DE', true], ['GB', true], ['JP', true], ['IN', true], ['SG', true], ['NL', true],
    ['US', false], ['RU', false], ['BR', false], ['AU', false], ['CA', false], ['ES', false], ['PT', false],
  ];
  for (const [code, one] of table) {
    it(`${code}: ${one ? 'one clock' : 'several clocks'}`, () => {
      const facts = countries.byCode.get(code);
      assert.ok(facts);
      assert.equal(keepsOneClock(code, facts.zones, NOW), one);
    });
  }

  it('a country without a known zone is not one clock', () => {
    assert.equal(keepsOneClock('ZZ', [], NOW), false);
    assert.equal(keepsOneClock('ZY', ['Not/AZone'], NOW), false);
  });
});

describe('precisionOf: what the GeoLite2 record places the address in', () => {
  const table: Array<[string, Parameters<typeof precisionOf>[0], string]> = [
    ['no record', null, 'country'],
    ['country and point only (8.8.8.8)', { country: { iso_code: 'US' }, location: { accuracy_radius: 1000, latitude: 37.751, longitude: -97.822 } }, 'country'],
    ['a region without a city', { country: { iso_code: 'US' }, subdivisions: [{ iso_code: 'CA', names: { en: 'California' } }] }, 'region'],
    ['an empty region list', { country: { iso_code: 'US' }, subdivisions: [] }, 'country'],
    ['a city', { country: { iso_code: 'GB' }, city: { geoname_id: 2645753, names: { en: 'Kettering' } } }, 'city'],
  ];
  for (const [name, record, want] of table) it(name, () => assert.equal(precisionOf(record), want));
});
