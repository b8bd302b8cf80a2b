/**
 * The UTC calendar day (`YYYY-MM-DD`) and month (`YYYY-MM`) of an instant, as usage and quota keys
 * name them. Requests of the same day ask again and again, so the text of the last day is kept and
 * only an instant outside it is formatted anew (toISOString costs about a microsecond each time).
 */
const DAY_MS = 86_400_000;
let dayStart = Number.NaN;
let dayText = '';

/** `YYYY-MM-DD` of `now` in UTC. */
export function utcDay(now: Date): string {
  const t = now.getTime();
  if (!(t >= dayStart && t < dayStart + DAY_MS)) {
    dayText = now.toISOString().slice(0, 10);
    dayStart = Math.floor(t / DAY_MS) * DAY_MS;
  }
  return dayText;
}

/** `YYYY-MM` of `now` in UTC. */
export function utcMonth(now: Date): string {
  return utcDay(now).slice(0, 7);
}
