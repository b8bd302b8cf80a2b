/**
 * The monthly quota across two instances when Redis loses the counter (a restart without persistence,
 * an eviction): the counter is seeded again from the stored usage, never restarted at zero (issue 26, item 4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { liveKey } from '../helpers/harness.ts';
import { seedAccounts, startPair, type Instance, type Pair } from '../helpers/instance-pair.ts';
import { SKIP_PG } from '../store/pg-test-database.ts';
import { openRedisAdmin, SKIP_REDIS } from '../helpers/redis.ts';
import { counterKeys } from '../../src/store/counter-keys.ts';
import { utcMonth } from '../../src/intel/time/utc-calendar.ts';

const suffix = randomBytes(3).toString('hex');
const PLAN = `q20-${suffix}`;
let pair: Pair;

before(async () => {
  pair = await startPair();
  await seedAccounts(pair, [
    { id: `qa-${suffix}`, key: liveKey(`qa${suffix}`), plan: PLAN },
    { id: `qb-${suffix}`, key: liveKey(`qb${suffix}`), plan: PLAN },
  ], [{ id: PLAN, methods: ['*'], modules: [], monthlyQuota: 20, flood: { limit: 1000, windowSeconds: 1 } }]);
});
after(() => pair?.close());

const call = async (i: Instance, account: string) => {
  const r = await pair.call(i, 'GET', '/lookup/country', liveKey(account.replace('-', '')), undefined, { CountryCode: 'FR' });
  return r.status === 'success' ? 'ok' : r.code;
};
const dropCounter = async (account: string) => {
  const redis = await openRedisAdmin();
  try {
    assert.equal(await redis.del(`${pair.prefix}${counterKeys.quota(account, utcMonth(new Date()))}`), 1);
  } finally {
    await redis.quit();
  }
};
const tally = (codes: Array<string | number | undefined>) => ({ ok: codes.filter((c) => c === 'ok').length, refused: codes.filter((c) => c === 103).length });

describe('quota after a lost Redis counter, two instances', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('30 concurrent calls across A and B on a quota of 20: 20 pass; the counter deleted: 10 more are still refused', async () => {
    const account = `qa-${suffix}`;
    const first = await Promise.all(Array.from({ length: 30 }, (_, n) => call(n % 2 ? pair.a : pair.b, account)));
    assert.deepEqual(tally(first), { ok: 20, refused: 10 });
    await Promise.all([pair.a.app.recorder.flush(), pair.b.app.recorder.flush()]);
    await dropCounter(account);
    const after = await Promise.all(Array.from({ length: 10 }, (_, n) => call(n % 2 ? pair.a : pair.b, account)));
    assert.deepEqual(tally(after), { ok: 0, refused: 10 });
  });

  it('the counter lost before the instance wrote its usage: the seed counts what it holds unwritten', async () => {
    const account = `qb-${suffix}`;
    for (let n = 0; n < 20; n++) assert.equal(await call(pair.a, account), 'ok');
    await dropCounter(account);
    assert.deepEqual(tally(await Promise.all(Array.from({ length: 5 }, () => call(pair.a, account)))), { ok: 0, refused: 5 });
  });
});
