/**
 * Dictionary stage: finds listed words in normalised text. Whole words (with their leetspeak,
 * repeated-letter and homoglyph variants), spread-out letters, multi-word terms, Russian roots,
 * Arabic words with glued prefixes, substrings of Han/Kana runs, and obscenity's English patterns
 * (which catch compounds such as `motherfucker`). Whitelisted words are never flagged.
 */
import { findAbuse, mentions } from './abuse.ts';
import { formSpans, type FormSpan } from './features.ts';
import type { Normalized } from './normalize.ts';
import { respellToken } from './spelling.ts';
import { spreadTokens, tokenize, type Token } from './tokens.ts';
import type { AbuseKind, Hit, LexEntry, Lexicon, Severity } from './types.ts';

interface NormHit {
  from: number;
  to: number;
  severity: Severity;
  lang: string;
  kind?: AbuseKind;
}

/** Arabic letters (basic block and presentation forms are folded into it by normalize). */
const isArabic = (s: string): boolean => {
  const c = s.charCodeAt(0);
  return c >= 0x0600 && c <= 0x06ff;
};
const isCyrillic = (s: string): boolean => {
  const c = s.charCodeAt(0);
  return c >= 0x0400 && c <= 0x052f;
};

function lookupWord(lex: Lexicon, t: Token): LexEntry | undefined {
  for (const v of t.variants) {
    const e = lex.words.get(v);
    if (e) return e;
  }
  if (isArabic(t.raw)) {
    for (const p of lex.arabicPrefixes) {
      if (t.raw.length - p.length >= (p.length === 1 ? 3 : 2) && t.raw.startsWith(p)) {
        const e = lex.words.get(t.raw.slice(p.length));
        if (e) return e;
      }
    }
  }
  if (t.raw.includes('*')) return lookupMasked(lex, t.raw);
  return lookupPlural(lex, t.variants[t.variants.length - 1] ?? t.raw);
}

const PLURAL = /^[a-z]{4,}s$/;

/** English plurals of strong English swear words (`dipshits`, `twats`; the stem holds one of obscenity's patterns, so `twinkies` and `dongs` stay words): the lists mostly hold the singular. */
function lookupPlural(lex: Lexicon, form: string): LexEntry | undefined {
  if (form.charCodeAt(form.length - 1) !== 115 || !PLURAL.test(form) || lex.whitelist.has(form)) return undefined;
  for (const stem of form.endsWith('es') ? [form.slice(0, -1), form.slice(0, -2)] : [form.slice(0, -1)]) {
    const e = lex.words.get(stem);
    if (e?.lang === 'en' && e.severity === 'strong' && !lex.whitelist.has(stem) && !lex.senses.has(stem) && lex.matcher.findAll(stem).length > 0) return e;
  }
  return undefined;
}

/** `f*ck`, `sh**`: stars stand for letters; matches a strong word of the same length. */
function lookupMasked(lex: Lexicon, raw: string): LexEntry | undefined {
  const chars = [...raw];
  if (chars[0] === '*' || chars.filter((c) => c !== '*').length < 2) return undefined;
  for (const word of lex.maskable.get(chars.length) ?? []) {
    let ok = true;
    let k = 0;
    for (const c of word) {
      const m = chars[k++];
      if (m !== '*' && m !== c) {
        ok = false;
        break;
      }
    }
    if (ok) return { severity: 'strong', lang: 'en' };
  }
  return undefined;
}

function strongest(a: LexEntry | undefined, b: LexEntry | undefined): LexEntry | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.severity === 'strong' && a.severity !== 'strong' ? b : a;
}

function lookupRoot(lex: Lexicon, t: Token): LexEntry | undefined {
  for (const v of t.variants) {
    if (!isCyrillic(v)) continue;
    for (const p of lex.rootPrefixes) {
      if (!v.startsWith(p)) continue;
      for (const r of lex.roots.get(v.slice(p.length, p.length + 2)) ?? []) {
        if (v.startsWith(r.root, p.length)) return r.entry;
      }
    }
  }
  return undefined;
}

function scanCjk(lex: Lexicon, text: string, t: Token, out: NormHit[]): void {
  const allowed: Array<[number, number]> = [];
  for (const w of lex.cjkWhitelist) {
    for (let at = text.indexOf(w, t.from); at !== -1 && at + w.length <= t.to; at = text.indexOf(w, at + 1)) allowed.push([at, at + w.length]);
  }
  for (let p = t.from; p < t.to; p++) {
    const cands = lex.cjk.get(text[p] ?? '');
    if (!cands) continue;
    for (const c of cands) {
      const end = p + c.term.length;
      if (end <= t.to && text.startsWith(c.term, p)) {
        if (!allowed.some(([a, b]) => a <= p && end <= b)) {
          out.push({ from: p, to: end, severity: c.entry.severity, lang: c.entry.lang });
          p = end - 1;
        }
        break;
      }
    }
  }
}

function isWhitelisted(lex: Lexicon, t: Token): boolean {
  return lex.whitelist.has(t.raw) || (t.variants.length > 1 && t.variants.some((v) => lex.whitelist.has(v)));
}

/**
 * Tokens used in a harmless sense the text names (`dykes` with `Netherlands`, `dick` in
 * `Moby Dick`): true at their index.
 */
function harmlessSenses(lex: Lexicon, tokens: readonly Token[]): boolean[] {
  const out = tokens.map(() => false);
  let any = false;
  for (const t of tokens) if (!t.cjk && lex.senses.has(t.raw)) any = true;
  if (!any) return out;
  const present = new Set(tokens.map((t) => t.raw));
  tokens.forEach((t, i) => {
    const context = t.cjk ? undefined : lex.senses.get(t.raw);
    if (context) for (const w of context) if (present.has(w)) out[i] = true;
  });
  return out;
}

/**
 * Whole-word judgement of a pattern found inside a word: `assorted` and `Fukuoka` only contain
 * `ass` and `fuk`; `motherfucker`, `shitty` and `dickhead` are compounds of the bad word.
 */
function isCompound(lex: Lexicon, before: string, after: string): boolean {
  const ok = (part: string, set: ReadonlySet<string>): boolean => part === '' || set.has(part) || lex.words.get(part)?.severity === 'strong';
  return ok(before, lex.compoundPrefixes) && ok(after, lex.compoundSuffixes);
}

/** Tokens never flagged: whitelisted, or used in a harmless sense the text names. The model skips them too. */
export function excusedTokens(lex: Lexicon, tokens: readonly Token[]): boolean[] {
  const senses = harmlessSenses(lex, tokens);
  return tokens.map((t, i) => !t.cjk && (senses[i] === true || isWhitelisted(lex, t)));
}

/** True when a word list of the lexicon knows the form (it is never respelt). */
export function isListed(lex: Lexicon, form: string): boolean {
  return lex.words.has(form) || lex.whitelist.has(form);
}

/** The tokens of normalised text, misspelt and run-together abuse words respelt (spelling.ts). */
export function readTokens(lex: Lexicon, text: string): Token[] {
  const isWord = (f: string): boolean => isListed(lex, f);
  return tokenize(text).map((t) => respellToken(lex.speller, t, isWord));
}

/** The word forms of normalised text (features.ts formSpans), spread-out letters respelt too (`i h a t e`). */
export function readSpans(lex: Lexicon, text: string, tokens: readonly Token[]): FormSpan[] {
  return formSpans(text, tokens, (t) => respellToken(lex.speller, t, (f) => isListed(lex, f)));
}

/** Every listed word in `norm`, as spans of the original text, in order, overlaps merged. */
export function findHits(
  lex: Lexicon,
  norm: Normalized,
  tokens: readonly Token[] = readTokens(lex, norm.text),
  excused = excusedTokens(lex, tokens),
  spans: readonly FormSpan[] = readSpans(lex, norm.text, tokens),
  mentioned: ReadonlyArray<readonly [number, number]> = mentions(lex.abuse, norm.text, spans),
): Hit[] {
  const text = norm.text;
  const found: NormHit[] = [];
  const whitelisted = excused;

  tokens.forEach((t, i) => {
    if (t.cjk) {
      scanCjk(lex, text, t, found);
      return;
    }
    if (whitelisted[i]) return;
    const e = strongest(lookupWord(lex, t), lookupRoot(lex, t));
    if (e) found.push({ from: t.from, to: t.to, severity: e.severity, lang: e.lang });
    for (const ph of lex.phrases.get(t.raw) ?? []) {
      const span = tokens.slice(i + 1, i + 1 + ph.rest.length);
      const last = span[span.length - 1];
      if (last && span.length === ph.rest.length && span.every((s, k) => s.variants.includes(ph.rest[k] ?? ''))) {
        found.push({ from: t.from, to: last.to, severity: ph.entry.severity, lang: ph.entry.lang });
      }
    }
  });

  for (const s of spreadTokens(text, tokens)) {
    const t = { ...respellToken(lex.speller, s, (f) => isListed(lex, f)), parts: s.parts };
    if (isWhitelisted(lex, t)) continue;
    const e = lookupWord(lex, t);
    if (e) {
      found.push({ from: t.from, to: t.to, severity: e.severity, lang: e.lang });
      continue;
    }
    // "a f u c k i n g": the run may start with other words; report from the first matched letter.
    const m = [...t.raw].length === t.raw.length ? lex.matcher.findAll(t.raw)[0] : undefined;
    const first = m ? t.parts[m.start] : undefined;
    if (first) found.push({ from: first.from, to: t.to, severity: 'strong', lang: 'obscenity' });
  }

  for (const [sym, e] of lex.symbols) {
    for (let at = text.indexOf(sym); at !== -1; at = text.indexOf(sym, at + sym.length)) {
      found.push({ from: at, to: at + sym.length, severity: e.severity, lang: e.lang });
    }
  }

  if (tokens.some((t) => !t.cjk)) {
    for (const m of lex.matcher.findAll(text)) {
      // Report whole words: widen the match to the tokens it touches; skip it inside a whitelisted word.
      let from = m.start;
      let to = m.end;
      let allowed = false;
      const touched: Token[] = [];
      for (let i = firstTokenEndingAfter(tokens, m.start); i < tokens.length; i++) {
        const t = tokens[i];
        if (!t || t.from >= m.end) break;
        from = Math.min(from, t.from);
        to = Math.max(to, t.to);
        touched.push(t);
        if (whitelisted[i]) allowed = true;
      }
      if (allowed) continue;
      // Inside one word: the rest of the word must make a compound of the bad word, not another word.
      const only = touched.length === 1 ? touched[0] : undefined;
      if (only && !isCompound(lex, text.slice(only.from, m.start), text.slice(m.end, only.to))) continue;
      if (touched.length > 1 && (touched[0]?.from !== m.start || touched[touched.length - 1]?.to !== m.end)) continue;
      // A word the curated lists rate mild (`negro` is Spanish for black) stays mild.
      const own = touched.length === 1 && touched[0] ? lookupWord(lex, touched[0]) : undefined;
      found.push({ from, to, severity: own?.severity === 'mild' ? 'mild' : 'strong', lang: own?.lang ?? 'obscenity' });
    }
  }
  for (const a of findAbuse(lex.abuse, text, tokens, spans)) found.push(a);
  // Mentioned, not said: condemned quotes ("Statements like "women are scum" are hurtful") and named words.
  const kept = mentioned.length === 0 ? found : found.filter((h) => !mentioned.some(([a, b]) => a <= h.from && h.to <= b));
  return toOriginal(norm, merge(kept));
}

/** Index of the first token whose end is past `pos` (tokens are in order). */
function firstTokenEndingAfter(tokens: readonly Token[], pos: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((tokens[mid]?.to ?? 0) > pos) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Sorted, with hits inside another merged into it (the strongest severity wins). */
function merge(hits: NormHit[]): NormHit[] {
  hits.sort((a, b) => a.from - b.from || b.to - a.to);
  const out: NormHit[] = [];
  for (const h of hits) {
    const last = out[out.length - 1];
    if (last && h.from < last.to) {
      last.to = Math.max(last.to, h.to);
      if (h.severity === 'strong' && (last.severity !== 'strong' || (h.kind !== undefined && last.kind === undefined))) {
        last.severity = 'strong';
        last.lang = h.lang;
        last.kind = h.kind;
      }
    } else {
      out.push({ ...h });
    }
  }
  return out;
}

function toOriginal(norm: Normalized, hits: NormHit[]): Hit[] {
  return hits.map((h) => ({
    start: norm.start[h.from] ?? 0,
    end: norm.end[h.to - 1] ?? 0,
    severity: h.severity,
    lang: h.lang,
    ...(h.kind === undefined ? {} : { kind: h.kind }),
  }));
}
