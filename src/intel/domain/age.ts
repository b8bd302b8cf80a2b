/** "Registered within 1 year" (spec "Limits"). */
export const NEW_DOMAIN_DAYS = 365;
const DAY_MS = 86_400_000;

/** is_new: registered within NEW_DOMAIN_DAYS before `now` (a date in the future counts as new); null when unknown. */
export function isNewDomain(createdAt: string | null, now: Date): boolean | null {
  if (createdAt === null) return null;
  const t = Date.parse(createdAt);
  if (!Number.isFinite(t)) return null;
  return now.getTime() - t <= NEW_DOMAIN_DAYS * DAY_MS;
}
