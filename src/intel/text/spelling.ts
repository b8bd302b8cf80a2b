/**
 * Misspelt abuse (issue 24, HateCheck's `spell_*` functionalities): a word one typo away from a
 * word of the abuse vocabulary (`haet`, `disgutsed`, `stupd`, `womn`) is read as that word, and two
 * words run together (`ihate`, `sosickening`, `immigrantvermin`) are read apart, before the word
 * lists, the abuse patterns and the model see the text.
 *
 * What keeps ordinary words ordinary (the Scunthorpe problem, in both directions):
 * - only the abuse vocabulary is corrected to (`SPELLING_KEYS_EN`, words of 4 letters or more),
 *   never an arbitrary dictionary;
 * - one typo only, never on the first letter: two adjacent letters swapped (words of 4 letters or
 *   more), or one letter left out (words of 5 letters or more);
 * - a form is never corrected when it is a word itself: listed in any word list of the lexicon,
 *   or in the English, German, French and Spanish dictionaries (`ordinary`, the collisions found
 *   when the data was written: `lack` and `back` are not `black`, `therapist` is not
 *   `the rapist`, `viel` is not `vile`; src/data/text-spelling.ts).
 * - a run-together word is split only into an abuse word of 4 letters or more and a word of a
 *   short list (pronouns, intensifiers, group names) or another abuse word.
 */
import type { Token } from './tokens.ts';

export interface SpellingData {
  /** Words a typo is corrected to (normalised, a-z). */
  readonly keys: readonly string[];
  /** Keys whose 5-letter forms may lose a letter too (names of groups, harmless alone: `womn`, `blck`). */
  readonly shortDrop: readonly string[];
  /** Words that may stand next to a key in a run-together word (`i`, `so`, `just`, `women`). */
  readonly partners: readonly string[];
  /** Forms that are ordinary words, never corrected nor split. */
  readonly ordinary: readonly string[];
}

export interface Speller {
  /** Typo → the key it stands for (forms one typo from two keys are left out). */
  readonly fixes: ReadonlyMap<string, string>;
  readonly keys: ReadonlySet<string>;
  readonly partners: ReadonlySet<string>;
  readonly ordinary: ReadonlySet<string>;
  /** Forms already read (most texts repeat their words): form → what it reads as. */
  readonly cache: Map<string, string>;
}

/** Entries kept in Speller.cache before it is emptied (bounds memory on unusual traffic). */
const CACHE_MAX = 50_000;

const AZ = /^[a-z]+$/;
/** Shortest key found inside a run-together word. */
const MIN_SPLIT_KEY = 4;
/** Shortest and longest run-together word looked at (the longest bounds the work on a 10,000-letter "word"). */
const MIN_SPLIT = 5;
const MAX_SPLIT = 30;

/**
 * One typo of `word`, the first letter kept: adjacent letters swapped (4+ letters), one letter
 * dropped (6+ letters, or 5 with `shortDrop`: a 4-letter remainder is too often a word or slang of
 * its own, `chik` is not `chink`).
 */
export function typosOf(word: string, shortDrop = false): string[] {
  const out = new Set<string>();
  if (word.length >= 4) {
    for (let i = 1; i + 1 < word.length; i++) {
      if (word[i] === word[i + 1]) continue;
      out.add(word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2));
    }
  }
  if (word.length >= (shortDrop ? 5 : 6)) for (let i = 1; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  out.delete(word);
  return [...out];
}

/** Compiles the data; `isWord` tells a form that a word list knows (it is never corrected). */
export function compileSpeller(data: SpellingData, isWord: (form: string) => boolean): Speller {
  const keys = new Set(data.keys.filter((k) => AZ.test(k)));
  const partners = new Set(data.partners);
  const ordinary = new Set(data.ordinary);
  const fixes = new Map<string, string>();
  const ambiguous = new Set<string>();
  const shortDrop = new Set(data.shortDrop);
  for (const k of keys) {
    for (const t of typosOf(k, shortDrop.has(k))) {
      if (keys.has(t) || partners.has(t) || ordinary.has(t) || isWord(t)) continue;
      const prev = fixes.get(t);
      if (prev !== undefined && prev !== k) ambiguous.add(t);
      else fixes.set(t, k);
    }
  }
  for (const t of ambiguous) fixes.delete(t);
  return { fixes, keys, partners, ordinary, cache: new Map() };
}

/** The two words of a run-together form (`ihate` → `i hate`), or null. */
export function splitRunTogether(sp: Speller, form: string): string | null {
  if (form.length < MIN_SPLIT || form.length > MAX_SPLIT || sp.ordinary.has(form)) return null;
  for (let i = 1; i < form.length; i++) {
    const a = form.slice(0, i);
    const b = form.slice(i);
    const ka = a.length >= MIN_SPLIT_KEY && sp.keys.has(a);
    const kb = b.length >= MIN_SPLIT_KEY && sp.keys.has(b);
    if ((ka && (kb || sp.partners.has(b))) || (kb && sp.partners.has(a))) return `${a} ${b}`;
  }
  return null;
}

/** What a word form reads as: itself, its key (`haet` → `hate`) or its two words (`ihate` → `i hate`). */
export function respellForm(sp: Speller, form: string, isWord: (form: string) => boolean): string {
  if (form.length < 4 || sp.keys.has(form) || sp.partners.has(form)) return form;
  const cached = sp.cache.get(form);
  if (cached !== undefined) return cached;
  const out = readForm(sp, form, isWord);
  if (sp.cache.size >= CACHE_MAX) sp.cache.clear();
  sp.cache.set(form, out);
  return out;
}

function readForm(sp: Speller, form: string, isWord: (form: string) => boolean): string {
  if (!AZ.test(form)) return form;
  const fix = sp.fixes.get(form);
  if (fix !== undefined) return fix;
  if (isWord(form)) return form;
  return splitRunTogether(sp, form) ?? form;
}

/** The token with its respelt form added as its last (most resolved) variant, or the token itself. */
export function respellToken(sp: Speller, t: Token, isWord: (form: string) => boolean): Token {
  if (t.cjk) return t;
  const form = t.variants[t.variants.length - 1] ?? t.raw;
  const fixed = respellForm(sp, form, isWord);
  return fixed === form ? t : { ...t, variants: [...t.variants, fixed] };
}
