/**
 * RFC 4180 CSV for large files. bin-list.ts has a character-at-a-time parser that suits its
 * few-MB inputs; over the 88 MB GeoNames postal file (1.2 M rows of 11 fields) building every
 * field a character at a time, and even `split(',')` of each line, cost more than everything else
 * the import does, so this one:
 *
 * - cuts fields out with `slice` and, for a line without a quote (nearly every line of a data
 *   dump), finds them with `indexOf` — no per-character string building;
 * - makes strings only for the columns the caller picks from the header.
 *
 * Handles quoted fields with commas, doubled quotes and line breaks, LF or CRLF line ends, a
 * missing final line end, and a leading UTF-8 byte-order mark. A quote inside an unquoted field is
 * kept as text (lenient, as most producers expect). Blank lines are skipped.
 */

/**
 * Calls `pick` with the header row; it returns the column indexes wanted (or null to stop). Then
 * calls `onRow` for every data row with those columns' values in that order ('' when the row is
 * shorter), and the row's 1-based line number for error messages. Returns the number of lines read.
 */
export function forEachCsvRow(
  text: string,
  pick: (header: string[]) => readonly number[] | null,
  onRow: (fields: string[], line: number) => void,
): number {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let columns: readonly number[] | null = null;
  /** For each column index, its position in the picked output (-1: not wanted). */
  let slot: Int32Array = new Int32Array(0);
  let last = -1;
  let line = 0;
  // Position of the next quote, looked up again only once passed: asking indexOf per line would
  // rescan the same quote-free stretch for every line before it.
  let quote = text.indexOf('"', i);
  while (i < n) {
    let end = text.indexOf('\n', i);
    if (end < 0) end = n;
    line++;
    const lineEnd = end > i && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (lineEnd === i) {
      i = end + 1;
      continue;
    }
    if (quote >= 0 && quote < i) quote = text.indexOf('"', i);
    let row: string[];
    const startLine = line;
    if (quote < 0 || quote >= lineEnd) {
      if (columns === null) row = text.slice(i, lineEnd).split(',');
      else {
        row = new Array<string>(columns.length).fill('');
        let from = i;
        for (let c = 0; c <= last && from <= lineEnd; c++) {
          let comma = text.indexOf(',', from);
          if (comma < 0 || comma > lineEnd) comma = lineEnd;
          const s = slot[c] as number;
          if (s >= 0) row[s] = text.slice(from, comma);
          from = comma + 1;
        }
      }
      i = end + 1;
    } else {
      const full: string[] = [];
      i = quotedRow(text, i, full);
      // A quoted field may span lines: count them so later line numbers stay right.
      for (let k = text.indexOf('\n', end + 1); k >= 0 && k < i; k = text.indexOf('\n', k + 1)) line++;
      row = columns === null ? full : columns.map((c) => full[c] ?? '');
    }
    if (columns === null) {
      columns = pick(row);
      if (columns === null) return line;
      last = columns.length === 0 ? -1 : Math.max(...columns);
      slot = new Int32Array(last + 1).fill(-1);
      columns.forEach((c, k) => (slot[c] = k));
      continue;
    }
    onRow(row, startLine);
  }
  return line;
}

/** The slow path: one row that has a quote somewhere, from `start`, into `row`; returns where the next row starts. */
function quotedRow(text: string, start: number, row: string[]): number {
  const n = text.length;
  let i = start;
  for (;;) {
    if (text.charCodeAt(i) === 34) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) {
          // Unterminated quote: the rest of the text is the field.
          row.push(value + text.slice(from));
          return n;
        }
        value += text.slice(from, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          from = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      // Text between the closing quote and the next separator is kept (lenient).
      const stop = nextStop(text, i);
      row.push(value + text.slice(i, stop));
      i = stop;
    } else {
      const stop = nextStop(text, i);
      row.push(text.slice(i, stop));
      i = stop;
    }
    const c = text.charCodeAt(i);
    if (c === 44) {
      i++;
      continue;
    }
    // End of row: CR, LF, CRLF or end of text.
    if (c === 13 && text.charCodeAt(i + 1) === 10) return i + 2;
    return i >= n ? n : i + 1;
  }
}

/** Index of the next comma, CR or LF at or after `i` (or the end of the text). */
function nextStop(text: string, i: number): number {
  const n = text.length;
  for (let k = i; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === 44 || c === 10 || c === 13) return k;
  }
  return n;
}
