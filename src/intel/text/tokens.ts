/**
 * Word tokens of normalised text, with the variants a word can hide behind: leetspeak
 * (`sh1t`, `a$$`), repeated letters (`fuuuck`), homoglyphs from another script (`fuсk` with a
 * Cyrillic `с`), and single letters spread out with separators (`f.u.c.k`, `f u c k`).
 */

export interface Token {
  /** Index of the first and one past the last UTF-16 unit in the normalised text. */
  readonly from: number;
  readonly to: number;
  /** The token as normalised (lower case, accents folded). */
  readonly raw: string;
  /** Forms to look up, `raw` first, without duplicates. */
  readonly variants: readonly string[];
  /** Han, Hiragana or Katakana: matched by substring scan instead of whole words. */
  readonly cjk: boolean;
}

const LETTER = /\p{L}/u;
const WORDCHAR = /[\p{L}\p{N}\p{M}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;
/**
 * `@ $ ! | *` stand for letters inside a word (charClass); `! | *` are punctuation at the edge of
 * one ("hello!", "*ok*"), while `$` and `@` stay ("a$$", "$hit").
 */
const EDGE_PUNCTUATION = new Set(['!', '|', '*']);
const LEET: Readonly<Record<string, string>> = {
  '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', '$': 's', '!': 'i', '|': 'l',
};
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd',
};
const GREEK_TO_LATIN: Readonly<Record<string, string>> = {
  'α': 'a', 'β': 'b', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ς': 's', 'σ': 's',
};
const LATIN_TO_CYRILLIC: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CYRILLIC_TO_LATIN).filter(([c]) => 'авекмнорстух'.includes(c)).map(([c, l]) => [l, c]),
);

/** Separators allowed between spread-out single letters. */
const SPREAD_GAP = /^[\s.\-_*,+~·•/\\:;'"`^=#]{1,3}$/u;

/** Runs of 3+ identical characters shortened to 2, and every run shortened to 1. */
function collapseRuns(s: string): [string, string] {
  let two = '';
  let one = '';
  let prev = '';
  let run = 0;
  for (const ch of s) {
    run = ch === prev ? run + 1 : 1;
    prev = ch;
    if (run <= 2) two += ch;
    if (run === 1) one += ch;
  }
  return [two, one];
}

function mapChars(s: string, table: Readonly<Record<string, string>>): string {
  let out = '';
  for (const ch of s) out += table[ch] ?? ch;
  return out;
}

/** Every lookup form of one token. */
export function variantsOf(raw: string): string[] {
  const out = new Set<string>([raw]);
  const bases = [raw];
  let hasLetter = false;
  let hasLeet = false;
  let latin = 0;
  let cyr = 0;
  let greek = 0;
  for (const ch of raw) {
    if (LETTER.test(ch)) {
      hasLetter = true;
      if (LATIN.test(ch)) latin++;
      else if (CYRILLIC.test(ch)) cyr++;
      else if (GREEK.test(ch)) greek++;
    }
    if (LEET[ch] !== undefined) hasLeet = true;
  }
  if (hasLetter && raw.includes('*')) bases.push(raw.replaceAll('*', ''));
  if (hasLetter && hasLeet) bases.push(mapChars(raw, LEET));
  if (latin > 0 && (cyr > 0 || greek > 0)) {
    for (const b of [...bases]) {
      bases.push(mapChars(mapChars(b, CYRILLIC_TO_LATIN), GREEK_TO_LATIN));
      if (cyr > latin) bases.push(mapChars(b, LATIN_TO_CYRILLIC));
    }
  }
  for (const b of bases) {
    out.add(b);
    // Only a run of 3+ is deliberate: shortening ordinary double letters turns "bitte" into "bite".
    if (hasLongRun(b)) {
      const [two, one] = collapseRuns(b);
      out.add(two);
      out.add(one);
    }
  }
  return [...out];
}

/** Class of each ASCII character: 1 word character (letters, digits, `@ $ ! | *`), else 0. */
const ASCII_CLASS = new Uint8Array(128).map((_, c) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 64 || c === 36 || c === 33 || c === 124 || c === 42 ? 1 : 0);

/** 0 not a word character, 1 word character, 2 word character of a CJK script. ASCII is decided without regex. */
function charClass(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return ASCII_CLASS[c] ?? 0;
  const ch = text[i] ?? '';
  if (c >= 0x2e80 && CJK.test(ch)) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const pair = text.slice(i, i + 2);
    if (CJK.test(pair)) return 2;
    return WORDCHAR.test(pair) ? 1 : 0;
  }
  return WORDCHAR.test(ch) ? 1 : 0;
}


/** Splits normalised text into tokens (see the module comment); CJK runs are tokens of their own. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c0 = text.charCodeAt(i);
    const cls = c0 < 0x80 ? (ASCII_CLASS[c0] ?? 0) : charClass(text, i);
    if (cls === 0) {
      i++;
      continue;
    }
    // `plain`: only a-z, the common case, which needs no variants beyond runs of 3.
    let plain = c0 >= 97 && c0 <= 122;
    let j = i + 1;
    while (j < n) {
      const d = text.charCodeAt(j);
      const dc = d < 0x80 ? (ASCII_CLASS[d] ?? 0) : charClass(text, j);
      if (dc !== cls) break;
      if (plain && !(d >= 97 && d <= 122)) plain = false;
      j++;
    }
    let from = i;
    let to = j;
    if (!plain) {
      while (to > from && EDGE_PUNCTUATION.has(text[to - 1] ?? '')) to--;
      while (from < to && EDGE_PUNCTUATION.has(text[from] ?? '')) from++;
    }
    if (to > from) {
      const raw = text.slice(from, to);
      const cjk = cls === 2;
      tokens.push({ from, to, raw, variants: cjk || (plain && !hasLongRun(raw)) ? [raw] : variantsOf(raw), cjk });
    }
    i = j;
  }
  return tokens;
}

function isOneCodePoint(s: string): boolean {
  return s.length === 1 || (s.length === 2 && (s.codePointAt(0) ?? 0) > 0xffff);
}

/** True when a character repeats 3 times or more in a row. */
function hasLongRun(s: string): boolean {
  for (let i = 2; i < s.length; i++) if (s[i] === s[i - 1] && s[i] === s[i - 2]) return true;
  return false;
}

/** A word written as spread-out letters; `parts` are the single-letter tokens, one per character of `raw`. */
export interface SpreadToken extends Token {
  readonly parts: readonly Token[];
}

/**
 * Joined tokens for letters spread out with separators: `f.u.c.k` or `f u c k` gives one token
 * `fuck` spanning the whole run (at least 3 single letters, the same separator width or less).
 */
export function spreadTokens(text: string, tokens: readonly Token[]): SpreadToken[] {
  const out: SpreadToken[] = [];
  let k = 0;
  while (k < tokens.length) {
    let m = k;
    while (m < tokens.length) {
      const t = tokens[m];
      if (!t || t.cjk || !isOneCodePoint(t.raw)) break;
      const next = tokens[m + 1];
      if (!next || next.cjk || !isOneCodePoint(next.raw) || !SPREAD_GAP.test(text.slice(t.to, next.from))) break;
      m++;
    }
    if (m - k >= 2) {
      const run = tokens.slice(k, m + 1);
      const first = run[0];
      const last = run[run.length - 1];
      if (first && last) {
        const joined = run.map((t) => LEET[t.raw] ?? t.raw).join('');
        out.push({ from: first.from, to: last.to, raw: joined, variants: variantsOf(joined), cjk: false, parts: run });
      }
      k = m + 1;
    } else {
      k++;
    }
  }
  return out;
}

/** True for a character of a script written without spaces (matched by substring scan). */
export function isCjk(ch: string): boolean {
  return CJK.test(ch);
}
