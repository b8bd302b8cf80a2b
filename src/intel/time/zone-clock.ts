/**
 * Wall-clock readings of an instant in an IANA zone, through Node's ICU (`Intl.DateTimeFormat`),
 * so no tz database of our own is needed and the tzdata version is `process.versions.tz`.
 */

/** Local calendar date, time of day and UTC offset of one instant in one zone. */
export interface ZoneReading {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Seconds east of UTC (Berlin in summer: 7200). */
  offsetSeconds: number;
}

// Building an Intl.DateTimeFormat costs far more than using one, so keep one per zone. The zones
// come from our data, not from callers, but the cache is bounded anyway.
const MAX_CACHED_ZONES = 2048;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'longOffset',
    });
    if (formatters.size >= MAX_CACHED_ZONES) formatters.clear();
    formatters.set(zone, formatter);
  }
  return formatter;
}

// `longOffset` writes "GMT" for zero and "GMT+05:30" / "GMT-03" otherwise; some ICU builds use
// U+2212 for the minus sign, and historic offsets may carry seconds.
const LONG_OFFSET = /^GMT(?:([+\-\u2212])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** Parses ICU's `longOffset` text ("GMT+05:30") into seconds east of UTC. */
export function parseLongOffset(text: string): number {
  const m = LONG_OFFSET.exec(text);
  if (!m) throw new RangeError(`Unexpected time zone offset text "${text}"`);
  if (m[1] === undefined) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '+' ? seconds : -seconds;
}

// Offsets only change at whole-minute instants (tzdata transitions), so the offset read for one
// minute serves every instant of that minute; the wall clock is then plain arithmetic.
const minuteOffsets = new Map<string, number>();

/** Reads `instant` on the wall clock of `zone`; throws RangeError for an unknown zone. */
export function readZone(zone: string, instant: Date | number): ZoneReading {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const minute = Math.floor(ms / 60000);
  const key = `${zone}|${minute}`;
  let offsetSeconds = minuteOffsets.get(key);
  if (offsetSeconds === undefined) {
    offsetSeconds = readZoneWithIcu(zone, ms).offsetSeconds;
    if (minuteOffsets.size >= MAX_CACHED_ZONES * 4) minuteOffsets.clear();
    minuteOffsets.set(key, offsetSeconds);
  }
  const local = new Date(ms + offsetSeconds * 1000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    offsetSeconds,
  };
}

/** The ICU reading itself; readZone memoises its offset. */
export function readZoneWithIcu(zone: string, instant: Date | number): ZoneReading {
  const reading: ZoneReading = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, offsetSeconds: 0 };
  for (const { type, value } of formatterFor(zone).formatToParts(instant)) {
    if (type === 'timeZoneName') reading.offsetSeconds = parseLongOffset(value);
    else if (type === 'year' || type === 'month' || type === 'day' || type === 'hour' || type === 'minute' || type === 'second') {
      reading[type] = Number(value);
    }
  }
  return reading;
}

/** True when `zone` is an IANA zone name this runtime's ICU knows. */
export function isKnownZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

const standardOffsets = new Map<string, number>();

/**
 * The zone's standard (non-DST) offset in `year`: the smaller of its 1 January and 1 July
 * offsets, which covers both hemispheres. Zones that moved their base offset during the year
 * get the smaller of the two, which is the usual reading.
 */
export function standardOffsetSeconds(zone: string, year: number): number {
  const key = `${zone}|${year}`;
  let offset = standardOffsets.get(key);
  if (offset === undefined) {
    const january = readZone(zone, Date.UTC(year, 0, 1)).offsetSeconds;
    const july = readZone(zone, Date.UTC(year, 6, 1)).offsetSeconds;
    offset = Math.min(january, july);
    if (standardOffsets.size >= MAX_CACHED_ZONES * 4) standardOffsets.clear();
    standardOffsets.set(key, offset);
  }
  return offset;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `HH:mm:ss` of a reading. */
export function clockText(r: Pick<ZoneReading, 'hour' | 'minute' | 'second'>): string {
  return `${pad2(r.hour)}:${pad2(r.minute)}:${pad2(r.second)}`;
}

/** A duration in whole seconds as `HH:mm:ss` (hours may exceed 23 only at 24:00:00). */
export function durationText(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}
