import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeTurn } from './write-turn.ts';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('writeTurn', () => {
  it('releases every answer of a turn together, in one check-phase callback, never synchronously', async () => {
    const order: string[] = [];
    const first = writeTurn().then(() => order.push('answer 1'));
    setImmediate(() => order.push('other callback'));
    const second = writeTurn().then(() => order.push('answer 2'));
    await Promise.resolve();
    assert.deepEqual(order, []);
    await Promise.all([first, second]);
    await tick();
    // Both answers went out before the next callback of the check phase: one group, one setImmediate.
    assert.deepEqual(order, ['answer 1', 'answer 2', 'other callback']);
  });

  it('starts a new group in the next turn', async () => {
    await writeTurn();
    const later = writeTurn();
    let done = false;
    void later.then(() => (done = true));
    await Promise.resolve();
    assert.equal(done, false);
    await tick();
    await later;
    assert.equal(done, true);
  });

  it('writes at once a group that has waited a millisecond, with the answer that finds it so', async () => {
    const released: number[] = [];
    const first = writeTurn().then(() => released.push(1));
    const start = performance.now();
    while (performance.now() - start < 2) {
      // A heavy answer computed in the same turn.
    }
    const second = writeTurn().then(() => released.push(2));
    // Both are released before the check phase: a microtask later, not a setImmediate later.
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(released, [1, 2]);
    await Promise.all([first, second]);
  });
});
