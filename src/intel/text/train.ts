/**
 * Training of the text classifier (run by scripts/train-text.ts; pure and deterministic so that a
 * test can re-train and compare with the shipped model). Logistic regression over the hashed
 * features of features.ts, plain SGD with class-balanced example weights and L2 decay of the
 * touched weights, a fixed number of epochs, examples in an order drawn from a seeded PRNG.
 */
import { featureIndices, featureValue, FEATURES_VERSION, modelForms, predict, sigmoid } from './features.ts';
import { normalize } from './normalize.ts';
import { tokenize } from './tokens.ts';

export interface Example {
  readonly text: string;
  /** 1 abusive (hate speech or offensive), 0 neither. */
  readonly label: 0 | 1;
}

export interface TrainOptions {
  readonly seed: number;
  readonly buckets: number;
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
  /** Weights and bias are stored as integers: round(w × scale). */
  readonly scale: number;
  /** Expected share of abusive texts in the API's traffic (the calibration's prior). */
  readonly baseRate: number;
}

/**
 * baseRate 0.08: user-written text the API scores (comments, chat, support messages) is mostly
 * harmless; public samples of such text put abuse between about 5% and 10% (docs/text-model.md).
 */
export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { seed: 20240607, buckets: 1 << 17, epochs: 8, learningRate: 0.4, l2: 1e-6, scale: 10_000, baseRate: 0.08 };

/**
 * How raw model probabilities become riskScore's model part: Platt scaling fitted on a
 * calibration split with class-balanced weights (so its prior is 1/2), then the prior moved to
 * `baseRate`, the share of abusive texts the API is expected to see (not the tweets' 83%).
 */
export interface Calibration {
  a: number;
  b: number;
  baseRate: number;
}

/** The model file's content (src/data/models/text-model.json). */
export interface ModelFile {
  format: 'vigil-text-model/2';
  features: string;
  buckets: number;
  scale: number;
  bias: number;
  /** Sparse weights: [bucket, round(w × scale)] for every non-zero weight, by bucket. */
  weights: Array<[number, number]>;
  calibration: Calibration;
  training: Record<string, unknown>;
  metrics: Record<string, unknown>;
}

/** mulberry32: a small seeded PRNG, enough for shuffling. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded Fisher-Yates permutation of 0..n-1. */
export function permutation(n: number, seed: number): number[] {
  const rnd = prng(seed);
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const tmp = p[i] ?? 0;
    p[i] = p[j] ?? 0;
    p[j] = tmp;
  }
  return p;
}

/** Splits by a seeded permutation: the first `testShare` of it is the held-out set. */
export function split<T>(items: readonly T[], seed: number, testShare: number): { train: T[]; test: T[] } {
  const order = permutation(items.length, seed);
  const cut = Math.round(items.length * testShare);
  const pick = (idx: number[]): T[] => idx.map((i) => items[i]).filter((x): x is T => x !== undefined);
  return { test: pick(order.slice(0, cut)), train: pick(order.slice(cut)) };
}

/** The model's view of a text: the same normalisation and tokens as the engine. */
export function textFeatures(text: string, buckets: number): Int32Array {
  const norm = normalize(text);
  return featureIndices(modelForms(norm.text, tokenize(norm.text)), buckets);
}

/** Trains on `examples`; returns float weights and bias. */
export function train(examples: readonly Example[], opts: TrainOptions): { weights: Float64Array; bias: number } {
  const xs = examples.map((e) => textFeatures(e.text, opts.buckets));
  const positives = examples.filter((e) => e.label === 1).length;
  const negatives = examples.length - positives;
  // Class-balanced weights: the tweets were collected with a hate-speech lexicon, so their base rate
  // of abuse (~83%) says nothing about the texts the API will see.
  const classWeight = [examples.length / (2 * Math.max(1, negatives)), examples.length / (2 * Math.max(1, positives))];
  const weights = new Float64Array(opts.buckets);
  let bias = 0;
  const rnd = prng(opts.seed);
  const order = Array.from({ length: examples.length }, (_, i) => i);
  let step = 0;
  const total = opts.epochs * examples.length;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      const tmp = order[i] ?? 0;
      order[i] = order[j] ?? 0;
      order[j] = tmp;
    }
    for (const idx of order) {
      const x = xs[idx];
      const ex = examples[idx];
      if (!x || !ex) continue;
      const lr = opts.learningRate * (1 - step / total) + 1e-3;
      step++;
      const p = predict(weights, bias, x);
      const g = (p - ex.label) * (classWeight[ex.label] ?? 1);
      const v = featureValue(x.length);
      for (let k = 0; k < x.length; k++) {
        const f = x[k] ?? 0;
        weights[f] = (weights[f] ?? 0) - lr * (g * v + opts.l2 * (weights[f] ?? 0));
      }
      bias -= lr * g * 0.1;
    }
  }
  return { weights, bias };
}

const logit = (p: number): number => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p));

/** The calibrated probability for a raw model probability `p`. */
export function calibrate(c: Calibration, p: number): number {
  return sigmoid(c.a * logit(p) + c.b + logit(c.baseRate));
}

/**
 * Platt scaling: a and b minimising the class-balanced log loss of sigmoid(a·logit(p) + b) on
 * held-out raw probabilities (Newton's method on two parameters; converges in a few steps).
 */
export function fitPlatt(ps: readonly number[], labels: readonly (0 | 1)[]): { a: number; b: number } {
  const pos = labels.filter((l) => l === 1).length;
  const neg = labels.length - pos;
  const w = [labels.length / (2 * Math.max(1, neg)), labels.length / (2 * Math.max(1, pos))];
  const z = ps.map(logit);
  let a = 1;
  let b = 0;
  for (let it = 0; it < 50; it++) {
    let ga = 0, gb = 0, haa = 1e-9, hab = 0, hbb = 1e-9;
    z.forEach((x, i) => {
      const y = labels[i] ?? 0;
      const wi = w[y] ?? 1;
      const q = sigmoid(a * x + b);
      const r = wi * (q - y);
      const h = wi * q * (1 - q);
      ga += r * x;
      gb += r;
      haa += h * x * x;
      hab += h * x;
      hbb += h;
    });
    const det = haa * hbb - hab * hab;
    if (Math.abs(det) < 1e-12) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}

/** ROC AUC of `scores` against the labels (ties count half). */
export function rocAuc(labels: readonly (0 | 1)[], scores: readonly number[]): number {
  const order = scores.map((s, i) => [s, labels[i] ?? 0] as const).sort((x, y) => x[0] - y[0]);
  let sumPos = 0;
  let nPos = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && order[j]?.[0] === order[i]?.[0]) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (order[k]?.[1] === 1) {
      sumPos += rank;
      nPos++;
    }
    i = j;
  }
  const nNeg = order.length - nPos;
  return nPos === 0 || nNeg === 0 ? 0.5 : (sumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** Rounds a trained model to the integers stored in the file. */
export function quantize(weights: Float64Array, bias: number, scale: number): { weights: Array<[number, number]>; bias: number } {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < weights.length; i++) {
    const q = Math.round((weights[i] ?? 0) * scale);
    if (q !== 0) out.push([i, q]);
  }
  return { weights: out, bias: Math.round(bias * scale) };
}

/** Float weights back from a model file (what the engine loads). */
export function dequantize(file: Pick<ModelFile, 'buckets' | 'scale' | 'bias' | 'weights'>): { weights: Float64Array; bias: number } {
  const weights = new Float64Array(file.buckets);
  for (const [i, q] of file.weights) weights[i] = q / file.scale;
  return { weights, bias: file.bias / file.scale };
}

export interface Metrics {
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/** Precision, recall and F1 of `predicted` (true = abusive) against the labels. */
export function metrics(labels: readonly (0 | 1)[], predicted: readonly boolean[]): Metrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  labels.forEach((l, i) => {
    const p = predicted[i] ?? false;
    if (p && l === 1) tp++;
    else if (p) fp++;
    else if (l === 1) fn++;
    else tn++;
  });
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;
  return { precision: r4(precision), recall: r4(recall), f1: r4(f1), accuracy: r4((tp + tn) / Math.max(1, labels.length)), tp, fp, fn, tn };
}

/** Parses RFC 4180 CSV (quoted fields may hold commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Removes what is Twitter-specific in the training tweets: handles, URLs, `RT`, HTML entities. */
export function cleanTweet(s: string): string {
  return s
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&([a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m)
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/@[A-Za-z0-9_]+:?/g, ' ')
    .replace(/(^|\s)RT(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Davidson et al. rows (index, count, hate_speech, offensive_language, neither, class, tweet) as examples. */
export function davidsonExamples(csv: string): Example[] {
  const rows = parseCsv(csv);
  const header = rows[0] ?? [];
  const classAt = header.indexOf('class');
  const tweetAt = header.indexOf('tweet');
  if (classAt === -1 || tweetAt === -1) throw new Error('expected the columns "class" and "tweet"');
  const out: Example[] = [];
  for (const r of rows.slice(1)) {
    const cls = r[classAt];
    const tweet = r[tweetAt];
    if (tweet === undefined || (cls !== '0' && cls !== '1' && cls !== '2')) continue;
    const text = cleanTweet(tweet);
    if (text.length > 0) out.push({ text, label: cls === '2' ? 0 : 1 });
  }
  return out;
}

export { FEATURES_VERSION, sigmoid };
