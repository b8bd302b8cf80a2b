import type { TimezoneBlock } from '../country/types.ts';
import { zoneAbbreviation } from './abbreviation.ts';
import { sunInfo } from './sun-info.ts';
import { clockText, readZone, standardOffsetSeconds } from './zone-clock.ts';

/**
 * The timezone block (spec "IP result" timezone.*) of IANA `zone` at instant `now`, with sun
 * times at `lat`/`lon` for the local date. Pure apart from memo caches: same inputs, same block.
 * Throws RangeError for a zone ICU does not know or coordinates off the globe (callers pass
 * data they loaded, so either is a bug worth surfacing).
 */
export function timezoneBlock(zone: string, lat: number, lon: number, now: Date): TimezoneBlock {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw new RangeError(`Coordinates out of range: ${lat}, ${lon}`);
  }
  const instant = now.getTime();
  if (!Number.isFinite(instant)) throw new RangeError('Invalid date');

  const reading = readZone(zone, instant);
  const isDST = reading.offsetSeconds > standardOffsetSeconds(zone, reading.year);
  return {
    name: zone,
    abbreviation: zoneAbbreviation(zone, now, reading.offsetSeconds, isDST),
    offset: reading.offsetSeconds,
    currentTime: clockText(reading),
    currentTimestamp: Math.floor(instant / 1000),
    isDST,
    sunInfo: sunInfo(zone, lat, lon, reading),
  };
}
