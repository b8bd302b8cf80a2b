import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import type { Store } from '../../store/ports.ts';
import { SqliteStore } from '../../store/sqlite/sqlite-store.ts';
import { WebhookPresence } from './presence.ts';
import { WebhookService } from './service.ts';

const SERVER_SECRET = 'presence-secret-0123456789abcdef0123';
let store: Store;

before(async () => {
  store = new SqliteStore({ path: ':memory:' });
  await store.migrate();
});
after(() => store.close());

/** Lets the background read of the store settle (SQLite answers within a turn or two). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await turn();
};

describe('WebhookPresence', () => {
  it('an unknown account may have webhooks; once read, one without them does not, until the TTL', async () => {
    let now = 1_000;
    const presence = new WebhookPresence(store, 1000, () => now);
    assert.equal(presence.mayHave('none'), true, 'unknown: wake');
    await settle();
    assert.equal(presence.mayHave('none'), false);
    now += 999;
    assert.equal(presence.mayHave('none'), false);
    now += 2;
    assert.equal(presence.mayHave('none'), true, 'stale: wake and read again');
    await settle();
    assert.equal(presence.mayHave('none'), false);
  });

  it('an account with a webhook always may', async () => {
    const presence = new WebhookPresence(store, 60_000);
    await new WebhookService(store, SERVER_SECRET).add('with', 'https://hooks.example.com/in');
    presence.mayHave('with');
    await settle();
    assert.equal(presence.mayHave('with'), true);
  });

  it('a webhook added through this process counts at once; through another instance, after the TTL', async () => {
    let now = 5_000;
    const presence = new WebhookPresence(store, 1000, () => now);
    const here = new WebhookService(store, SERVER_SECRET, () => new Date(), () => undefined, (id) => presence.forget(id));
    presence.mayHave('later');
    await settle();
    assert.equal(presence.mayHave('later'), false);
    // Another instance: a service without this process's presence.
    const hook = await new WebhookService(store, SERVER_SECRET).add('later', 'https://hooks.example.com/a');
    assert.equal(presence.mayHave('later'), false, 'not seen here yet');
    now += 1001;
    assert.equal(presence.mayHave('later'), true);
    await settle();
    assert.equal(presence.mayHave('later'), true);
    // Removed here: forgotten at once, then read again as without.
    await here.remove('later', hook.id);
    assert.equal(presence.mayHave('later'), true);
    await settle();
    assert.equal(presence.mayHave('later'), false);
    await here.add('later', 'https://hooks.example.com/b');
    assert.equal(presence.mayHave('later'), true, 'added here: at once');
  });

  it('a failed read leaves the account unknown, so events keep waking the worker', async () => {
    const broken = new SqliteStore({ path: ':memory:' });
    await broken.migrate();
    await broken.close();
    const presence = new WebhookPresence(broken, 1000);
    assert.equal(presence.mayHave('acct'), true);
    await settle();
    assert.equal(presence.mayHave('acct'), true);
  });
});
