/**
 * Features of the text classifier, shared by the engine and the training script so that both see
 * exactly the same thing: hashed word unigrams and bigrams of the de-obfuscated tokens, and
 * character 3- and 4-grams of each word. Every emitted feature has the value featureValue(number
 * emitted). Character n-grams once made `assassin` look like `ass` and unknown foreign words look
 * abusive; with whitelisted and harmless-sense words skipped and the calibrated prior, they now
 * generalise better than words alone (docs/text-model.md "Model choices").
 */
import { spreadTokens, type Token } from './tokens.ts';

/** Bump when the features change: a model trained on other features must not be loaded. */
export const FEATURES_VERSION = 'w1b1c34-fnv1a-v2';

/** At most this many tokens feed the model (about 10,000 characters of ordinary text). */
export const MAX_MODEL_TOKENS = 2500;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function mix(h: number, c: number): number {
  return Math.imul(h ^ c, FNV_PRIME) >>> 0;
}

function hashString(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = mix(h, s.charCodeAt(i));
  return h;
}

// Distinct seeds keep the feature kinds apart in the hashed space.
const SEED_WORD = mix(FNV_OFFSET, 0x77);
const SEED_BIGRAM = mix(FNV_OFFSET, 0x62);
const SEED_CHAR = mix(FNV_OFFSET, 0x63);

/** The form of a token the model sees: its de-obfuscated variant (leetspeak resolved, runs shortened). */
export function modelForm(t: Token): string {
  const v = t.variants;
  // variants: raw first; for obfuscated tokens the last one is the most resolved.
  return v.length > 1 ? (v[v.length - 1] ?? t.raw) : t.raw;
}

/** One word as the model and the abuse patterns read it, with its span in the normalised text. */
export interface FormSpan {
  readonly form: string;
  readonly from: number;
  readonly to: number;
}

/**
 * The words read from normalised text and its tokens: CJK runs left out, letters spread with
 * separators (`f.u.c.k`) joined, obfuscated words resolved.
 */
export function formSpans(text: string, tokens: readonly Token[], fix?: (t: Token) => Token): FormSpan[] {
  const spreads = fix ? spreadTokens(text, tokens).map(fix) : spreadTokens(text, tokens);
  const out: FormSpan[] = [];
  let s = 0;
  for (const t of tokens) {
    const sp = spreads[s];
    if (sp && t.from >= sp.from) {
      if (t.to < sp.to) continue;
      out.push({ form: modelForm(sp), from: sp.from, to: sp.to });
      s++;
      continue;
    }
    if (!t.cjk) out.push({ form: modelForm(t), from: t.from, to: t.to });
  }
  return out;
}

/** The words the model reads (see formSpans). */
export function modelForms(text: string, tokens: readonly Token[]): string[] {
  return formSpans(text, tokens).map((f) => f.form);
}

/** Character n-grams of each word, from MIN_CHAR_NGRAM to MAX_CHAR_NGRAM characters (with word edges). */
export const CHAR_NGRAMS = { min: 3, max: 4 };

/**
 * Calls `emit` with each hashed feature index of a token sequence, in `buckets` (a power of two):
 * word unigrams and bigrams, and character n-grams of each word with its edges (`<fu`, `fuc`,
 * `uck>`), which carry what the tweets taught about a word to its spelling variants and
 * inflections. Words shorter than 3 characters give word features only: their few n-grams would
 * each carry a large weight. Repeats count. Returns the number emitted.
 */
export function forEachFeature(forms: readonly string[], buckets: number, emit: (index: number) => void): number {
  const mask = buckets - 1;
  const n = Math.min(forms.length, MAX_MODEL_TOKENS);
  const { min, max } = CHAR_NGRAMS;
  let count = 0;
  let prev = '';
  for (let k = 0; k < n; k++) {
    const w = forms[k] ?? '';
    emit(hashString(SEED_WORD, w) & mask);
    emit(hashString(mix(hashString(SEED_BIGRAM, prev), 0x20), w) & mask);
    count += 2;
    prev = w;
    if (max < min || w.length < 3) continue;
    // The word with its edges, `<` + w + `>`, read without building the string.
    const len = w.length + 2;
    for (let i = 0; i + min <= len; i++) {
      let h = SEED_CHAR;
      for (let j = i; j < len && j - i < max; j++) {
        h = Math.imul(h ^ (j === 0 ? 0x3c : j === len - 1 ? 0x3e : w.charCodeAt(j - 1)), FNV_PRIME) >>> 0;
        if (j - i + 1 >= min) {
          emit(h & mask);
          count++;
        }
      }
    }
  }
  return count;
}

/** The hashed feature indices of a token sequence (see forEachFeature), for training. */
export function featureIndices(forms: readonly string[], buckets: number): Int32Array {
  const out: number[] = [];
  forEachFeature(forms, buckets, (i) => out.push(i));
  return Int32Array.from(out);
}

/** The model's probability for a token sequence, without materialising its features (same result as predict). */
export function predictForms(weights: Float64Array, bias: number, forms: readonly string[], buckets: number): number {
  let z = 0;
  const n = forEachFeature(forms, buckets, (i) => {
    z += weights[i] ?? 0;
  });
  return sigmoid(bias + z * featureValue(n));
}

/** Logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/**
 * The value of each of n emitted features: 1/sqrt(n), but never more than 1/sqrt(MIN_FEATURES),
 * so that a text of one short word (`a`, 2 features) cannot swing the model with a single weight.
 */
export const MIN_FEATURES = 16;
export function featureValue(n: number): number {
  return n === 0 ? 0 : 1 / Math.sqrt(Math.max(n, MIN_FEATURES));
}

/** The model's probability that `indices` (from featureIndices) are abusive. */
export function predict(weights: Float64Array, bias: number, indices: Int32Array): number {
  if (indices.length === 0) return sigmoid(bias);
  let z = 0;
  for (let i = 0; i < indices.length; i++) z += weights[indices[i] ?? 0] ?? 0;
  return sigmoid(bias + z * featureValue(indices.length));
}
