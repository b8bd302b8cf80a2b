/**
 * A small RFC 4180 CSV reader and writer for the evaluation scripts (the project ships csv-stringify
 * but no parser, and the files here are a few MB: reading them whole is fine).
 */

/** Rows of fields; quoted fields may hold commas, doubled quotes and line breaks. CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a spreadsheet's byte-order mark
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  // A blank line is a row of one empty field: not a record.
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
