import { forEachCsvRow } from '../data/import/csv.ts';
import { normaliseEntry } from '../policy/blacklists/normalise.ts';
import { ListsService } from '../policy/lists-service.ts';
import type { BlacklistType } from '../policy/types.ts';

export interface ImportLine {
  line: number;
  value: string;
  error: string;
}

/** At most this many line errors are shown; the count says how many there were. */
export const SHOWN_LINE_ERRORS = 50;

/**
 * The values of an imported file, checked line by line: a CSV with a header row naming a `value` column
 * (other columns ignored), or a plain list (one value per line, `#` comments). Bad lines are reported
 * with their line number and why; the good ones are imported.
 */
export function readImport(type: BlacklistType, text: string): { values: string[]; errors: ImportLine[]; bad: number } {
  const values: string[] = [];
  const errors: ImportLine[] = [];
  let bad = 0;
  const check = (value: string, line: number) => {
    const v = value.trim();
    if (v === '') return;
    const result = normaliseEntry(type, v);
    if (result.ok) values.push(v);
    else {
      bad++;
      if (errors.length < SHOWN_LINE_ERRORS) errors.push({ line, value: v.slice(0, 100), error: result.error });
    }
  };
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const isCsv = firstLine.split(',').some((h) => h.trim().replace(/^"|"$/g, '').toLowerCase() === 'value');
  if (isCsv) {
    forEachCsvRow(
      text,
      (header) => [header.findIndex((h) => h.trim().toLowerCase() === 'value')],
      (fields, line) => check(fields[0] ?? '', line),
    );
  } else {
    text.split(/\r?\n/).forEach((raw, i) => {
      const l = raw.trim();
      if (l !== '' && !l.startsWith('#')) check(l, i + 1);
    });
  }
  return { values, errors, bad };
}

export { ListsService };
