/**
 * Builds the text model file from the labelled tweets (used by `npm run train:text` and by the
 * test that checks the shipped file is what the script produces). Deterministic for a given data
 * file and options: same seed, same split, same weights, same bytes.
 */
import { analyzeText } from '../intel/text/analyze.ts';
import { FEATURES_VERSION } from '../intel/text/features.ts';
import { davidsonExamples, DEFAULT_TRAIN_OPTIONS, dequantize, metrics, quantize, split, train, type Example, type ModelFile, type TrainOptions } from '../intel/text/train.ts';
import type { Lexicon } from '../intel/text/types.ts';
import { SUPPLEMENT } from './text-train-supplement.ts';

/** Share of the tweets held out for the reported metrics (never trained on). */
export const TEST_SHARE = 0.2;

export interface BuildInput {
  /** The CSV text of labeled_data.csv. */
  csv: string;
  /** SHA-256 of the data file as read (provenance, written into the model file). */
  sha256: string;
  lexicon: Lexicon;
  options?: Partial<TrainOptions>;
}

/** Trains, evaluates on the held-out split and returns the model file's content. */
export function buildModelFile(input: BuildInput): ModelFile {
  const opts: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...input.options };
  const all = davidsonExamples(input.csv);
  const { train: trainSet, test } = split(all, opts.seed, TEST_SHARE);
  const training: Example[] = [...trainSet, ...SUPPLEMENT];
  const trained = train(training, opts);
  const q = quantize(trained.weights, trained.bias, opts.scale);
  const shipped = dequantize({ buckets: opts.buckets, scale: opts.scale, bias: q.bias, weights: q.weights });
  const model = { version: `${FEATURES_VERSION}/${input.sha256.slice(0, 12)}/${opts.seed}`, buckets: opts.buckets, ...shipped };

  const labels = test.map((e) => e.label);
  const withModel = test.map((e) => analyzeText({ lexicon: input.lexicon, model }, e.text));
  const dictOnly = test.map((e) => analyzeText({ lexicon: input.lexicon, model: null }, e.text));
  return {
    format: 'vigil-text-model/1',
    features: FEATURES_VERSION,
    buckets: opts.buckets,
    scale: opts.scale,
    bias: q.bias,
    weights: q.weights,
    training: {
      version: model.version,
      source: 'Davidson et al. 2017, hate-speech-and-offensive-language data/labeled_data.csv (MIT)',
      dataSha256: input.sha256,
      labels: 'class 0 (hate speech) and 1 (offensive) = abusive; 2 (neither) = clean',
      rows: all.length,
      split: `seeded Fisher-Yates permutation (seed ${opts.seed}); first ${TEST_SHARE * 100}% held out`,
      trainRows: trainSet.length,
      supplementRows: SUPPLEMENT.length,
      testRows: test.length,
      seed: opts.seed,
      epochs: opts.epochs,
      learningRate: opts.learningRate,
      l2: opts.l2,
    },
    metrics: {
      heldOut: test.length,
      threshold: 0.5,
      model: metrics(labels, withModel.map((r) => (r.modelScore ?? 0) >= 0.5)),
      dictionary: metrics(labels, dictOnly.map((r) => r.riskScore >= 0.5)),
      combined: metrics(labels, withModel.map((r) => r.riskScore >= 0.5)),
    },
  };
}
