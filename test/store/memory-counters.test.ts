import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openCounters } from '../../src/store/index.ts';
import { MemoryCounters } from '../../src/store/memory/memory-counters.ts';
import { runCountersContract } from './counters-contract.ts';

/** A clock that only moves when told to. */
function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number): Promise<void> => {
      now += ms;
      return Promise.resolve();
    },
  };
}

const clock = fakeClock();
runCountersContract('memory', () => Promise.resolve(new MemoryCounters({ now: clock.now })), clock.advance);

describe('MemoryCounters', () => {
  it('expires exactly at the TTL boundary', async () => {
    const c = fakeClock();
    const counters = new MemoryCounters({ now: c.now });
    await counters.incr('k', 1, 2);
    await c.advance(1999);
    assert.equal(await counters.get('k'), 1);
    await c.advance(1);
    assert.equal(await counters.get('k'), 0);
    await counters.close();
  });

  it('drops an expired entry when it is read', async () => {
    const c = fakeClock();
    const counters = new MemoryCounters({ now: c.now });
    await counters.incr('k', 1, 1);
    await c.advance(1000);
    assert.equal(counters.size, 1);
    assert.equal(await counters.get('k'), 0);
    assert.equal(counters.size, 0);
    await counters.close();
  });

  it('the periodic sweep drops expired entries nobody reads', async () => {
    const c = fakeClock();
    const counters = new MemoryCounters({ now: c.now, sweepIntervalMs: 10 });
    await counters.incr('short', 1, 1);
    await counters.incr('long', 1, 60);
    await c.advance(1500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(counters.size, 1);
    assert.equal(await counters.get('long'), 1);
    await counters.close();
  });

  it('sweep() can also be called directly', async () => {
    const c = fakeClock();
    const counters = new MemoryCounters({ now: c.now });
    for (let i = 0; i < 100; i++) await counters.incr(`k${i}`, 1, 1);
    await c.advance(1000);
    counters.sweep();
    assert.equal(counters.size, 0);
    await counters.close();
  });

  it('close() empties it and twice is harmless', async () => {
    const counters = new MemoryCounters();
    await counters.incr('k', 1, 60);
    await counters.close();
    await counters.close();
    assert.equal(counters.size, 0);
  });

  it('openCounters() without redisUrl gives in-process counters', async () => {
    const counters = await openCounters({});
    assert.equal(counters.kind, 'memory');
    await counters.close();
  });
});
