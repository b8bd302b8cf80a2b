import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, createReadStream, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { collectGarbage } from './collect-garbage.ts';
import { forEachCsvRow } from './csv.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { datasetDir, DatasetError, writeDatasetVersionFile } from './dataset-store.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';

/**
 * The `geonames-postal` dataset: postal codes with a representative point (GeoNames postal code
 * data, as republished per country by zauberware/postal-codes-json-xml-csv). It answers "which
 * postal code is this (city, lat, lon)?" for IP lookups (src/data/postal-data.ts).
 *
 * Read from DIR/geonames-postal/: `postal_codes.csv.gz` (or `postal_codes.csv`), the concatenated
 * form the shared data holds, and/or the upstream per-country files `zipcodes.<cc>.csv[.gz]`.
 * Columns are found by header name, so the column order does not matter.
 *
 * Stored as `postal.tsv`: a header line, then one `country, zip, place, lat, lon, state` line per
 * point, lat/lon rounded to 4 decimals (about 11 m, the precision GeoNames publishes), sorted by
 * country and then by the normalised place name so the loader can build its name index without
 * sorting again. Exact duplicate lines (the concatenated file plus per-country files) are dropped.
 */
export const GEONAMES_POSTAL = 'geonames-postal';
export const GEONAMES_POSTAL_FILE = 'postal.tsv';
export const GEONAMES_POSTAL_HEADER = 'country\tzip\tplace\tlat\tlon\tstate';
export const GEONAMES_POSTAL_LICENSE = 'CC BY 4.0 (GeoNames postal code data via zauberware/postal-codes-json-xml-csv; attribution to GeoNames required)';

const COMBINED = /^postal_codes\.csv(\.gz)?$/i;
const PER_COUNTRY = /^zipcodes\.[a-z]{2}\.csv(\.gz)?$/i;

/**
 * Place-name key used both when sorting the stored file and when matching a city at lookup time:
 * diacritics stripped (NFD, marks removed), lower case, and the few Latin letters that NFD does
 * not decompose folded by hand, so 'München', 'Munchen' and 'MUNCHEN' (or 'Łódź' and 'Lodz')
 * compare equal. Pure-ASCII names (most of them) skip the Unicode work, which keeps the
 * loader's pass over 1.2 M names near 200 ms.
 */
const ASCII = /^[\x20-\x7e]*$/;
const MARKS = /\p{M}+/gu;
const FOLD: Readonly<Record<string, string>> = { ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', æ: 'ae', œ: 'oe', ı: 'i', ħ: 'h' };
const FOLDABLE = /[ßøłđðþæœıħ]/g;

function slowKey(name: string): string {
  return name.normalize('NFD').replace(MARKS, '').toLowerCase().replace(FOLDABLE, (c) => FOLD[c] ?? c);
}

/**
 * The key of each Latin-1 and Latin Extended-A character ('é' -> 'e', 'Ł' -> 'l', 'ß' -> 'ss'),
 * from the same NFD path: names in those scripts (most non-ASCII ones: Portuguese, Polish, French,
 * Turkish ...) are keyed by table, about five times faster than normalize() and the regexes.
 */
const LATIN: readonly string[] = Array.from({ length: 0x180 }, (_, c) => (/\s/.test(String.fromCharCode(c)) ? ' ' : slowKey(String.fromCharCode(c))));

export function placeKey(name: string): string {
  let k: string;
  if (ASCII.test(name)) k = name.toLowerCase();
  else {
    k = '';
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c >= 0x180) {
        k = slowKey(name).replace(/\s+/g, ' ');
        break;
      }
      k += LATIN[c] as string;
    }
  }
  // Stored names are already trimmed and single-spaced; only a query needs the regex.
  return k.charCodeAt(0) === 32 || k.charCodeAt(k.length - 1) === 32 || k.includes('  ') ? k.trim().replace(/ {2,}/g, ' ') : k;
}

/** Tabs, newlines and other control characters would break the TSV (and the sort order the loader relies on). */
// eslint-disable-next-line no-control-regex
const DIRTY = /[\u0000-\u001f\u007f]| {2}|^ | $/;
const clean = (s: string | undefined): string => {
  if (s === undefined) return '';
  // One test first: almost every field is already clean, and the replaces cost more than the test.
  // eslint-disable-next-line no-control-regex
  return DIRTY.test(s) ? s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/ {2,}/g, ' ').trim() : s;
};
const degrees = (s: string | undefined): number => (s === undefined || s.trim() === '' ? Number.NaN : Number(s));

/**
 * Degrees with at most 4 decimals (about 11 m, GeoNames' own precision). Text already written
 * that way ('52.517', '-0.1257': nearly every row) is kept as it is, since turning a number back
 * into text cost half a second over the whole file.
 */
const SHORT_DEGREES = /^-?\d{1,3}(\.\d{1,4})?$/;
const deg = (text: string, v: number): string => (SHORT_DEGREES.test(text) ? text : String(Math.round(v * 1e4) / 1e4));

const ALIASES = {
  country: ['country_code', 'country', 'countrycode'],
  zip: ['zipcode', 'postal_code', 'postalcode', 'postcode', 'zip'],
  place: ['place', 'place_name', 'placename', 'city'],
  state: ['state', 'admin_name1', 'region'],
  lat: ['latitude', 'lat'],
  lon: ['longitude', 'lon', 'lng'],
} as const;

type Column = keyof typeof ALIASES;

function columns(header: readonly string[]): Record<Column, number> | null {
  const h = header.map((c) => c.trim().toLowerCase());
  const find = (names: readonly string[]): number => h.findIndex((c) => names.includes(c));
  const out = {} as Record<Column, number>;
  for (const k of Object.keys(ALIASES) as Column[]) out[k] = find(ALIASES[k]);
  // place and state are optional: a point with only a zip still answers nearest-point lookups.
  return out.country < 0 || out.zip < 0 || out.lat < 0 || out.lon < 0 ? null : out;
}

export interface ParsedPostalCsv {
  /** Stored lines by country, then by place key (several lines share a place: 'Berlin' has 182). */
  byCountry: Map<string, Map<string, string[]>>;
  rows: number;
  rejected: number;
  samples: string[];
}

export const emptyParsedPostal = (): ParsedPostalCsv => ({ byCountry: new Map(), rows: 0, rejected: 0, samples: [] });

/**
 * One CSV file into stored lines, added to `out`. A row is rejected (and counted) when its country
 * is not two letters, its zip is empty, or its lat/lon is missing, out of range or exactly 0,0 (the
 * "null island" placeholder of rows whose coordinates were never filled in). Null for a header
 * without the needed columns.
 */
export function parsePostalCsv(text: string, out: ParsedPostalCsv = emptyParsedPostal(), lineOffset = 0): ParsedPostalCsv | null {
  let known = false;
  let hasPlace = false;
  let hasState = false;
  forEachCsvRow(
    text,
    (header) => {
      const col = columns(header);
      if (col === null) return null;
      known = true;
      hasPlace = col.place >= 0;
      hasState = col.state >= 0;
      // Picked in this order: country, zip, lat, lon, then place and state when the file has them.
      return [col.country, col.zip, col.lat, col.lon, ...(hasPlace ? [col.place] : []), ...(hasState ? [col.state] : [])];
    },
    (f, lineNo) => {
      const country = clean(f[0]).toUpperCase();
      const zip = clean(f[1]);
      const lat = degrees(f[2]);
      const lon = degrees(f[3]);
      if (
        country.length !== 2 || !/^[A-Z]{2}$/.test(country) || zip === '' || !Number.isFinite(lat) || !Number.isFinite(lon)
        || lat < -90 || lat > 90 || lon < -180 || lon > 180 || (lat === 0 && lon === 0)
      ) {
        out.rejected++;
        if (out.samples.length < 5) out.samples.push(`line ${lineNo + lineOffset}: ${f.join(',').slice(0, 120)}`);
        return;
      }
      const place = hasPlace ? clean(f[4]) : '';
      const state = hasState ? clean(f[hasPlace ? 5 : 4]) : '';
      let places = out.byCountry.get(country);
      if (places === undefined) out.byCountry.set(country, (places = new Map<string, string[]>()));
      const key = placeKey(place);
      // join makes one flat string; a template literal would keep a tree of the field slices alive.
      const line = [country, zip, place, deg(f[2] as string, lat), deg(f[3] as string, lon), state].join('\t');
      const lines = places.get(key);
      if (lines === undefined) places.set(key, [line]);
      else lines.push(line);
      out.rows++;
    },
  );
  return known ? out : null;
}

/** Code-unit order, the order the loader's binary search over place keys relies on (not localeCompare). */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The stored file: countries in order, within each the place keys in code-unit order, within a
 * place its lines sorted (so the output is deterministic) with exact duplicates dropped — the
 * combined file and a per-country file may both be present.
 */
export function postalTsv(parsed: ParsedPostalCsv): { content: string; count: number } {
  const lines = [GEONAMES_POSTAL_HEADER];
  for (const country of [...parsed.byCountry.keys()].sort(byCodeUnit)) for (const line of countryBlock(parsed.byCountry.get(country) as Map<string, string[]>)) lines.push(line);
  return { content: lines.join('\n') + '\n', count: lines.length - 1 };
}

/** One country's stored lines: place keys in code-unit order, each place's lines sorted, exact duplicates dropped. */
function countryBlock(places: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const key of [...places.keys()].sort(byCodeUnit)) {
    const group = places.get(key) as string[];
    if (group.length > 1) group.sort(byCodeUnit);
    let prev = '';
    for (const line of group) {
      if (line !== prev) out.push(line);
      prev = line;
    }
  }
  return out;
}

/** About 1 MB of CSV per parse: the whole 88 MB file as one string (and its 1.2 M rows at once) took the import to 900 MB. */
const CHUNK_BYTES = 1024 * 1024;
const LF = 0x0a;
const QUOTE = 0x22;

/**
 * Where a piece of CSV starting at `start` can end: just after the first line end at or after
 * `minEnd` that is outside quotes (an even number of quotes since `start`), so a quoted field with
 * a line break stays whole and no UTF-8 character is split. -1 when `bytes` has no such line end yet.
 */
function cutAfter(bytes: Buffer, start: number, minEnd: number): number {
  let quotes = 0;
  for (let i = start; i < minEnd; i++) if (bytes[i] === QUOTE) quotes++;
  let from = minEnd;
  for (;;) {
    const lf = bytes.indexOf(LF, from);
    if (lf < 0) return -1;
    for (let i = from; i < lf; i++) if (bytes[i] === QUOTE) quotes++;
    if (quotes % 2 === 0) return lf + 1;
    from = lf + 1;
  }
}

/** A piece of a CSV file: its header line then whole rows, the file line of its first row, and how far into the file it ends. */
export interface CsvPiece {
  text: string;
  firstLine: number;
  end: number;
}

/** Splits CSV bytes arriving in chunks into pieces of about `chunkBytes`, each led by the header line. */
export class CsvPieces {
  #pending: Buffer = Buffer.alloc(0);
  #header: Buffer | null = null;
  #line = 2;
  #consumed = 0;

  constructor(private readonly chunkBytes = CHUNK_BYTES) {}

  /** The pieces complete once `chunk` is added (with `final`, the rest as well). */
  *push(chunk: Buffer, final = false): Generator<CsvPiece> {
    let bytes = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    if (this.#header === null) {
      const headerEnd = bytes.indexOf(LF);
      if (headerEnd < 0 && !final) {
        this.#pending = bytes;
        return;
      }
      const cut = headerEnd < 0 ? bytes.length : headerEnd + 1;
      this.#header = Buffer.from(bytes.subarray(0, cut));
      this.#consumed += cut;
      bytes = bytes.subarray(cut);
    }
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.length - start > this.chunkBytes ? cutAfter(bytes, start, start + this.chunkBytes) : -1;
      if (end < 0) {
        if (!final) break;
        end = bytes.length;
      }
      yield this.#piece(bytes, start, end);
      start = end;
    }
    // A copy: the rest must not keep the whole chunk it was cut from alive.
    this.#pending = Buffer.from(bytes.subarray(start));
  }

  #piece(bytes: Buffer, start: number, end: number): CsvPiece {
    // One flat string per piece (a concatenation would leave a rope that every indexOf walks).
    const text = Buffer.concat([this.#header ?? Buffer.alloc(0), bytes.subarray(start, end)]).toString('utf8');
    const firstLine = this.#line;
    for (let i = bytes.indexOf(LF, start); i >= 0 && i < end; i = bytes.indexOf(LF, i + 1)) this.#line++;
    this.#consumed += end - start;
    return { text, firstLine, end: this.#consumed };
  }
}

/** The files of DIR/geonames-postal/ to read: the combined file (gzipped first) and the per-country files. */
function postalSourceFiles(dir: string): { src: string; names: string[] } {
  const src = resolve(dir, GEONAMES_POSTAL);
  if (!existsSync(src) || !statSync(src).isDirectory()) throw new DatasetError(`${src} is not a directory`);
  const all = readdirSync(src).filter((n) => !n.startsWith('.') && statSync(join(src, n)).isFile()).sort();
  // The gzipped and the plain combined file hold the same rows: read one of them, the gzipped first.
  const combined = all.find((n) => COMBINED.test(n) && /\.gz$/i.test(n)) ?? all.find((n) => COMBINED.test(n));
  const names = [...(combined === undefined ? [] : [combined]), ...all.filter((n) => PER_COUNTRY.test(n))];
  if (names.length === 0) throw new DatasetError(`${src} holds neither postal_codes.csv(.gz) nor zipcodes.<cc>.csv files`);
  return { src, names };
}

/**
 * The import's state between pieces: each piece's rows appended to a temp file per country, then
 * the stored TSV written country by country (each sorted on its own) straight to disk, hashed as
 * it goes. Memory stays near one piece's and one country's rows rather than the whole file's.
 */
class PostalSpill {
  readonly #spill = mkdtempSync(join(tmpdir(), 'vigil-postal-'));
  readonly #countries = new Set<string>();
  rows = 0;
  rejected = 0;
  readonly samples: string[] = [];
  readonly files: string[] = [];

  /** One piece of file `name`; false when its header lacks the needed columns (the file is skipped). */
  add(name: string, piece: CsvPiece): boolean {
    const parsed = parsePostalCsv(piece.text, emptyParsedPostal(), piece.firstLine - 2);
    if (parsed === null) return false;
    this.rows += parsed.rows;
    this.rejected += parsed.rejected;
    for (const sample of parsed.samples) if (this.samples.length < 5) this.samples.push(`${name}: ${sample}`);
    for (const [country, places] of parsed.byCountry) {
      this.#countries.add(country);
      const lines: string[] = [];
      for (const group of places.values()) for (const line of group) lines.push(line);
      appendFileSync(join(this.#spill, country), lines.join('\n') + '\n');
    }
    return true;
  }

  skipped(name: string): void {
    if (this.samples.length < 5) this.samples.push(`${name}: header lacks country_code, zipcode, latitude or longitude; skipped`);
  }

  /** Writes the stored file and makes it the current version. */
  finish(dataDir: string, src: string, names: readonly string[], now: Date, progress: Progress): ImportReport {
    if (this.rows === 0) throw new DatasetError(`${src}: no valid postal code row in ${names.join(', ')}; nothing imported`);
    const dir = datasetDir(dataDir, GEONAMES_POSTAL);
    mkdirSync(dir, { recursive: true });
    const out = join(dir, `.incoming-${process.pid}-${Date.now()}.tsv`);
    try {
      const fd = openSync(out, 'w');
      const hash = createHash('sha256');
      let count = 0;
      const write = (text: string): void => {
        const b = Buffer.from(text, 'utf8');
        hash.update(b);
        writeSync(fd, b);
      };
      try {
        write(GEONAMES_POSTAL_HEADER + '\n');
        // The reading's garbage (a Map of every 1 MB piece) goes before the countries are sorted: see collectGarbage.
        collectGarbage();
        const sorted = [...this.#countries].sort(byCodeUnit);
        for (const [i, country] of sorted.entries()) {
          const places = new Map<string, string[]>();
          for (const line of readFileSync(join(this.#spill, country), 'utf8').split('\n')) {
            if (line === '') continue;
            const key = placeKey(line.split('\t', 3)[2] ?? '');
            const group = places.get(key);
            if (group === undefined) places.set(key, [line]);
            else group.push(line);
          }
          const block = countryBlock(places);
          places.clear();
          count += block.length;
          // In slices: one string and one buffer of a whole large country (207,000 Portuguese rows) would double its memory.
          for (let k = 0; k < block.length; k += 5000) write(block.slice(k, k + 5000).join('\n') + '\n');
          progress.step?.('writing postal.tsv', i + 1, sorted.length, 'countries');
          // A large country's sort (Portugal: 207,000 lines) leaves tens of MB: collected before the next large one.
          if (block.length > 50_000) collectGarbage();
        }
      } finally {
        closeSync(fd);
      }
      const manifest = writeDatasetVersionFile(dataDir, GEONAMES_POSTAL, {
        file: GEONAMES_POSTAL_FILE, path: out, sha256: hash.digest('hex'), source: `${src} (${this.files.join(', ')})`, license: GEONAMES_POSTAL_LICENSE, count,
      }, now);
      return { manifest, files: this.files, rejected: this.rejected, samples: this.samples };
    } finally {
      rmSync(out, { force: true });
    }
  }

  close(): void {
    rmSync(this.#spill, { recursive: true, force: true });
  }
}

function readBytes(path: string): Buffer {
  try {
    const raw = readFileSync(path);
    return /\.gz$/i.test(path) ? gunzipSync(raw) : raw;
  } catch (err) {
    throw new DatasetError(`${path}: unreadable (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * Imports DIR/geonames-postal/ as a new version of `geonames-postal`. Malformed rows are skipped and
 * counted; with no valid row at all nothing is written and the current version stays current.
 * Synchronous (tests, and IMPORTERS' other callers): each file is decompressed whole (88 MB for the
 * shared file); `importGeonamesPostalStreaming` (the CLI's) reads it as a stream instead.
 */
export function importGeonamesPostal(dataDir: string, dir: string, now: Date = new Date(), progress: Progress = NO_PROGRESS): ImportReport {
  const { src, names } = postalSourceFiles(dir);
  const spill = new PostalSpill();
  try {
    for (const name of names) {
      const bytes = readBytes(join(src, name));
      let known = true;
      for (const piece of new CsvPieces().push(bytes, true)) {
        known = spill.add(name, piece);
        if (!known) break;
        progress.step?.(`reading ${name}`, piece.end, bytes.length);
      }
      if (known) spill.files.push(name);
      else spill.skipped(name);
    }
    return spill.finish(dataDir, src, names, now, progress);
  } finally {
    spill.close();
  }
}

/** importGeonamesPostal reading each file as a stream (gunzipped as it comes): no file is ever whole in memory. */
export async function importGeonamesPostalStreaming(dataDir: string, dir: string, now: Date = new Date(), progress: Progress = NO_PROGRESS): Promise<ImportReport> {
  const { src, names } = postalSourceFiles(dir);
  const spill = new PostalSpill();
  try {
    for (const name of names) {
      const path = join(src, name);
      const size = statSync(path).size;
      const file = createReadStream(path);
      const input = /\.gz$/i.test(name) ? file.pipe(createGunzip()) : file;
      const pieces = new CsvPieces();
      let known = true;
      try {
        for await (const chunk of input) {
          for (const piece of pieces.push(chunk as Buffer)) known &&= spill.add(name, piece);
          if (!known) break;
          progress.step?.(`reading ${name}`, file.bytesRead, size);
        }
        if (known) for (const piece of pieces.push(Buffer.alloc(0), true)) known &&= spill.add(name, piece);
      } catch (err) {
        throw new DatasetError(`${path}: unreadable (${err instanceof Error ? err.message : String(err)})`);
      } finally {
        file.destroy();
      }
      if (known) spill.files.push(name);
      else spill.skipped(name);
    }
    return spill.finish(dataDir, src, names, now, progress);
  } finally {
    spill.close();
  }
}
