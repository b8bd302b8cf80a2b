import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeTurn } from './write-turn.ts';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('writeTurn', () => {
  it('releases every answer of a turn together, in one check-phase callback, never synchronously', async () => {
    // The two calls must come within MAX_WAIT_MS of each other, else the second rightly writes the group at once
    // (the third test): a pause between them (a collection, a first compilation on a busy machine) retries.
    for (let attempt = 1; ; attempt++) {
      const order: string[] = [];
      const start = performance.now();
      const first = writeTurn().then(() => order.push('answer 1'));
      setImmediate(() => order.push('other callback'));
      const second = writeTurn().then(() => order.push('answer 2'));
      const within = performance.now() - start < 1;
      await Promise.resolve();
      const early = [...order];
      await Promise.all([first, second]);
      await tick();
      if (!within && attempt < 5) continue;
      assert.ok(within, 'five attempts each paused past a millisecond between two calls');
      assert.deepEqual(early, []);
      // Both answers went out before the next callback of the check phase: one group, one setImmediate.
      assert.deepEqual(order, ['answer 1', 'answer 2', 'other callback']);
      break;
    }
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
