import { z } from 'zod';
import type { AccountSettings, AccountStatus, KeyKind } from './ports.ts';

/*
 * Validation and decoding of values crossing the port, shared by the SQLite and PostgreSQL backends
 * so both accept and return exactly the same values. Validating here rather than relying on
 * PostgreSQL's parsers matters: TIMESTAMPTZ would accept 'now' or a zoneless time.
 */

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * ISO timestamp in `toISOString()` form (UTC, milliseconds), so both backends give back identical text.
 * An explicit zone is required: a zoneless time would be read in the server's local zone.
 */
export function isoTimestamp(value: string): string {
  // A payment scoring checks the same half-dozen window starts for its thirty velocity questions.
  let iso = recentTimestamps.get(value);
  if (iso !== undefined) return iso;
  const time = ISO_WITH_ZONE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new RangeError(`not an ISO-8601 timestamp: ${JSON.stringify(value)}`);
  iso = new Date(time).toISOString();
  if (recentTimestamps.size >= 64) recentTimestamps.clear();
  recentTimestamps.set(value, iso);
  return iso;
}

/** The last few valid timestamps isoTimestamp saw, with their normal form. */
const recentTimestamps = new Map<string, string>();

export function isoTimestampOrNull(value: string | null): string | null {
  return value === null ? null : isoTimestamp(value);
}

/** A real calendar day `YYYY-MM-DD` (PostgreSQL's DATE would reject 2024-02-30; so do we). */
export function calendarDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !isoDayRoundTrips(value)) {
    throw new RangeError(`not a YYYY-MM-DD day: ${JSON.stringify(value)}`);
  }
  return value;
}

function isoDayRoundTrips(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** The half-open day range [from, until) of a `YYYY-MM` month. */
export function monthDays(month: string): { from: string; until: string } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) throw new RangeError(`not a YYYY-MM month: ${JSON.stringify(month)}`);
  const year = Number(match[1]);
  const monthIndex = Number(match[2]) - 1;
  const next = new Date(Date.UTC(year, monthIndex + 1, 1));
  return { from: `${month}-01`, until: next.toISOString().slice(0, 10) };
}

export function integerCount(value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`usage count must be a safe integer, got ${value}`);
  return value;
}

const StringList = z.array(z.string());

const Settings = z.object({
  autoBlacklistConfirmedFraud: z.boolean(),
  dailyDeletionLimit: z.number(),
}) satisfies z.ZodType<AccountSettings>;

/** Checks the shape of a decoded list (JSON text is parsed by the caller or by pg). */
export function decodeStringList(value: unknown): string[] {
  return StringList.parse(value);
}

export function decodeSettings(value: unknown): AccountSettings {
  return Settings.parse(value);
}

export function accountStatus(value: string): AccountStatus {
  if (value === 'active' || value === 'inactive') return value;
  throw new Error(`unexpected account status in database: ${JSON.stringify(value)}`);
}

export function keyKind(value: string): KeyKind {
  if (value === 'live' || value === 'test') return value;
  throw new Error(`unexpected key kind in database: ${JSON.stringify(value)}`);
}
