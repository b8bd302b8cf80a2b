import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadCountryData } from '../../data/countries.ts';
import { loadIpData } from '../../data/ip-data.ts';
import { parseIpInput } from './address.ts';
import { fakeIpSources } from './fake.ts';
import { ipEssentials, lookupIp } from './lookup.ts';
import { noContacts } from './types.ts';

const data = loadIpData(undefined, { reloadMs: 0 });
const countries = loadCountryData();
after(() => data.close());

/** Addresses of every kind: IPv4 across the space (bogons included), IPv6 of big networks, and the test-mode samples. */
function addresses(): string[] {
  const out: string[] = [];
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 3000; i++) out.push([next() % 256, next() % 256, next() % 256, next() % 256].join('.'));
  for (let i = 0; i < 500; i++) out.push(`2${(next() % 0x1000).toString(16).padStart(3, '0')}:${(next() % 0x10000).toString(16)}::${(next() % 0x10000).toString(16)}`);
  out.push('127.0.0.1', '10.1.2.3', '::1', '81.2.69.160', '185.220.101.1', '66.249.66.1');
  return out;
}

describe('ipEssentials (what payment scoring reads of an address)', () => {
  for (const [label, sources] of [['live data', data.sources], ['test-mode sources (every flag drawn often)', fakeIpSources(data.sources)]] as const) {
    it(`gives exactly lookupIp's country, coordinates and security flags: ${label}`, () => {
      let located = 0;
      let flagged = 0;
      for (const ip of addresses()) {
        const parsed = parseIpInput(ip);
        assert.ok(parsed.ok, ip);
        const full = lookupIp(parsed.value, sources, countries, { lang: 'EN', modules: new Set(), now: new Date(), flagBaseUrl: '', contacts: noContacts });
        const got = ipEssentials(parsed.value, sources);
        assert.deepEqual(got.security, full.security, ip);
        assert.equal(got.countryCode, full.result.countryCode, ip);
        assert.equal(got.latitude === undefined ? null : String(got.latitude), full.result.latitude, ip);
        assert.equal(got.longitude === undefined ? null : String(got.longitude), full.result.longitude, ip);
        if (got.latitude !== undefined) located++;
        if (Object.values(got.security).some((v) => v === true)) flagged++;
      }
      assert.ok(located > 500, `${located} located`);
      // The live threat lists are not imported in tests; the test-mode sources flag about one address in three.
      if (sources !== data.sources) assert.ok(flagged > 500, `${flagged} flagged`);
    });
  }
});
