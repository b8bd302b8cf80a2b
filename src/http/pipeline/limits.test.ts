import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryCounters } from '../../store/memory/memory-counters.ts';
import { SqliteStore } from '../../store/sqlite/sqlite-store.ts';
import { ApiError } from '../errors.ts';
import { FloodGate } from './flood.ts';
import { counterKeys } from '../../store/counter-keys.ts';
import { QuotaGate } from './quota.ts';
import type { Plan } from '../../store/ports.ts';

const plan = (over: Partial<Plan>): Plan => ({ id: 'p', methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 3, windowSeconds: 10 }, ...over });
const codeOf = async (p: Promise<unknown>): Promise<number | 'ok'> => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
};

describe('flood step', () => {
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const counters = new MemoryCounters({ now: () => clock });
  const gate = new FloodGate(counters, () => clock);
  const checkFlood = (g: FloodGate, accountId: string, p: Plan, at: Date) => g.check(accountId, p, at);
  after(() => counters.close());

  it('allows `limit` calls per window per account, then 106; a new window starts over', async () => {
    const p = plan({});
    const at = () => new Date(clock);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await codeOf(checkFlood(gate, 'a', p, at())));
    assert.deepEqual(results, ['ok', 'ok', 'ok', 106]);
    assert.equal(await codeOf(checkFlood(gate, 'b', p, at())), 'ok', 'accounts are counted apart');
    clock += 10_000;
    assert.equal(await codeOf(checkFlood(gate, 'a', p, at())), 'ok');
  });

  it('the 106 description names the limit', async () => {
    const p = plan({ flood: { limit: 1, windowSeconds: 60 } });
    await checkFlood(gate, 'c', p, new Date(clock));
    await assert.rejects(checkFlood(gate, 'c', p, new Date(clock)), (e: ApiError) => e.code === 106 && /1 per 60 s/.test(e.message));
  });

  it('a key lost during its window: the instance that knew it refuses the rest of the window, then counts again', async () => {
    const p = plan({ flood: { limit: 5, windowSeconds: 10 } });
    clock = Math.ceil(clock / 10_000) * 10_000 + 10_000;
    const at = () => new Date(clock);
    for (let i = 0; i < 2; i++) assert.equal(await codeOf(checkFlood(gate, 'lost', p, at())), 'ok');
    counters.loseFlood(counterKeys.flood('lost'));
    clock += 3000;
    // Another instance (no memory of the key) would count from zero; this one knows calls were made.
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await codeOf(checkFlood(gate, 'lost', p, at())));
    assert.deepEqual(results, [106, 106, 106]);
    const other = new FloodGate(counters, () => clock);
    assert.equal(await codeOf(checkFlood(other, 'lost', p, at())), 106, 'the filled window holds for every instance');
    clock += 7000;
    assert.equal(await codeOf(checkFlood(gate, 'lost', p, at())), 'ok', 'the next window counts from zero');
    assert.equal(await codeOf(checkFlood(other, 'lost', p, at())), 'ok');
  });

  it('a key created again by an instance that did not know it: the first instance that knew it fills that window', async () => {
    const p = plan({ flood: { limit: 5, windowSeconds: 10 } });
    clock = Math.ceil(clock / 10_000) * 10_000 + 10_000;
    const at = () => new Date(clock);
    const a = new FloodGate(counters, () => clock);
    const b = new FloodGate(counters, () => clock);
    for (let i = 0; i < 4; i++) assert.equal(await codeOf(checkFlood(a, 'recreated', p, at())), 'ok');
    counters.loseFlood(counterKeys.flood('recreated'));
    // B never saw the key: its call creates it again and passes (the bound: until an instance that knew it calls).
    assert.equal(await codeOf(checkFlood(b, 'recreated', p, at())), 'ok');
    assert.equal(await codeOf(checkFlood(a, 'recreated', p, at())), 106);
    assert.equal(await codeOf(checkFlood(b, 'recreated', p, at())), 106);
    // A later call of an instance that knew the old generation does not fill a window again (handled once).
    clock += 10_000;
    const late = new FloodGate(counters, () => clock);
    for (let i = 0; i < 5; i++) assert.equal(await codeOf(checkFlood(i % 2 ? a : late, 'recreated', p, at())), 'ok');
  });

  it('a key that expired after an idle hour is not a loss', async () => {
    const p = plan({ flood: { limit: 2, windowSeconds: 1 } });
    const at = () => new Date(clock);
    assert.equal(await codeOf(checkFlood(gate, 'idle', p, at())), 'ok');
    clock += 3601_000 + 2000;
    assert.deepEqual([await codeOf(checkFlood(gate, 'idle', p, at())), await codeOf(checkFlood(gate, 'idle', p, at()))], ['ok', 'ok']);
  });

  it('a plan whose window length changes starts a new window, never a fill', async () => {
    const at = () => new Date(clock);
    assert.equal(await codeOf(checkFlood(gate, 'resized', plan({ flood: { limit: 1, windowSeconds: 10 } }), at())), 'ok');
    assert.equal(await codeOf(checkFlood(gate, 'resized', plan({ flood: { limit: 1, windowSeconds: 30 } }), at())), 'ok');
    assert.equal(await codeOf(checkFlood(gate, 'resized', plan({ flood: { limit: 1, windowSeconds: 30 } }), at())), 106);
  });
});

describe('quota step', () => {
  const store = new SqliteStore({ path: ':memory:' });
  const counters = new MemoryCounters();
  after(async () => {
    await counters.close();
    await store.close();
  });
  const now = new Date('2026-06-15T12:00:00Z');

  it('unlimited plans reserve nothing', async () => {
    await store.migrate();
    assert.equal(await new QuotaGate(counters, store.usage).reserve('u', plan({ monthlyQuota: null }), now), undefined);
  });

  it('starts from the month\'s stored usage, so a restart does not reset the quota', async () => {
    await store.usage.add([{ accountId: 's', method: 'lookup/country', day: '2026-06-02', count: 4 }, { accountId: 's', method: 'lookup/ip', day: '2026-05-31', count: 50 }]);
    const gate = new QuotaGate(counters, store.usage);
    const p = plan({ monthlyQuota: 5 });
    assert.equal(await codeOf(gate.reserve('s', p, now)), 'ok');
    assert.equal(await codeOf(gate.reserve('s', p, now)), 103);
  });

  it('a refused call gives its unit back; a released unit can be used again', async () => {
    const gate = new QuotaGate(counters, store.usage);
    const p = plan({ monthlyQuota: 2 });
    const k1 = await gate.reserve('r', p, now);
    assert.ok(k1);
    await gate.reserve('r', p, now);
    assert.equal(await codeOf(gate.reserve('r', p, now)), 103);
    assert.equal(await counters.get(k1), 2, 'the refused call did not stay counted');
    await gate.release(k1);
    assert.equal(await codeOf(gate.reserve('r', p, now)), 'ok');
  });

  it('concurrent reservations never overshoot', async () => {
    const gate = new QuotaGate(counters, store.usage);
    const p = plan({ monthlyQuota: 25 });
    const results = await Promise.all(Array.from({ length: 100 }, () => codeOf(gate.reserve('c', p, now))));
    assert.equal(results.filter((r) => r === 'ok').length, 25);
    assert.equal(results.filter((r) => r === 103).length, 75);
  });

  it('months are counted apart (UTC)', async () => {
    const gate = new QuotaGate(counters, store.usage);
    const p = plan({ monthlyQuota: 1 });
    assert.equal(await codeOf(gate.reserve('m', p, new Date('2026-06-30T23:59:59Z'))), 'ok');
    assert.equal(await codeOf(gate.reserve('m', p, new Date('2026-07-01T00:00:00Z'))), 'ok');
    assert.equal(await codeOf(gate.reserve('m', p, new Date('2026-07-01T00:00:01Z'))), 103);
  });
});
