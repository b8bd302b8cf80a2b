/**
 * Abuse without swear words (threats, incitement to self-harm, hate against a group, addressed
 * insults) and the harmless senses of listed words. Pure: the rules are compiled once at start
 * from src/data/text-abuse.ts by compileAbuse, and findAbuse runs them over one text.
 *
 * Word patterns run over the text's word forms joined by single spaces (see formSpans), so one
 * regular expression pass covers every language written with spaces, obfuscations included
 * (`k1ll yourself`); Han/Kana patterns run over the CJK runs.
 */
import { formSpans, type FormSpan } from './features.ts';
import type { Token } from './tokens.ts';
import type { AbuseKind, Severity } from './types.ts';

export interface AbusePatternDef {
  readonly lang: string;
  readonly kind: AbuseKind;
  readonly source: string;
}

export interface AbuseData {
  readonly patterns: readonly AbusePatternDef[];
  readonly cjkPatterns: readonly AbusePatternDef[];
  /** Address words with their language (normalised). */
  readonly address: ReadonlyArray<readonly [string, string]>;
  readonly cjkAddress: readonly string[];
  readonly negations: readonly string[];
  /** Insults said to someone, with their language (normalised; Han/Kana terms under `cjk`). */
  readonly insults: ReadonlyArray<readonly [string, string]>;
  readonly cjkInsults: ReadonlyArray<readonly [string, string]>;
  /** Arabic prefixes glued to a word; `يا` among them addresses. */
  readonly arabicPrefixes: readonly string[];
  /** Group + hostile word in one sentence (text-abuse.ts GROUP_HOSTILITY). */
  /** Words that report or negate an English threat or hate statement before it in its sentence. */
  readonly counterSpeech: readonly string[];
  /** Words outside quotation marks that make what is quoted reported speech (text-abuse.ts QUOTE_FRAME_EN). */
  readonly quoteFrame: readonly string[];
  /** Insults that are weak evidence even when addressed to no one (text-abuse.ts WEAK_INSULTS_EN). */
  readonly weakInsults: readonly string[];
  /** Naming a word after a negated or questioned `call` (text-abuse.ts NAMING_EN). */
  readonly naming: { readonly verbs: readonly string[]; readonly objects: readonly string[]; readonly negators: readonly string[] };
  readonly groupHostility: { readonly lang: string; readonly groups: readonly string[]; readonly hostile: readonly string[]; readonly negations: readonly string[] };
}

export interface AbuseRules {
  readonly words: RegExp | null;
  readonly wordDefs: readonly AbusePatternDef[];
  readonly cjk: RegExp | null;
  readonly cjkDefs: readonly AbusePatternDef[];
  /** Address word → its languages. */
  readonly address: ReadonlyMap<string, readonly string[]>;
  readonly cjkAddress: readonly string[];
  readonly negations: ReadonlySet<string>;
  /** Insult → its languages. */
  readonly insults: ReadonlyMap<string, readonly string[]>;
  readonly cjkInsults: ReadonlyArray<readonly [string, string]>;
  readonly arabicPrefixes: readonly string[];
  readonly counterSpeech: ReadonlySet<string>;
  readonly quoteFrame: ReadonlySet<string>;
  readonly weakInsults: ReadonlySet<string>;
  readonly naming: { readonly verbs: ReadonlySet<string>; readonly objects: ReadonlySet<string>; readonly negators: ReadonlySet<string> };
  readonly hostility: { readonly lang: string; readonly groups: RegExp; readonly hostile: RegExp; readonly negations: RegExp };
}

/** One abuse finding, in the normalised text (UTF-16 indices, end exclusive). */
export interface AbuseHit {
  from: number;
  to: number;
  severity: Severity;
  lang: string;
  kind: AbuseKind;
}

/** Words an addressed insult may follow at most (`you are an idiot`: 3). */
const ADDRESS_WINDOW = 3;
/** Characters between an address and an insult in a Han/Kana run (`お前は本当にバカ`). */
const CJK_ADDRESS_WINDOW = 5;
const VOCATIVE = 'يا';

/** One alternation with a capturing group per pattern (patterns use non-capturing groups only). */
function combine(defs: readonly AbusePatternDef[], wordBounded: boolean): RegExp | null {
  if (defs.length === 0) return null;
  const body = defs.map((d) => `(${d.source})`).join('|');
  return new RegExp(wordBounded ? `(?<=^| )(?:${body})(?= |$)` : body, 'gu');
}

/** Compiles the rules (a few milliseconds; once at start). */
export function compileAbuse(data: AbuseData): AbuseRules {
  for (const d of [...data.patterns, ...data.cjkPatterns]) {
    // A capturing group inside a pattern would shift the group numbers that name the pattern.
    if (/\((?!\?)/.test(d.source.replace(/\\./g, ''))) throw new Error(`abuse pattern with a capturing group: ${d.source}`);
  }
  return {
    words: combine(data.patterns, true),
    wordDefs: data.patterns,
    cjk: combine(data.cjkPatterns, false),
    cjkDefs: data.cjkPatterns,
    address: groupBy(data.address),
    cjkAddress: data.cjkAddress,
    negations: new Set(data.negations),
    insults: groupBy(data.insults),
    cjkInsults: [...data.cjkInsults].sort((a, b) => b[0].length - a[0].length),
    arabicPrefixes: data.arabicPrefixes,
    counterSpeech: new Set(data.counterSpeech),
    quoteFrame: new Set(data.quoteFrame),
    weakInsults: new Set(data.weakInsults),
    naming: { verbs: new Set(data.naming.verbs), objects: new Set(data.naming.objects), negators: new Set(data.naming.negators) },
    hostility: {
      lang: data.groupHostility.lang,
      groups: wordsRegex(data.groupHostility.groups),
      hostile: wordsRegex(data.groupHostility.hostile),
      negations: wordsRegex(data.groupHostility.negations),
    },
  };
}

function groupBy(pairs: ReadonlyArray<readonly [string, string]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [w, lang] of pairs) out.set(w, [...(out.get(w) ?? []), lang]);
  return out;
}

function wordsRegex(alternatives: readonly string[]): RegExp {
  return new RegExp(`(?<=^| )(?:${alternatives.join('|')})(?= |$)`, 'u');
}

/** Sentence breaks and quotation marks between two words. */
const SENTENCE_BREAK = /[.!?;\n\u3002\uff01\uff1f]/u;
const QUOTE = /["\u201c\u201d\u00ab\u00bb\u201e]/u;

/**
 * Group hostility (see text-abuse.ts GROUP_HOSTILITY): per sentence, a group and a hostile word,
 * no negation; nothing at all in a text that quotes, since quoting abuse is mostly to condemn it.
 */
function groupHostility(rules: AbuseRules, text: string, spans: readonly FormSpan[], joined: string, out: AbuseHit[]): void {
  const h = rules.hostility;
  let first = 0;
  // Most texts name no group: one test over all the words spares the per-sentence work.
  if (!h.groups.test(joined) || QUOTE.test(text)) return;
  for (let i = 0; i <= spans.length; i++) {
    const cur = spans[i];
    const prev = spans[i - 1];
    const ends = i === spans.length || (prev !== undefined && cur !== undefined && SENTENCE_BREAK.test(text.slice(prev.to, cur.from)));
    if (!ends) continue;
    const sentence = spans.slice(first, i);
    // "nothing but contempt" affirms: `nothing` there is no negation.
    const words = sentence.map((s) => s.form).join(' ').replace(/(?<=^| )nothing but(?= |$)/g, 'only');
    const a = sentence[0];
    const b = sentence[sentence.length - 1];
    if (a && b && h.groups.test(words) && h.hostile.test(words) && !h.negations.test(words)) {
      out.push({ from: a.from, to: b.to, severity: 'strong', lang: h.lang, kind: 'hate' });
    }
    first = i;
  }
}

function groupIndex(m: RegExpMatchArray): number {
  for (let g = 1; g < m.length; g++) if (m[g] !== undefined) return g - 1;
  return -1;
}

/** The insult's languages when `form` is an insult, and whether a glued vocative addresses it. */
function insultOf(rules: AbuseRules, form: string): { langs: readonly string[]; vocative: boolean } | null {
  const langs = rules.insults.get(form);
  if (langs !== undefined) return { langs, vocative: false };
  const c = form.charCodeAt(0);
  if (c >= 0x0600 && c <= 0x06ff) {
    for (const p of rules.arabicPrefixes) {
      if (form.length - p.length >= 2 && form.startsWith(p)) {
        const l = rules.insults.get(form.slice(p.length));
        if (l !== undefined) return { langs: l, vocative: p === VOCATIVE };
      }
    }
  }
  return null;
}

function addressedInsults(rules: AbuseRules, spans: readonly FormSpan[], out: AbuseHit[]): void {
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i];
    if (!s) continue;
    const ins = insultOf(rules, s.form);
    if (!ins) continue;
    let lang = ins.vocative ? ins.langs[0] : undefined;
    for (let k = i - 1; lang === undefined && k >= 0 && k >= i - ADDRESS_WINDOW; k--) {
      const w = spans[k]?.form ?? '';
      if (rules.negations.has(w)) break;
      lang = rules.address.get(w)?.find((l) => ins.langs.includes(l));
    }
    if (lang !== undefined) out.push({ from: s.from, to: s.to, severity: 'strong', lang, kind: 'insult' });
  }
}

function cjkFindings(rules: AbuseRules, text: string, t: Token, out: AbuseHit[]): void {
  const run = text.slice(t.from, t.to);
  if (rules.cjk) {
    for (const m of run.matchAll(rules.cjk)) {
      const def = rules.cjkDefs[groupIndex(m)];
      if (def) out.push({ from: t.from + (m.index ?? 0), to: t.from + (m.index ?? 0) + m[0].length, severity: 'strong', lang: def.lang, kind: def.kind });
    }
  }
  for (const [term, lang] of rules.cjkInsults) {
    for (let at = run.indexOf(term); at !== -1; at = run.indexOf(term, at + term.length)) {
      const before = run.slice(Math.max(0, at - CJK_ADDRESS_WINDOW - 3), at);
      if (rules.cjkAddress.some((a) => before.includes(a) && before.length - before.lastIndexOf(a) - a.length <= CJK_ADDRESS_WINDOW)) {
        out.push({ from: t.from + at, to: t.from + at + term.length, severity: 'strong', lang, kind: 'insult' });
      }
    }
  }
}

/** The marks of QUOTE, one by one. */
const QUOTE_MARKS = new Set(['"', '\u201c', '\u201d', '\u00ab', '\u00bb', '\u201e']);

/**
 * Spans [from, to) of normalised `text` inside quotation marks, when the words outside them frame
 * the quotes as reported or condemned speech (QUOTE_FRAME_EN); empty otherwise. Hits inside these
 * spans are not flagged. An unclosed quotation mark quotes nothing.
 */
export function reportedQuotes(rules: AbuseRules, text: string, spans: readonly FormSpan[]): Array<[number, number]> {
  const quoted: Array<[number, number]> = [];
  if (!QUOTE.test(text)) return quoted;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (!QUOTE_MARKS.has(text[i] ?? '')) continue;
    if (open < 0) {
      open = i;
    } else {
      quoted.push([open + 1, i]);
      open = -1;
    }
  }
  if (quoted.length === 0) return quoted;
  const inside = (s: FormSpan): boolean => quoted.some(([a, b]) => a <= s.from && s.to <= b);
  return spans.some((s) => !inside(s) && rules.quoteFrame.has(s.form)) ? quoted : [];
}

/**
 * Words named rather than used ("It's not okay to call people bitch", "Why would you call me a
 * slut?"): the word after `call` and its object, when a negation or question comes before the
 * `call` in its sentence. Spans [from, to) of normalised text.
 */
export function namedWords(rules: AbuseRules, text: string, spans: readonly FormSpan[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = rules.naming;
  let starts: number[] | null = null;
  for (let j = 0; j < spans.length; j++) {
    if (!n.verbs.has(spans[j]?.form ?? '')) continue;
    starts ??= sentenceStarts(text, spans);
    let negated = false;
    for (let k = Math.max(starts[j] ?? 0, j - NAMING_WINDOW); k < j && !negated; k++) negated = n.negators.has(spans[k]?.form ?? '');
    if (!negated) continue;
    let k = j + 1;
    while (k < spans.length && k <= j + 3 && n.objects.has(spans[k]?.form ?? '')) k++;
    const w = spans[k];
    const prev = spans[k - 1];
    if (w && prev && !SENTENCE_BREAK.test(text.slice(prev.to, w.from))) out.push([w.from, w.to]);
  }
  return out;
}

/** What is mentioned rather than said: quotes framed as condemned speech, and named words. */
export function mentions(rules: AbuseRules, text: string, spans: readonly FormSpan[]): Array<[number, number]> {
  return [...reportedQuotes(rules, text, spans), ...namedWords(rules, text, spans)];
}

/** Words before `call` in its sentence where a negation or question counts (bounds the work on long sentences). */
const NAMING_WINDOW = 12;

/** Every abuse finding in normalised `text` with its tokens. */
export function findAbuse(rules: AbuseRules, text: string, tokens: readonly Token[], spans: readonly FormSpan[] = formSpans(text, tokens)): AbuseHit[] {
  const out: AbuseHit[] = [];
  if (spans.length > 0) {
    addressedInsults(rules, spans, out);
    // Word forms joined by one space; starts[k] is where word k begins in the joined string.
    const starts: number[] = [];
    let joined = '';
    for (const s of spans) {
      starts.push(joined.length + (joined.length > 0 ? 1 : 0));
      joined += (joined.length > 0 ? ' ' : '') + s.form;
    }
    groupHostility(rules, text, spans, joined, out);
    if (rules.words) {
      let sentenceStart: number[] | null = null;
      for (const m of joined.matchAll(rules.words)) {
        const def = rules.wordDefs[groupIndex(m)];
        const a = wordAt(starts, m.index ?? 0);
        const b = wordAt(starts, (m.index ?? 0) + m[0].length - 1);
        if (def && def.lang === 'en' && def.kind !== 'self-harm') {
          sentenceStart ??= sentenceStarts(text, spans);
          if (isCountered(rules, spans, sentenceStart[a] ?? 0, a)) continue;
        }
        // An insult pattern reports the insult itself ("what a clown": `clown`), like an addressed insult.
        const first = spans[def?.kind === 'insult' ? b : a];
        const last = spans[b];
        if (def && first && last) out.push({ from: first.from, to: last.to, severity: 'strong', lang: def.lang, kind: def.kind });
      }
    }
  }
  for (const t of tokens) if (t.cjk) cjkFindings(rules, text, t, out);
  return out;
}

/** For each word, the index of the first word of its sentence. */
function sentenceStarts(text: string, spans: readonly FormSpan[]): number[] {
  const out: number[] = [];
  let first = 0;
  spans.forEach((s, i) => {
    const prev = spans[i - 1];
    if (prev && SENTENCE_BREAK.test(text.slice(prev.to, s.from))) first = i;
    out.push(first);
  });
  return out;
}

/** True when a word of [from, to) negates or reports what follows (counter-speech). */
function isCountered(rules: AbuseRules, spans: readonly FormSpan[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (rules.counterSpeech.has(spans[k]?.form ?? '')) return true;
  return false;
}

/** Index of the word containing position `pos` of the joined string. */
function wordAt(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
