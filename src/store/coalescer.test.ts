import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Coalescer } from './coalescer.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  it('sends the first call at once and the calls made meanwhile together, in order, at most maxBatch at a time', async () => {
    const batches: number[][] = [];
    const gates: Array<() => void> = [];
    const c = new Coalescer<number, number>(async (items) => {
      batches.push([...items]);
      await new Promise<void>((resolve) => gates.push(resolve));
      return items.map((x) => x * 10);
    }, { maxBatch: 3, maxInFlight: 1 });
    const out = [1, 2, 3, 4, 5, 6].map((x) => c.add(x));
    await tick();
    assert.deepEqual(batches, [[1]]);
    gates.shift()!();
    await tick();
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
    gates.shift()!();
    await tick();
    gates.shift()!();
    assert.deepEqual(await Promise.all(out), [10, 20, 30, 40, 50, 60]);
    assert.deepEqual(batches, [[1], [2, 3, 4], [5, 6]]);
  });

  it('keeps up to maxInFlight batches out at once', async () => {
    let out = 0;
    let most = 0;
    const c = new Coalescer<number, number>(async (items) => {
      most = Math.max(most, ++out);
      await tick();
      out--;
      return items;
    }, { maxBatch: 2, maxInFlight: 2 });
    assert.deepEqual(await Promise.all(Array.from({ length: 9 }, (_, i) => c.add(i))), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(most, 2);
  });

  it('a failing batch of several is run again item by item: only the bad item fails', async () => {
    const calls: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const c = new Coalescer<number, string>(async (items) => {
      calls.push([...items]);
      if (items[0] === 0) await first;
      if (items.includes(13)) throw new Error('unlucky');
      return items.map(String);
    }, { maxBatch: 10, maxInFlight: 1 });
    const a = c.add(0);
    const rest = [12, 13, 14].map((x) => c.add(x).then((v) => v, (err: Error) => err.message));
    release();
    assert.equal(await a, '0');
    assert.deepEqual(await Promise.all(rest), ['12', 'unlucky', '14']);
    assert.deepEqual(calls, [[0], [12, 13, 14], [12], [13], [14]]);
  });

  it('a batch answered with the wrong number of results fails its calls instead of misassigning', async () => {
    const c = new Coalescer<number, number>(() => Promise.resolve([]), { maxBatch: 5, maxInFlight: 1 });
    await assert.rejects(c.add(1), /answered with 0 results/);
  });
});
