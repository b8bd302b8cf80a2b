import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
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
 * - hexindai/bcbc (MIT) `data/bin.csv`: bin, bank, type, length: Chinese banks' cards, UnionPay's above all,
 *   with the bank's code and DC (debit), CC or SCC (credit); its `data/name.csv` (bank, name) gives
 *   the codes' names when it sits beside it
 *
 * Stored normalised as one tab-separated record per line (`bins.tsv`). No card number is ever in
 * these files; only prefixes of 4 to 11 digits are kept.
 */
export const BIN_LIST = 'bin-list';
/** Sub-directories of DIR the importer reads (the shared data calls it bin-binlist). */
export const BIN_LIST_DIRS = [BIN_LIST, 'bin-binlist'] as const;
export const BIN_LIST_FILE = 'bins.tsv';

const COLUMNS = ['start', 'end', 'scheme', 'brand', 'type', 'prepaid', 'commercial', 'country', 'bank', 'city', 'url', 'phone', 'logo', 'latitude', 'longitude', 'length', 'luhn'] as const;

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Index of the next comma or line break at or after `i` (or `text.length`). */
function fieldEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === LF || c === CR) return i;
    i++;
  }
  return n;
}

/**
 * RFC 4180 CSV: quoted fields with doubled quotes and embedded newlines, CRLF or LF. A quote opens
 * a quoted field only as its first character; text after the closing quote, up to the comma, is
 * kept. Fields are cut with slice, never built a character at a time: on a 340,000-row BIN list the
 * per-character concatenation held about 650 MB of string pieces and took 9 s.
 */
export function parseCsv(text: string, onRow: (row: string[]) => void): void {
  const n = text.length;
  let row: string[] = [];
  let i = 0;
  while (i < n) {
    let field: string;
    if (text.charCodeAt(i) === QUOTE) {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) {
          // Unterminated: the rest of the text is the field.
          value += text.slice(j);
          j = n;
          break;
        }
        if (text.charCodeAt(q + 1) === QUOTE) {
          value += text.slice(j, q + 1);
          j = q + 2;
          continue;
        }
        value += text.slice(j, q);
        j = q + 1;
        break;
      }
      const k = fieldEnd(text, j);
      field = k > j ? value + text.slice(j, k) : value;
      i = k;
    } else {
      const k = fieldEnd(text, i);
      field = text.slice(i, k);
      i = k;
    }
    row.push(field);
    if (i >= n) break;
    if (text.charCodeAt(i) === COMMA) {
      i++;
      // A comma ending the text leaves one empty field.
      if (i === n) row.push('');
      continue;
    }
    if (text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF) i++;
    i++;
    onRow(row);
    row = [];
  }
  // The text ended inside a row; a last row holding one empty field (`""` or a lone quote after the
  // final line break) is no row, as the reader always had it.
  if (row.length > 1 || (row.length === 1 && row[0] !== '')) onRow(row);
}

type Layout = 'binlist-ranges' | 'binlist-contributions' | 'iannuttall' | 'venelinkochev' | 'bcbc';

function detectLayout(header: readonly string[]): Layout | null {
  const h = new Set(header.map((c) => c.trim().toLowerCase()));
  if (h.has('iin_start')) return 'binlist-ranges';
  if (h.has('iin') && h.has('card_brand')) return 'binlist-contributions';
  if (h.has('bin') && h.has('alpha_2')) return 'iannuttall';
  if (h.has('bin') && h.has('isocode2')) return 'venelinkochev';
  if (h.has('bin') && h.has('bank') && h.has('type') && h.has('length')) return 'bcbc';
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

/**
 * Every record starts from this one literal, so all share one hidden class: built by spreading a
 * defaults object instead, 340,000 records took 2.4 s and slowed every later pass over them.
 */
function blankRecord(start: string, end: string): BinRecord {
  return {
    start, end, scheme: '', brand: '', type: '', prepaid: null, commercial: null, country: '', bank: '', city: '', url: '', phone: '', logo: '',
    latitude: '', longitude: '', length: 0, luhn: null,
  };
}

/**
 * bcbc's card types: DC 借记卡 (debit); CC 贷记卡 and SCC 准贷记卡 (quasi-credit: a deposit with an
 * overdraft), both credit cards in the People's Bank of China's classification of bank cards.
 */
const BCBC_TYPES: Readonly<Record<string, string>> = { DC: 'debit', CC: 'credit', SCC: 'credit' };

/** bcbc's bank codes to names (its name.csv), when the directory has it. */
export type BankNames = ReadonlyMap<string, string>;

function toRecord(layout: Layout, get: (name: string) => string, names: BankNames): BinRecord | null {
  let r: BinRecord;
  switch (layout) {
    case 'binlist-ranges': {
      const start = get('iin_start');
      r = blankRecord(start, get('iin_end') || start);
      r.brand = level(get('brand'));
      r.scheme = get('scheme').toLowerCase();
      r.type = cardType(get('type'));
      r.prepaid = yesNo(get('prepaid'));
      r.commercial = COMMERCIAL.test(r.brand) ? true : null;
      r.country = get('country').toUpperCase();
      r.bank = get('bank_name');
      r.city = get('bank_city');
      r.url = get('bank_url');
      r.phone = get('bank_phone');
      r.logo = get('bank_logo');
      r.length = Number.parseInt(get('number_length'), 10) || 0;
      r.luhn = yesNo(get('number_luhn'));
      break;
    }
    case 'binlist-contributions': {
      const iin = get('iin');
      r = blankRecord(iin, iin);
      r.brand = level(get('card_category'));
      r.scheme = get('card_brand').toLowerCase();
      r.type = cardType(get('card_type'));
      r.commercial = COMMERCIAL.test(r.brand) ? true : null;
      r.prepaid = /PREPAID/i.test(r.brand) ? true : null;
      r.country = get('country_code').toUpperCase();
      r.bank = get('bank_name');
      r.city = get('bank_city');
      r.url = get('bank_url');
      r.phone = get('bank_phone');
      break;
    }
    case 'iannuttall': {
      const bin = get('bin');
      r = blankRecord(bin, bin);
      r.brand = level(get('category'));
      r.scheme = get('brand').toLowerCase();
      r.type = cardType(get('type'));
      r.commercial = COMMERCIAL.test(r.brand) ? true : null;
      r.prepaid = /PREPAID/i.test(r.brand) ? true : null;
      r.country = get('alpha_2').toUpperCase();
      r.bank = get('issuer');
      r.url = get('bank_url');
      r.phone = get('bank_phone');
      r.latitude = get('latitude');
      r.longitude = get('longitude');
      break;
    }
    case 'venelinkochev': {
      const bin = get('bin');
      r = blankRecord(bin, bin);
      r.brand = level(get('category'));
      r.scheme = get('brand').toLowerCase();
      r.type = cardType(get('type'));
      r.commercial = COMMERCIAL.test(r.brand) ? true : null;
      r.prepaid = /PREPAID/i.test(r.brand) ? true : null;
      r.country = get('isocode2').toUpperCase();
      r.bank = get('issuer');
      r.url = get('issuerurl');
      r.phone = get('issuerphone');
      break;
    }
    case 'bcbc': {
      const bin = get('bin');
      r = blankRecord(bin, bin);
      r.type = BCBC_TYPES[get('type').toUpperCase()] ?? '';
      r.length = Number.parseInt(get('length'), 10) || 0;
      // The name with its code (`中国工商银行 (ICBC)`): the code gives `bank.id` a slug. No country: the
      // list mixes mainland banks with Hong Kong and Macau ones and says neither per row.
      const code = get('bank');
      const name = names.get(code.toUpperCase());
      r.bank = name ? `${name} (${code})` : code;
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
export function parseBinCsv(text: string, names: BankNames = new Map()): ParsedBinFile | null {
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
    const r = layout ? toRecord(layout, get, names) : null;
    if (r) records.push(r);
    else {
      rejected++;
      if (samples.length < 5) samples.push(row.join(',').slice(0, 120));
    }
  });
  return layout === null ? null : { layout, records, rejected, samples };
}

const PRIORITY: Readonly<Record<Layout, number>> = { 'binlist-ranges': 0, venelinkochev: 1, iannuttall: 2, 'binlist-contributions': 3, bcbc: 4 };

/** bcbc's `name.csv` (header bank, name) as a code-to-name map; null for any other file. */
export function parseBankNames(text: string): Map<string, string> | null {
  const names = new Map<string, string>();
  let header: string[] | null = null;
  let ok = true;
  parseCsv(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, (row) => {
    if (!ok) return;
    if (header === null) {
      header = row.map((c) => c.trim().toLowerCase());
      ok = header.length === 2 && header[0] === 'bank' && header[1] === 'name';
      return;
    }
    const code = clean(row[0]).toUpperCase();
    const name = clean(row[1]);
    if (code !== '' && name !== '') names.set(code, name);
  });
  return ok && header !== null ? names : null;
}

/** Records of several files merged per prefix: the more curated layout wins, gaps filled from the others. */
export function mergeBinRecords(files: readonly ParsedBinFile[]): BinRecord[] {
  const byKey = new Map<string, BinRecord>();
  // Records are copied only when a second file fills one of their gaps (the inputs stay untouched);
  // a single 340,000-row file is not copied at all.
  const copies = new Set<BinRecord>();
  for (const f of [...files].sort((a, b) => PRIORITY[a.layout] - PRIORITY[b.layout])) {
    for (const r of f.records) {
      const key = `${r.start}-${r.end}`;
      let had = byKey.get(key);
      if (!had) { byKey.set(key, r); continue; }
      for (const c of COLUMNS) {
        const v = had[c];
        if (v !== '' && v !== null && v !== 0) continue;
        const w = r[c];
        if (w === '' || w === null || w === 0) continue;
        if (!copies.has(had)) {
          had = { ...had };
          copies.add(had);
          byKey.set(key, had);
        }
        (had as unknown as Record<string, unknown>)[c] = w;
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
  // Scheme, level, type and country take a few hundred values: one string each instead of one per
  // record (a 340,000-record list is held by every running server; about 40 MB less). Issuer
  // fields are left alone: hashing their long strings cost more time than it saved memory.
  const seen = new Map<string, string>();
  const once = (v: string): string => {
    const had = seen.get(v);
    if (had !== undefined) return had;
    seen.set(v, v);
    return v;
  };
  const lines = content.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const f = line.split('\t');
    const s = (k: number): string => f[k] ?? '';
    out.push({
      start: s(0), end: s(1), scheme: once(s(2)), brand: once(s(3)), type: once(s(4)), prepaid: dec(f[5]), commercial: dec(f[6]), country: once(s(7)),
      bank: s(8), city: s(9), url: s(10), phone: s(11), logo: s(12), latitude: s(13), longitude: s(14), length: Number(s(15)) || 0,
      luhn: dec(f[16]),
    });
  }
  return out;
}

/** The first line of a file (its first 4 KB at most). */
function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.toString('utf8', 0, n).split('\n')[0] ?? '';
  } finally {
    closeSync(fd);
  }
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
  // Name files first (told by their first line, so a large BIN list is not read twice): the BIN
  // files of the same directory use them.
  const bankNames = new Map<string, string>();
  const nameFiles = new Set<string>();
  for (const name of names) {
    if (!/^\uFEFF?bank,name\r?$/i.test(firstLine(join(src, name)))) continue;
    const m = parseBankNames(readFileSync(join(src, name), 'utf8'));
    if (m === null) continue;
    nameFiles.add(name);
    for (const [code, bank] of m) bankNames.set(code, bank);
  }
  for (const name of names) {
    if (nameFiles.has(name)) continue;
    const p = parseBinCsv(readFileSync(join(src, name), 'utf8'), bankNames);
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
