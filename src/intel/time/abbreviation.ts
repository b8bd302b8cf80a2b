import { TZDATA_ABBREVIATIONS } from './tz-abbreviations.ts';

/**
 * English locales tried in order for a zone's CLDR short name. CLDR only gives an abbreviation
 * in locales where it is in common use ("CEST" exists in en-GB, not in en-US; "AEST" in en-AU),
 * so one locale is not enough. en-US goes first so US zones keep their usual names.
 */
const ABBREVIATION_LOCALES = [
  'en-US',
  'en-GB',
  'en-ZA',
  'en-AU',
  'en-CA',
  'en-IN',
  'en-HK',
  'en-SG',
  'en-IE',
  'en-NZ',
  'en-GU',
] as const;

// CLDR's stand-in when a locale has no abbreviation: "GMT+2", "GMT-3:30", "UTC+5".
const GENERIC_OFFSET = /^(?:GMT|UTC)[+\-\u2212]/;

const MAX_MEMO = 4096;
const memo = new Map<string, string>();

function cldrShortName(locale: string, zone: string, instant: Date): string | undefined {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }).formatToParts(instant);
  const name = parts.find((p) => p.type === 'timeZoneName')?.value;
  return name !== undefined && !GENERIC_OFFSET.test(name) ? name : undefined;
}

function firstCldrShortName(zone: string, instant: Date): string | undefined {
  for (const locale of ABBREVIATION_LOCALES) {
    const name = cldrShortName(locale, zone, instant);
    if (name !== undefined) return name;
  }
  return undefined;
}

function tzdataName(zone: string, isDST: boolean): string | undefined {
  const names = TZDATA_ABBREVIATIONS[zone] ?? TZDATA_ABBREVIATIONS[resolvedZone(zone)];
  if (!names) return undefined;
  return isDST ? names[1] : names[0];
}

function resolvedZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

/** tzdata's numeric form for zones without a name: "+03", "+0530", "-0230". */
export function numericAbbreviation(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const minutes = Math.round(Math.abs(offsetSeconds) / 60);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = minutes % 60;
  return mm === 0 ? `${sign}${hh}` : `${sign}${hh}${String(mm).padStart(2, '0')}`;
}

/**
 * The zone's abbreviation at `instant`: a CLDR English short name ("CEST", "EDT", "IST"),
 * else the tz database's alphabetic one ("JST", "MSK"), else tzdata's numeric form ("+03" for
 * Asia/Riyadh), never CLDR's "GMT+3". Memoised per zone and offset, so the locale sweep runs
 * about once per zone and season.
 */
export function zoneAbbreviation(zone: string, instant: Date, offsetSeconds: number, isDST: boolean): string {
  const key = `${zone}|${offsetSeconds}|${isDST ? 1 : 0}`;
  let name = memo.get(key);
  if (name === undefined) {
    name = firstCldrShortName(zone, instant) ?? tzdataName(zone, isDST) ?? numericAbbreviation(offsetSeconds);
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(key, name);
  }
  return name;
}
