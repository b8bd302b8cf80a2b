import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BinRecord } from '../../intel/bin/types.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';

/**
 * The `bin-list` dataset: issuer records by BIN prefix or range, imported from the public CSV
 * layouts (detected by header, any number of `*.csv` files in DIR/bin-list/ or DIR/bin-binlist/):
 *
 * - binlist/data `ranges.csv`: iin_start, iin_end, number_length, number_luhn, scheme, brand, type, prepaid, country, bank_*
 * - binlist/data `iin-user-contributions.csv`: iin, card_brand, card_sub_brand, card_type, card_category, country_code, bank_*
 * - iannuttall/binlist-data `binlist-data.csv`: bin, brand, type, category, issuer, alpha_2, alpha_3, country, latitude, longitude, bank_phone, bank_url
 * - venelinkochev/bin-list-data `bin-list-data.csv`: BIN, Brand, Type, Category, Issuer, IssuerPhone, IssuerUrl, isoCode2, isoCode3, CountryName
 *
 * Stored normalised as one tab-separated record per line (`bins.tsv`). No card number is ever in
 * these files; only prefixes of 4 to 11 digits are kept.
 */
export const BIN_LIST = 'bin-list';
/** Sub-directories of DIR the importer reads (the shared data calls it bin-binlist). */
export const BIN_LIST_DIRS = [BIN_LIST, 'bin-binlist'] as const;
export const BIN_LIST_FILE = 'bins.tsv';

const COLUMNS = ['start', 'end', 'scheme', 'brand', 'type', 'prepaid', 'commercial', 'country', 'bank', 'city', 'url', 'phone', 'logo', 'latitude', 'longitude', 'length', 'luhn'] as const;

/** RFC 4180 CSV: quoted fields with doubled quotes and embedded newlines, CRLF or LF. */
export function parseCsv(text: string, onRow: (row: string[]) => void): void {
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      onRow(row);
      row = [];
      field = '';
    } else field += ch;
    i++;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    onRow(row);
  }
}

type Layout = 'binlist-ranges' | 'binlist-contributions' | 'iannuttall' | 'venelinkochev';

function detectLayout(header: readonly string[]): Layout | null {
  const h = new Set(header.map((c) => c.trim().toLowerCase()));
  if (h.has('iin_start')) return 'binlist-ranges';
  if (h.has('iin') && h.has('card_brand')) return 'binlist-contributions';
  if (h.has('bin') && h.has('alpha_2')) return 'iannuttall';
  if (h.has('bin') && h.has('isocode2')) return 'venelinkochev';
  return null;
}

const clean = (s: string | undefined): string => (s ?? '').replace(/[\t\r\n]+/g, ' ').trim();
const COMMERCIAL = /BUSINESS|CORPORATE|COMMERCIAL|PURCHAS|FLEET/i;

function cardType(s: string): string {
  const t = s.toLowerCase();
  if (t.startsWith('debit')) return 'debit';
  if (t.startsWith('credit')) return 'credit';
  if (t.startsWith('charge')) return 'charge';
  return '';
}

function yesNo(s: string): boolean | null {
  const t = s.toLowerCase();
  if (t === 'y' || t === 'yes' || t === 'true' || t === '1') return true;
  if (t === 'n' || t === 'no' || t === 'false' || t === '0') return false;
  return null;
}

/** Product level as written by the dataset, in Title Case (CLASSIC -> Classic). */
function level(s: string): string {
  const t = clean(s);
  if (t === '' || /[a-z]/.test(t)) return t;
  return t.toLowerCase().replace(/(^|[\s/-])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase());
}

function toRecord(layout: Layout, get: (name: string) => string): BinRecord | null {
  const base = { prepaid: null, commercial: null, city: '', logo: '', latitude: '', longitude: '', length: 0, luhn: null } as const;
  let r: BinRecord;
  switch (layout) {
    case 'binlist-ranges': {
      const start = get('iin_start');
      const brand = level(get('brand'));
      r = {
        ...base, start, end: get('iin_end') || start, scheme: get('scheme').toLowerCase(), brand, type: cardType(get('type')),
        prepaid: yesNo(get('prepaid')), commercial: COMMERCIAL.test(brand) ? true : null, country: get('country').toUpperCase(),
        bank: get('bank_name'), city: get('bank_city'), url: get('bank_url'), phone: get('bank_phone'), logo: get('bank_logo'),
        length: Number.parseInt(get('number_length'), 10) || 0, luhn: yesNo(get('number_luhn')),
      };
      break;
    }
    case 'binlist-contributions': {
      const cat = level(get('card_category'));
      r = {
        ...base, start: get('iin'), end: get('iin'), scheme: get('card_brand').toLowerCase(), brand: cat, type: cardType(get('card_type')),
        commercial: COMMERCIAL.test(cat) ? true : null, prepaid: /PREPAID/i.test(cat) ? true : null, country: get('country_code').toUpperCase(),
        bank: get('bank_name'), city: get('bank_city'), url: get('bank_url'), phone: get('bank_phone'),
      };
      break;
    }
    case 'iannuttall': {
      const cat = level(get('category'));
      r = {
        ...base, start: get('bin'), end: get('bin'), scheme: get('brand').toLowerCase(), brand: cat, type: cardType(get('type')),
        commercial: COMMERCIAL.test(cat) ? true : null, prepaid: /PREPAID/i.test(cat) ? true : null, country: get('alpha_2').toUpperCase(),
        bank: get('issuer'), url: get('bank_url'), phone: get('bank_phone'), latitude: get('latitude'), longitude: get('longitude'),
      };
      break;
    }
    case 'venelinkochev': {
      const cat = level(get('category'));
      r = {
        ...base, start: get('bin'), end: get('bin'), scheme: get('brand').toLowerCase(), brand: cat, type: cardType(get('type')),
        commercial: COMMERCIAL.test(cat) ? true : null, prepaid: /PREPAID/i.test(cat) ? true : null, country: get('isocode2').toUpperCase(),
        bank: get('issuer'), url: get('issuerurl'), phone: get('issuerphone'),
      };
      break;
    }
  }
  if (!/^\d{4,11}$/.test(r.start) || !/^\d{4,11}$/.test(r.end) || r.start.length !== r.end.length || r.end < r.start) return null;
  if (!/^[A-Z]{2}$/.test(r.country)) r.country = '';
  return r;
}

export interface ParsedBinFile {
  layout: Layout;
  records: BinRecord[];
  rejected: number;
  samples: string[];
}

/** One CSV file in any of the known layouts; null when the header is none of them. */
export function parseBinCsv(text: string): ParsedBinFile | null {
  let header: string[] | null = null;
  let layout: Layout | null = null;
  let index = new Map<string, number>();
  const records: BinRecord[] = [];
  const samples: string[] = [];
  let rejected = 0;
  let unknown = false;
  parseCsv(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, (row) => {
    if (unknown) return;
    if (header === null) {
      header = row;
      layout = detectLayout(row);
      if (layout === null) { unknown = true; return; }
      index = new Map(row.map((c, i) => [c.trim().toLowerCase(), i]));
      return;
    }
    if (row.length === 1 && row[0] === '') return;
    const get = (name: string): string => clean(row[index.get(name) ?? -1]);
    const r = layout ? toRecord(layout, get) : null;
    if (r) records.push(r);
    else {
      rejected++;
      if (samples.length < 5) samples.push(row.join(',').slice(0, 120));
    }
  });
  return layout === null ? null : { layout, records, rejected, samples };
}

const PRIORITY: Readonly<Record<Layout, number>> = { 'binlist-ranges': 0, venelinkochev: 1, iannuttall: 2, 'binlist-contributions': 3 };

/** Records of several files merged per prefix: the more curated layout wins, gaps filled from the others. */
export function mergeBinRecords(files: readonly ParsedBinFile[]): BinRecord[] {
  const byKey = new Map<string, BinRecord>();
  for (const f of [...files].sort((a, b) => PRIORITY[a.layout] - PRIORITY[b.layout])) {
    for (const r of f.records) {
      const key = `${r.start}-${r.end}`;
      const had = byKey.get(key);
      if (!had) { byKey.set(key, { ...r }); continue; }
      for (const c of COLUMNS) {
        const v = had[c];
        if (v === '' || v === null || v === 0) (had as unknown as Record<string, unknown>)[c] = r[c];
      }
    }
  }
  return [...byKey.values()].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.end < b.end ? -1 : 1));
}

const enc = (v: string | number | boolean | null): string => (v === null ? '' : v === true ? 'y' : v === false ? 'n' : String(v));
const dec = (s: string | undefined): boolean | null => (s === 'y' ? true : s === 'n' ? false : null);

export function binRecordsToTsv(records: readonly BinRecord[]): string {
  return `${COLUMNS.join('\t')}\n${records.map((r) => COLUMNS.map((c) => enc(r[c])).join('\t')).join('\n')}\n`;
}

/** The stored `bins.tsv` back into records. */
export function parseBinTsv(content: string): BinRecord[] {
  const out: BinRecord[] = [];
  const lines = content.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const f = line.split('\t');
    const s = (k: number): string => f[k] ?? '';
    out.push({
      start: s(0), end: s(1), scheme: s(2), brand: s(3), type: s(4), prepaid: dec(f[5]), commercial: dec(f[6]), country: s(7), bank: s(8),
      city: s(9), url: s(10), phone: s(11), logo: s(12), latitude: s(13), longitude: s(14), length: Number(s(15)) || 0, luhn: dec(f[16]),
    });
  }
  return out;
}

/** Imports every `*.csv` of DIR/bin-list/ (or DIR/bin-binlist/) as a new version of `bin-list`. */
export function importBinList(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = BIN_LIST_DIRS.map((d) => resolve(dir, d)).find((p) => existsSync(p) && statSync(p).isDirectory());
  if (src === undefined) throw new DatasetError(`${resolve(dir)} holds no ${BIN_LIST_DIRS.join(' or ')} directory`);
  const names = readdirSync(src).filter((n) => !n.startsWith('.') && /\.csv$/i.test(n) && statSync(join(src, n)).isFile()).sort();
  if (names.length === 0) throw new DatasetError(`${src} holds no .csv file`);
  const parsed: ParsedBinFile[] = [];
  const files: string[] = [];
  const samples: string[] = [];
  let rejected = 0;
  for (const name of names) {
    const p = parseBinCsv(readFileSync(join(src, name), 'utf8'));
    if (p === null) {
      if (samples.length < 5) samples.push(`${name}: header is none of the known BIN layouts; skipped`);
      continue;
    }
    parsed.push(p);
    files.push(name);
    rejected += p.rejected;
    for (const s of p.samples) if (samples.length < 5) samples.push(`${name}: ${s}`);
  }
  const records = mergeBinRecords(parsed);
  if (records.length === 0) throw new DatasetError(`${src}: no BIN record in ${names.length} file(s); nothing imported`);
  const manifest = writeDatasetVersion(dataDir, BIN_LIST, {
    file: BIN_LIST_FILE,
    content: binRecordsToTsv(records),
    source: `${src} (${files.join(', ')})`,
    license: 'as supplied by the operator (binlist/data: none stated; iannuttall, venelinkochev: CC BY 4.0)',
    count: records.length,
  }, now);
  return { manifest, files, rejected, samples };
}
