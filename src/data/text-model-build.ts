/**
 * Builds the text model file from the labelled tweets (used by `npm run train:text` and by the
 * test that checks the shipped file is what the script produces). Deterministic for a given data
 * file and options: same seed, same splits, same weights, same bytes.
 *
 * Splits of the tweets, all from seeded permutations: 20% held out for the reported metrics,
 * then 10% of the rest for calibration (Platt scaling), the remainder (plus the project-written
 * sentences) for training. None of the three is ever used for another role.
 */
import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { analyzeText } from '../intel/text/analyze.ts';
import { FEATURES_VERSION, predict } from '../intel/text/features.ts';
import {
  davidsonExamples, DEFAULT_TRAIN_OPTIONS, dequantize, fitPlatt, metrics, quantize, rocAuc, split, textFeatures, train,
  type Example, type Metrics, type ModelFile, type TrainOptions,
} from '../intel/text/train.ts';
import type { Lexicon } from '../intel/text/types.ts';
import { SUPPLEMENT } from './text-train-supplement.ts';

/** Share of the tweets held out for the reported metrics (never trained or calibrated on). */
export const TEST_SHARE = 0.2;
/** Share of the remaining tweets kept for calibration (never trained on). */
export const CALIBRATION_SHARE = 0.1;

export interface BuildInput {
  /** The CSV text of labeled_data.csv. */
  csv: string;
  /** SHA-256 of the data file as read (provenance, written into the model file). */
  sha256: string;
  lexicon: Lexicon;
  options?: Partial<TrainOptions>;
}

/** F1 and the rest at riskScore ≥ 0.5, with the ROC AUC of the score. */
export type StageMetrics = Metrics & { auc: number };

function stage(labels: readonly (0 | 1)[], scores: readonly number[]): StageMetrics {
  const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;
  return { ...metrics(labels, scores.map((s) => s >= 0.5)), auc: r4(rocAuc(labels, scores)) };
}

/** The obscenity package alone (its English preset and transformers): the dictionary baseline. */
export function obscenityBaseline(): (text: string) => number {
  const m = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return (text) => (m.hasMatch(text) ? 1 : 0);
}

/** Trains, calibrates, evaluates on the held-out split and returns the model file's content. */
export function buildModelFile(input: BuildInput): ModelFile {
  const opts: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...input.options };
  const all = davidsonExamples(input.csv);
  const { train: rest, test } = split(all, opts.seed, TEST_SHARE);
  const { train: trainSet, test: calibrationSet } = split(rest, opts.seed + 1, CALIBRATION_SHARE);
  const training: Example[] = [...trainSet, ...SUPPLEMENT];
  const trained = train(training, opts);
  const q = quantize(trained.weights, trained.bias, opts.scale);
  const shipped = dequantize({ buckets: opts.buckets, scale: opts.scale, bias: q.bias, weights: q.weights });
  const raw = calibrationSet.map((e) => predict(shipped.weights, shipped.bias, textFeatures(e.text, opts.buckets)));
  const platt = fitPlatt(raw, calibrationSet.map((e) => e.label));
  const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
  const calibration = { a: r6(platt.a), b: r6(platt.b), baseRate: opts.baseRate };
  const model = { version: `${FEATURES_VERSION}/${input.sha256.slice(0, 12)}/${opts.seed}`, buckets: opts.buckets, ...shipped, calibration };

  const labels = test.map((e) => e.label);
  const withModel = test.map((e) => analyzeText({ lexicon: input.lexicon, model }, e.text));
  const dictOnly = test.map((e) => analyzeText({ lexicon: input.lexicon, model: null }, e.text));
  const baseline = obscenityBaseline();
  return {
    format: 'vigil-text-model/2',
    features: FEATURES_VERSION,
    buckets: opts.buckets,
    scale: opts.scale,
    bias: q.bias,
    weights: q.weights,
    calibration,
    training: {
      version: model.version,
      source: 'Davidson et al. 2017, hate-speech-and-offensive-language data/labeled_data.csv (MIT), and src/data/text-train-supplement.ts',
      dataSha256: input.sha256,
      labels: 'class 0 (hate speech) and 1 (offensive) = abusive; 2 (neither) = clean',
      rows: all.length,
      split: `seeded Fisher-Yates permutations: first ${TEST_SHARE * 100}% held out (seed ${opts.seed}); of the rest, first ${CALIBRATION_SHARE * 100}% for calibration (seed ${opts.seed + 1})`,
      trainRows: trainSet.length,
      calibrationRows: calibrationSet.length,
      supplementRows: SUPPLEMENT.length,
      testRows: test.length,
      seed: opts.seed,
      epochs: opts.epochs,
      learningRate: opts.learningRate,
      l2: opts.l2,
      baseRate: opts.baseRate,
    },
    metrics: {
      heldOut: test.length,
      threshold: 0.5,
      obscenity: stage(labels, test.map((e) => baseline(e.text))),
      dictionary: stage(labels, dictOnly.map((r) => r.riskScore)),
      model: stage(labels, withModel.map((r) => r.modelScore ?? 0)),
      combined: stage(labels, withModel.map((r) => r.riskScore)),
    },
  };
}
