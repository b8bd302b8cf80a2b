/**
 * The text classifier's weights: src/data/models/text-model.json, written by `npm run train:text`
 * (scripts/train-text.ts) and loaded once at start. A file whose feature version differs from the
 * engine's is refused rather than silently giving wrong scores.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FEATURES_VERSION } from '../intel/text/features.ts';
import { dequantize, type ModelFile } from '../intel/text/train.ts';
import type { TextModel } from '../intel/text/types.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';

export const TEXT_MODEL_PATH = fileURLToPath(new URL('./models/text-model.json', import.meta.url));

function isModelFile(x: unknown): x is ModelFile {
  if (typeof x !== 'object' || x === null) return false;
  const m = x as Record<string, unknown>;
  const c = m.calibration as Record<string, unknown> | undefined;
  return m.format === 'vigil-text-model/2' && typeof c === 'object' && c !== null && Number.isFinite(c.a) && Number.isFinite(c.b) &&
    typeof c.baseRate === 'number' && c.baseRate > 0 && c.baseRate < 1 && typeof m.features === 'string' && typeof m.buckets === 'number' && typeof m.scale === 'number' &&
    typeof m.bias === 'number' && Array.isArray(m.weights) && typeof m.training === 'object' && typeof m.metrics === 'object';
}

/** Parses and checks a model file's JSON. */
export function parseTextModel(json: string): { model: TextModel; file: ModelFile } {
  const file: unknown = JSON.parse(json);
  if (!isModelFile(file)) throw new Error('text model: not a vigil-text-model/2 file');
  if (file.features !== FEATURES_VERSION) throw new Error(`text model: features ${file.features}, engine expects ${FEATURES_VERSION}; run npm run train:text`);
  if (file.buckets <= 0 || (file.buckets & (file.buckets - 1)) !== 0) throw new Error('text model: buckets must be a power of two');
  for (const w of file.weights) {
    if (!Array.isArray(w) || w.length !== 2 || !Number.isInteger(w[0]) || w[0] < 0 || w[0] >= file.buckets || !Number.isFinite(w[1])) {
      throw new Error('text model: malformed weight');
    }
  }
  const { weights, bias } = dequantize(file);
  const version = typeof file.training.version === 'string' ? file.training.version : 'unknown';
  return { model: { version, buckets: file.buckets, bias, weights, calibration: file.calibration }, file };
}

/** Loads the shipped model. */
export function loadTextModel(path = TEXT_MODEL_PATH): { model: TextModel; datasets: DatasetInfo[] } {
  const { model, file } = parseTextModel(readFileSync(path, 'utf8'));
  const source = typeof file.training.source === 'string' ? file.training.source : 'unknown';
  return {
    model,
    datasets: [{ name: 'Vigil text classifier (trained on Davidson et al. 2017 labelled tweets and project-written sentences)', version: model.version, source, license: 'MIT' }],
  };
}
