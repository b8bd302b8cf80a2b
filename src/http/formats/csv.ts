/**
 * CSV writer (decisions.md "Options and formats").
 *
 * - Success: the header row is the dot paths of the leaves of `data` only (see leaves.ts);
 *   `status` is implied by the shape and `executionTime` is left out. One data row follows.
 * - Error: the header row is the error fields (`status`, `code`, `type`, `description`), then one
 *   row, so a client tells an error apart by a `status` column holding `error`.
 * - Keyed (bulk IP lookup, `data` keyed by address): the first column is `query`, holding the key
 *   as submitted, then the union of every entry's leaf paths in first-seen order; one row per
 *   key; a path an entry lacks is an empty cell.
 * - No leaves at all (empty `data` object) gives an empty body: RFC 4180 has no zero-column record.
 * - RFC 4180: CRLF record ends (also after the last record), fields quoted when they hold a comma,
 *   a quote, CR or LF; no byte-order mark.
 * - Formula-injection guard: every cell, header cells and numbers included, that begins with `=`,
 *   `+`, `-` or `@` gets a leading `'`, so a negative number `-33.86` is written `'-33.86`.
 *   Readers that need the number strip the `'`.
 */
import { stringify } from 'csv-stringify/sync';
import type { Rendered } from './index.ts';
import { isObject, KEY_COLUMN, leaves } from './leaves.ts';

const CONTENT_TYPE = 'text/csv; charset=utf-8';

// csv-stringify only quotes the full record delimiter by default; a lone CR or LF must be quoted too.
const OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/** Renders an envelope as CSV; `keyed` gives one row per key of `data`. */
export function renderCsv(body: Record<string, unknown>, keyed: boolean): Rendered {
  const table = body.status === 'error' ? single(body) : keyed && isObject(body.data) ? byKey(body.data) : single(body.data);
  return { contentType: CONTENT_TYPE, body: table.length === 0 ? '' : stringify(table.map(guardRow), OPTIONS) };
}

/** Prefixes a cell that a spreadsheet would run as a formula. */
export function guardCell(cell: string): string {
  const first = cell.charCodeAt(0);
  // '=' 61, '+' 43, '-' 45, '@' 64
  return first === 61 || first === 43 || first === 45 || first === 64 ? `'${cell}` : cell;
}

function guardRow(row: string[]): string[] {
  return row.map(guardCell);
}

/** A header row and one row for a single value; no rows when it has no leaves. */
function single(value: unknown): string[][] {
  const list = leaves(value);
  if (list.length === 0) return [];
  return [list.map((l) => l.path), list.map((l) => l.value)];
}

function byKey(data: Record<string, unknown>): string[][] {
  const keys = Object.keys(data);
  if (keys.length === 0) return [];
  // Leaf path -> column index; column 0 is the key, so a leaf itself named `query` still gets
  // its own column (the header then repeats the name, the values stay intact).
  const columns = new Map<string, number>();
  const rows: string[][] = [];
  for (const key of keys) {
    const row: string[] = [key];
    for (const leaf of leaves(data[key])) {
      let index = columns.get(leaf.path);
      if (index === undefined) {
        index = columns.size + 1;
        columns.set(leaf.path, index);
      }
      row[index] = leaf.value;
    }
    rows.push(row);
  }
  const width = columns.size + 1;
  const padded = rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
  return [[KEY_COLUMN, ...columns.keys()], ...padded];
}
