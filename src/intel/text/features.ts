/**
 * Features of the text classifier, shared by the engine and the training script so that both see
 * exactly the same thing: hashed word unigrams and bigrams of the de-obfuscated tokens. Every
 * emitted feature has the value 1/sqrt(number emitted). Character n-grams were tried and dropped:
 * they made `assassin` look like `ass` and unknown foreign words look abusive.
 */
import { spreadTokens, type Token } from './tokens.ts';

/** Bump when the features change: a model trained on other features must not be loaded. */
export const FEATURES_VERSION = 'w1b1-fnv1a-v1';

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

/** The form of a token the model sees: its de-obfuscated variant (leetspeak resolved, runs shortened). */
export function modelForm(t: Token): string {
  const v = t.variants;
  // variants: raw first; for obfuscated tokens the last one is the most resolved.
  return v.length > 1 ? (v[v.length - 1] ?? t.raw) : t.raw;
}

/**
 * The words the model reads from normalised text and its tokens: CJK runs left out, letters spread
 * with separators (`f.u.c.k`) joined, obfuscated words resolved.
 */
export function modelForms(text: string, tokens: readonly Token[]): string[] {
  const spreads = spreadTokens(text, tokens);
  const out: string[] = [];
  let s = 0;
  for (const t of tokens) {
    const sp = spreads[s];
    if (sp && t.from >= sp.from) {
      if (t.to < sp.to) continue;
      out.push(modelForm(sp));
      s++;
      continue;
    }
    if (!t.cjk) out.push(modelForm(t));
  }
  return out;
}

/** The hashed feature indices of a token sequence, in `buckets` (a power of two). Repeats count. */
export function featureIndices(forms: readonly string[], buckets: number): Int32Array {
  const mask = buckets - 1;
  const n = Math.min(forms.length, MAX_MODEL_TOKENS);
  const out = new Int32Array(2 * n);
  let prev = '';
  for (let k = 0; k < n; k++) {
    const w = forms[k] ?? '';
    out[2 * k] = hashString(SEED_WORD, w) & mask;
    out[2 * k + 1] = hashString(mix(hashString(SEED_BIGRAM, prev), 0x20), w) & mask;
    prev = w;
  }
  return out;
}

/** Logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** The model's probability that `indices` (from featureIndices) are abusive. */
export function predict(weights: Float64Array, bias: number, indices: Int32Array): number {
  if (indices.length === 0) return sigmoid(bias);
  let z = 0;
  for (let i = 0; i < indices.length; i++) z += weights[indices[i] ?? 0] ?? 0;
  return sigmoid(bias + z / Math.sqrt(indices.length));
}
