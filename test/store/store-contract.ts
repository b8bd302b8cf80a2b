import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store, UsageRow } from '../../src/store/ports.ts';
import { makeAccount, makeKey, makeLogEntry, makePlan, uid } from './fixtures.ts';

/** A string that breaks naive quoting and encoding: quotes, backslash, SQL comment, CJK, emoji, combining mark. */
const AWKWARD = `it's "quoted" \\ -- ; 日本語 👩‍💻 🚀 e\u0301`;

/**
 * The behaviour every Store implementation must share. `factory` returns a migrated store on an empty database;
 * cases use unique ids, so they may share that store.
 */
export function runStoreContract(name: string, factory: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    before(async () => {
      store = await factory();
    });

    after(async () => {
      await store.close();
    });

    describe('lifecycle', () => {
      it('reports its kind', () => {
        assert.ok(store.kind === 'sqlite' || store.kind === 'postgres');
      });

      it('ping resolves', async () => {
        await store.ping();
      });

      it('migrate() again is harmless and keeps data', async () => {
        const plan = makePlan(uid('plan'));
        await store.accounts.upsertPlan(plan);
        await store.migrate();
        await store.migrate();
        assert.deepEqual(await store.accounts.getPlan(plan.id), plan);
      });

      it('migrate() concurrently with itself is harmless', async () => {
        await Promise.all([store.migrate(), store.migrate(), store.migrate()]);
        await store.ping();
      });
    });

    describe('plans', () => {
      it('upserts and reads a plan back, limited and unlimited', async () => {
        const limited = makePlan(uid('plan'));
        const unlimited = makePlan(uid('plan'), { methods: ['*'], modules: ['security', 'device'], monthlyQuota: null, flood: { limit: 3, windowSeconds: 60 } });
        await store.accounts.upsertPlan(limited);
        await store.accounts.upsertPlan(unlimited);
        assert.deepEqual(await store.accounts.getPlan(limited.id), limited);
        assert.deepEqual(await store.accounts.getPlan(unlimited.id), unlimited);
      });

      it('a second upsert replaces every field', async () => {
        const id = uid('plan');
        await store.accounts.upsertPlan(makePlan(id));
        const replaced = makePlan(id, { methods: ['lookup/asn'], modules: [], monthlyQuota: 5, flood: { limit: 99, windowSeconds: 30 } });
        await store.accounts.upsertPlan(replaced);
        assert.deepEqual(await store.accounts.getPlan(id), replaced);
        assert.equal((await store.accounts.listPlans()).filter((p) => p.id === id).length, 1);
      });

      it('keeps method and module order, including empty lists', async () => {
        const plan = makePlan(uid('plan'), { methods: ['z', 'a', 'm/n'], modules: [] });
        await store.accounts.upsertPlan(plan);
        assert.deepEqual(await store.accounts.getPlan(plan.id), plan);
      });

      it('getPlan of an unknown id is null', async () => {
        assert.equal(await store.accounts.getPlan(uid('missing')), null);
      });

      it('listPlans returns every plan ordered by id (code-point order)', async () => {
        const base = uid('list');
        const ids = [`${base}_b`, `${base}_B`, `${base}_a`, `${base}_c`];
        for (const id of ids) await store.accounts.upsertPlan(makePlan(id));
        const listed = (await store.accounts.listPlans()).filter((p) => p.id.startsWith(base));
        assert.deepEqual(
          listed.map((p) => p.id),
          [`${base}_B`, `${base}_a`, `${base}_b`, `${base}_c`],
        );
        assert.deepEqual(listed[0], makePlan(`${base}_B`));
      });
    });

    describe('accounts', () => {
      it('insertAccount creates once: a second insert of the id writes nothing and says false', async () => {
        const id = uid('acct');
        const first = makeAccount(id, { authorizedHosts: ['a.example.com', '10.0.0.0/8'] });
        assert.equal(await store.accounts.insertAccount(first), true);
        assert.equal(await store.accounts.insertAccount(makeAccount(id, { status: 'inactive', authorizedHosts: ['other.example'] })), false);
        assert.deepEqual(await store.accounts.getAccount(id), first);
      });

      it('concurrent inserts of one id: exactly one wins', async () => {
        const id = uid('acct');
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.accounts.insertAccount(makeAccount(id, { authorizedHosts: [`h${i}.example.com`] }))));
        assert.equal(results.filter(Boolean).length, 1);
        assert.equal((await store.accounts.getAccount(id))?.authorizedHosts.length, 1);
      });

      it('upserts and reads the whole record back', async () => {
        const account = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        assert.deepEqual(await store.accounts.getAccount(account.id), account);
      });

      it('a second upsert replaces the whole record, hosts and settings included', async () => {
        const id = uid('acct');
        await store.accounts.upsertAccount(makeAccount(id));
        const replaced = makeAccount(id, {
          status: 'inactive',
          planId: 'premium',
          subscription: { expiresAt: '2031-06-30T00:00:00.000Z' },
          authorizedHosts: ['only.example.net'],
          settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 0 },
          createdAt: '2025-01-01T00:00:00.000Z',
        });
        await store.accounts.upsertAccount(replaced);
        assert.deepEqual(await store.accounts.getAccount(id), replaced);
        assert.equal((await store.accounts.listAccounts()).filter((a) => a.id === id).length, 1);
      });

      it('a null subscription round-trips and differs from a never-expiring one', async () => {
        const none = makeAccount(uid('acct'), { subscription: null });
        const forever = makeAccount(uid('acct'), { subscription: { expiresAt: null } });
        await store.accounts.upsertAccount(none);
        await store.accounts.upsertAccount(forever);
        assert.equal((await store.accounts.getAccount(none.id))?.subscription, null);
        assert.deepEqual((await store.accounts.getAccount(forever.id))?.subscription, { expiresAt: null });
        // Subscription can be removed and given back by later upserts.
        await store.accounts.upsertAccount({ ...forever, subscription: null });
        assert.equal((await store.accounts.getAccount(forever.id))?.subscription, null);
        await store.accounts.upsertAccount({ ...none, subscription: { expiresAt: '2029-02-28T10:11:12.345Z' } });
        assert.deepEqual((await store.accounts.getAccount(none.id))?.subscription, { expiresAt: '2029-02-28T10:11:12.345Z' });
      });

      it('authorized hosts keep their order (duplicates too) and can be emptied', async () => {
        const hosts = ['b.example', 'a.example', '*.wild.example', '192.0.2.0/24', '::1', 'b.example'];
        const account = makeAccount(uid('acct'), { authorizedHosts: hosts });
        await store.accounts.upsertAccount(account);
        assert.deepEqual((await store.accounts.getAccount(account.id))?.authorizedHosts, hosts);
        await store.accounts.upsertAccount({ ...account, authorizedHosts: [] });
        assert.deepEqual((await store.accounts.getAccount(account.id))?.authorizedHosts, []);
      });

      it('hosts of one account do not leak into another', async () => {
        const a = makeAccount(uid('acct'), { authorizedHosts: ['a.example'] });
        const b = makeAccount(uid('acct'), { authorizedHosts: [] });
        await store.accounts.upsertAccount(a);
        await store.accounts.upsertAccount(b);
        assert.deepEqual((await store.accounts.getAccount(b.id))?.authorizedHosts, []);
        assert.deepEqual((await store.accounts.getAccount(a.id))?.authorizedHosts, ['a.example']);
      });

      it('settings round-trip', async () => {
        const account = makeAccount(uid('acct'), { settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 123456 } });
        await store.accounts.upsertAccount(account);
        assert.deepEqual((await store.accounts.getAccount(account.id))?.settings, account.settings);
      });

      it('timestamps come back in toISOString() form (UTC, milliseconds)', async () => {
        const account = makeAccount(uid('acct'), {
          createdAt: '2024-05-01T10:00:00Z',
          subscription: { expiresAt: '2024-06-01T02:30:00+02:00' },
        });
        await store.accounts.upsertAccount(account);
        const read = await store.accounts.getAccount(account.id);
        assert.ok(read);
        assert.equal(read.createdAt, '2024-05-01T10:00:00.000Z');
        assert.deepEqual(read.subscription, { expiresAt: '2024-06-01T00:30:00.000Z' });
      });

      it('rejects a timestamp without a zone or that is not a timestamp', async () => {
        await assert.rejects(store.accounts.upsertAccount(makeAccount(uid('acct'), { createdAt: '2024-05-01T10:00:00' })), RangeError);
        await assert.rejects(store.accounts.upsertAccount(makeAccount(uid('acct'), { createdAt: 'now' })), RangeError);
      });

      it('getAccount of an unknown id is null', async () => {
        assert.equal(await store.accounts.getAccount(uid('missing')), null);
      });

      it('listAccounts is ordered by id and countAccounts counts them', async () => {
        const before = await store.accounts.countAccounts();
        const base = uid('listacct');
        const ids = [`${base}_2`, `${base}_1`, `${base}_3`];
        for (const id of ids) await store.accounts.upsertAccount(makeAccount(id));
        // Re-upserting must not add to the count.
        await store.accounts.upsertAccount(makeAccount(`${base}_1`, { status: 'inactive' }));
        assert.equal(await store.accounts.countAccounts(), before + 3);
        const listed = (await store.accounts.listAccounts()).filter((a) => a.id.startsWith(base));
        assert.deepEqual(
          listed.map((a) => a.id),
          [`${base}_1`, `${base}_2`, `${base}_3`],
        );
        assert.deepEqual(listed[0], makeAccount(`${base}_1`, { status: 'inactive' }));
        const all = await store.accounts.listAccounts();
        assert.equal(all.length, await store.accounts.countAccounts());
      });
    });

    describe('api keys', () => {
      it('adds a key and finds it by hash', async () => {
        const account = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        const key = makeKey(account.id, { kind: 'test', hint: 'zz99' });
        assert.equal(await store.accounts.addKey(key), true);
        assert.deepEqual(await store.accounts.findKeyByHash(key.hash), key);
      });

      it('a second key with the same hash is ignored and returns false', async () => {
        const account = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        const key = makeKey(account.id);
        assert.equal(await store.accounts.addKey(key), true);
        assert.equal(await store.accounts.addKey(key), false);
        assert.equal(await store.accounts.addKey({ ...key, id: uid('key'), hint: 'othr' }), false);
        assert.deepEqual(await store.accounts.findKeyByHash(key.hash), key);
        assert.equal((await store.accounts.listKeys(account.id)).length, 1);
      });

      it('findKeyByHash of an unknown hash is null', async () => {
        assert.equal(await store.accounts.findKeyByHash('0'.repeat(64)), null);
      });

      it('rejects a key of an unknown account', async () => {
        await assert.rejects(store.accounts.addKey(makeKey(uid('missing'))));
      });

      it('revokes a key once; a second revoke and an unknown id return false', async () => {
        const account = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        const key = makeKey(account.id);
        await store.accounts.addKey(key);
        assert.equal(await store.accounts.revokeKey(key.id, '2024-04-01T08:00:00.000Z'), true);
        assert.equal(await store.accounts.revokeKey(key.id, '2024-04-02T08:00:00.000Z'), false);
        assert.equal(await store.accounts.revokeKey(uid('missing'), '2024-04-02T08:00:00.000Z'), false);
        assert.deepEqual(await store.accounts.findKeyByHash(key.hash), { ...key, revokedAt: '2024-04-01T08:00:00.000Z' });
      });

      it('a key stored already revoked round-trips and cannot be revoked again', async () => {
        const account = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        const key = makeKey(account.id, { revokedAt: '2024-02-02T02:02:02.002Z' });
        await store.accounts.addKey(key);
        assert.deepEqual(await store.accounts.findKeyByHash(key.hash), key);
        assert.equal(await store.accounts.revokeKey(key.id, '2024-04-01T08:00:00.000Z'), false);
      });

      it('listKeys returns only that account’s keys, oldest first', async () => {
        const account = makeAccount(uid('acct'));
        const other = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        await store.accounts.upsertAccount(other);
        const newer = makeKey(account.id, { createdAt: '2024-03-02T00:00:00.000Z' });
        const older = makeKey(account.id, { createdAt: '2024-03-01T00:00:00.000Z', kind: 'test' });
        await store.accounts.addKey(newer);
        await store.accounts.addKey(older);
        await store.accounts.addKey(makeKey(other.id));
        assert.deepEqual(await store.accounts.listKeys(account.id), [older, newer]);
        assert.deepEqual(await store.accounts.listKeys(uid('missing')), []);
      });

      it('replacing an account keeps its keys', async () => {
        const account = makeAccount(uid('acct'));
        await store.accounts.upsertAccount(account);
        const key = makeKey(account.id);
        await store.accounts.addKey(key);
        await store.accounts.upsertAccount({ ...account, status: 'inactive', authorizedHosts: ['x.example'] });
        assert.deepEqual(await store.accounts.listKeys(account.id), [key]);
      });
    });

    describe('usage', () => {
      const row = (accountId: string, method: string, day: string, count: number): UsageRow => ({ accountId, method, day, count });

      it('add accumulates across calls', async () => {
        const acct = uid('acct');
        await store.usage.add([row(acct, 'lookup/ip', '2024-03-05', 2)]);
        await store.usage.add([row(acct, 'lookup/ip', '2024-03-05', 3)]);
        await store.usage.add([row(acct, 'lookup/ip', '2024-03-05', 5)]);
        assert.deepEqual(await store.usage.list(acct, '2024-03-05', '2024-03-05'), [row(acct, 'lookup/ip', '2024-03-05', 10)]);
      });

      it('add accumulates duplicate rows within one batch', async () => {
        const acct = uid('acct');
        await store.usage.add([
          row(acct, 'lookup/ip', '2024-03-05', 1),
          row(acct, 'lookup/country', '2024-03-05', 4),
          row(acct, 'lookup/ip', '2024-03-05', 2),
          row(acct, 'lookup/ip', '2024-03-05', 3),
        ]);
        assert.deepEqual(await store.usage.list(acct, '2024-03-05', '2024-03-05'), [
          row(acct, 'lookup/country', '2024-03-05', 4),
          row(acct, 'lookup/ip', '2024-03-05', 6),
        ]);
      });

      it('an empty batch is a no-op', async () => {
        await store.usage.add([]);
      });

      it('handles a large batch in one call', async () => {
        const acct = uid('acct');
        const rows: UsageRow[] = [];
        for (let i = 0; i < 3000; i++) rows.push(row(acct, `m${i % 50}`, `2024-01-${String((i % 28) + 1).padStart(2, '0')}`, 1));
        await store.usage.add(rows);
        assert.equal(await store.usage.monthTotal(acct, '2024-01'), 3000);
      });

      it('counts beyond 32 bits come back as exact numbers', async () => {
        const acct = uid('acct');
        await store.usage.add([row(acct, 'm', '2024-03-05', 3_000_000_000)]);
        await store.usage.add([row(acct, 'm', '2024-03-05', 3_000_000_000)]);
        const [only] = await store.usage.list(acct, '2024-03-05', '2024-03-05');
        assert.ok(only);
        assert.equal(only.count, 6_000_000_000);
        assert.equal(typeof only.count, 'number');
        assert.equal(await store.usage.monthTotal(acct, '2024-03'), 6_000_000_000);
      });

      it('list covers the range inclusively, ordered by day then method (code-point order)', async () => {
        const acct = uid('acct');
        await store.usage.add([
          row(acct, 'lookup/ip', '2024-03-31', 1),
          row(acct, 'lookup/ip', '2024-02-29', 1),
          row(acct, 'b', '2024-03-01', 1),
          row(acct, 'B', '2024-03-01', 1),
          row(acct, 'a', '2024-03-01', 1),
          row(acct, 'lookup/ip', '2024-03-15', 7),
          row(acct, 'lookup/ip', '2024-04-01', 1),
        ]);
        assert.deepEqual(await store.usage.list(acct, '2024-03-01', '2024-03-31'), [
          row(acct, 'B', '2024-03-01', 1),
          row(acct, 'a', '2024-03-01', 1),
          row(acct, 'b', '2024-03-01', 1),
          row(acct, 'lookup/ip', '2024-03-15', 7),
          row(acct, 'lookup/ip', '2024-03-31', 1),
        ]);
        assert.deepEqual(await store.usage.list(acct, '2024-04-02', '2024-12-31'), []);
        assert.deepEqual(await store.usage.list(acct, '2024-03-31', '2024-03-01'), []);
      });

      it('list only returns the asked account', async () => {
        const a = uid('acct');
        const b = uid('acct');
        await store.usage.add([row(a, 'x', '2024-03-05', 1), row(b, 'x', '2024-03-05', 2)]);
        assert.deepEqual(await store.usage.list(a, '2024-01-01', '2024-12-31'), [row(a, 'x', '2024-03-05', 1)]);
      });

      it('monthTotal sums every method of that account in that month only', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        await store.usage.add([
          row(acct, 'lookup/ip', '2024-01-31', 100),
          row(acct, 'lookup/ip', '2024-02-01', 1),
          row(acct, 'lookup/country', '2024-02-15', 2),
          row(acct, 'lookup/ip', '2024-02-29', 4),
          row(acct, 'lookup/ip', '2024-03-01', 1000),
          row(other, 'lookup/ip', '2024-02-10', 10000),
        ]);
        assert.equal(await store.usage.monthTotal(acct, '2024-02'), 7);
        assert.equal(await store.usage.monthTotal(acct, '2024-01'), 100);
        assert.equal(await store.usage.monthTotal(acct, '2024-04'), 0);
        assert.equal(await store.usage.monthTotal(uid('missing'), '2024-02'), 0);
      });

      it('monthTotal handles the December/January boundary', async () => {
        const acct = uid('acct');
        await store.usage.add([row(acct, 'm', '2024-12-31', 3), row(acct, 'm', '2025-01-01', 5)]);
        assert.equal(await store.usage.monthTotal(acct, '2024-12'), 3);
        assert.equal(await store.usage.monthTotal(acct, '2025-01'), 5);
      });

      it('rejects malformed days and months; a bad row rejects its whole batch', async () => {
        const acct = uid('acct');
        await assert.rejects(store.usage.add([row(acct, 'm', '2024-03-05', 1), row(acct, 'm', '2024-02-30', 1)]), RangeError);
        await assert.rejects(store.usage.add([row(acct, 'm', '2024-3-5', 1)]), RangeError);
        await assert.rejects(store.usage.add([row(acct, 'm', '2024-03-05', 1.5)]), RangeError);
        assert.deepEqual(await store.usage.list(acct, '2024-01-01', '2024-12-31'), []);
        await assert.rejects(store.usage.monthTotal(acct, '2024-13'), RangeError);
        await assert.rejects(store.usage.monthTotal(acct, '2024-3'), RangeError);
        await assert.rejects(store.usage.list(acct, 'yesterday', '2024-12-31'), RangeError);
      });
    });

    describe('request log', () => {
      it('appends a batch and lists it in time order', async () => {
        const acct = uid('acct');
        const user = uid('user');
        const first = makeLogEntry(acct, user, { at: '2024-03-01T10:00:00.000Z', operation: 'lookup.ip' });
        const second = makeLogEntry(acct, user, { at: '2024-03-01T11:00:00.000Z', ip: null, mode: 'test' });
        const third = makeLogEntry(acct, user, { at: '2024-03-02T09:00:00.000Z', ip: '2001:db8::1' });
        await store.requestLog.append([third, first]);
        await store.requestLog.append([second]);
        assert.deepEqual(await store.requestLog.listByUser(acct, user), [first, second, third]);
      });

      it('entries at the same instant keep their insertion order', async () => {
        const acct = uid('acct');
        const user = uid('user');
        const entries = ['a', 'b', 'c', 'd'].map((op) => makeLogEntry(acct, user, { operation: op }));
        await store.requestLog.append(entries);
        assert.deepEqual(await store.requestLog.listByUser(acct, user), entries);
      });

      it('an empty batch is a no-op; an unknown user has no entries', async () => {
        await store.requestLog.append([]);
        assert.deepEqual(await store.requestLog.listByUser(uid('acct'), uid('user')), []);
      });

      it('isolates accounts and users', async () => {
        const a = uid('acct');
        const b = uid('acct');
        const user = uid('user');
        const otherUser = uid('user');
        await store.requestLog.append([
          makeLogEntry(a, user, { operation: 'a-user' }),
          makeLogEntry(b, user, { operation: 'b-user' }),
          makeLogEntry(a, otherUser, { operation: 'a-other' }),
        ]);
        assert.deepEqual(
          (await store.requestLog.listByUser(a, user)).map((e) => e.operation),
          ['a-user'],
        );
        assert.deepEqual(
          (await store.requestLog.listByUser(b, user)).map((e) => e.operation),
          ['b-user'],
        );
      });

      it('deleteByUser removes only that user of that account and returns the count', async () => {
        const a = uid('acct');
        const b = uid('acct');
        const user = uid('user');
        const otherUser = uid('user');
        await store.requestLog.append([
          makeLogEntry(a, user),
          makeLogEntry(a, user),
          makeLogEntry(a, user),
          makeLogEntry(b, user),
          makeLogEntry(a, otherUser),
        ]);
        assert.equal(await store.requestLog.deleteByUser(a, user), 3);
        assert.equal(await store.requestLog.deleteByUser(a, user), 0);
        assert.deepEqual(await store.requestLog.listByUser(a, user), []);
        assert.equal((await store.requestLog.listByUser(b, user)).length, 1);
        assert.equal((await store.requestLog.listByUser(a, otherUser)).length, 1);
        assert.equal(await store.requestLog.deleteByUser(uid('acct'), uid('user')), 0);
      });

      it('normalises timestamps and rejects invalid ones', async () => {
        const acct = uid('acct');
        const user = uid('user');
        await store.requestLog.append([makeLogEntry(acct, user, { at: '2024-03-01T12:00:00+01:00' })]);
        assert.equal((await store.requestLog.listByUser(acct, user))[0]?.at, '2024-03-01T11:00:00.000Z');
        await assert.rejects(store.requestLog.append([makeLogEntry(acct, user, { at: 'yesterday' })]), RangeError);
        assert.equal((await store.requestLog.listByUser(acct, user)).length, 1);
      });
    });

    describe('awkward text', () => {
      it('quotes, backslashes, unicode and emoji survive everywhere', async () => {
        const planId = uid(`plan ${AWKWARD}`);
        const plan = makePlan(planId, { methods: [AWKWARD, 'lookup/ip'], modules: [AWKWARD] });
        await store.accounts.upsertPlan(plan);
        assert.deepEqual(await store.accounts.getPlan(planId), plan);

        const account = makeAccount(uid(`acct ${AWKWARD}`), { planId, authorizedHosts: [AWKWARD, 'bücher.example', 'xn--bcher-kva.example'] });
        await store.accounts.upsertAccount(account);
        assert.deepEqual(await store.accounts.getAccount(account.id), account);

        const key = makeKey(account.id, { hash: uid(AWKWARD), hint: '🔑é"\'' });
        await store.accounts.addKey(key);
        assert.deepEqual(await store.accounts.findKeyByHash(key.hash), key);

        await store.usage.add([{ accountId: account.id, method: AWKWARD, day: '2024-03-05', count: 2 }]);
        assert.deepEqual(await store.usage.list(account.id, '2024-03-05', '2024-03-05'), [
          { accountId: account.id, method: AWKWARD, day: '2024-03-05', count: 2 },
        ]);

        const entry = makeLogEntry(account.id, AWKWARD, { operation: AWKWARD });
        await store.requestLog.append([entry]);
        assert.deepEqual(await store.requestLog.listByUser(account.id, AWKWARD), [entry]);
        assert.equal(await store.requestLog.deleteByUser(account.id, AWKWARD), 1);
      });
    });
  });
}
