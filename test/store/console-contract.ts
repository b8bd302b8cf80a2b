import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/ports.ts';
import { uid } from './fixtures.ts';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The console port (sessions, users, audit, event labels) and the events list's labelled filter, on any store. */
export function runConsoleContract(name: string, open: () => Promise<Store>): void {
  describe(`console contract: ${name}`, () => {
    let store: Store;
    before(async () => {
      store = await open();
    });
    after(async () => {
      await store.close();
    });

    it('a session is found by its hash until it expires, then pruned', async () => {
      const idHash = sha(uid('cookie'));
      const account = uid('acct');
      await store.console.insertSession({ idHash, role: 'analyst', accountId: account, actor: 'key:k1', keyId: 'k1', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T08:00:00.000Z' });
      const got = await store.console.getSession(idHash, '2026-01-01T07:59:59.000Z');
      assert.deepEqual(got, { idHash, role: 'analyst', accountId: account, actor: 'key:k1', keyId: 'k1', createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T08:00:00.000Z' });
      assert.equal(await store.console.getSession(idHash, '2026-01-01T08:00:00.000Z'), null);
      assert.ok((await store.console.pruneSessions('2026-01-01T09:00:00.000Z')) >= 1);
      assert.equal(await store.console.getSession(idHash, '2026-01-01T01:00:00.000Z'), null);
    });

    it('sign-out deletes the session', async () => {
      const idHash = sha(uid('cookie'));
      await store.console.insertSession({ idHash, role: 'operator', accountId: null, actor: 'operator', keyId: null, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z' });
      assert.equal((await store.console.getSession(idHash, '2026-01-02T00:00:00.000Z'))?.role, 'operator');
      await store.console.deleteSession(idHash);
      assert.equal(await store.console.getSession(idHash, '2026-01-02T00:00:00.000Z'), null);
    });

    it('users: unique names, listed per account, deleting one ends their sessions', async () => {
      const account = uid('acct');
      const username = uid('jane');
      const user = { username, accountId: account, passwordHash: 'scrypt$x', createdAt: '2026-01-01T00:00:00.000Z' };
      assert.equal(await store.console.insertUser(user), true);
      assert.equal(await store.console.insertUser({ ...user, accountId: 'other' }), false);
      assert.deepEqual(await store.console.getUser(username), user);
      assert.deepEqual(await store.console.listUsers(account), [user]);
      assert.ok((await store.console.listUsers()).some((u) => u.username === username));
      const idHash = sha(uid('cookie'));
      await store.console.insertSession({ idHash, role: 'analyst', accountId: account, actor: `user:${username}`, keyId: null, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z' });
      assert.equal(await store.console.deleteUser(username), true);
      assert.equal(await store.console.deleteUser(username), false);
      assert.equal(await store.console.getUser(username), null);
      assert.equal(await store.console.getSession(idHash, '2026-01-02T00:00:00.000Z'), null);
    });

    it('the audit log is newest first, per account, paged by id', async () => {
      const account = uid('acct');
      for (let i = 0; i < 5; i++) {
        await store.console.appendAudit({ at: `2026-01-01T00:00:0${i}.000Z`, actor: 'operator', accountId: account, action: 'rule.create', detail: `CR${101 + i} "it's"` });
      }
      await store.console.appendAudit({ at: '2026-01-01T00:00:09.000Z', actor: 'operator', accountId: null, action: 'plan.update', detail: 'tiny' });
      const page = await store.console.listAudit({ accountId: account, limit: 3 });
      assert.deepEqual(page.map((e) => e.detail), ['CR105 "it\'s"', 'CR104 "it\'s"', 'CR103 "it\'s"']);
      assert.equal(page[0]!.at, '2026-01-01T00:00:04.000Z');
      const next = await store.console.listAudit({ accountId: account, limit: 3, before: page.at(-1)!.id });
      assert.deepEqual(next.map((e) => e.detail), ['CR102 "it\'s"', 'CR101 "it\'s"']);
      assert.ok((await store.console.listAudit({ limit: 10 })).some((e) => e.action === 'plan.update' && e.accountId === null));
    });

    it('event labels by id, and the events list filtered on labelled or not', async () => {
      const account = uid('acct');
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        const e = await store.events.insertEvent({
          accountId: account, kind: 'spam_email', risk: 80, subject: `a${i}@example.com`, userId: null, operation: 'scoring.email',
          createdAt: `2026-01-01T00:00:0${i}.000Z`, summary: { score: 2 }, identity: { type: 'email', hash: sha(`a${i}`) },
        });
        ids.push(e.eventId);
      }
      const label = (eventId: number, l: 'fraud' | 'legit', i: number) => store.evidence.put({
        accountId: account, type: 'email', valueHash: sha(`a${i}`), origin: `event:${eventId}`, label: l, masked: 'a***', reason: null, source: null,
        occurredAt: '2026-01-01T00:01:00.000Z', updatedAt: '2026-01-01T00:01:00.000Z',
      });
      await label(ids[1]!, 'fraud', 1);
      await label(ids[3]!, 'legit', 3);
      const labels = await store.console.eventLabels(account, ids);
      assert.deepEqual([...labels.entries()].sort((a, b) => a[0] - b[0]), [[ids[1], 'fraud'], [ids[3], 'legit']]);
      assert.equal((await store.console.eventLabels(uid('other'), ids)).size, 0);
      assert.deepEqual((await store.events.listEvents(account, { labelled: true })).map((e) => e.eventId), [ids[3], ids[1]]);
      assert.deepEqual((await store.events.listEvents(account, { labelled: false })).map((e) => e.eventId), [ids[2], ids[0]]);
      assert.deepEqual((await store.events.listEvents(account, { labelled: false, before: ids[2]! })).map((e) => e.eventId), [ids[0]]);
      assert.equal((await store.events.listEvents(account, {})).length, 4);
    });

    it('charts: events per day and kind, labels per day, score bands, top rules; payments newest first and by card', async () => {
      const account = uid('acct');
      const day = (d: number, h = 10) => new Date(Date.UTC(2026, 10, d, h)).toISOString();
      for (const [d, kind] of [[1, 'spam_email'], [1, 'spam_email'], [1, 'suspicious_ip'], [2, 'spam_email'], [5, 'spam_email']] as const) {
        await store.events.insertEvent({ accountId: account, kind, risk: 60, subject: 's', userId: null, operation: 'scoring.email', createdAt: day(d), summary: {}, identity: null });
      }
      assert.deepEqual(await store.console.eventsPerDay(account, day(1, 0), day(3, 0)), [
        { day: '2026-11-01', key: 'spam_email', n: 2 }, { day: '2026-11-01', key: 'suspicious_ip', n: 1 }, { day: '2026-11-02', key: 'spam_email', n: 1 },
      ]);
      await store.evidence.put({ accountId: account, type: 'email', valueHash: sha('l1'), origin: 'label', label: 'fraud', masked: 'x', reason: null, source: null, occurredAt: day(2), updatedAt: day(2) });
      await store.evidence.put({ accountId: account, type: 'email', valueHash: sha('l2'), origin: 'label', label: 'legit', masked: 'x', reason: null, source: null, occurredAt: day(2), updatedAt: day(2) });
      assert.deepEqual(await store.console.labelsPerDay(account, day(1, 0), day(3, 0)), [{ day: '2026-11-02', key: 'fraud', n: 1 }, { day: '2026-11-02', key: 'legit', n: 1 }]);
      const scoring = (d: number, score: number, rules: string[], bin: string, last4: string, tx: string) => store.scorings.insert({
        accountId: account, transactionId: tx, scoredAt: day(d), identities: { customer: null, user: null, email: null, emailDomain: null, phone: null, ip: null, device: null, card: null },
        cardBin: bin, cardLast4: last4, location: null, amount: 10, currency: 'USD', score, rules, features: [], ruleSet: 'r', dataVersions: {}, outcome: null,
      });
      await scoring(1, 10, ['PF10003'], '411111', '1111', 't1');
      await scoring(1, 45, ['PF10003', 'PF10016'], '411111', '2222', 't2');
      await scoring(2, 80, ['PF10003', 'PF10016', 'PF10001'], '550000', '1111', 't3');
      await scoring(9, 99, ['PF10009'], '411111', '1111', 't4');
      assert.deepEqual(await store.console.scoreBands(account, day(1, 0), day(3, 0)), { low: 1, medium: 1, high: 1 });
      assert.deepEqual(await store.console.scoreBands(uid('none'), day(1, 0), day(3, 0)), { low: 0, medium: 0, high: 0 });
      assert.deepEqual(await store.console.topRules(account, day(1, 0), day(3, 0), 100), [{ rule: 'PF10003', n: 3 }, { rule: 'PF10016', n: 2 }, { rule: 'PF10001', n: 1 }]);
      const all = await store.console.payments(account, { limit: 10 });
      assert.deepEqual(all.map((p) => p.transactionId), ['t4', 't3', 't2', 't1']);
      assert.deepEqual(all[1]!.rules, ['PF10003', 'PF10016', 'PF10001']);
      assert.deepEqual((await store.console.payments(account, { limit: 2, before: all[1]!.id })).map((p) => p.transactionId), ['t2', 't1']);
      assert.deepEqual((await store.console.payments(account, { limit: 10, card: { bin: '411111' } })).map((p) => p.transactionId), ['t4', 't2', 't1']);
      assert.deepEqual((await store.console.payments(account, { limit: 10, card: { bin: '411111', last4: '1111' } })).map((p) => p.transactionId), ['t4', 't1']);
    });

    it('dataset update jobs: stored with their progress and outcome, listed newest first, stale running ones interrupted', async () => {
      const dataset = uid('ds');
      const a = await store.console.insertUpdateJob({ dataset, source: 'sources', actor: 'operator', startedAt: '2026-02-01T10:00:00.000Z', heartbeatAt: '2026-02-01T10:00:00.000Z', lines: ['started'] });
      const b = await store.console.insertUpdateJob({ dataset, source: 'file /srv/import/tor.txt', actor: 'operator', startedAt: '2026-02-01T11:00:00.000Z', heartbeatAt: '2026-02-01T11:00:00.000Z' });
      assert.ok(b > a);
      await store.console.saveUpdateJob(a, { state: 'running', lines: ['started', 'downloading'], heartbeatAt: '2026-02-01T10:00:05.000Z' });
      await store.console.saveUpdateJob(a, { state: 'failed', lines: ['started', 'downloading', 'failed: 404'], heartbeatAt: '2026-02-01T10:00:06.000Z', finishedAt: '2026-02-01T10:00:06.000Z', error: '404' });
      assert.deepEqual(await store.console.getUpdateJob(a), {
        id: a, dataset, source: 'sources', actor: 'operator', state: 'failed', startedAt: '2026-02-01T10:00:00.000Z', finishedAt: '2026-02-01T10:00:06.000Z',
        heartbeatAt: '2026-02-01T10:00:06.000Z', lines: ['started', 'downloading', 'failed: 404'], error: '404',
      });
      assert.deepEqual((await store.console.listUpdateJobs({ dataset, limit: 10 })).map((j) => [j.id, j.state]), [[b, 'running'], [a, 'failed']]);
      assert.deepEqual((await store.console.listUpdateJobs({ limit: 1 })).map((j) => j.id), [b]);
      assert.equal(await store.console.getUpdateJob(b + 1000), null);
      // b's process stopped beating at 11:00: stale at 11:01; a finished job is left alone.
      assert.equal(await store.console.interruptStaleUpdateJobs('2026-02-01T10:59:00.000Z', '2026-02-01T11:01:00.000Z'), 0);
      assert.ok((await store.console.interruptStaleUpdateJobs('2026-02-01T11:00:30.000Z', '2026-02-01T11:01:00.000Z')) >= 1);
      const gone = await store.console.getUpdateJob(b);
      assert.equal(gone?.state, 'interrupted');
      assert.equal(gone?.finishedAt, '2026-02-01T11:01:00.000Z');
      assert.deepEqual(gone?.lines, []);
      assert.equal((await store.console.getUpdateJob(a))?.state, 'failed');
    });
  });
}
