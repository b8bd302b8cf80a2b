/**
 * A small RFC 4180 CSV reader and writer for the evaluation scripts (the project ships csv-stringify
 * but no parser, and the files here are a few MB: reading them whole is fine).
 */
import { parseCsv as parseRfc4180 } from '../../src/intel/text/train.ts';

/** Rows of fields; quoted fields may hold commas, doubled quotes and line breaks. CRLF or LF. */
export function parseCsv(text: string): string[][] {
  // The text trainer's RFC 4180 reader; a spreadsheet's byte-order mark and blank lines are not records here.
  const rows = parseRfc4180(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** Header + rows as objects keyed by the header's names (trimmed); missing trailing cells are ''. */
export function parseCsvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
  const [head, ...rest] = parseCsv(text);
  if (!head) return { header: [], records: [] };
  const header = head.map((h) => h.trim());
  const records = rest.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
  return { header, records };
}

/** One CSV field, quoted only when it must be. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line (without its line break). */
export function csvLine(values: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return values.map(csvField).join(',');
}
