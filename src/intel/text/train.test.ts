import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanTweet, davidsonExamples, dequantize, metrics, parseCsv, permutation, quantize, split, textFeatures, train, type Example } from './train.ts';
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
  const opts = { seed: 3, buckets: 1 << 12, epochs: 5, learningRate: 0.5, l2: 1e-6, scale: 10_000 };

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
