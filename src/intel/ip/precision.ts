/**
 * How precise a GeoLite2 City record is, so the answer claims no more than the record holds
 * (issue 25: 8.8.8.8 answered a postal code of Cheney, Kansas and America/Chicago from the
 * country-level point in the middle of the US, 1,000 km wide).
 *
 * - A record with a city places the address in that city: its postal code, else the city's
 *   nearest postal point, and its time zone are answers.
 * - A record with a region but no city: no postal code is looked up (the point is the region's
 *   middle), the time zone is GeoLite2's for the region.
 * - A country-level record (no region, no city; coordinates are the country's middle with an
 *   accuracy radius of hundreds of km): no postal code is looked up, and the time zone is given
 *   only where the whole country keeps one clock (France, Germany, Japan), not where it has several
 *   (United States, Russia, Brazil, Spain with the Canaries).
 */
import type { CityRecord } from './types.ts';
import { readZone, isKnownZone } from '../time/zone-clock.ts';

export type RecordPrecision = 'city' | 'region' | 'country';

export function precisionOf(record: CityRecord | null): RecordPrecision {
  if (record?.city?.names !== undefined || record?.city?.geoname_id !== undefined) return 'city';
  if (record?.subdivisions !== undefined && record.subdivisions.length > 0) return 'region';
  return 'country';
}

/** Per country and year: true when every zone of the country has the same UTC offsets in January and July. */
const oneClockCache = new Map<string, boolean>();

/**
 * True when every zone GeoNames lists for the country reads the same UTC offset on 1 January and
 * 1 July of `now`'s year (so one zone name tells the local time anywhere in it). Zone links this
 * ICU does not know are skipped; a country with no known zone is false.
 */
export function keepsOneClock(countryCode: string, zones: readonly string[], now: Date): boolean {
  const year = now.getUTCFullYear();
  const key = `${countryCode}:${year}`;
  const cached = oneClockCache.get(key);
  if (cached !== undefined) return cached;
  const winter = Date.UTC(year, 0, 1, 12);
  const summer = Date.UTC(year, 6, 1, 12);
  let reading: string | null = null;
  let one = true;
  for (const zone of zones) {
    if (!isKnownZone(zone)) continue;
    const r = `${readZone(zone, winter).offsetSeconds}/${readZone(zone, summer).offsetSeconds}`;
    if (reading === null) reading = r;
    else if (r !== reading) {
      one = false;
      break;
    }
  }
  const answer = one && reading !== null;
  // Bounded: about 250 countries per year.
  if (oneClockCache.size > 2000) oneClockCache.clear();
  oneClockCache.set(key, answer);
  return answer;
}
