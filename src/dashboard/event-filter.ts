import { z } from 'zod';
import { EVENT_KINDS } from '../policy/types.ts';
import type { EventFilter } from '../store/ports.ts';
import { UserError } from './context.ts';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a calendar date');
const Risk = z.coerce.number().min(0, 'must be 0 or more').max(100, 'must be 100 or less');

/** The events page's filters, as the form sends them (empty fields mean no filter). */
export const EventFilterForm = z.object({
  kind: z.enum(EVENT_KINDS).optional(),
  from: Day.optional(),
  to: Day.optional(),
  riskMin: Risk.optional(),
  riskMax: Risk.optional(),
  user: z.string().max(255, 'must be at most 255 characters').optional(),
  labelled: z.enum(['yes', 'no']).optional(),
  before: z.coerce.number().int().min(1).optional(),
});
export type EventFilterValues = z.infer<typeof EventFilterForm>;

/** Form values (strings from the query) → checked filter values; a bad value is a UserError naming the field. */
export function readEventFilter(query: Record<string, string>): EventFilterValues {
  const present = Object.fromEntries(Object.entries(query).filter(([k, v]) => v !== '' && k in EventFilterForm.shape));
  const parsed = EventFilterForm.safeParse(present);
  if (!parsed.success) throw new UserError(parsed.error.issues.map((i) => `${String(i.path[0] ?? 'filter')} ${i.message}`).join('; '));
  const v = parsed.data;
  if (v.from && v.to && v.from > v.to) throw new UserError('from must not be after to');
  return v;
}

/** The store filter: days are whole UTC days, `to` included. */
export function toStoreFilter(v: EventFilterValues, limit: number): EventFilter {
  const f: EventFilter = { limit };
  if (v.kind) f.kind = v.kind;
  if (v.from) f.from = `${v.from}T00:00:00.000Z`;
  if (v.to) f.to = new Date(Date.parse(`${v.to}T00:00:00Z`) + 86_400_000).toISOString();
  if (v.riskMin !== undefined) f.riskMin = v.riskMin;
  if (v.riskMax !== undefined) f.riskMax = v.riskMax;
  if (v.user) f.userId = v.user;
  if (v.labelled) f.labelled = v.labelled === 'yes';
  if (v.before !== undefined) f.before = v.before;
  return f;
}

/** The filters as query parameters (paging and export links keep them). */
export function filterParams(v: EventFilterValues): Record<string, string | number | undefined> {
  return { kind: v.kind, from: v.from, to: v.to, riskMin: v.riskMin, riskMax: v.riskMax, user: v.user, labelled: v.labelled };
}
