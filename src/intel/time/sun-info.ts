import { getTimes } from 'suncalc';
import type { SunInfo } from '../country/types.ts';
import { clockText, durationText, readZone, type ZoneReading } from './zone-clock.ts';

/**
 * Sun times (suncalc) at `lat`/`lon` for the local calendar day `day` of `zone`, each written as
 * local `HH:mm:ss` in that zone. Events the sun does not reach that day are null (see SunInfo).
 */
export function sunInfo(zone: string, lat: number, lon: number, day: Pick<ZoneReading, 'year' | 'month' | 'day' | 'offsetSeconds'>): SunInfo {
  // Sun times change once a local day, and computing them costs ten ICU readings: memoise per
  // place and local date. A copy is returned so callers may change their answer freely.
  const key = `${zone}|${lat}|${lon}|${day.year}-${day.month}-${day.day}|${day.offsetSeconds}`;
  let info = memo.get(key);
  if (info === undefined) {
    info = computeSunInfo(zone, lat, lon, day);
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(key, info);
  }
  return { ...info };
}

const MAX_MEMO = 8192;
const memo = new Map<string, SunInfo>();

function computeSunInfo(zone: string, lat: number, lon: number, day: Pick<ZoneReading, 'year' | 'month' | 'day' | 'offsetSeconds'>): SunInfo {
  // suncalc solves for the solar day nearest the instant it is given; local noon picks the local
  // calendar day even where the zone's offset is far from the longitude's (Kiribati at UTC+14).
  const localNoon = Date.UTC(day.year, day.month - 1, day.day, 12) - day.offsetSeconds * 1000;
  const t = getTimes(new Date(localNoon), lat, lon);
  const local = (d: Date | null): string | null => (d === null ? null : clockText(readZone(zone, d)));

  let dayLength: string;
  if (t.sunrise !== null && t.sunset !== null) dayLength = durationText((t.sunset.getTime() - t.sunrise.getTime()) / 1000);
  else dayLength = t.alwaysUp === true ? '24:00:00' : '00:00:00';

  return {
    sunset: local(t.sunset),
    sunrise: local(t.sunrise),
    transit: clockText(readZone(zone, t.solarNoon)),
    civilTwilightBegin: local(t.dawn),
    civilTwilightEnd: local(t.dusk),
    nauticalTwilightBegin: local(t.nauticalDawn),
    nauticalTwilightEnd: local(t.nauticalDusk),
    astronomicalTwilightBegin: local(t.nightEnd),
    astronomicalTwilightEnd: local(t.night),
    dayLength,
  };
}
