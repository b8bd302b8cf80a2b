import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { loadTextLexicon } from './text-lexicon.ts';
import { buildModelFile, type StageMetrics } from './text-model-build.ts';
import { loadTextModel, parseTextModel, TEXT_MODEL_PATH } from './text-model.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** The training data as developers and CI have it: ../shared next to the repository. */
const DATA = resolve(ROOT, '../shared/data/profanity-train/labeled_data.csv.gz');
const shipped = readFileSync(TEXT_MODEL_PATH, 'utf8');

describe('text model file', () => {
  it('loads, and is small', () => {
    const { model } = loadTextModel();
    assert.equal(model.weights.length, model.buckets);
    assert.ok(shipped.length < 3_000_000, `${shipped.length} bytes`);
  });

  it('refuses files built for other features or malformed', () => {
    const file = JSON.parse(shipped) as Record<string, unknown>;
    assert.throws(() => parseTextModel(JSON.stringify({ ...file, features: 'other' })), /features/);
    assert.throws(() => parseTextModel(JSON.stringify({ ...file, weights: [[-1, 3]] })), /malformed/);
    assert.throws(() => parseTextModel('{}'), /not a vigil-text-model/);
  });

  it('docs/text-model.md shows the held-out metrics of the shipped model', () => {
    const m = (JSON.parse(shipped) as { metrics: Record<'obscenity' | 'model' | 'dictionary' | 'combined', StageMetrics> }).metrics;
    const doc = readFileSync(join(ROOT, 'docs/text-model.md'), 'utf8');
    for (const stage of ['obscenity', 'model', 'dictionary', 'combined'] as const) {
      const x = m[stage];
      const row = `| ${stage.padEnd(10)} | ${x.precision.toFixed(4)} | ${x.recall.toFixed(4)} | ${x.f1.toFixed(4)} | ${x.accuracy.toFixed(4)} | ${x.auc.toFixed(4)} |`;
      assert.ok(doc.includes(row), `docs/text-model.md lacks: ${row}`);
    }
  });

  it('is exactly what npm run train:text produces from the shared data', { skip: existsSync(DATA) ? false : `no training data at ${DATA}` }, () => {
    const raw = readFileSync(DATA);
    const sha256 = createHash('sha256').update(raw).digest('hex');
    const rebuilt = buildModelFile({ csv: gunzipSync(raw).toString('utf8'), sha256, lexicon: loadTextLexicon() });
    const expected = `${JSON.stringify(rebuilt)}\n`;
    if (expected !== shipped) {
      const a = JSON.parse(shipped) as { metrics: unknown; training: unknown; weights: unknown[] };
      assert.deepEqual({ training: a.training, metrics: a.metrics, n: a.weights.length }, { training: rebuilt.training, metrics: rebuilt.metrics, n: rebuilt.weights.length });
      assert.fail('src/data/models/text-model.json differs from the script output: run npm run train:text');
    }
  });
});
