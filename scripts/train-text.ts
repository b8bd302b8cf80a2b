/**
 * npm run train:text [-- DATA_DIR] [--out FILE]
 *
 * Trains the text classifier on the labelled tweets in DATA_DIR/labeled_data.csv.gz (default:
 * $VIGIL_TEXT_TRAIN_DATA, else ../shared/data/profanity-train next to the repository), writes the
 * model file (default src/data/models/text-model.json) and prints held-out precision, recall and
 * F1 for the model, the dictionary alone and both combined. The data is read, never copied.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadTextLexicon } from '../src/data/text-lexicon.ts';
import { buildModelFile, type StageMetrics } from '../src/data/text-model-build.ts';
import { TEXT_MODEL_PATH } from '../src/data/text-model.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_DATA_DIR = resolve(ROOT, '../shared/data/profanity-train');

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? resolve(args[outAt + 1] ?? TEXT_MODEL_PATH) : TEXT_MODEL_PATH;
const positional = args.filter((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1));
const dataDir = resolve(positional[0] ?? process.env.VIGIL_TEXT_TRAIN_DATA ?? DEFAULT_DATA_DIR);

const raw = readFileSync(join(dataDir, 'labeled_data.csv.gz'));
const sha256 = createHash('sha256').update(raw).digest('hex');
const started = performance.now();
const file = buildModelFile({ csv: gunzipSync(raw).toString('utf8'), sha256, lexicon: loadTextLexicon() });
writeFileSync(out, `${JSON.stringify(file)}\n`);

const m = file.metrics as { heldOut: number } & Record<'obscenity' | 'dictionary' | 'model' | 'combined', StageMetrics>;
const row = (name: string, x: StageMetrics): string =>
  `| ${name.padEnd(10)} | ${x.precision.toFixed(4)} | ${x.recall.toFixed(4)} | ${x.f1.toFixed(4)} | ${x.accuracy.toFixed(4)} | ${x.auc.toFixed(4)} |`;
process.stdout.write(
  [
    `data ${dataDir} (sha256 ${sha256.slice(0, 16)}…), ${String(file.training.rows)} tweets; held out ${m.heldOut}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
    `model written to ${out} (${file.weights.length} non-zero weights of ${file.buckets})`,
    `calibration a ${file.calibration.a}, b ${file.calibration.b}, base rate ${file.calibration.baseRate}`,
    '| stage      | precision | recall | F1     | accuracy | ROC AUC |',
    '|------------|-----------|--------|--------|----------|---------|',
    row('obscenity', m.obscenity),
    row('model', m.model),
    row('dictionary', m.dictionary),
    row('combined', m.combined),
  ].join('\n') + '\n',
);
