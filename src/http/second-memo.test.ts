import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SecondMemo } from './second-memo.ts';

describe('SecondMemo', () => {
  it('computes a key once per second and again in the next second', () => {
    const memo = new SecondMemo<{ n: number }>(10);
    let calls = 0;
    const compute = () => ({ n: ++calls });
    const a = memo.get('k', 10_000, compute);
    assert.equal(memo.get('k', 10_999, compute), a);
    assert.equal(calls, 1);
    const b = memo.get('k', 11_000, compute);
    assert.notEqual(b, a);
    assert.equal(b.n, 2);
    // Back to an earlier second (a request that started before the tick): computed afresh, never stale.
    assert.equal(memo.get('k', 10_500, compute).n, 3);
  });

  it('keeps keys apart', () => {
    const memo = new SecondMemo<string>(10);
    assert.equal(memo.get('a', 0, () => 'A'), 'A');
    assert.equal(memo.get('b', 0, () => 'B'), 'B');
    assert.equal(memo.get('a', 0, () => 'other'), 'A');
    assert.equal(memo.size, 2);
  });

  it('does not keep a throw', () => {
    const memo = new SecondMemo<string>(10);
    assert.throws(() => memo.get('k', 0, () => {
      throw new Error('boom');
    }), /boom/);
    assert.equal(memo.size, 0);
    assert.equal(memo.get('k', 0, () => 'ok'), 'ok');
  });

  it('keeps at most maxEntries a second and still answers past the cap', () => {
    const memo = new SecondMemo<number>(3);
    for (let i = 0; i < 10; i++) assert.equal(memo.get(`k${i}`, 5_000, () => i), i);
    assert.equal(memo.size, 3);
    let calls = 0;
    assert.equal(memo.get('k9', 5_000, () => ++calls), 1);
    assert.equal(memo.get('k0', 5_000, () => ++calls), 0);
    memo.get('fresh', 6_000, () => 1);
    assert.equal(memo.size, 1);
  });
});
