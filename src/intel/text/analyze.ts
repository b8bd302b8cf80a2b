/**
 * The profanity engine: normalises a text once, runs the dictionary stage (word lists and abuse
 * patterns) and, for text the model can read, the model stage, and combines them into one risk
 * score (docs/text-model.md "Score"):
 *
 *   dictionary D(h) = 1 - Π(1 - s) over flagged words and abuse findings h, s = 0.6 strong, 0.25 mild
 *   M = mild English words (the only ones the model judges), R = the rest
 *   p = the model's probability, calibrated to the expected base rate of abuse (train.ts `calibrate`)
 *   risk = 1 - (1 - D(R)) × (1 - D(M) × (0.5 + 0.5 p)) × (1 - p)      (p = 0 without the model)
 *
 * Evidence adds up as independent signals: a strong word or an abuse finding alone gives at least
 * 0.6 (unsafe), the model alone gives its calibrated probability, and a mild English word counts
 * half when the model reads the text as harmless. Text with no listed word, no finding and no model
 * evidence scores about 0 in every script, so one threshold means the same in every language.
 */
import { mentions, type AbuseRules } from './abuse.ts';
import { excusedTokens, findHits, readSpans, readTokens } from './dictionary.ts';
import { predictForms, type FormSpan } from './features.ts';
import { normalize, type Normalized } from './normalize.ts';
import type { Token } from './tokens.ts';
import { calibrate } from './train.ts';
import type { Hit, Lexicon, TextAnalysis, TextModel } from './types.ts';

export const STRONG_WEIGHT = 0.6;
export const MILD_WEIGHT = 0.25;
export const UNSAFE_FROM = 0.5;
/** An insult addressed to no one ("these idiots"): weak evidence, once per text (text-abuse.ts WEAK_INSULTS_EN). */
export const WEAK_WEIGHT = 0.15;

export interface TextEngine {
  readonly lexicon: Lexicon;
  /** Null when no model is loaded: dictionary only, isML false. */
  readonly model: TextModel | null;
}

const ASCII_LETTER = /[a-z]/;
const LETTER = /\p{L}/u;
const TRAILING_INVISIBLE = /^[\p{M}\p{Cf}]/u;

/** Dictionary score of a set of hits. */
export function dictionaryScore(hits: readonly Hit[]): number {
  let clean = 1;
  for (const h of hits) clean *= 1 - (h.severity === 'strong' ? STRONG_WEIGHT : MILD_WEIGHT);
  return 1 - clean;
}

/** Lists whose words the English model can judge in context. */
const MODEL_LANGS = new Set(['en', 'obscenity']);

const judgedByModel = (h: Hit): boolean => h.severity === 'mild' && MODEL_LANGS.has(h.lang);

/** The combined risk (see the module comment); `model` is the calibrated probability. */
export function combineRisk(hits: readonly Hit[], model: number | null, weak = 0): number {
  if (model === null) return 1 - (1 - dictionaryScore(hits)) * (1 - weak);
  const judged = dictionaryScore(hits.filter(judgedByModel));
  const rest = dictionaryScore(hits.filter((h) => !judgedByModel(h)));
  return 1 - (1 - rest) * (1 - judged * (0.5 + 0.5 * model)) * (1 - model) * (1 - weak);
}

/** WEAK_WEIGHT when a weak insult stands outside every hit and every mention, else 0. */
export function weakEvidence(rules: AbuseRules, spans: readonly FormSpan[], hits: readonly Hit[], mentioned: ReadonlyArray<readonly [number, number]>, norm: Normalized): number {
  if (rules.weakInsults.size === 0) return 0;
  for (const s of spans) {
    if (!rules.weakInsults.has(s.form)) continue;
    if (mentioned.some(([a, b]) => a <= s.from && s.to <= b)) continue;
    const start = norm.start[s.from] ?? 0;
    if (hits.some((h) => h.start <= start && start < h.end)) continue;
    return WEAK_WEIGHT;
  }
  return 0;
}

/** The model's calibrated probability for a text, skipping excused words (`Moby Dick`); null when it does not apply. */
export function modelProbability(model: TextModel, tokens: readonly Token[], excused: readonly boolean[], spans: readonly FormSpan[]): number | null {
  if (!modelApplies(tokens)) return null;
  const skip = tokens.filter((_, i) => excused[i] === true);
  const kept = skip.length === 0 ? spans : spans.filter((f) => !skip.some((t) => t.from < f.to && f.from < t.to));
  return calibrate(model.calibration, predictForms(model.weights, model.bias, kept.map((f) => f.form), model.buckets));
}

/**
 * The model was trained on English tweets: it takes part when at least half of the words are
 * written in Latin letters (after folding), and not for Arabic, Cyrillic or CJK text.
 */
export function modelApplies(tokens: readonly Token[]): boolean {
  let latin = 0;
  let words = 0;
  for (const t of tokens) {
    if (t.cjk) {
      words++;
    } else if (ASCII_LETTER.test(t.raw)) {
      words++;
      latin++;
    } else if (LETTER.test(t.raw)) {
      words++;
    }
  }
  return latin > 0 && latin * 2 >= words;
}

/** Scores one text (already validated: 1 to 10,000 code points). */
export function analyzeText(engine: TextEngine, text: string): TextAnalysis {
  const norm = normalize(text);
  const tokens = readTokens(engine.lexicon, norm.text);
  const excused = excusedTokens(engine.lexicon, tokens);
  const spans = readSpans(engine.lexicon, norm.text, tokens);
  // Words mentioned rather than said (condemned quotes, named words) are neither flagged nor shown to the model (abuse.ts mentions).
  const reported = mentions(engine.lexicon.abuse, norm.text, spans);
  const hits = findHits(engine.lexicon, norm, tokens, excused, spans, reported);
  const dictionary = dictionaryScore(hits);
  const unquoted = reported.length === 0 ? excused : tokens.map((t, i) => excused[i] === true || reported.some(([a, b]) => a <= t.from && t.to <= b));
  const modelScore = engine.model ? modelProbability(engine.model, tokens, unquoted, spans) : null;
  const riskScore = round3(combineRisk(hits, modelScore, weakEvidence(engine.lexicon.abuse, spans, hits, reported, norm)));
  return {
    riskScore,
    isSafe: riskScore < UNSAFE_FROM,
    isML: modelScore !== null,
    modelScore: modelScore === null ? null : round3(modelScore),
    dictionaryScore: round3(dictionary),
    hits,
    badWordCount: hits.length,
    badWords: badWordsOf(text, hits),
  };
}

/** The flagged words as written (trailing combining marks included), each spelling once. */
export function badWordsOf(text: string, hits: readonly Hit[]): string[] {
  const seen = new Set<string>();
  for (const h of hits) {
    let end = h.end;
    while (end < text.length && TRAILING_INVISIBLE.test(text.slice(end, end + 2))) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
    seen.add(text.slice(h.start, end));
  }
  return [...seen];
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
