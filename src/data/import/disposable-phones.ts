import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dayNumber } from '../../intel/phone/disposable.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';

export const DISPOSABLE_PHONES = 'disposable-phone-numbers';
/** What the import reads: `{"<E.164 digits>": "YYYY-MM-DD"}`, gzipped (iP1SMS/disposable-phone-numbers). */
export const DISPOSABLE_PHONES_SOURCE = 'number-list.json.gz';
/** The stored form: one `digits<TAB>YYYY-MM-DD` line per number, sorted. */
export const DISPOSABLE_PHONES_FILE = 'numbers.tsv';

/**
 * Imports DIR/disposable-phone-numbers/number-list.json.gz (or number-list.json) as a new version of
 * the receive-SMS list. Keys must be 7 to 15 digits (E.164 without +) and dates real YYYY-MM-DD
 * days; other entries are skipped and counted. Recency and blocks are judged at request time
 * (src/intel/phone/disposable.ts), so the stored data is the list itself.
 */
export function importDisposablePhones(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = resolve(dir, DISPOSABLE_PHONES);
  const gz = join(src, DISPOSABLE_PHONES_SOURCE);
  const plain = join(src, 'number-list.json');
  const file = existsSync(gz) ? gz : existsSync(plain) ? plain : null;
  if (file === null) throw new DatasetError(`${src} holds neither ${DISPOSABLE_PHONES_SOURCE} nor number-list.json`);
  let parsed: unknown;
  try {
    const raw = readFileSync(file);
    parsed = JSON.parse((file === gz ? gunzipSync(raw) : raw).toString('utf8'));
  } catch (err) {
    throw new DatasetError(`${file}: not a gzipped JSON object (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new DatasetError(`${file}: expected a JSON object {digits: date}`);
  const lines: string[] = [];
  const samples: string[] = [];
  let rejected = 0;
  for (const [digits, date] of Object.entries(parsed)) {
    if (/^[1-9]\d{6,14}$/.test(digits) && typeof date === 'string' && !Number.isNaN(dayNumber(date))) {
      lines.push(`${digits}\t${date}`);
    } else {
      rejected++;
      if (samples.length < 5) samples.push(`${digits.slice(0, 40)}: ${JSON.stringify(date).slice(0, 40)}`);
    }
  }
  if (lines.length === 0) throw new DatasetError(`${file}: no valid entry; nothing imported`);
  lines.sort();
  const manifest = writeDatasetVersion(dataDir, DISPOSABLE_PHONES, {
    file: DISPOSABLE_PHONES_FILE,
    content: lines.join('\n') + '\n',
    source: file,
    license: 'MIT (iP1SMS/disposable-phone-numbers) or as supplied by the operator',
    count: lines.length,
  }, now);
  return { manifest, files: [file.slice(src.length + 1)], rejected, samples };
}
