/**
 * Black box: an answer does not wait for the events it raises. The real server process (SQLite in a
 * temp DATA_DIR, 127.0.0.1) is asked about an invalid phone number (a `spam_phone` event) while this
 * test holds the database's write lock from another connection. The answer must arrive while the
 * lock is still held (before, the event's transaction waited for the lock, up to the 5 s busy
 * timeout, and the answer with it); once the lock is released the event is stored, and the next call
 * finds it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

const KEY = 'svc_live_afteranswer0000000000000001';

describe('black box: events are stored after the answer', () => {
  let dir: string;
  let s: Running | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-bb-after-'));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({
      plans: [{ id: 'open', methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 1_000_000, windowSeconds: 1 } }],
      accounts: [{ id: 'after', plan: 'open', keys: [KEY] }],
    }));
  });
  after(async () => {
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers while the store is locked, stores the event once it is free', { timeout: 60_000 }, async () => {
    s = await startServer({ DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' });
    const phone = async (number: string, userID: string, timeoutMs: number) => {
      const url = `http://127.0.0.1:${s?.port}/scoring/phone?countryCode=GB&phone=${encodeURIComponent(number)}&userID=${userID}`;
      const r = await fetch(url, { headers: { authorization: `Bearer ${KEY}` }, signal: AbortSignal.timeout(timeoutMs) });
      return (await r.json()) as { status: string; data?: { isValid?: boolean } };
    };
    // Warm up (statements prepared, caches filled), then let the 1 s usage flush write what it holds,
    // so that nothing but the event wants the write lock during the locked call.
    assert.equal((await phone('0909 8790000', 'warm', 10_000)).data?.isValid, false);
    await new Promise((r) => setTimeout(r, 1500));

    const db = new Database(join(dir, 'vigil.db'));
    const events = () => db.prepare<[string], { kind: string; subject: string }>('SELECT kind, subject FROM events WHERE user_id = ?').all('locked');
    try {
      db.exec('BEGIN IMMEDIATE');
      const startedAt = Date.now();
      // The server waits up to 5 s for a lock: an answer that waited for the event could not come in 3 s.
      const answer = await phone('0909 8790001', 'locked', 3000);
      const tookMs = Date.now() - startedAt;
      assert.equal(answer.status, 'success');
      assert.equal(answer.data?.isValid, false);
      assert.ok(tookMs < 3000, `answered in ${tookMs} ms`);
      assert.deepEqual(events(), [], 'the event is not stored while the lock is held');
      db.exec('COMMIT');

      // The event's transaction ran as soon as the lock was free; the next call is served after it.
      assert.equal((await phone('+44 7911 123456', 'next', 10_000)).data?.isValid, true);
      assert.deepEqual(events(), [{ kind: 'spam_phone', subject: '4490*****001' }]);
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    }
    assert.doesNotMatch(s.output(), /event could not be stored/);
  });
});
