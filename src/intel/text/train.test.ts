import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calibrate, cleanTweet, fitPlatt, prng, rocAuc, davidsonExamples, dequantize, metrics, parseCsv, permutation, quantize, split, textFeatures, train, type Example } from './train.ts';
import { predict } from './features.ts';

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and newlines', () => {
    assert.deepEqual(parseCsv('a,b\n1,"x, ""y""\nz"\r\n2,\n'), [['a', 'b'], ['1', 'x, "y"\nz'], ['2', '']]);
  });
});

describe('cleanTweet', () => {
  it('removes handles, URLs, RT and decodes entities', () => {
    assert.equal(cleanTweet('RT @some_user: you &amp; me &#8220;ok&#8221; http://t.co/abc'), 'you & me “ok”');
  });
});

describe('davidsonExamples', () => {
  it('maps classes 0 and 1 to abusive, 2 to clean, and skips bad rows', () => {
    const csv = ',count,hate_speech,offensive_language,neither,class,tweet\n0,3,0,0,3,2,"nice day"\n1,3,0,3,0,1,"you bitch"\n2,3,3,0,0,0,"hate"\n3,3,0,0,3,9,"odd"\n';
    assert.deepEqual(davidsonExamples(csv), [{ text: 'nice day', label: 0 }, { text: 'you bitch', label: 1 }, { text: 'hate', label: 1 }]);
  });
});

describe('seeded split', () => {
  it('is a permutation, the same for the same seed, different for another', () => {
    const p = permutation(1000, 7);
    assert.deepEqual([...p].sort((a, b) => a - b), Array.from({ length: 1000 }, (_, i) => i));
    assert.deepEqual(permutation(1000, 7), p);
    assert.notDeepEqual(permutation(1000, 8), p);
  });
  it('holds out the requested share, disjoint from training', () => {
    const items = Array.from({ length: 101 }, (_, i) => i);
    const { train: tr, test } = split(items, 1, 0.2);
    assert.equal(test.length, 20);
    assert.equal(tr.length, 81);
    assert.equal(new Set([...tr, ...test]).size, 101);
  });
});

describe('metrics', () => {
  it('computes precision, recall and F1', () => {
    const m = metrics([1, 1, 0, 0, 1], [true, false, true, false, true]);
    assert.deepEqual({ tp: m.tp, fp: m.fp, fn: m.fn, tn: m.tn }, { tp: 2, fp: 1, fn: 1, tn: 1 });
    assert.equal(m.precision, 0.6667);
    assert.equal(m.recall, 0.6667);
    assert.equal(m.f1, 0.6667);
    assert.equal(m.accuracy, 0.6);
  });
});

describe('train', () => {
  const examples: Example[] = [];
  for (let i = 0; i < 60; i++) {
    examples.push({ text: `you are a horrible vile person number ${i}`, label: 1 });
    examples.push({ text: `what a lovely sunny garden number ${i}`, label: 0 });
  }
  const opts = { seed: 3, buckets: 1 << 12, epochs: 5, learningRate: 0.5, l2: 1e-6, scale: 10_000, baseRate: 0.08 };

  it('separates separable data and is deterministic', () => {
    const a = train(examples, opts);
    const b = train(examples, opts);
    assert.deepEqual(a.weights, b.weights);
    assert.equal(a.bias, b.bias);
    assert.ok(predict(a.weights, a.bias, textFeatures('horrible vile', opts.buckets)) > 0.7);
    assert.ok(predict(a.weights, a.bias, textFeatures('lovely sunny garden', opts.buckets)) < 0.3);
  });
  it('quantizes to sparse integers and back', () => {
    const { weights, bias } = train(examples, opts);
    const q = quantize(weights, bias, opts.scale);
    assert.ok(q.weights.every(([i, w]) => Number.isInteger(i) && Number.isInteger(w) && w !== 0));
    const back = dequantize({ buckets: opts.buckets, scale: opts.scale, bias: q.bias, weights: q.weights });
    for (let i = 0; i < weights.length; i++) assert.ok(Math.abs((back.weights[i] ?? 0) - (weights[i] ?? 0)) <= 0.5 / opts.scale);
  });
});

describe('calibration and AUC', () => {
  it('ROC AUC: 1 for a perfect ranking, 0.5 for ties, 0 reversed', () => {
    assert.equal(rocAuc([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]), 1);
    assert.equal(rocAuc([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5]), 0.5);
    assert.equal(rocAuc([1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9]), 0);
    assert.equal(rocAuc([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8]), 0.5);
  });
  it('Platt scaling recovers the scale of over-confident scores', () => {
    // Scores whose logit is twice the true log-odds, classes balanced: a ≈ 0.5, b ≈ 0.
    const ps: number[] = [];
    const labels: Array<0 | 1> = [];
    const rnd = prng(7);
    for (let i = 0; i < 4000; i++) {
      const z = (rnd() - 0.5) * 8;
      const y = rnd() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
      ps.push(1 / (1 + Math.exp(-2 * z)));
      labels.push(y);
    }
    const { a, b } = fitPlatt(ps, labels);
    assert.ok(Math.abs(a - 0.5) < 0.08, `a ${a}`);
    assert.ok(Math.abs(b) < 0.15, `b ${b}`);
  });
  it('moves the prior to the base rate: an even score becomes the base rate', () => {
    const c = { a: 1, b: 0, baseRate: 0.08 };
    assert.ok(Math.abs(calibrate(c, 0.5) - 0.08) < 1e-9);
    assert.ok(calibrate(c, 0.99) > 0.85);
    assert.ok(calibrate(c, 0.2) < 0.03);
  });
});
