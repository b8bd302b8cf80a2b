/**
 * Redis Cluster (REDIS_CLUSTER=on) runs a MULTI or pipeline only on keys of one hash slot (else CROSSSLOT).
 * The keys one scoring's velocity MULTI writes, and those a scoring's velocity reads, are checked here with
 * the slot function ioredis's cluster client itself uses (cluster-key-slot).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { StoredScoring } from '../../src/store/learning-ports.ts';
import { RedisVelocity } from '../../src/store/redis/redis-velocity.ts';
import { velocityKeys } from '../../src/store/redis/keys.ts';
import { deleteKeys, openRedisAdmin, SKIP_REDIS, TEST_REDIS_URL } from '../helpers/redis.ts';

const calculateSlot = createRequire(import.meta.url)('cluster-key-slot') as (key: string) => number;
const PREFIX = `vigil-test:${randomBytes(6).toString('hex')}:`;
const h = (s: string) => randomBytes(8).toString('hex') + s;

/** A scoring with every identity, a location and a small amount on a card (so the BIN windows are written too). */
function fullScoring(accountId: string): StoredScoring {
  return {
    id: 7, accountId, transactionId: 'tx', scoredAt: new Date().toISOString(),
    identities: { customer: h('c'), user: h('u'), email: h('e'), emailDomain: h('d'), phone: h('p'), ip: h('i'), device: h('v'), card: h('k') },
    cardBin: '411111', cardLast4: '1111', location: h('l'), amount: 1, currency: 'EUR', score: 1, rules: [], features: [], ruleSet: 't', dataVersions: {}, outcome: null,
  };
}

describe('Redis Cluster hash slots', { skip: SKIP_REDIS }, () => {
  const tagged = new RedisVelocity({ url: TEST_REDIS_URL, prefix: PREFIX, hashTags: true });
  const plain = new RedisVelocity({ url: TEST_REDIS_URL, prefix: PREFIX });
  after(async () => {
    const redis = await openRedisAdmin();
    await deleteKeys(redis, `${PREFIX}*`);
    await redis.quit();
    await tagged.close();
    await plain.close();
  });

  it('every key of one scoring\'s velocity MULTI is in one slot with hash tags (and would not be without)', () => {
    for (const account of ['acme', 'a:b', 'shop-42', 'x}y']) {
      const keys = tagged.recordWrites(fullScoring(account)).map((w) => w.key);
      assert.ok(keys.length >= 17, `${keys.length} keys`);
      assert.equal(new Set(keys.map(calculateSlot)).size, 1, `account ${account}: ${keys.join(' ')}`);
      assert.ok(new Set(plain.recordWrites(fullScoring(account)).map((w) => calculateSlot(w.key))).size > 1);
    }
  });

  it('the keys a scoring reads (counts and distinct sets of any identity) share the account\'s slot', () => {
    const slot = calculateSlot(PREFIX + velocityKeys.count('acme', 'ip', h('1'), true));
    for (const key of [velocityKeys.count('acme', 'card', h('2'), true), velocityKeys.distinct('acme', 'customer', h('3'), 'card', true), velocityKeys.count('acme', 'bin', '411111', true)]) {
      assert.equal(calculateSlot(PREFIX + key), slot);
    }
  });

  it('tagged windows answer like untagged ones on one Redis', async () => {
    const s = fullScoring(`tag-${randomBytes(3).toString('hex')}`);
    await tagged.record(s);
    const since = new Date(Date.now() - 60_000).toISOString();
    assert.deepEqual(
      await tagged.velocity(s.accountId, [{ by: 'ip', hash: s.identities.ip!, since }, { by: 'customer', hash: s.identities.customer!, since, distinct: 'card' }, { by: 'bin', hash: '411111', since, distinct: 'card' }]),
      [1, 1, 1],
    );
    assert.deepEqual(await plain.velocity(s.accountId, [{ by: 'ip', hash: s.identities.ip!, since }]), [0], 'the names differ: a switch to cluster mode starts empty windows');
  });
});
