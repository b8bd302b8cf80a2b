/**
 * A user deletion through one instance while another still holds the user's records in its buffers or
 * has their events on the way (issue 26, item 3): nothing of the user is written after the deletion.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, liveKey } from '../helpers/harness.ts';
import { seedAccounts, startPair, type Pair } from '../helpers/instance-pair.ts';
import { queryOnce, SKIP_PG } from '../store/pg-test-database.ts';
import { SKIP_REDIS } from '../helpers/redis.ts';

const suffix = randomBytes(3).toString('hex');
const ACCOUNT = `dlx-${suffix}`;
const KEY = liveKey(`dlx${suffix}`);
let pair: Pair;

before(async () => {
  pair = await startPair();
  await seedAccounts(pair, [{ id: ACCOUNT, key: KEY }]);
  // Every country answer is then blacklisted, which raises an event and logs a decision.
  const res = await pair.a.app.app.inject({
    method: 'POST', url: `/admin/accounts/${ACCOUNT}/blacklists`, payload: { type: 'card_country', values: ['DE'] }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(() => pair?.close());

const left = async (table: string, userId: string) =>
  Number((await queryOnce<{ n: string }>(pair.db.url, `SELECT count(*) AS n FROM ${table} WHERE account_id = '${ACCOUNT}' AND user_id = '${userId}'`))[0]?.n);

describe('deletion across two instances', { skip: SKIP_PG || SKIP_REDIS }, () => {
  it('a user\'s 50 calls on A, then at once a deletion through B: no request-log row, event or decision record is left', async () => {
    const user = `del-user-${suffix}`;
    const other = `kept-user-${suffix}`;
    const calls = (userID: string) => Array.from({ length: 50 }, () => pair.call(pair.a, 'GET', '/lookup/country', KEY, undefined, { CountryCode: 'DE', userID }));
    const answers = await Promise.all([...calls(user), ...calls(other)]);
    for (const r of answers) assert.equal((r.data as { blacklisted?: boolean }).blacklisted, true, JSON.stringify(r));
    const del = await pair.call(pair.b, 'DELETE', '/account/users/delete', KEY, { value: user, type: 'user_id' });
    assert.equal(del.status, 'success', JSON.stringify(del));
    // A writes its buffers within a second (the request log) or at once (decisions, events).
    await new Promise((r) => setTimeout(r, 1500));
    await pair.a.app.recorder.flush();
    assert.deepEqual(
      { requests: await left('request_log', user), events: await left('events', user), decisions: await left('decision_log', user) },
      { requests: 0, events: 0, decisions: 0 },
    );
    // The other user's records are all there: the tombstone leaves out only the deleted user's.
    assert.deepEqual(
      { requests: await left('request_log', other), events: await left('events', other), decisions: await left('decision_log', other) },
      { requests: 50, events: 50, decisions: 50 },
    );
  });
});
