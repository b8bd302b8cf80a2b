import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyWeights, FTRL_BASE_RATE, FTRL_DEFAULTS, FTRL_PRIOR, MAX_LOGIT, predict, sigmoid, stateOf, update, weightOf, type FtrlCoordinate } from './ftrl.ts';
import { prng as rng } from '../intel/text/train.ts';

type State = Map<string, FtrlCoordinate>;

function train(state: State, examples: ReadonlyArray<{ features: string[]; label: 0 | 1 }>, epochs = 1): void {
  for (let e = 0; e < epochs; e++) {
    for (const ex of examples) applyWeights(state, update(ex.features, state, ex.label).changed);
  }
}


/** Separable data: fraud always has `rule:PF10003` and `ptype:crypto`, legit never; noise features on both. */
function synthetic(count: number, seed: number): Array<{ features: string[]; label: 0 | 1 }> {
  const next = rng(seed);
  const out: Array<{ features: string[]; label: 0 | 1 }> = [];
  for (let i = 0; i < count; i++) {
    const label: 0 | 1 = next() < 0.3 ? 1 : 0;
    const features = ['bias', `country:${['US', 'GB', 'DE'][Math.floor(next() * 3)]}`];
    if (label === 1) features.push('rule:PF10003', 'ptype:crypto');
    else features.push('ptype:cards');
    out.push({ features, label });
  }
  return out;
}

describe('FTRL prior', () => {
  it('an empty state predicts exactly sigmoid(prior.logit), the documented base rate', () => {
    assert.equal(predict([], new Map()), sigmoid(FTRL_PRIOR.logit));
    assert.equal(predict(['bias', 'rule:PF10003', 'ptype:cards'], new Map()), sigmoid(FTRL_PRIOR.logit));
    assert.ok(Math.abs(predict(['bias'], new Map()) - FTRL_BASE_RATE) < 1e-12);
  });

  it('another prior gives another starting point', () => {
    assert.equal(predict(['bias'], new Map(), FTRL_DEFAULTS, { logit: 0 }), 0.5);
  });

  it('documents the defaults', () => {
    assert.deepEqual({ ...FTRL_DEFAULTS }, { alpha: 0.5, beta: 1, l1: 1, l2: 1 });
  });
});

describe('weightOf', () => {
  it('is 0 inside the L1 band and for absent coordinates', () => {
    assert.equal(weightOf({ z: 0, n: 0 }), 0);
    assert.equal(weightOf({ z: 1, n: 4 }), 0);
    assert.equal(weightOf({ z: -1, n: 4 }), 0);
  });

  it('follows the closed form outside the band, sign opposite to z', () => {
    const { alpha, beta, l1, l2 } = FTRL_DEFAULTS;
    const expected = -(-3 + l1) / ((beta + Math.sqrt(4)) / alpha + l2);
    assert.equal(weightOf({ z: -3, n: 4 }), expected);
    assert.ok(weightOf({ z: -3, n: 4 }) > 0);
    assert.ok(weightOf({ z: 3, n: 4 }) < 0);
  });

  it('treats non-finite or negative state as 0', () => {
    assert.equal(weightOf({ z: Number.NaN, n: 1 }), 0);
    assert.equal(weightOf({ z: 5, n: -1 }), 0);
  });
});

describe('FTRL update', () => {
  it('returns the prediction before the step and the new z, n of every feature, sorted and unique', () => {
    const state = new Map();
    const { before, changed } = update(['b', 'a', 'b'], state, 1);
    assert.equal(before, sigmoid(FTRL_PRIOR.logit));
    const g = before - 1;
    assert.deepEqual(changed, [
      { feature: 'a', z: g, n: g * g },
      { feature: 'b', z: g, n: g * g },
    ]);
    assert.equal(state.size, 0, 'the state passed in is not modified');
  });

  it('one fraud outcome does not give a feature weight (l1); two sharing it do, about 0.17', () => {
    const state: State = new Map();
    train(state, [{ features: ['f'], label: 1 }]);
    assert.equal(weightOf(state.get('f')!), 0);
    train(state, [{ features: ['f'], label: 1 }]);
    const w = weightOf(state.get('f')!);
    assert.ok(w > 0.15 && w < 0.18, `weight ${w}`);
  });

  it('l1 keeps rare features at exactly 0 while frequent ones learn', () => {
    const state: State = new Map();
    const data = synthetic(400, 7);
    // A feature seen once, in one legit example: its gradient is tiny.
    data.push({ features: ['bias', 'rare:legit-once'], label: 0 });
    // A feature seen once, in one fraud example.
    data.push({ features: ['bias', 'rare:fraud-once'], label: 1 });
    train(state, data);
    assert.equal(weightOf(state.get('rare:legit-once')!), 0);
    assert.equal(weightOf(state.get('rare:fraud-once')!), 0);
    assert.notEqual(weightOf(state.get('rule:PF10003')!), 0);
  });

  it('training on separable data raises p for positives and lowers it for negatives', () => {
    const state: State = new Map();
    const positive = ['bias', 'country:US', 'rule:PF10003', 'ptype:crypto'];
    const negative = ['bias', 'country:US', 'ptype:cards'];
    const p0 = predict(positive, state);
    const n0 = predict(negative, state);
    train(state, synthetic(500, 42), 3);
    const p1 = predict(positive, state);
    const n1 = predict(negative, state);
    assert.ok(p1 > p0, `positive ${p0} -> ${p1}`);
    assert.ok(n1 < n0, `negative ${n0} -> ${n1}`);
    assert.ok(p1 > 0.5, `positive ends above 0.5: ${p1}`);
    assert.ok(n1 < 0.05, `negative ends below 0.05: ${n1}`);
    // The model separates every example of a fresh sample of the same data.
    for (const ex of synthetic(200, 99)) {
      const p = predict(ex.features, state);
      if (ex.label === 1) assert.ok(p > 0.5);
      else assert.ok(p < 0.5);
    }
  });

  it('is deterministic: the same examples give the same state, bit for bit', () => {
    const a: State = new Map();
    const b: State = new Map();
    train(a, synthetic(300, 5), 2);
    train(b, synthetic(300, 5), 2);
    assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
  });

  it('feature order does not change the result', () => {
    const a: State = new Map();
    const b: State = new Map();
    train(a, [{ features: ['x', 'y', 'z'], label: 1 }], 5);
    train(b, [{ features: ['z', 'x', 'y'], label: 1 }], 5);
    assert.deepEqual([...a.entries()].sort(), [...b.entries()].sort());
    assert.equal(predict(['y', 'z', 'x'], a), predict(['x', 'y', 'z'], b));
  });

  it('clamps the logit to ±35', () => {
    const huge = stateOf([{ feature: 'f', z: -1e12, n: 1 }]);
    assert.equal(predict(['f'], huge), sigmoid(MAX_LOGIT));
    const tiny = stateOf([{ feature: 'f', z: 1e12, n: 1 }]);
    assert.equal(predict(['f'], tiny), sigmoid(-MAX_LOGIT));
    assert.ok(predict(['f'], tiny) > 0 && predict(['f'], huge) < 1);
    // An update from a clamped state stays finite.
    const { changed } = update(['f'], huge, 0);
    assert.ok(changed.every((w) => Number.isFinite(w.z) && Number.isFinite(w.n)));
  });

  it('stateOf and applyWeights round-trip stored coordinates', () => {
    const weights = [
      { feature: 'a', z: -2, n: 1 },
      { feature: 'b', z: 0.5, n: 0.25 },
    ];
    const state = stateOf(weights);
    assert.deepEqual(state.get('a'), { z: -2, n: 1 });
    applyWeights(state, [{ feature: 'a', z: 3, n: 2 }]);
    assert.deepEqual(state.get('a'), { z: 3, n: 2 });
  });
});
