import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ClaimedDelivery, DeliveryAttempt, NewEvent, Store, Webhook } from '../../src/store/ports.ts';
import { uid } from './fixtures.ts';

/** A string that breaks naive quoting and encoding: quotes, backslash, SQL comment, CJK, emoji, combining mark. */
const AWKWARD = `it's "quoted" \\ -- ; 日本語 👩‍💻 🚀 e\u0301`;

/** An ISO timestamp `seconds` after the start of `year` (UTC). */
function at(year: number, seconds = 0): string {
  return new Date(Date.UTC(year, 0, 1) + seconds * 1000).toISOString();
}

function makeEvent(accountId: string, overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    accountId,
    kind: 'suspicious_ip',
    risk: 75,
    subject: '203.0.113.9',
    userId: 'user-1',
    operation: 'lookup.ip',
    createdAt: '2024-05-01T10:00:00.000Z',
    summary: { ip: '203.0.113.9', risk: 75, proxy: true },
    identity: null,
    ...overrides,
  };
}

/** A keyed-hash lookalike (64 lower-case hex digits), unique per call. */
function hash(): string {
  return createHash('sha256').update(uid('identity')).digest('hex');
}

function makeWebhook(accountId: string, overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: uid('wh'),
    accountId,
    url: 'https://hooks.example.com/vigil',
    secret: 'v1:sealed-secret',
    createdAt: '2024-05-01T09:00:00.000Z',
    ...overrides,
  };
}

function attempt(job: ClaimedDelivery, attemptedAt: string, overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
  return {
    deliveryId: job.delivery.id,
    webhookId: job.webhook.id,
    eventId: job.event.eventId,
    attemptedAt,
    httpStatus: 500,
    latencyMs: 12,
    error: 'HTTP 500',
    ...overrides,
  };
}

/**
 * The behaviour every EventsPort implementation must share. `factory` returns a migrated store on an empty
 * database; cases use unique ids, so they share that store. claimDue() sees every account's jobs, so the
 * cases that claim work in their own era (a year before 2000, each case earlier than the one before): jobs
 * left pending by earlier cases are then never due at a later case's `now`.
 */
export function runEventsContract(name: string, factory: () => Promise<Store>): void {
  describe(`Events contract: ${name}`, () => {
    let store: Store;

    before(async () => {
      store = await factory();
    });

    after(async () => {
      await store.close();
    });

    /** Claims everything due at `now` (leased for 30 s) and keeps the jobs of one account. */
    async function claim(accountId: string, now: string, leaseSeconds = 30): Promise<ClaimedDelivery[]> {
      const lease = new Date(Date.parse(now) + leaseSeconds * 1000).toISOString();
      const jobs = await store.events.claimDue(now, lease, 1000);
      return jobs.filter((job) => job.delivery.accountId === accountId);
    }

    describe('events', () => {
      it('ids start at 1 and increase per account, independently across accounts', async () => {
        const a = uid('acct');
        const b = uid('acct');
        const ids: number[] = [];
        for (let i = 0; i < 3; i += 1) ids.push((await store.events.insertEvent(makeEvent(a))).eventId);
        const firstOfB = await store.events.insertEvent(makeEvent(b));
        ids.push((await store.events.insertEvent(makeEvent(a))).eventId);
        assert.deepEqual(ids, [1, 2, 3, 4]);
        assert.equal(firstOfB.eventId, 1);
        assert.equal((await store.events.insertEvent(makeEvent(b))).eventId, 2);
      });

      it('concurrent inserts of one account get distinct, gapless ids', async () => {
        const accountId = uid('acct');
        const events = await Promise.all(Array.from({ length: 20 }, (_, i) => store.events.insertEvent(makeEvent(accountId, { subject: `s${i}` }))));
        assert.deepEqual(
          events.map((e) => e.eventId).sort((x, y) => x - y),
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
        // Every id is stored with the event it was returned for.
        for (const event of events) assert.deepEqual(await store.events.getEvent(accountId, event.eventId), event);
      });

      it('insertEvent returns the stored event, and getEvent reads it back', async () => {
        const accountId = uid('acct');
        const stored = await store.events.insertEvent(makeEvent(accountId, { createdAt: '2024-05-01T12:00:00+02:00', userId: null }));
        assert.deepEqual(stored, { ...makeEvent(accountId, { userId: null }), createdAt: '2024-05-01T10:00:00.000Z', eventId: 1 });
        assert.deepEqual(await store.events.getEvent(accountId, 1), stored);
        assert.equal(await store.events.getEvent(accountId, 2), null);
        assert.equal(await store.events.getEvent(uid('acct'), 1), null);
      });

      it('keeps fractional risk and the summary JSON exactly (nesting, types, key order)', async () => {
        const accountId = uid('acct');
        const summary = {
          zeta: 1,
          alpha: { nested: [1, 'two', null, true, { deep: -0.125 }] },
          '日本': '語',
          empty: {},
          list: [],
          big: 12345678901234,
          yes: false,
          none: null,
        };
        const stored = await store.events.insertEvent(makeEvent(accountId, { kind: 'profanity', risk: 0.5625, summary }));
        const read = await store.events.getEvent(accountId, stored.eventId);
        assert.deepEqual(read?.summary, summary);
        assert.deepEqual(Object.keys(read?.summary ?? {}), Object.keys(summary));
        assert.equal(read?.risk, 0.5625);
      });

      it('awkward strings round-trip in every text column', async () => {
        const accountId = uid(`acct ${AWKWARD}`);
        const event = makeEvent(accountId, { subject: AWKWARD, userId: AWKWARD, operation: AWKWARD, summary: { [AWKWARD]: AWKWARD } });
        const stored = await store.events.insertEvent(event);
        assert.deepEqual(await store.events.getEvent(accountId, stored.eventId), { ...event, eventId: 1 });
        assert.deepEqual(await store.events.listEvents(accountId, { userId: AWKWARD }), [stored]);
        const webhook = makeWebhook(accountId, { id: uid(`wh ${AWKWARD}`), url: `https://example.com/${encodeURIComponent(AWKWARD)}`, secret: AWKWARD });
        await store.events.addWebhook(webhook);
        assert.deepEqual(await store.events.getWebhook(accountId, webhook.id), webhook);
      });

      it('rejects a non-finite risk, a zoneless time and a non-object summary, writing nothing', async () => {
        const accountId = uid('acct');
        await assert.rejects(store.events.insertEvent(makeEvent(accountId, { risk: Number.NaN })));
        await assert.rejects(store.events.insertEvent(makeEvent(accountId, { createdAt: '2024-05-01 10:00:00' })));
        await assert.rejects(store.events.insertEvent(makeEvent(accountId, { summary: [] as unknown as Record<string, unknown> })));
        assert.deepEqual(await store.events.listEvents(accountId, {}), []);
        assert.equal((await store.events.insertEvent(makeEvent(accountId))).eventId, 1);
      });
    });

    describe('reads after inserts in flight (read your writes)', () => {
      // Events are stored after the answer that raised them is written: the same client's next call may
      // read them while their insert is still on its way. Reads of this store must see them all the same.
      it('listEvents, getEvent, listDeliveries and deleteForUser see the inserts started before them', async () => {
        const accountId = uid('acct');
        const webhook = makeWebhook(accountId);
        await store.events.addWebhook(webhook);
        const identity = { type: 'ip' as const, hash: hash() };
        for (let round = 0; round < 5; round++) {
          const subjects = Array.from({ length: 4 }, (_, i) => `r${round}-${i}`);
          // Not awaited: each read below starts while the inserts may still be running.
          const inserts = subjects.map((subject) => store.events.insertEvent(makeEvent(accountId, { subject, userId: `u-${round}`, identity })));
          const listed = await store.events.listEvents(accountId, { userId: `u-${round}` });
          assert.deepEqual(listed.map((e) => e.subject).sort(), subjects);
          const last = Math.max(...listed.map((e) => e.eventId));
          assert.equal((await store.events.getEvent(accountId, last))?.userId, `u-${round}`);
          assert.equal((await store.events.listDeliveries(accountId, { eventId: last })).length, 1);
          await Promise.all(inserts);
        }
        const more = store.events.insertEvent(makeEvent(accountId, { subject: 'late', userId: 'u-late', identity }));
        const deleted = await store.events.deleteForUser(accountId, { identityHashes: [identity.hash] });
        assert.deepEqual(deleted, { suspicious_ip: 21 });
        await more;
        assert.deepEqual(await store.events.listEvents(accountId, {}), []);
      });

      it('a failed insert in flight does not fail the reads after it', async () => {
        const accountId = uid('acct');
        const bad = store.events.insertEvent(makeEvent(accountId, { risk: Number.NaN }));
        const good = store.events.insertEvent(makeEvent(accountId));
        assert.equal((await store.events.listEvents(accountId, {})).length, 1);
        await assert.rejects(bad);
        assert.equal((await good).eventId, 1);
      });
    });

    describe('listEvents', () => {
      const accountId = uid('acct');
      const other = uid('acct');
      const seed: NewEvent[] = [
        makeEvent(accountId, { kind: 'suspicious_ip', risk: 50, userId: 'u1', createdAt: '2024-06-01T00:00:00.000Z' }),
        makeEvent(accountId, { kind: 'spam_email', risk: 2, userId: 'u2', createdAt: '2024-06-02T00:00:00.000Z' }),
        makeEvent(accountId, { kind: 'suspicious_ip', risk: 90, userId: null, createdAt: '2024-06-03T00:00:00.000Z' }),
        makeEvent(accountId, { kind: 'fraud_payment', risk: 70, userId: 'u1', createdAt: '2024-06-04T00:00:00.000Z' }),
        makeEvent(accountId, { kind: 'profanity', risk: 0.5, userId: 'u1', createdAt: '2024-06-05T00:00:00.000Z' }),
      ];
      const ids = (events: Array<{ eventId: number }>): number[] => events.map((e) => e.eventId);

      before(async () => {
        for (const event of seed) await store.events.insertEvent(event);
        await store.events.insertEvent(makeEvent(other, { userId: 'u1' }));
      });

      it('lists the account’s events newest first', async () => {
        const events = await store.events.listEvents(accountId, {});
        assert.deepEqual(ids(events), [5, 4, 3, 2, 1]);
        assert.deepEqual(events[4], { ...seed[0], eventId: 1 });
      });

      it('filters by kind, risk range, time range and user', async () => {
        assert.deepEqual(ids(await store.events.listEvents(accountId, { kind: 'suspicious_ip' })), [3, 1]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { riskMin: 50 })), [4, 3, 1]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { riskMax: 50 })), [5, 2, 1]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { riskMin: 2, riskMax: 70 })), [4, 2, 1]);
        // from inclusive, to exclusive; offsets are understood.
        assert.deepEqual(ids(await store.events.listEvents(accountId, { from: '2024-06-02T00:00:00.000Z', to: '2024-06-04T00:00:00.000Z' })), [3, 2]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { from: '2024-06-04T02:00:00+02:00' })), [5, 4]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { userId: 'u1' })), [5, 4, 1]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { userId: 'u1', kind: 'fraud_payment', riskMin: 60, from: '2024-01-01T00:00:00Z' })), [4]);
        assert.deepEqual(await store.events.listEvents(accountId, { userId: 'nobody' }), []);
      });

      it('pages with before and limit', async () => {
        const first = await store.events.listEvents(accountId, { limit: 2 });
        assert.deepEqual(ids(first), [5, 4]);
        const second = await store.events.listEvents(accountId, { limit: 2, before: 4 });
        assert.deepEqual(ids(second), [3, 2]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { limit: 2, before: 2 })), [1]);
        assert.deepEqual(ids(await store.events.listEvents(accountId, { userId: 'u1', before: 5 })), [4, 1]);
      });

      it('caps a large limit and refuses a limit below 1 or a bad filter', async () => {
        assert.equal((await store.events.listEvents(accountId, { limit: 1_000_000 })).length, 5);
        await assert.rejects(store.events.listEvents(accountId, { limit: 0 }));
        await assert.rejects(store.events.listEvents(accountId, { limit: 1.5 }));
        await assert.rejects(store.events.listEvents(accountId, { from: 'yesterday' }));
        await assert.rejects(store.events.listEvents(accountId, { riskMin: Number.NaN }));
      });
    });

    describe('webhooks', () => {
      it('adds, lists (oldest first), reads and changes the secret of webhooks', async () => {
        const accountId = uid('acct');
        const second = makeWebhook(accountId, { createdAt: '2024-05-02T00:00:00.000Z', url: 'http://127.0.0.1:9/x?y=1' });
        const first = makeWebhook(accountId, { createdAt: '2024-05-01T00:00:00.000Z' });
        await store.events.addWebhook(second);
        await store.events.addWebhook(first);
        await store.events.addWebhook(makeWebhook(uid('acct')));
        assert.deepEqual(await store.events.listWebhooks(accountId), [first, second]);
        assert.deepEqual(await store.events.getWebhook(accountId, first.id), first);
        assert.equal(await store.events.getWebhook(uid('acct'), first.id), null);
        assert.equal(await store.events.setWebhookSecret(accountId, first.id, 'v1:new'), true);
        assert.equal((await store.events.getWebhook(accountId, first.id))?.secret, 'v1:new');
        assert.equal(await store.events.setWebhookSecret(uid('acct'), first.id, 'v1:other'), false);
        assert.equal(await store.events.setWebhookSecret(accountId, uid('wh'), 'v1:other'), false);
        await assert.rejects(store.events.addWebhook(first), 'a webhook id is unique');
      });

      it('an event gets one pending job per webhook of its account, and none without webhooks', async () => {
        const accountId = uid('acct');
        const lonely = uid('acct');
        const hooks = [makeWebhook(accountId), makeWebhook(accountId)];
        for (const hook of hooks) await store.events.addWebhook(hook);
        await store.events.addWebhook(makeWebhook(uid('acct')));
        const event = await store.events.insertEvent(makeEvent(accountId));
        const jobs = await store.events.listDeliveries(accountId, { eventId: event.eventId });
        assert.deepEqual(jobs.map((j) => j.webhookId).sort(), hooks.map((h) => h.id).sort());
        for (const job of jobs) {
          assert.equal(job.status, 'pending');
          assert.equal(job.attempts, 0);
          assert.equal(job.eventId, event.eventId);
          assert.equal(job.accountId, accountId);
          assert.equal(job.nextAttemptAt, event.createdAt);
          assert.equal(job.createdAt, event.createdAt);
          assert.equal(job.deliveredAt, null);
        }
        await store.events.insertEvent(makeEvent(lonely));
        assert.deepEqual(await store.events.listDeliveries(lonely, {}), []);
      });

      it('countPending counts the pending jobs of every account (the webhook backlog)', async () => {
        const accountId = uid('acct');
        const hooks = [makeWebhook(accountId), makeWebhook(accountId)];
        for (const hook of hooks) await store.events.addWebhook(hook);
        const before = await store.events.countPending();
        await store.events.insertEvent(makeEvent(accountId));
        assert.equal(await store.events.countPending(), before + 2);
        assert.ok(await store.events.removeWebhook(accountId, hooks[0]!.id));
        assert.equal(await store.events.countPending(), before + 1);
      });

      it('lists deliveries newest first, by event or webhook, with a limit', async () => {
        const accountId = uid('acct');
        const [a, b] = [makeWebhook(accountId), makeWebhook(accountId)];
        await store.events.addWebhook(a);
        await store.events.addWebhook(b);
        for (let i = 0; i < 3; i += 1) await store.events.insertEvent(makeEvent(accountId));
        const all = await store.events.listDeliveries(accountId, {});
        assert.equal(all.length, 6);
        assert.deepEqual(
          all.map((d) => d.id),
          [...all.map((d) => d.id)].sort((x, y) => y - x),
        );
        assert.deepEqual(
          (await store.events.listDeliveries(accountId, { webhookId: a.id })).map((d) => d.eventId),
          [3, 2, 1],
        );
        assert.deepEqual(
          (await store.events.listDeliveries(accountId, { webhookId: b.id, eventId: 2 })).map((d) => [d.webhookId, d.eventId]),
          [[b.id, 2]],
        );
        assert.equal((await store.events.listDeliveries(accountId, { limit: 4 })).length, 4);
        assert.deepEqual(await store.events.listDeliveries(uid('acct'), {}), []);
      });

      it('removing a webhook removes its jobs only; later events skip it', async () => {
        const accountId = uid('acct');
        const [gone, kept] = [makeWebhook(accountId), makeWebhook(accountId)];
        await store.events.addWebhook(gone);
        await store.events.addWebhook(kept);
        await store.events.insertEvent(makeEvent(accountId));
        assert.equal(await store.events.removeWebhook(uid('acct'), gone.id), false);
        assert.equal(await store.events.removeWebhook(accountId, gone.id), true);
        assert.equal(await store.events.removeWebhook(accountId, gone.id), false);
        assert.equal(await store.events.getWebhook(accountId, gone.id), null);
        assert.deepEqual(
          (await store.events.listDeliveries(accountId, {})).map((d) => d.webhookId),
          [kept.id],
        );
        await store.events.insertEvent(makeEvent(accountId));
        assert.deepEqual(
          (await store.events.listDeliveries(accountId, {})).map((d) => [d.webhookId, d.eventId]),
          [
            [kept.id, 2],
            [kept.id, 1],
          ],
        );
      });
    });

    // Cases that claim jobs: each in its own era, earlier than the one before (see the comment above).
    describe('claiming and recording', () => {
      it('claims only the oldest pending job of each webhook (head of line), when due', async () => {
        const accountId = uid('acct');
        const [w1, w2] = [makeWebhook(accountId), makeWebhook(accountId)];
        await store.events.addWebhook(w1);
        await store.events.addWebhook(w2);
        // Event 1 becomes due at +30 s, event 2 (inserted after it) at +10 s.
        const e1 = await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1999, 30) }));
        const e2 = await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1999, 10) }));
        assert.deepEqual(await claim(accountId, at(1999, 20)), [], 'job 2 waits behind job 1 though job 1 is not due');

        const firstRound = await claim(accountId, at(1999, 40));
        assert.deepEqual(firstRound.map((j) => [j.webhook.id, j.event.eventId]).sort(), [[w1.id, 1], [w2.id, 1]].sort());
        const claimed = firstRound.find((j) => j.webhook.id === w1.id);
        const other = firstRound.find((j) => j.webhook.id === w2.id);
        assert.ok(claimed && other);
        assert.deepEqual(claimed.webhook, w1);
        assert.deepEqual(claimed.event, e1);
        assert.equal(claimed.delivery.status, 'pending');

        // w1's job 1 fails and is retried at +100 s; w2's job 1 is delivered, so w2 moves on to job 2.
        await store.events.recordAttempt(attempt(claimed, at(1999, 41)), { status: 'pending', nextAttemptAt: at(1999, 100) });
        await store.events.recordAttempt(attempt(other, at(1999, 41), { httpStatus: 204, error: null }), { status: 'delivered', nextAttemptAt: at(1999, 41) });
        const secondRound = await claim(accountId, at(1999, 50));
        assert.deepEqual(secondRound.map((j) => [j.webhook.id, j.event.eventId]), [[w2.id, 2]]);
        assert.deepEqual(secondRound[0]?.event, e2);
        const w2Second = secondRound[0];
        assert.ok(w2Second);
        await store.events.recordAttempt(attempt(w2Second, at(1999, 51), { httpStatus: 200, error: null }), { status: 'delivered', nextAttemptAt: at(1999, 51) });

        const retried = await claim(accountId, at(1999, 101));
        assert.deepEqual(retried.map((j) => [j.webhook.id, j.event.eventId, j.delivery.attempts]), [[w1.id, 1, 1]]);
      });

      it('a leased job is not claimed again until its lease ends', async () => {
        const accountId = uid('acct');
        await store.events.addWebhook(makeWebhook(accountId));
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1998) }));
        assert.equal((await claim(accountId, at(1998, 1), 30)).length, 1);
        assert.deepEqual(await claim(accountId, at(1998, 2)), []);
        assert.deepEqual(await claim(accountId, at(1998, 31)), [], 'the lease still holds at its last instant');
        const reclaimed = await claim(accountId, at(1998, 32));
        assert.equal(reclaimed.length, 1, 'claimable again once the lease ran out (the holder died)');
        assert.deepEqual(await claim(accountId, at(1998, 33)), []);
      });

      it('respects the limit, oldest jobs first', async () => {
        const accountId = uid('acct');
        const hooks = [makeWebhook(accountId), makeWebhook(accountId), makeWebhook(accountId)];
        for (const hook of hooks) await store.events.addWebhook(hook);
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1997) }));
        const lease = at(1997, 60);
        const first = await store.events.claimDue(at(1997, 1), lease, 2);
        assert.equal(first.length, 2);
        const second = await store.events.claimDue(at(1997, 1), lease, 2);
        assert.equal(second.length, 1);
        assert.ok((first[1]?.delivery.id ?? 0) < (second[0]?.delivery.id ?? 0));
        assert.deepEqual(await store.events.claimDue(at(1997, 1), lease, 0), []);
      });

      it('concurrent claimDue calls never return the same job', async () => {
        const accountId = uid('acct');
        const hooks = Array.from({ length: 12 }, () => makeWebhook(accountId));
        for (const hook of hooks) await store.events.addWebhook(hook);
        for (let i = 0; i < 3; i += 1) await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1996, i) }));
        const seen = new Set<number>();
        for (let round = 0; round < 3; round += 1) {
          const now = at(1996, 10 + round);
          const batches = await Promise.all(Array.from({ length: 4 }, () => store.events.claimDue(now, at(1996, 1000), 4)));
          const jobs = batches.flat().filter((j) => j.delivery.accountId === accountId);
          assert.equal(jobs.length, 12, 'every head claimed once');
          const ids = jobs.map((j) => j.delivery.id);
          assert.equal(new Set(ids).size, ids.length, 'no job claimed twice');
          assert.deepEqual([...new Set(jobs.map((j) => j.webhook.id))].length, 12, 'one job per webhook');
          for (const job of jobs) {
            assert.equal(job.event.eventId, round + 1);
            assert.ok(!seen.has(job.delivery.id));
            seen.add(job.delivery.id);
            await store.events.recordAttempt(attempt(job, now, { httpStatus: 200, error: null }), { status: 'delivered', nextAttemptAt: now });
          }
        }
        assert.equal(seen.size, 36);
      });

      it('recordAttempt: delivered, retried (ends the lease) and failed (the next job proceeds)', async () => {
        const accountId = uid('acct');
        const hook = makeWebhook(accountId);
        await store.events.addWebhook(hook);
        for (let i = 0; i < 3; i += 1) await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1995, i) }));

        const [one] = await claim(accountId, at(1995, 10), 600);
        assert.ok(one);
        // Retry at +20 s: the lease (until +610 s) ends with the attempt, so the job is claimable at +20 s.
        await store.events.recordAttempt(attempt(one, at(1995, 11), { latencyMs: 12.6 }), { status: 'pending', nextAttemptAt: at(1995, 20) });
        assert.deepEqual(await claim(accountId, at(1995, 19)), []);
        const [again] = await claim(accountId, at(1995, 20));
        assert.ok(again);
        assert.equal(again.delivery.id, one.delivery.id);
        assert.equal(again.delivery.attempts, 1);
        assert.equal(again.delivery.nextAttemptAt, at(1995, 20));
        await store.events.recordAttempt(attempt(again, at(1995, 21), { httpStatus: null, error: 'timeout' }), { status: 'failed', nextAttemptAt: at(1995, 21) });

        const [two] = await claim(accountId, at(1995, 22));
        assert.equal(two?.event.eventId, 2, 'a failed job no longer blocks its webhook');
        assert.ok(two);
        await store.events.recordAttempt(attempt(two, at(1995, 23), { httpStatus: 200, error: null }), { status: 'delivered', nextAttemptAt: at(1995, 23) });

        const jobs = await store.events.listDeliveries(accountId, {});
        const byEvent = new Map(jobs.map((j) => [j.eventId, j]));
        assert.deepEqual(
          [byEvent.get(1)?.status, byEvent.get(1)?.attempts, byEvent.get(1)?.deliveredAt],
          ['failed', 2, null],
        );
        assert.deepEqual(
          [byEvent.get(2)?.status, byEvent.get(2)?.attempts, byEvent.get(2)?.deliveredAt],
          ['delivered', 1, at(1995, 23)],
        );
        assert.equal(byEvent.get(3)?.status, 'pending');

        // A late report for a finished job (its lease had run out) is logged but changes nothing.
        await store.events.recordAttempt(attempt(two, at(1995, 24)), { status: 'pending', nextAttemptAt: at(1995, 99) });
        const late = (await store.events.listDeliveries(accountId, { eventId: 2 }))[0];
        assert.deepEqual([late?.status, late?.attempts], ['delivered', 1]);

        assert.deepEqual(await store.events.listAttempts(accountId, { deliveryId: one.delivery.id }), [
          { deliveryId: one.delivery.id, webhookId: hook.id, eventId: 1, attemptedAt: at(1995, 11), httpStatus: 500, latencyMs: 13, error: 'HTTP 500' },
          { deliveryId: one.delivery.id, webhookId: hook.id, eventId: 1, attemptedAt: at(1995, 21), httpStatus: null, latencyMs: 12, error: 'timeout' },
        ]);
        assert.deepEqual(
          (await store.events.listAttempts(accountId, { eventId: 2 })).map((a) => [a.attemptedAt, a.httpStatus]),
          [
            [at(1995, 23), 200],
            [at(1995, 24), 500],
          ],
        );
        assert.deepEqual(await store.events.listAttempts(uid('acct'), { deliveryId: one.delivery.id }), [], 'attempts stay within the account');
        await assert.rejects(store.events.listAttempts(accountId, {}));
      });

      it('removing a webhook while its job is in flight: the late report is a no-op', async () => {
        const accountId = uid('acct');
        const hook = makeWebhook(accountId);
        await store.events.addWebhook(hook);
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1994) }));
        const [job] = await claim(accountId, at(1994, 1));
        assert.ok(job);
        assert.equal(await store.events.removeWebhook(accountId, hook.id), true);
        await store.events.recordAttempt(attempt(job, at(1994, 2)), { status: 'pending', nextAttemptAt: at(1994, 60) });
        assert.deepEqual(await store.events.listAttempts(accountId, { eventId: 1 }), []);
        assert.deepEqual(await store.events.listDeliveries(accountId, {}), []);
        assert.deepEqual(await claim(accountId, at(1994, 100)), []);
        assert.notEqual(await store.events.getEvent(accountId, 1), null, 'the event itself stays');
      });

      it('redeliver queues new jobs behind the existing ones, for all webhooks or one', async () => {
        const accountId = uid('acct');
        const [a, b] = [makeWebhook(accountId), makeWebhook(accountId)];
        await store.events.addWebhook(a);
        await store.events.addWebhook(b);
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1993) }));
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1993, 1) }));
        const existing = await store.events.listDeliveries(accountId, {});
        const maxBefore = Math.max(...existing.map((d) => d.id));

        const startedAt = Date.now();
        const all = await store.events.redeliver(accountId, 1);
        assert.deepEqual(all.map((d) => d.webhookId).sort(), [a.id, b.id].sort());
        for (const job of all) {
          assert.ok(job.id > maxBefore);
          assert.deepEqual([job.status, job.attempts, job.eventId, job.deliveredAt], ['pending', 0, 1, null]);
          assert.ok(Date.parse(job.createdAt) >= startedAt - 1000 && Date.parse(job.createdAt) <= Date.now() + 1000);
          assert.equal(job.nextAttemptAt, job.createdAt);
        }
        const one = await store.events.redeliver(accountId, 2, b.id);
        assert.deepEqual(one.map((d) => [d.webhookId, d.eventId]), [[b.id, 2]]);
        assert.ok((one[0]?.id ?? 0) > Math.max(...all.map((d) => d.id)));
        assert.equal((await store.events.listDeliveries(accountId, {})).length, 7);

        assert.deepEqual(await store.events.redeliver(accountId, 99), []);
        assert.deepEqual(await store.events.redeliver(accountId, 1, uid('wh')), []);
        assert.deepEqual(await store.events.redeliver(uid('acct'), 1), []);
        // Another account's webhook is not a target.
        const foreign = makeWebhook(uid('acct'));
        await store.events.addWebhook(foreign);
        assert.deepEqual(await store.events.redeliver(accountId, 1, foreign.id), []);

        // The queue of webhook a is: event 1, event 2, then the redelivery of event 1.
        const order: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          const [job] = (await claim(accountId, new Date(Date.now() + 60_000).toISOString())).filter((j) => j.webhook.id === a.id);
          assert.ok(job);
          order.push(job.event.eventId);
          await store.events.recordAttempt(attempt(job, job.delivery.createdAt, { httpStatus: 200, error: null }), { status: 'delivered', nextAttemptAt: job.delivery.createdAt });
        }
        assert.deepEqual(order, [1, 2, 1]);
      });

      it('nextDue is the earliest moment a queue head may be claimed', async () => {
        const accountId = uid('acct');
        await store.events.addWebhook(makeWebhook(accountId));
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1992, 5) }));
        await store.events.insertEvent(makeEvent(accountId, { createdAt: at(1992, 1) }));
        // Every other pending head in the store is due later than this era; job 2 is not a head.
        assert.equal(await store.events.nextDue(), at(1992, 5));
        const [job] = await claim(accountId, at(1992, 6), 30);
        assert.ok(job);
        assert.equal(await store.events.nextDue(), at(1992, 36), 'a leased head counts from the end of its lease');
        await store.events.recordAttempt(attempt(job, at(1992, 7)), { status: 'pending', nextAttemptAt: at(1992, 9) });
        assert.equal(await store.events.nextDue(), at(1992, 9));
      });
    });

    // After the claiming cases, and in earlier eras (1991, 1990), for the same reason.
    describe('identities and user deletion', () => {
      it('the identity round-trips through insert, get, list and claim; absent or null reads back null', async () => {
        const accountId = uid('acct');
        const webhook = makeWebhook(accountId);
        await store.events.addWebhook(webhook);
        const identity = { type: 'email', hash: hash() } as const;
        const withIdentity = await store.events.insertEvent(makeEvent(accountId, { kind: 'spam_email', identity, createdAt: at(1991, 1) }));
        assert.deepEqual(withIdentity.identity, identity);
        assert.deepEqual(await store.events.getEvent(accountId, withIdentity.eventId), withIdentity);

        const explicitNull = await store.events.insertEvent(makeEvent(accountId, { identity: null, createdAt: at(1991, 2) }));
        const { identity: _absent, ...withoutKey } = makeEvent(accountId, { createdAt: at(1991, 3) });
        const absent = await store.events.insertEvent(withoutKey);
        assert.equal(explicitNull.identity, null);
        assert.equal(absent.identity, null);
        assert.deepEqual(await store.events.getEvent(accountId, absent.eventId), absent);
        assert.deepEqual(await store.events.listEvents(accountId, {}), [absent, explicitNull, withIdentity]);

        for (const type of ['ip', 'phone', 'card', 'customer_id', 'device_id'] as const) {
          const stored = await store.events.insertEvent(makeEvent(accountId, { identity: { type, hash: hash() }, createdAt: at(1991, 4) }));
          assert.deepEqual((await store.events.getEvent(accountId, stored.eventId))?.identity, stored.identity);
        }

        const [job] = await claim(accountId, at(1991, 10));
        assert.ok(job);
        assert.deepEqual(job.event, withIdentity, 'the claimed job carries the event with its identity');
        await store.events.recordAttempt(attempt(job, at(1991, 11), { httpStatus: 200, error: null }), { status: 'delivered', nextAttemptAt: at(1991, 11) });
        const [next] = await claim(accountId, at(1991, 12));
        assert.deepEqual(next?.event, explicitNull);
      });

      it('refuses an unknown identity type or a hash that is not lower-case hex, writing nothing', async () => {
        const accountId = uid('acct');
        const bad = [
          { type: 'passport', hash: hash() },
          { type: 'email', hash: hash().toUpperCase() },
          { type: 'email', hash: 'not hex' },
          { type: 'email', hash: '' },
          { type: 'email', hash: `${hash()}' OR '1'='1` },
        ];
        for (const identity of bad) {
          await assert.rejects(store.events.insertEvent(makeEvent(accountId, { identity: identity as NewEvent['identity'] })), RangeError);
        }
        assert.deepEqual(await store.events.listEvents(accountId, {}), []);
        assert.equal((await store.events.insertEvent(makeEvent(accountId))).eventId, 1);
      });

      it('deleteForUser removes the events of the user or of the identities, with their jobs and attempts', async () => {
        const accountId = uid('acct');
        const other = uid('acct');
        const [w1, w2] = [makeWebhook(accountId), makeWebhook(accountId)];
        await store.events.addWebhook(w1);
        await store.events.addWebhook(w2);
        await store.events.addWebhook(makeWebhook(other));
        const [email, card, phone] = [hash(), hash(), hash()];
        const when = (s: number) => ({ createdAt: at(1990, s) });
        const kept1 = await store.events.insertEvent(makeEvent(accountId, { kind: 'profanity', risk: 0.5, userId: 'u2', identity: { type: 'phone', hash: phone }, ...when(1) }));
        const byUser = await store.events.insertEvent(makeEvent(accountId, { kind: 'suspicious_ip', userId: 'u1', ...when(2) }));
        const byBoth = await store.events.insertEvent(makeEvent(accountId, { kind: 'spam_email', risk: 2, userId: 'u1', identity: { type: 'email', hash: email }, ...when(3) }));
        const byEmail = await store.events.insertEvent(makeEvent(accountId, { kind: 'spam_email', risk: 3, userId: 'u2', identity: { type: 'email', hash: email }, ...when(4) }));
        const byCard = await store.events.insertEvent(makeEvent(accountId, { kind: 'fraud_payment', risk: 90, userId: null, identity: { type: 'card', hash: card }, ...when(5) }));
        const kept2 = await store.events.insertEvent(makeEvent(accountId, { userId: null, ...when(6) }));
        // Another account: same user id, same identity hashes.
        const foreign = [
          await store.events.insertEvent(makeEvent(other, { userId: 'u1', ...when(1) })),
          await store.events.insertEvent(makeEvent(other, { userId: 'u3', identity: { type: 'email', hash: email }, ...when(2) })),
        ];

        // kept1 is delivered; byUser fails once, then its retry is in flight (leased) when the user is deleted.
        const first = await claim(accountId, at(1990, 10));
        assert.deepEqual(first.map((j) => j.event.eventId), [kept1.eventId, kept1.eventId]);
        for (const job of first) {
          await store.events.recordAttempt(attempt(job, at(1990, 11), { httpStatus: 204, error: null }), { status: 'delivered', nextAttemptAt: at(1990, 11) });
        }
        const second = await claim(accountId, at(1990, 20));
        assert.deepEqual(second.map((j) => j.event.eventId), [byUser.eventId, byUser.eventId]);
        for (const job of second) await store.events.recordAttempt(attempt(job, at(1990, 21)), { status: 'pending', nextAttemptAt: at(1990, 30) });
        const inFlight = await claim(accountId, at(1990, 40));
        assert.deepEqual(inFlight.map((j) => j.event.eventId), [byUser.eventId, byUser.eventId]);
        assert.equal((await store.events.listAttempts(accountId, { eventId: byUser.eventId })).length, 2);
        const deletedJobs = await store.events.listDeliveries(accountId, { eventId: byUser.eventId });

        const counts = await store.events.deleteForUser(accountId, { userId: 'u1', identityHashes: [email, card, email] });
        assert.deepEqual(counts, { suspicious_ip: 1, spam_email: 2, fraud_payment: 1 });

        assert.deepEqual(await store.events.listEvents(accountId, {}), [kept2, kept1]);
        for (const gone of [byUser, byBoth, byEmail, byCard]) {
          assert.equal(await store.events.getEvent(accountId, gone.eventId), null);
          assert.deepEqual(await store.events.listDeliveries(accountId, { eventId: gone.eventId }), []);
          assert.deepEqual(await store.events.listAttempts(accountId, { eventId: gone.eventId }), []);
        }
        for (const job of deletedJobs) assert.deepEqual(await store.events.listAttempts(accountId, { deliveryId: job.id }), []);
        assert.deepEqual(
          (await store.events.listDeliveries(accountId, {})).map((d) => d.eventId).sort(),
          [kept1.eventId, kept1.eventId, kept2.eventId, kept2.eventId].sort(),
        );
        assert.equal((await store.events.listAttempts(accountId, { eventId: kept1.eventId })).length, 2, 'attempts of kept events stay');

        // The in-flight attempt of a deleted job is dropped; the queues move on to the next kept event.
        for (const job of inFlight) await store.events.recordAttempt(attempt(job, at(1990, 41), { httpStatus: 200, error: null }), { status: 'delivered', nextAttemptAt: at(1990, 41) });
        assert.deepEqual(await store.events.listAttempts(accountId, { eventId: byUser.eventId }), []);
        const after = await claim(accountId, at(1990, 50));
        assert.deepEqual(after.map((j) => j.event), [kept2, kept2]);

        // The other account is untouched.
        assert.deepEqual(await store.events.listEvents(other, {}), [...foreign].reverse());
        assert.equal((await store.events.listDeliveries(other, {})).length, 2);

        assert.deepEqual(await store.events.deleteForUser(accountId, { userId: 'u1', identityHashes: [email, card] }), {}, 'a second run finds nothing');
      });

      it('deleteForUser by user only, by identity only, and with nothing matching', async () => {
        const accountId = uid('acct');
        const [email, phone] = [hash(), hash()];
        const mine = await store.events.insertEvent(makeEvent(accountId, { userId: 'u1', kind: 'suspicious_ip' }));
        const mineToo = await store.events.insertEvent(makeEvent(accountId, { userId: 'u1', kind: 'suspicious_ip' }));
        const emailOfOther = await store.events.insertEvent(makeEvent(accountId, { userId: 'u2', kind: 'spam_email', identity: { type: 'email', hash: email } }));
        const phoneOfNobody = await store.events.insertEvent(makeEvent(accountId, { userId: null, kind: 'spam_phone', identity: { type: 'phone', hash: phone } }));
        const unrelated = await store.events.insertEvent(makeEvent(accountId, { userId: null }));
        const ids = async (): Promise<number[]> => (await store.events.listEvents(accountId, {})).map((e) => e.eventId);

        assert.deepEqual(await store.events.deleteForUser(accountId, { identityHashes: [] }), {}, 'no user and no hash: nothing');
        assert.deepEqual(await store.events.deleteForUser(accountId, { userId: 'nobody', identityHashes: [hash(), 'NOT-HEX'] }), {});
        assert.deepEqual(await store.events.deleteForUser(uid('acct'), { userId: 'u1', identityHashes: [email, phone] }), {}, 'another account');
        assert.equal((await ids()).length, 5);

        assert.deepEqual(await store.events.deleteForUser(accountId, { userId: 'u1', identityHashes: [] }), { suspicious_ip: 2 });
        assert.equal(await store.events.getEvent(accountId, mine.eventId), null);
        assert.equal(await store.events.getEvent(accountId, mineToo.eventId), null);

        assert.deepEqual(await store.events.deleteForUser(accountId, { identityHashes: [phone] }), { spam_phone: 1 });
        assert.deepEqual(await ids(), [unrelated.eventId, emailOfOther.eventId]);
        assert.equal(await store.events.getEvent(accountId, phoneOfNobody.eventId), null);

        assert.deepEqual(await store.events.deleteForUser(accountId, { userId: undefined, identityHashes: [email] }), { spam_email: 1 });
        assert.deepEqual(await ids(), [unrelated.eventId]);
      });
    });
  });
}
