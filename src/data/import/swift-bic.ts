import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';

export const SWIFT_BIC = 'swift-bic-codes';
export const SWIFT_BIC_CSV = 'swift_codes_all_countries.csv.gz';
export const SWIFT_BIC_RAW_DIR = 'gcc-jo-raw';
export const SWIFT_BIC_FILE = 'bics.tsv';
/** The countries whose IBAN names its bank by code (SA, AE need the national tables; KW, BH, QA, JO use the BIC's first four letters). */
export const BIC_COUNTRIES: ReadonlySet<string> = new Set(['SA', 'AE', 'KW', 'BH', 'QA', 'JO']);

export interface BicRecord {
  country: string;
  /** The 8-character BIC (institution, country, location). */
  bic: string;
  bank: string;
}

const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** RFC 4180 fields of one CSV line (quoted fields with `""` escapes; no embedded newlines in this file). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out;
}

function record(country: unknown, bic: unknown, bank: unknown): BicRecord | null {
  if (typeof country !== 'string' || typeof bic !== 'string' || typeof bank !== 'string') return null;
  const code = bic.trim().toUpperCase();
  const cc = country.trim().toUpperCase();
  const name = bank.replace(/[\t\r\n]+/g, ' ').trim();
  if (!BIC.test(code) || code.slice(4, 6) !== cc || name === '' || !BIC_COUNTRIES.has(cc)) return null;
  return { country: cc, bic: code.slice(0, 8), bank: name };
}

/** Parses the directory's CSV (country_code,country,bank,city,branch,swift_code), keeping the six Gulf countries. */
export function parseBicCsv(content: string): { records: BicRecord[]; rejected: number } {
  const lines = content.split(/\r?\n/);
  const header = csvFields(lines[0] ?? '').map((h) => h.trim());
  const [ci, bi, si] = ['country_code', 'bank', 'swift_code'].map((h) => header.indexOf(h));
  if (ci === undefined || bi === undefined || si === undefined || ci < 0 || bi < 0 || si < 0) {
    throw new DatasetError('not a SWIFT code directory: needs the columns country_code, bank and swift_code');
  }
  const records: BicRecord[] = [];
  let rejected = 0;
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const f = csvFields(line);
    const cc = (f[ci] ?? '').trim().toUpperCase();
    if (!BIC_COUNTRIES.has(cc)) continue;
    const r = record(cc, f[si], f[bi]);
    if (r) records.push(r); else rejected++;
  }
  return { records, rejected };
}

/** Parses one `{country_code, list: [{bank, swift_code}]}` file of the directory. */
export function parseBicJson(content: string): { records: BicRecord[]; rejected: number } {
  const doc = JSON.parse(content) as { country_code?: unknown; list?: unknown };
  if (!Array.isArray(doc.list)) throw new DatasetError('not a SWIFT code country file: no "list"');
  const records: BicRecord[] = [];
  let rejected = 0;
  for (const item of doc.list as Array<Record<string, unknown>>) {
    const r = record(doc.country_code, item.swift_code, item.bank);
    if (r) records.push(r); else rejected++;
  }
  return { records, rejected };
}

/** The imported file (`CC\tBIC8\tBANK` lines) back into records. */
export function readBics(content: string): BicRecord[] {
  const out: BicRecord[] = [];
  for (const line of content.split('\n')) {
    const [country, bic, bank] = line.split('\t');
    if (country && bic && bank) out.push({ country, bic, bank });
  }
  return out;
}

/**
 * Imports DIR/swift-bic-codes: the per-country JSON files of gcc-jo-raw/ and/or the all-countries
 * CSV (gzip), keeping the BICs of SA, AE, KW, BH, QA and JO with their bank names.
 */
export function importSwiftBic(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = resolve(dir, SWIFT_BIC);
  const files: string[] = [];
  const all = new Map<string, BicRecord>();
  let rejected = 0;
  const add = (parsed: { records: BicRecord[]; rejected: number }): void => {
    rejected += parsed.rejected;
    for (const r of parsed.records) if (!all.has(`${r.country}${r.bic}`)) all.set(`${r.country}${r.bic}`, r);
  };
  const raw = join(src, SWIFT_BIC_RAW_DIR);
  if (existsSync(raw)) {
    for (const f of readdirSync(raw).filter((n) => n.endsWith('.json')).sort()) {
      add(parseBicJson(readFileSync(join(raw, f), 'utf8')));
      files.push(join(SWIFT_BIC, SWIFT_BIC_RAW_DIR, f));
    }
  }
  const csv = join(src, SWIFT_BIC_CSV);
  if (existsSync(csv)) {
    let content: string;
    try {
      content = gunzipSync(readFileSync(csv)).toString('utf8');
    } catch {
      throw new DatasetError(`${csv} is not a readable gzip file`);
    }
    add(parseBicCsv(content));
    files.push(join(SWIFT_BIC, SWIFT_BIC_CSV));
  }
  if (files.length === 0) throw new DatasetError(`${src} holds neither ${SWIFT_BIC_RAW_DIR}/*.json nor ${SWIFT_BIC_CSV}`);
  if (all.size === 0) throw new DatasetError(`${src}: no BIC of SA, AE, KW, BH, QA or JO; nothing imported`);
  const sorted = [...all.values()].sort((a, b) => (a.country + a.bic).localeCompare(b.country + b.bic));
  const manifest = writeDatasetVersion(dataDir, SWIFT_BIC, {
    file: SWIFT_BIC_FILE,
    content: sorted.map((r) => `${r.country}\t${r.bic}\t${r.bank}`).join('\n') + '\n',
    source: `${src} (${files.map((f) => f.slice(SWIFT_BIC.length + 1)).join(', ')})`,
    license: 'MIT (PeterNotenboom/SwiftCodes)',
    count: sorted.length,
  }, now);
  return { manifest, files, rejected, samples: [] };
}
