import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryCounters } from '../../store/memory/memory-counters.ts';
import { SqliteStore } from '../../store/sqlite/sqlite-store.ts';
import { ApiError } from '../errors.ts';
import { checkFlood } from './flood.ts';
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
  after(() => counters.close());

  it('allows `limit` calls per window per account, then 106; a new window starts over', async () => {
    const p = plan({});
    const at = () => new Date(clock);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await codeOf(checkFlood(counters, 'a', p, at())));
    assert.deepEqual(results, ['ok', 'ok', 'ok', 106]);
    assert.equal(await codeOf(checkFlood(counters, 'b', p, at())), 'ok', 'accounts are counted apart');
    clock += 10_000;
    assert.equal(await codeOf(checkFlood(counters, 'a', p, at())), 'ok');
  });

  it('the 106 description names the limit', async () => {
    const p = plan({ flood: { limit: 1, windowSeconds: 60 } });
    await checkFlood(counters, 'c', p, new Date(clock));
    await assert.rejects(checkFlood(counters, 'c', p, new Date(clock)), (e: ApiError) => e.code === 106 && /1 per 60 s/.test(e.message));
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
