/**
 * Text normalisation for the profanity engine: one pass over the code points that removes what
 * hides a word (zero-width and format characters, accents, fullwidth and styled letters, Arabic
 * diacritics and tatweel) and lower-cases, while remembering where every output character came
 * from so a match can be reported as written.
 */

/** The normalised text and, per UTF-16 unit of it, the original span [start, end) it came from. */
export interface Normalized {
  readonly text: string;
  readonly start: readonly number[];
  readonly end: readonly number[];
}

/** Unicode code points in `s` (the unit of the 10,000-character limit). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const FORMAT = /^\p{Cf}$/u;
/** Characters that render as nothing (or as a blank filler): used to split words invisibly. */
function isInvisible(cp: number, ch: string): boolean {
  return FORMAT.test(ch) || cp === 0x034f || cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0 || cp === 0x0640 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}
const MARK = /^\p{M}$/u;
const STRIP_MARKS_BASE = /[\u00c0-\u024f\u1e00-\u1eff\u0370-\u03ff\u0400-\u04ff]/u;
const KANA_VOICING = /^[\u3099\u309a]$/u;

// Arabic letter variants written interchangeably (hamza carriers, alef maqsura, teh marbuta).
const ARABIC_FOLD: Readonly<Record<string, string>> = { 'أ': 'ا', 'إ': 'ا', 'آ': 'ا', 'ٱ': 'ا', 'ى': 'ي', 'ة': 'ه', 'ؤ': 'و', 'ئ': 'ي' };
const EXTRA_FOLD: Readonly<Record<string, string>> = { ...ARABIC_FOLD, 'ß': 'ss', 'ſ': 's', 'ı': 'i', 'ł': 'l', 'ø': 'o', 'đ': 'd', 'æ': 'ae', 'œ': 'oe' };

// Folding a non-ASCII code point is a few normalize() calls; texts repeat characters, so memoise.
const foldCache = new Map<number, string>();

/** The folded, lower-case form of one non-ASCII code point ('' when it is dropped). */
function foldCodePoint(cp: number): string {
  const hit = foldCache.get(cp);
  if (hit !== undefined) return hit;
  const ch = String.fromCodePoint(cp);
  let out: string;
  if (isInvisible(cp, ch)) out = '';
  else if (MARK.test(ch)) out = KANA_VOICING.test(ch) ? ch : '';
  else {
    out = '';
    for (const k of ch.normalize('NFKC').toLowerCase()) {
      let f = k;
      if (STRIP_MARKS_BASE.test(f)) f = f.normalize('NFD').replace(/\p{M}/gu, '');
      out += EXTRA_FOLD[f] ?? f;
    }
  }
  if (foldCache.size < 20_000) foldCache.set(cp, out);
  return out;
}

/** Normalises `input` for matching; see the module comment. */
export function normalize(input: string): Normalized {
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  const n = input.length;
  for (let i = 0; i < n; ) {
    if (input.charCodeAt(i) < 0x80) {
      // ASCII runs in one piece: lower-cased, one unit per unit.
      let j = i + 1;
      while (j < n && input.charCodeAt(j) < 0x80) j++;
      text += input.slice(i, j).toLowerCase();
      for (let k = i; k < j; k++) {
        start.push(k);
        end.push(k + 1);
      }
      i = j;
      continue;
    }
    const cp = input.codePointAt(i) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    const f = foldCodePoint(cp);
    if (f.length > 0) {
      if (MARK.test(f) && text.length > 0) {
        // A kept combining mark belongs to the previous character: widen its span.
        text += f;
        start.push(start[start.length - 1] ?? i);
        end.push(i + len);
      } else {
        text += f;
        for (let k = 0; k < f.length; k++) {
          start.push(i);
          end.push(i + len);
        }
      }
    }
    i += len;
  }
  return { text, start, end };
}
