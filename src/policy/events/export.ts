import { stringify } from 'csv-stringify/sync';
import { guardCell } from '../../http/formats/csv.ts';
import type { StoredEvent } from '../../store/ports.ts';

const COLUMNS = ['event_id', 'kind', 'risk', 'subject', 'user_id', 'operation', 'created_at', 'summary'] as const;

/** Events as CSV (RFC 4180, formula cells guarded as in the API's CSV format); the summary as JSON text. */
export function eventsCsv(events: readonly StoredEvent[]): string {
  const rows = events.map((e) =>
    [String(e.eventId), e.kind, String(e.risk), e.subject, e.userId ?? '', e.operation, e.createdAt, JSON.stringify(e.summary)].map(guardCell),
  );
  return stringify([[...COLUMNS], ...rows], { record_delimiter: 'windows' });
}
