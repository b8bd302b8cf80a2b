import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DatasetError } from './dataset-store.ts';

/**
 * Helpers shared by the IP-list and ASN importers: finding the files of DIR/<name>/ (in the shared
 * layout, the upstream repository layout, or as one downloaded file), reading them gzipped or not,
 * splitting CSV lines, and counting what was rejected.
 */

/** Files that describe a dataset rather than hold it. */
const NOT_DATA = /^(?:source|readme|license|licence|credits|changelog)(?:\.[a-z]+)?$/i;

/** DIR/<name> resolved; a DatasetError when it is not a directory. */
export function sourceDir(dir: string, name: string): string {
  const src = resolve(dir, name);
  if (!existsSync(src) || !statSync(src).isDirectory()) throw new DatasetError(`${src} is not a directory`);
  return src;
}

/**
 * Every regular, non-hidden data file under `src`, recursively, as `/`-separated paths relative to
 * it, sorted. Recursive because the upstream repositories keep their lists in sub-directories
 * (`output/vpn/ipv4.txt`, `tags/tags-vpn.csv`) and an operator may copy such a tree as it is.
 */
export function listSourceFiles(src: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (depth < 4) walk(p, depth + 1);
      } else if (entry.isFile() && !NOT_DATA.test(entry.name)) {
        out.push(relative(src, p).split(sep).join('/'));
      }
    }
  };
  walk(src, 0);
  return out.sort();
}

/** A file's text, gunzipped when it is gzip (judged by its magic bytes, not its name: a download may be either), BOM dropped. */
export function readSourceText(path: string): string {
  let raw = readFileSync(path);
  if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      raw = gunzipSync(raw);
    } catch (err) {
      throw new DatasetError(`${path}: corrupt gzip (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const text = raw.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The lines of a text, CRLF or LF. */
export const linesOf = (text: string): string[] => text.split(/\r?\n/);

/**
 * One CSV line (RFC 4180 without embedded newlines, which none of these lists use): quoted fields
 * with doubled quotes; a stray quote inside an unquoted field is kept as text (as most readers
 * do). Null when a quoted field is unterminated or followed by anything but a comma, so a broken
 * line is rejected on its own instead of swallowing the lines after it, as a whole-file reader would.
 */
export function parseCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (i < n && line.charCodeAt(i) === 34) {
      let field = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return null;
        field += line.slice(i, q);
        if (line.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      out.push(field);
      if (i === n) return out;
      if (line.charCodeAt(i) !== 44) return null;
      i++;
      if (i === n) { out.push(''); return out; }
    } else {
      const comma = line.indexOf(',', i);
      if (comma < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, comma));
      i = comma + 1;
      if (i === n) { out.push(''); return out; }
    }
  }
}

/** A field fit for the tab-separated stored form: no tabs or newlines, trimmed. */
export const cleanField = (s: string | undefined): string => (s ?? '').replace(/[\t\r\n]+/g, ' ').trim();

/** `AS13335`, `as13335` or `13335` as a number; null unless 1 to 4294967295 (AS0 is reserved, RFC 7607). */
export function parseAsn(s: string | undefined): number | null {
  const m = /^(?:AS)?(\d{1,10})$/i.exec((s ?? '').trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 0xffffffff ? n : null;
}

/** Rejected lines of an import: counted, the first few kept (file and text) for the report. */
export class Rejects {
  count = 0;
  readonly samples: string[] = [];

  add(file: string, line: string): void {
    this.count++;
    this.note(`${file}: ${line.slice(0, 120)}`);
  }

  /** A remark for the report that is not a rejected line (a skipped file). */
  note(text: string): void {
    if (this.samples.length < 5) this.samples.push(text);
  }
}
