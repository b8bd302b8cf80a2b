import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { normalizeCountry, normalizePostcode, parseStreet, type ReshipperEntry } from '../../intel/address/reshipper.ts';
import { forEachCsvRow } from './csv.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';

export const RESHIPPERS = 'reshippers';
/** The stored form: the accepted rows, re-written as CSV with the canonical header. */
export const RESHIPPERS_FILE = 'reshippers.csv';

/** Columns in canonical order; country, zip, service and kind must be in the header, the others may be missing. */
export const RESHIPPER_COLUMNS = ['country', 'zip', 'street', 'city', 'region', 'service', 'kind', 'source', 'source_url', 'checked'] as const;
const REQUIRED: ReadonlySet<string> = new Set(['country', 'zip', 'service', 'kind']);

/** One accepted row: the matcher's entry plus where and when it was sourced. */
export interface ReshipperRow extends ReshipperEntry {
  readonly sourceUrl: string;
  /** YYYY-MM-DD the source was read, or ''. */
  readonly checked: string;
}

export interface ParsedReshippers {
  rows: ReshipperRow[];
  /** Rows refused; the first few as "line N: why". */
  rejected: number;
  samples: string[];
  /** `# version: ...` from the file's header comment, when it has one. */
  version: string | null;
}

/**
 * Parses a reshipper list: CSV with a header naming at least country, zip, kind and service
 * (order free; street, city, region, source, source_url, checked optional), `#` comment lines
 * anywhere. A row is refused, with its line number, when the country is not ISO alpha-2, the
 * postal code is unusable for that country, kind is not `address`/`zip`, the service is empty, or
 * an `address` row's street has no house number and name. Throws when the header is unusable.
 */
export function parseReshipperCsv(text: string, origin = RESHIPPERS_FILE): ParsedReshippers {
  const version = /^#\s*version:\s*(\S+)/m.exec(text)?.[1] ?? null;
  // Blank out comment lines rather than drop them, so reported line numbers are the file's own.
  const body = text.replace(/^[ \t]*#.*$/gm, '');
  const rows: ReshipperRow[] = [];
  const samples: string[] = [];
  let rejected = 0;
  let headerOk = false;
  const reject = (line: number, why: string): void => {
    rejected++;
    if (samples.length < 10) samples.push(`line ${line}: ${why}`);
  };
  forEachCsvRow(
    body,
    (header) => {
      const names = header.map((h) => h.trim().toLowerCase());
      const idx = RESHIPPER_COLUMNS.map((c) => names.indexOf(c));
      const missing = RESHIPPER_COLUMNS.filter((c, k) => REQUIRED.has(c) && (idx[k] as number) < 0);
      if (missing.length > 0) throw new DatasetError(`${origin}: the header lacks ${missing.join(', ')} (expected ${RESHIPPER_COLUMNS.join(',')})`);
      headerOk = true;
      // A missing optional column reads as '' (a column index past the row's end).
      return idx.map((i) => (i < 0 ? header.length + 100 : i));
    },
    (fields, line) => {
      const [rawCountry, rawZip, street, city, region, rawService, rawKind, source, sourceUrl, checked] = fields.map((f) => f.trim());
      const country = normalizeCountry(rawCountry);
      if (country === '') return reject(line, `country "${rawCountry ?? ''}" is not an ISO alpha-2 code`);
      const zip = rawZip ?? '';
      if (normalizePostcode(country, zip) === '') return reject(line, `postal code "${zip}" is not usable for ${country}`);
      const kind = (rawKind ?? '').toLowerCase();
      if (kind !== 'address' && kind !== 'zip') return reject(line, `kind "${rawKind ?? ''}" is neither address nor zip`);
      const service = rawService ?? '';
      if (service === '') return reject(line, 'service is empty');
      if (kind === 'address' && parseStreet(street) === null) return reject(line, `street "${street ?? ''}" has no house number and street name`);
      if (checked && !/^\d{4}-\d{2}-\d{2}$/.test(checked)) return reject(line, `checked "${checked}" is not YYYY-MM-DD`);
      rows.push({
        country, zip, kind, service, street: kind === 'address' ? (street ?? '') : '', city: city ?? '', region: region ?? '',
        source: source ?? '', sourceUrl: sourceUrl ?? '', checked: checked ?? '',
      });
    },
  );
  if (!headerOk) throw new DatasetError(`${origin}: no header row (expected ${RESHIPPER_COLUMNS.join(',')})`);
  return { rows, rejected, samples, version };
}

/** What a match reports as its source: the page's title and its URL, as recorded. */
export function entrySource(row: Pick<ReshipperRow, 'source' | 'sourceUrl'>): string {
  return [row.source, row.sourceUrl].filter((s) => s !== '').join(' ');
}

/** The rows as the matcher's entries (source = title and URL). */
export function toEntries(rows: readonly ReshipperRow[]): ReshipperEntry[] {
  return rows.map((r) => ({ ...r, source: entrySource(r) }));
}

const quote = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Rows back to CSV with the canonical header (what an import stores). */
export function writeReshipperCsv(rows: readonly ReshipperRow[]): string {
  const lines = [RESHIPPER_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push([r.country, r.zip, r.street, r.city, r.region, r.service, r.kind, r.source, r.sourceUrl, r.checked].map(quote).join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * `vigil data import DIR` for DIR/reshippers/*.csv: every CSV file there (sorted by name) is
 * parsed, the accepted rows stored as one new version that replaces the bundled list. Refused rows
 * are counted and reported as "file: line N: why". Nothing is imported when no row is valid.
 */
export function importReshippers(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = resolve(dir, RESHIPPERS);
  if (!existsSync(src) || !statSync(src).isDirectory()) throw new DatasetError(`${src} is not a directory`);
  const files = readdirSync(src).filter((f) => f.toLowerCase().endsWith('.csv') && statSync(join(src, f)).isFile()).sort();
  if (files.length === 0) throw new DatasetError(`${src} holds no .csv file (columns ${RESHIPPER_COLUMNS.join(',')})`);
  const rows: ReshipperRow[] = [];
  const samples: string[] = [];
  let rejected = 0;
  for (const f of files) {
    const parsed = parseReshipperCsv(readFileSync(join(src, f), 'utf8'), f);
    rows.push(...parsed.rows);
    rejected += parsed.rejected;
    for (const s of parsed.samples) if (samples.length < 10) samples.push(`${f}: ${s}`);
  }
  if (rows.length === 0) throw new DatasetError(`${src}: no valid row in ${files.join(', ')}; nothing imported${samples[0] ? ` (${samples[0]})` : ''}`);
  const manifest = writeDatasetVersion(dataDir, RESHIPPERS, {
    file: RESHIPPERS_FILE,
    content: writeReshipperCsv(rows),
    source: files.map((f) => join(src, f)).join(', '),
    license: 'as supplied by the operator',
    count: rows.length,
  }, now);
  return { manifest, files, rejected, samples };
}
