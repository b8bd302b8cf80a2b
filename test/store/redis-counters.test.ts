import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { openCounters } from '../../src/store/index.ts';
import { REDIS_PREFIX } from '../../src/store/redis/keys.ts';
import { RedisCounters } from '../../src/store/redis/redis-counters.ts';
import { runCountersContract } from './counters-contract.ts';
import { uid } from './fixtures.ts';
import { deleteKeys, openRedisAdmin, SKIP_REDIS, TEST_REDIS_URL } from '../helpers/redis.ts';

const REDIS_URL = TEST_REDIS_URL;
/** Every key of this run lives under this prefix, and is deleted at the end. */
const PREFIX = `vigil-test:${randomBytes(6).toString('hex')}:`;

/** A closed local port: connections are refused at once. */
const REFUSED_URL = 'redis://127.0.0.1:1';


describe('RedisCounters', { skip: SKIP_REDIS }, () => {
  let raw: Redis | undefined;
  const redis = (): Redis => {
    if (!raw) throw new Error('Redis admin connection was not opened');
    return raw;
  };

  before(async () => {
    raw = await openRedisAdmin();
  });

  after(async () => {
    if (!raw) return;
    await deleteKeys(raw, `${PREFIX}*`);
    await raw.quit();
  });

  runCountersContract('redis', () => Promise.resolve(new RedisCounters({ url: REDIS_URL, prefix: PREFIX })), (ms) => sleep(ms));

  describe('shared state', () => {
    let a: RedisCounters;
    let b: RedisCounters;

    before(() => {
      a = new RedisCounters({ url: REDIS_URL, prefix: PREFIX });
      b = new RedisCounters({ url: REDIS_URL, prefix: PREFIX });
    });

    after(async () => {
      await Promise.all([a.close(), b.close()]);
    });

    it('two instances on the same prefix see the same values', async () => {
      const key = uid('shared');
      assert.equal(await a.incr(key, 3, 60), 3);
      assert.equal(await b.get(key), 3);
      assert.equal(await b.incr(key, 2, 60), 5);
      assert.equal(await a.get(key), 5);
      assert.equal(await a.setIfAbsent(key, 100, 60), false);
    });

    it('concurrent increments from two instances add up exactly', async () => {
      const key = uid('shared-concurrent');
      const calls = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).incr(key, 1, 60));
      const totals = await Promise.all(calls);
      assert.equal(new Set(totals).size, 200);
      assert.equal(Math.max(...totals), 200);
      assert.equal(await b.get(key), 200);
    });

    it('another prefix is another key space', async () => {
      const other = new RedisCounters({ url: REDIS_URL, prefix: `${PREFIX}other:` });
      try {
        const key = uid('isolated');
        await a.incr(key, 1, 60);
        assert.equal(await other.get(key), 0);
      } finally {
        await other.close();
      }
    });

    it('stores keys under the prefix with the TTL in Redis', async () => {
      const key = uid('layout');
      await a.incr(key, 1, 30);
      assert.equal(await redis().get(`${PREFIX}${key}`), '1');
      const ttl = await redis().pttl(`${PREFIX}${key}`);
      assert.ok(ttl > 28_000 && ttl <= 30_000, `pttl ${ttl}`);
      await a.incr(key, 1, 3600);
      assert.ok((await redis().pttl(`${PREFIX}${key}`)) <= 30_000, 'later increments keep the first TTL');
    });

    it('uses the vigil: prefix by default', async () => {
      assert.equal(REDIS_PREFIX, 'vigil:');
      const counters = new RedisCounters({ url: REDIS_URL });
      const key = `${PREFIX.replaceAll(':', '-')}default`;
      try {
        await counters.incr(key, 1, 5);
        assert.equal(await redis().get(`vigil:${key}`), '1');
      } finally {
        await redis().del(`vigil:${key}`);
        await counters.close();
      }
    });
  });

  describe('lifecycle', () => {
    it('close() twice is harmless', async () => {
      const counters = new RedisCounters({ url: REDIS_URL, prefix: PREFIX });
      await counters.ping();
      await counters.close();
      await counters.close();
    });

    it('openCounters() with redisUrl gives Redis counters under the given prefix', async () => {
      const counters = await openCounters({ redisUrl: REDIS_URL, redisPrefix: PREFIX });
      try {
        assert.equal(counters.kind, 'redis');
        const key = uid('opened');
        await counters.incr(key, 2, 60);
        assert.equal(await redis().get(`${PREFIX}${key}`), '2');
      } finally {
        await counters.close();
      }
    });
  });
});

/** Accepts TCP connections and never answers: a hung Redis. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function rejectsWithin(ms: number, call: Promise<unknown>): Promise<void> {
  const started = Date.now();
  await assert.rejects(call);
  const took = Date.now() - started;
  assert.ok(took < ms, `took ${took} ms`);
}

// No Redis needed: these check that an unusable Redis fails calls fast instead of hanging them.
describe('RedisCounters when Redis is down', () => {
  it('calls reject within 2 s when connections are refused', async () => {
    const counters = new RedisCounters({ url: REFUSED_URL, prefix: PREFIX });
    try {
      await rejectsWithin(2000, counters.incr('k', 1, 60));
      await rejectsWithin(2000, counters.get('k'));
      await rejectsWithin(2000, counters.setIfAbsent('k', 1, 60));
      await rejectsWithin(2000, counters.ping());
    } finally {
      await counters.close();
    }
  });

  it('calls reject within 2 s when the server accepts but never answers', async () => {
    const server = await silentServer();
    const counters = new RedisCounters({ url: server.url, prefix: PREFIX });
    try {
      await rejectsWithin(2000, counters.incr('k', 1, 60));
      await rejectsWithin(2000, counters.ping());
    } finally {
      await counters.close();
      await server.close();
    }
  });

  it('close() returns promptly while Redis is down', async () => {
    const counters = new RedisCounters({ url: REFUSED_URL, prefix: PREFIX });
    await sleep(50);
    const started = Date.now();
    await counters.close();
    assert.ok(Date.now() - started < 500);
  });

  it('openCounters() rejects when Redis is unreachable', async () => {
    await rejectsWithin(2500, openCounters({ redisUrl: REFUSED_URL }));
  });
});
