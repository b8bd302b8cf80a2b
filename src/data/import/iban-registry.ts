import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IbanRegistryEntry } from '../../intel/iban/types.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';

export const IBAN_REGISTRY = 'iban-registry';
export const IBAN_REGISTRY_SOURCE_FILE = 'registry.txt';
export const IBAN_REGISTRY_FILE = 'registry.json';
/** php-iban's registry.txt is LGPL-3.0: kept as data, unchanged in meaning, with its licence named in the manifest. */
export const IBAN_REGISTRY_LICENSE = 'LGPL-3.0 (php-iban registry.txt, a transcription of the SWIFT IBAN Registry)';

const REQUIRED = [
  'country_code', 'country_name', 'iban_example', 'iban_length', 'bban_bankid_start_offset', 'bban_bankid_stop_offset', 'country_sepa',
  'swift_official', 'country_code_iana', 'currency_iso4217', 'central_bank_url', 'central_bank_name', 'membership',
] as const;

const text = (s: string | undefined): string | null => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};
const int = (s: string | undefined): number | null => (s !== undefined && /^\d+$/.test(s.trim()) ? Number(s.trim()) : null);

/** `www.bank.example` -> `https://www.bank.example` (the registry omits the scheme). */
function url(s: string | undefined): string | null {
  const t = text(s);
  if (t === null) return null;
  return /^https?:\/\//i.test(t) ? t : `https://${t}`;
}

/** Parses php-iban's pipe-separated registry.txt; lines that are not a country are counted as rejected. */
export function parseIbanRegistry(content: string): { entries: IbanRegistryEntry[]; rejected: number; samples: string[] } {
  const lines = content.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines[0] ?? '').split('|').map((h) => h.trim());
  const missing = REQUIRED.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new DatasetError(`not a php-iban registry: missing column(s) ${missing.join(', ')}`);
  const col = (cells: string[], name: (typeof REQUIRED)[number]): string | undefined => cells[header.indexOf(name)];
  const entries: IbanRegistryEntry[] = [];
  const samples: string[] = [];
  let rejected = 0;
  for (const line of lines.slice(1)) {
    const cells = line.split('|');
    const code = (col(cells, 'country_code') ?? '').trim().toUpperCase();
    const length = int(col(cells, 'iban_length'));
    const name = text(col(cells, 'country_name'));
    if (!/^[A-Z]{2}$/.test(code) || length === null || name === null) {
      rejected++;
      if (samples.length < 5) samples.push(line.slice(0, 120));
      continue;
    }
    entries.push({
      code,
      name,
      ibanExample: (col(cells, 'iban_example') ?? '').trim(),
      ibanLength: length,
      bankIdStart: int(col(cells, 'bban_bankid_start_offset')),
      bankIdStop: int(col(cells, 'bban_bankid_stop_offset')),
      sepa: col(cells, 'country_sepa')?.trim() === '1',
      swiftOfficial: col(cells, 'swift_official')?.trim() === '1',
      iana: text(col(cells, 'country_code_iana'))?.toLowerCase() ?? code.toLowerCase(),
      currency: text(col(cells, 'currency_iso4217'))?.toUpperCase() ?? null,
      centralBankUrl: url(col(cells, 'central_bank_url')),
      centralBankName: text(col(cells, 'central_bank_name')),
      membership: text(col(cells, 'membership')),
    });
  }
  // A ccTLD that is another country's code is a slip of the source (TD is written `cf`): use the country's own.
  const codes = new Set(entries.map((e) => e.code.toLowerCase()));
  for (const e of entries) if (e.iana !== e.code.toLowerCase() && codes.has(e.iana)) e.iana = e.code.toLowerCase();
  return { entries, rejected, samples };
}

/** The imported file back into a map by country code. */
export function readIbanRegistry(content: string): ReadonlyMap<string, IbanRegistryEntry> {
  const entries = JSON.parse(content) as IbanRegistryEntry[];
  return new Map(entries.map((e) => [e.code, e]));
}

/** Imports DIR/iban-registry/registry.txt as a new version of the `iban-registry` dataset. */
export function importIbanRegistry(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = resolve(dir, IBAN_REGISTRY, IBAN_REGISTRY_SOURCE_FILE);
  let content: string;
  try {
    content = readFileSync(src, 'utf8');
  } catch {
    throw new DatasetError(`${src} is not a readable file`);
  }
  const { entries, rejected, samples } = parseIbanRegistry(content);
  if (entries.length === 0) throw new DatasetError(`${src}: no country in the registry; nothing imported`);
  entries.sort((a, b) => a.code.localeCompare(b.code));
  const manifest = writeDatasetVersion(dataDir, IBAN_REGISTRY, {
    file: IBAN_REGISTRY_FILE,
    content: JSON.stringify(entries) + '\n',
    source: src,
    license: IBAN_REGISTRY_LICENSE,
    count: entries.length,
  }, now);
  return { manifest, files: [join(IBAN_REGISTRY, IBAN_REGISTRY_SOURCE_FILE)], rejected, samples };
}
