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
  /** Address words per language (normalised). */
  readonly address: readonly string[];
  readonly cjkAddress: readonly string[];
  readonly negations: readonly string[];
  /** Insults said to someone, with their language (normalised; Han/Kana terms under `cjk`). */
  readonly insults: ReadonlyArray<readonly [string, string]>;
  readonly cjkInsults: ReadonlyArray<readonly [string, string]>;
  /** Arabic prefixes glued to a word; `يا` among them addresses. */
  readonly arabicPrefixes: readonly string[];
}

export interface AbuseRules {
  readonly words: RegExp | null;
  readonly wordDefs: readonly AbusePatternDef[];
  readonly cjk: RegExp | null;
  readonly cjkDefs: readonly AbusePatternDef[];
  readonly address: ReadonlySet<string>;
  readonly cjkAddress: readonly string[];
  readonly negations: ReadonlySet<string>;
  readonly insults: ReadonlyMap<string, string>;
  readonly cjkInsults: ReadonlyArray<readonly [string, string]>;
  readonly arabicPrefixes: readonly string[];
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
    address: new Set(data.address),
    cjkAddress: data.cjkAddress,
    negations: new Set(data.negations),
    insults: new Map(data.insults.map(([w, lang]) => [w, lang])),
    cjkInsults: [...data.cjkInsults].sort((a, b) => b[0].length - a[0].length),
    arabicPrefixes: data.arabicPrefixes,
  };
}

function groupIndex(m: RegExpMatchArray): number {
  for (let g = 1; g < m.length; g++) if (m[g] !== undefined) return g - 1;
  return -1;
}

/** The insult's language when `form` is an insult, and whether a glued vocative addresses it. */
function insultOf(rules: AbuseRules, form: string): { lang: string; vocative: boolean } | null {
  const lang = rules.insults.get(form);
  if (lang !== undefined) return { lang, vocative: false };
  const c = form.charCodeAt(0);
  if (c >= 0x0600 && c <= 0x06ff) {
    for (const p of rules.arabicPrefixes) {
      if (form.length - p.length >= 2 && form.startsWith(p)) {
        const l = rules.insults.get(form.slice(p.length));
        if (l !== undefined) return { lang: l, vocative: p === VOCATIVE };
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
    let addressed = ins.vocative;
    for (let k = i - 1; !addressed && k >= 0 && k >= i - ADDRESS_WINDOW; k--) {
      const w = spans[k]?.form ?? '';
      if (rules.negations.has(w)) break;
      if (rules.address.has(w)) addressed = true;
    }
    if (addressed) out.push({ from: s.from, to: s.to, severity: 'strong', lang: ins.lang, kind: 'insult' });
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

/** Every abuse finding in normalised `text` with its tokens. */
export function findAbuse(rules: AbuseRules, text: string, tokens: readonly Token[]): AbuseHit[] {
  const out: AbuseHit[] = [];
  const spans = formSpans(text, tokens);
  if (spans.length > 0) {
    addressedInsults(rules, spans, out);
    if (rules.words) {
      // Word forms joined by one space; starts[k] is where word k begins in the joined string.
      const starts: number[] = [];
      let joined = '';
      for (const s of spans) {
        starts.push(joined.length + (joined.length > 0 ? 1 : 0));
        joined += (joined.length > 0 ? ' ' : '') + s.form;
      }
      for (const m of joined.matchAll(rules.words)) {
        const def = rules.wordDefs[groupIndex(m)];
        const a = wordAt(starts, m.index ?? 0);
        const b = wordAt(starts, (m.index ?? 0) + m[0].length - 1);
        const first = spans[a];
        const last = spans[b];
        if (def && first && last) out.push({ from: first.from, to: last.to, severity: 'strong', lang: def.lang, kind: def.kind });
      }
    }
  }
  for (const t of tokens) if (t.cjk) cjkFindings(rules, text, t, out);
  return out;
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
