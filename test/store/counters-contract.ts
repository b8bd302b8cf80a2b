import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Counters } from '../../src/store/ports.ts';
import { uid } from './fixtures.ts';

/**
 * The behaviour every Counters implementation must share. `factory` returns fresh counters; `advance(ms)` lets
 * that much time pass for them (a fake clock in memory, a real wait for Redis).
 */
export function runCountersContract(name: string, factory: () => Promise<Counters>, advance: (ms: number) => Promise<void>): void {
  describe(`Counters contract: ${name}`, () => {
    let counters: Counters;

    before(async () => {
      counters = await factory();
    });

    after(async () => {
      await counters.close();
    });

    it('reports its kind and answers ping', async () => {
      assert.ok(counters.kind === 'memory' || counters.kind === 'redis');
      await counters.ping();
    });

    it('get of an absent key is 0', async () => {
      assert.equal(await counters.get(uid('absent')), 0);
    });

    it('incr returns the running total', async () => {
      const key = uid('total');
      assert.equal(await counters.incr(key, 1, 60), 1);
      assert.equal(await counters.incr(key, 1, 60), 2);
      assert.equal(await counters.incr(key, 5, 60), 7);
      assert.equal(await counters.get(key), 7);
    });

    it('incrExisting changes an existing key only, and never creates one', async () => {
      const key = uid('existing');
      assert.equal(await counters.incrExisting(key, 1), null);
      assert.equal(await counters.get(key), 0);
      assert.equal(await counters.setIfAbsent(key, 20, 60), true);
      assert.equal(await counters.incrExisting(key, 1), 21);
      assert.equal(await counters.incrExisting(key, -2), 19);
      assert.equal(await counters.get(key), 19);
    });

    it('accepts negative increments, also on a new key', async () => {
      const key = uid('negative');
      assert.equal(await counters.incr(key, 5, 60), 5);
      assert.equal(await counters.incr(key, -7, 60), -2);
      assert.equal(await counters.get(key), -2);
      assert.equal(await counters.incr(uid('negative'), -1, 60), -1);
    });

    it('keys are independent', async () => {
      const a = uid('indep');
      const b = uid('indep');
      await counters.incr(a, 3, 60);
      assert.equal(await counters.get(b), 0);
      assert.equal(await counters.incr(b, 1, 60), 1);
      assert.equal(await counters.get(a), 3);
    });

    it('a key expires after its TTL and then starts again from zero', async () => {
      const key = uid('ttl');
      await counters.incr(key, 4, 1);
      await advance(1200);
      assert.equal(await counters.get(key), 0);
      assert.equal(await counters.incr(key, 1, 1), 1);
    });

    it('later increments do not extend the TTL set at creation', async () => {
      const key = uid('window');
      await counters.incr(key, 1, 1);
      await advance(600);
      assert.equal(await counters.incr(key, 1, 1), 2);
      await advance(600);
      assert.equal(await counters.get(key), 0);
    });

    it('setIfAbsent sets only an absent key', async () => {
      const key = uid('seed');
      assert.equal(await counters.setIfAbsent(key, 42, 60), true);
      assert.equal(await counters.setIfAbsent(key, 7, 60), false);
      assert.equal(await counters.get(key), 42);
      assert.equal(await counters.incr(key, 1, 60), 43);
    });

    it('setIfAbsent of 0 still makes the key present', async () => {
      const key = uid('zero');
      assert.equal(await counters.setIfAbsent(key, 0, 60), true);
      assert.equal(await counters.setIfAbsent(key, 5, 60), false);
      assert.equal(await counters.get(key), 0);
    });

    it('setIfAbsent does not overwrite a key created by incr', async () => {
      const key = uid('seed-after-incr');
      await counters.incr(key, 2, 60);
      assert.equal(await counters.setIfAbsent(key, 100, 60), false);
      assert.equal(await counters.get(key), 2);
    });

    it('setIfAbsent TTL holds through later increments, and the key can be set again once expired', async () => {
      const key = uid('seed-ttl');
      assert.equal(await counters.setIfAbsent(key, 10, 1), true);
      assert.equal(await counters.incr(key, 1, 3600), 11);
      await advance(1200);
      assert.equal(await counters.get(key), 0);
      assert.equal(await counters.setIfAbsent(key, 5, 60), true);
      assert.equal(await counters.get(key), 5);
    });

    it('200 concurrent increments are exact and each sees a distinct total', async () => {
      const key = uid('concurrent');
      const totals = await Promise.all(Array.from({ length: 200 }, () => counters.incr(key, 1, 60)));
      assert.deepEqual(
        [...totals].sort((x, y) => x - y),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      assert.equal(await counters.get(key), 200);
    });

    it('keys with unicode and separators are fine', async () => {
      const key = uid('flood:acct-ü 🚀:1700000000');
      assert.equal(await counters.incr(key, 2, 60), 2);
      assert.equal(await counters.get(key), 2);
    });

    it('floodHit counts the calls of the current window, starts a new one at a larger window number, keeps its generation', async () => {
      const key = uid('flood');
      const hit = (window: number, knownGeneration: string | null = null, newGeneration = 'g1') =>
        counters.floodHit(key, { window, windowSeconds: 1, limit: 3, ttlSeconds: 60, newGeneration, knownGeneration });
      assert.deepEqual(await hit(100), { count: 1, generation: 'g1' });
      assert.deepEqual(await hit(100, 'g1', 'g2'), { count: 2, generation: 'g1' }, 'an existing key keeps its generation');
      assert.deepEqual(await hit(99, 'g1'), { count: 3, generation: 'g1' }, 'a clock behind counts in the current window');
      assert.deepEqual(await hit(101, 'g1'), { count: 1, generation: 'g1' });
      const totals = await Promise.all(Array.from({ length: 50 }, () => hit(101, 'g1')));
      assert.deepEqual([...totals.map((t) => t.count)].sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i + 2), 'concurrent calls are exact');
    });

    it('floodHit on a key created again while the caller knew another generation fills that window, once', async () => {
      const key = uid('flood-lost');
      const hit = (window: number, knownGeneration: string | null, newGeneration: string) =>
        counters.floodHit(key, { window, windowSeconds: 1, limit: 3, ttlSeconds: 60, newGeneration, knownGeneration });
      assert.deepEqual(await hit(7, null, 'fresh'), { count: 1, generation: 'fresh' }, 'a caller that knew none cannot tell');
      assert.deepEqual(await hit(7, 'before-the-loss', 'x'), { count: 4, generation: 'fresh' }, 'filled: limit + 1');
      assert.equal((await hit(7, 'before-the-loss', 'x')).count, 5);
      assert.equal((await hit(8, 'before-the-loss', 'x')).count, 1, 'reported once: a later window is not filled again');
      const later = uid('flood-later');
      await counters.floodHit(later, { window: 1, windowSeconds: 1, limit: 3, ttlSeconds: 60, newGeneration: 'n', knownGeneration: null });
      const r = await counters.floodHit(later, { window: 2, windowSeconds: 1, limit: 3, ttlSeconds: 60, newGeneration: 'm', knownGeneration: 'old' });
      assert.equal(r.count, 1, 'a key created in an earlier window holds every call of this one: no fill');
    });

    it('rejects non-integer amounts and non-positive TTLs', async () => {
      const key = uid('invalid');
      await assert.rejects(counters.incr(key, 1.5, 60), RangeError);
      await assert.rejects(counters.incr(key, 1, 0), RangeError);
      await assert.rejects(counters.incr(key, 1, -1), RangeError);
      await assert.rejects(counters.incr(key, 1, Number.NaN), RangeError);
      await assert.rejects(counters.setIfAbsent(key, 0.5, 60), RangeError);
      await assert.rejects(counters.setIfAbsent(key, 1, 0), RangeError);
      assert.equal(await counters.get(key), 0);
    });
  });
}
