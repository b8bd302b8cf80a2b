import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { IdentityHashes, StoredScoring, VelocityQuery } from '../../src/store/learning-ports.ts';
import { VELOCITY_TTL_SECONDS, velocityKeys } from '../../src/store/redis/keys.ts';
import { RedisVelocity } from '../../src/store/redis/redis-velocity.ts';
import { uid } from './fixtures.ts';
import { keysMatching, openRedisAdmin, SKIP_REDIS, TEST_REDIS_URL } from '../helpers/redis.ts';

const REDIS_URL = TEST_REDIS_URL;
/** Every key of this run lives under this prefix, and is deleted at the end. */
const PREFIX = `vigil-test:${randomBytes(6).toString('hex')}:`;

const NOW = Date.parse('2024-06-01T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;


let nextId = 1;
function scoring(accountId: string, agoMs: number, identities: Partial<IdentityHashes>, location: string | null = null): StoredScoring {
  return {
    id: nextId++,
    accountId,
    transactionId: null,
    scoredAt: new Date(NOW - agoMs).toISOString(),
    identities: { customer: null, user: null, email: null, emailDomain: null, phone: null, ip: null, device: null, card: null, ...identities },
    cardBin: null,
    cardLast4: null,
    location,
    amount: null,
    currency: null,
    score: 0,
    rules: [],
    features: [],
    ruleSet: 'test',
    dataVersions: {},
    outcome: null,
  };
}

const since = (agoMs: number): string => new Date(NOW - agoMs).toISOString();

describe('RedisVelocity', { skip: SKIP_REDIS }, () => {
  let raw: Redis | undefined;
  let velocity: RedisVelocity;
  const redis = (): Redis => {
    if (!raw) throw new Error('Redis admin connection was not opened');
    return raw;
  };

  before(async () => {
    raw = await openRedisAdmin();
    velocity = new RedisVelocity({ url: REDIS_URL, prefix: PREFIX });
  });

  after(async () => {
    await velocity?.close();
    if (!raw) return;
    const keys = await keysMatching(raw, `${PREFIX}*`);
    if (keys.length > 0) await raw.del(...keys);
    await raw.quit();
  });

  it('counts the scorings of an identity inside the window only', async () => {
    const acc = uid('acc');
    for (const ago of [5 * MIN, 30 * MIN, 2 * HOUR, 3 * DAY]) await velocity.record(scoring(acc, ago, { ip: 'ip-a' }));
    await velocity.record(scoring(acc, MIN, { ip: 'ip-b' }));
    const q = (agoMs: number, hash = 'ip-a'): VelocityQuery => ({ by: 'ip', hash, since: since(agoMs) });
    assert.deepEqual(await velocity.velocity(acc, [q(HOUR), q(DAY), q(7 * DAY), q(HOUR, 'ip-b'), q(HOUR, 'ip-none')]), [2, 3, 4, 1, 0]);
  });

  it('since is inclusive', async () => {
    const acc = uid('acc');
    await velocity.record(scoring(acc, HOUR, { device: 'd1' }));
    assert.deepEqual(await velocity.velocity(acc, [{ by: 'device', hash: 'd1', since: since(HOUR) }, { by: 'device', hash: 'd1', since: since(HOUR - 1) }]), [1, 0]);
  });

  it('every identity field of a scoring is counted', async () => {
    const acc = uid('acc');
    const ids: IdentityHashes = { customer: 'c', user: 'u', email: 'e', emailDomain: 'ed', phone: 'p', ip: 'i', device: 'd', card: 'k' };
    await velocity.record(scoring(acc, MIN, ids));
    const fields = Object.keys(ids) as Array<keyof IdentityHashes>;
    assert.deepEqual(
      await velocity.velocity(acc, fields.map((by) => ({ by, hash: ids[by]!, since: since(HOUR) }))),
      fields.map(() => 1),
    );
  });

  it('a scoring recorded twice counts once', async () => {
    const acc = uid('acc');
    const s = scoring(acc, MIN, { customer: 'c1', card: 'k1' });
    await velocity.record(s);
    await velocity.record(s);
    assert.deepEqual(await velocity.velocity(acc, [{ by: 'customer', hash: 'c1', since: since(HOUR) }]), [1]);
  });

  it('counts distinct cards per customer, customers per card and locations per customer in the window', async () => {
    const acc = uid('acc');
    await velocity.record(scoring(acc, 10 * DAY, { customer: 'c1', card: 'k0' }, 'loc-old'));
    await velocity.record(scoring(acc, 3 * HOUR, { customer: 'c1', card: 'k1' }, 'loc-1'));
    await velocity.record(scoring(acc, 2 * HOUR, { customer: 'c1', card: 'k1' }, 'loc-1'));
    await velocity.record(scoring(acc, HOUR, { customer: 'c1', card: 'k2' }, 'loc-2'));
    await velocity.record(scoring(acc, HOUR, { customer: 'c2', card: 'k1' }, null));
    await velocity.record(scoring(acc, HOUR, { card: 'k1' }, 'loc-3'));
    const result = await velocity.velocity(acc, [
      { by: 'customer', hash: 'c1', since: since(DAY), distinct: 'card' },
      { by: 'customer', hash: 'c1', since: since(30 * DAY), distinct: 'card' },
      { by: 'card', hash: 'k1', since: since(DAY), distinct: 'customer' },
      { by: 'customer', hash: 'c1', since: since(DAY), distinct: 'location' },
      { by: 'customer', hash: 'c1', since: since(30 * DAY), distinct: 'location' },
      { by: 'customer', hash: 'c2', since: since(DAY), distinct: 'location' },
      { by: 'customer', hash: 'c1', since: since(DAY) },
    ]);
    assert.deepEqual(result, [2, 3, 2, 2, 3, 0, 3]);
  });

  it('a distinct value seen again moves into the window; an older replay never moves it back', async () => {
    const acc = uid('acc');
    await velocity.record(scoring(acc, 10 * DAY, { customer: 'c1', card: 'k1' }));
    const q: VelocityQuery = { by: 'customer', hash: 'c1', since: since(DAY), distinct: 'card' };
    assert.deepEqual(await velocity.velocity(acc, [q]), [0]);
    await velocity.record(scoring(acc, HOUR, { customer: 'c1', card: 'k1' }));
    assert.deepEqual(await velocity.velocity(acc, [q]), [1]);
    await velocity.record(scoring(acc, 20 * DAY, { customer: 'c1', card: 'k1' }));
    assert.deepEqual(await velocity.velocity(acc, [q]), [1]);
  });

  it('refuses a distinct pair it does not keep, and an unreadable since', async () => {
    await assert.rejects(velocity.velocity('a', [{ by: 'ip', hash: 'x', since: since(HOUR), distinct: 'device' }]), RangeError);
    await assert.rejects(velocity.velocity('a', [{ by: 'ip', hash: 'x', since: 'yesterday' }]), RangeError);
    assert.deepEqual(await velocity.velocity('a', []), []);
  });

  it('counts attempts and distinct cards of a card BIN; forget removes them', async () => {
    const acc = uid('acc');
    const withBin = (ago: number, card: string, bin: string, amount = 1.5): StoredScoring => ({ ...scoring(acc, ago, { card }), cardBin: bin, amount });
    const a = withBin(20 * 60_000, 'k0', '400022');
    const b = withBin(9 * 60_000, 'k1', '400022');
    const c = withBin(8 * 60_000, 'k1', '400022');
    const d = withBin(7 * 60_000, 'k2', '400022');
    // Ordinary amounts are not in a BIN's window.
    for (const s of [a, b, c, d, withBin(60_000, 'k8', '400022', 5), withBin(60_000, 'k9', '400022', 99)]) await velocity.record(s);
    const q: VelocityQuery[] = [
      { by: 'bin', hash: '400022', since: since(10 * 60_000), distinct: 'card' },
      { by: 'bin', hash: '400022', since: since(10 * 60_000) },
      { by: 'bin', hash: '400022', since: since(HOUR), distinct: 'card' },
    ];
    assert.deepEqual(await velocity.velocity(acc, q), [2, 3, 3]);
    await velocity.forget([d]);
    assert.deepEqual(await velocity.velocity(acc, q), [1, 2, 2]);
  });

  it('counts every amount of a BIN (binAny) and the distinct cards of a device and an IP; forget removes them', async () => {
    const acc = uid('acc');
    const at = (ago: number, card: string, amount: number | null, device: string, ip: string): StoredScoring =>
      ({ ...scoring(acc, ago, { card, device, ip }), cardBin: '400022', amount });
    const a = at(30 * MIN, 'k0', 80, 'd1', 'i1');
    const b = at(9 * MIN, 'k1', 40, 'd1', 'i1');
    const c = at(8 * MIN, 'k1', 1, 'd1', 'i1');
    const d = at(MIN / 2, 'k2', null, 'd1', 'i2');
    for (const s of [a, b, c, d]) await velocity.record(s);
    const q: VelocityQuery[] = [
      { by: 'binAny', hash: '400022', since: since(10 * MIN), distinct: 'card' },
      { by: 'binAny', hash: '400022', since: since(MIN), distinct: 'card' },
      { by: 'binAny', hash: '400022', since: since(10 * MIN) },
      { by: 'binAny', hash: '400022', since: since(HOUR) },
      { by: 'bin', hash: '400022', since: since(10 * MIN) },
      { by: 'device', hash: 'd1', since: since(10 * MIN), distinct: 'card' },
      { by: 'ip', hash: 'i1', since: since(HOUR), distinct: 'card' },
    ];
    assert.deepEqual(await velocity.velocity(acc, q), [2, 1, 3, 4, 1, 2, 2]);
    await velocity.forget([d]);
    assert.deepEqual(await velocity.velocity(acc, q), [1, 0, 2, 3, 1, 1, 2]);
  });

  it('keeps 31 days: older members are trimmed and every key expires in 31 days', async () => {
    const acc = uid('acc');
    await velocity.record(scoring(acc, 40 * DAY, { ip: 'ip-t' }));
    await velocity.record(scoring(acc, 0, { ip: 'ip-t', customer: 'c-t', card: 'k-t' }));
    const key = `${PREFIX}${velocityKeys.count(acc, 'ip', 'ip-t')}`;
    assert.equal(await redis().zcard(key), 1, 'the 40-day-old member is gone');
    const keys = await keysMatching(redis(), `${PREFIX}vel:${acc}:*`);
    assert.deepEqual(keys.sort(), [
      `${PREFIX}vel:${acc}:card:k-t:customer`,
      `${PREFIX}vel:${acc}:card:k-t:ip`,
      `${PREFIX}vel:${acc}:card:k-t:n`,
      `${PREFIX}vel:${acc}:customer:c-t:card`,
      `${PREFIX}vel:${acc}:customer:c-t:n`,
      `${PREFIX}vel:${acc}:ip:ip-t:card`,
      `${PREFIX}vel:${acc}:ip:ip-t:customer`,
      `${PREFIX}vel:${acc}:ip:ip-t:n`,
    ]);
    for (const k of keys) {
      const ttl = await redis().ttl(k);
      assert.ok(ttl > VELOCITY_TTL_SECONDS - 60 && ttl <= VELOCITY_TTL_SECONDS, `${k} ttl ${ttl}`);
    }
  });

  it('a scoring without identities writes nothing', async () => {
    const acc = uid('acc');
    await velocity.record(scoring(acc, 0, {}, 'loc'));
    assert.deepEqual(await keysMatching(redis(), `${PREFIX}vel:${acc}:*`), []);
  });

  it('forget() leaves nothing of the forgotten scorings, and other accounts are unaffected', async () => {
    const acc = uid('acc');
    const other = uid('acc');
    const ids: IdentityHashes = { customer: 'c1', user: 'c1', email: 'e1', emailDomain: 'ed', phone: 'p1', ip: 'i1', device: 'd1', card: 'k1' };
    const mine = [scoring(acc, HOUR, ids, 'loc-1'), scoring(acc, 2 * HOUR, { ...ids, card: 'k2', ip: 'i2' }, 'loc-2'), scoring(acc, 3 * DAY, { customer: 'c1', email: 'e1' })];
    for (const s of mine) await velocity.record(s);
    for (const s of [scoring(other, HOUR, ids, 'loc-1'), scoring(other, 2 * HOUR, ids, 'loc-1')]) await velocity.record(s);
    const queries: VelocityQuery[] = [
      { by: 'customer', hash: 'c1', since: since(7 * DAY) },
      { by: 'card', hash: 'k1', since: since(7 * DAY), distinct: 'customer' },
      { by: 'customer', hash: 'c1', since: since(7 * DAY), distinct: 'location' },
      { by: 'ip', hash: 'i1', since: since(7 * DAY) },
    ];
    const otherBefore = await velocity.velocity(other, queries);
    assert.deepEqual(otherBefore, [2, 1, 1, 2]);

    await velocity.forget(mine);
    assert.deepEqual(await keysMatching(redis(), `${PREFIX}vel:${acc}:*`), []);
    assert.deepEqual(await velocity.velocity(acc, queries), [0, 0, 0, 0]);
    assert.deepEqual(await velocity.velocity(other, queries), otherBefore);
    await velocity.forget([]);
  });

  it('forget() keeps the other scorings of a shared identity and drops the personal keys whole', async () => {
    const acc = uid('acc');
    const a = scoring(acc, HOUR, { customer: 'ca', ip: 'shared-ip', device: 'shared-dev' });
    const b = scoring(acc, HOUR, { customer: 'cb', ip: 'shared-ip', device: 'shared-dev' });
    // A scoring of customer ca that deletion did not list (a race): its customer keys go anyway.
    const late = scoring(acc, MIN, { customer: 'ca', card: 'k9' });
    for (const s of [a, b, late]) await velocity.record(s);
    await velocity.forget([a]);
    assert.deepEqual(
      await velocity.velocity(acc, [
        { by: 'ip', hash: 'shared-ip', since: since(DAY) },
        { by: 'device', hash: 'shared-dev', since: since(DAY) },
        { by: 'customer', hash: 'cb', since: since(DAY) },
        { by: 'customer', hash: 'ca', since: since(DAY) },
        { by: 'customer', hash: 'ca', since: since(DAY), distinct: 'card' },
      ]),
      [1, 1, 1, 0, 0],
    );
  });

  it('uses the vigil: prefix by default', async () => {
    const acc = `${PREFIX.replaceAll(':', '-')}default`;
    const v = new RedisVelocity({ url: REDIS_URL });
    try {
      await v.record(scoring(acc, 0, { ip: 'x' }));
      assert.equal(await redis().zcard(`vigil:${velocityKeys.count(acc, 'ip', 'x')}`), 1);
    } finally {
      await redis().del(`vigil:${velocityKeys.count(acc, 'ip', 'x')}`);
      await v.close();
    }
  });

  it('ping() answers and close() twice is harmless', async () => {
    const v = new RedisVelocity({ url: REDIS_URL, prefix: PREFIX });
    await v.ping();
    await v.close();
    await v.close();
  });
});

// No Redis needed: an unusable Redis fails calls fast instead of hanging them.
describe('RedisVelocity when Redis is down', () => {
  it('calls reject within 2 s when connections are refused', async () => {
    const v = new RedisVelocity({ url: 'redis://127.0.0.1:1', prefix: PREFIX });
    try {
      const started = Date.now();
      await assert.rejects(v.velocity('a', [{ by: 'ip', hash: 'x', since: since(HOUR) }]));
      await assert.rejects(v.record(scoring('a', 0, { ip: 'x' })));
      assert.ok(Date.now() - started < 4000);
    } finally {
      await v.close();
    }
  });
});
