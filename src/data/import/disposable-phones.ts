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
  let text: string;
  try {
    const raw = readFileSync(file);
    text = (file === gz ? gunzipSync(raw) : raw).toString('utf8');
  } catch (err) {
    throw new DatasetError(`${file}: not a gzipped JSON object (${err instanceof Error ? err.message : String(err)})`);
  }
  let lines: string[] = [];
  let samples: string[] = [];
  let rejected = 0;
  const take = (digits: string, date: unknown): void => {
    if (/^[1-9]\d{6,14}$/.test(digits) && typeof date === 'string' && !Number.isNaN(dayNumber(date))) {
      lines.push(`${digits}\t${date}`);
    } else {
      rejected++;
      if (samples.length < 5) samples.push(`${digits.slice(0, 40)}: ${JSON.stringify(date).slice(0, 40)}`);
    }
  };
  // The list as it is published (a flat object of strings) is read pair by pair: JSON.parse made an object of
  // 126,000 properties and Object.entries as many arrays, about 90 MB for a 4 MB file. Anything else is parsed whole.
  if (!forEachStringPair(text, take)) {
    lines = [];
    samples = [];
    rejected = 0;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new DatasetError(`${file}: not a gzipped JSON object (${err instanceof Error ? err.message : String(err)})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new DatasetError(`${file}: expected a JSON object {digits: date}`);
    for (const [digits, date] of Object.entries(parsed)) take(digits, date);
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

/** `"key": "value"` with plain JSON strings (escapes allowed), then `,` or the closing brace. */
const PAIR = /\s*"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"\s*([,}])/y;

/**
 * Calls `pair` with each key and value of a JSON object whose values are all strings, read with one sticky
 * regex and no object built. False as soon as the text is anything else (nested values, numbers, not an
 * object): the caller then parses it whole. Escaped strings are decoded by JSON.parse, as JSON.parse would.
 */
export function forEachStringPair(text: string, pair: (key: string, value: string) => void): boolean {
  const open = /^\s*\{/.exec(text);
  if (open === null) return false;
  if (/^\s*\}\s*$/.test(text.slice(open[0].length))) return true;
  const decode = (s: string): string => (s.includes('\\') ? (JSON.parse(`"${s}"`) as string) : s);
  PAIR.lastIndex = open[0].length;
  for (;;) {
    const m = PAIR.exec(text);
    if (m === null) return false;
    pair(decode(m[1] ?? ''), decode(m[2] ?? ''));
    if (m[3] === '}') return /^\s*$/.test(text.slice(PAIR.lastIndex));
  }
}
