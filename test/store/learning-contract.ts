import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Evidence, IdentityField, IdentityHashes, LabelType, LearningWrite, ModelUpdate, NewScoring, OutcomeRecord, PaymentOutcome } from '../../src/store/learning-ports.ts';
import { UserDeletedError, type Store } from '../../src/store/ports.ts';
import { uid } from './fixtures.ts';
import { VELOCITY_ROWS } from '../../src/store/learning-rows.ts';
import { decayedWeight, evidenceScore } from '../../src/learning/evidence.ts';

/** Quotes, backslash, SQL comment, CJK, emoji (ZWJ sequence), combining mark; no NUL (PostgreSQL text refuses it). */
const AWKWARD = `it's "quoted" \\ -- ; /* x */ 日本語 👩‍💻 🚀 e\u0301 %_`;

const BASE = Date.UTC(2024, 5, 1, 12, 0, 0);

/** An ISO timestamp `minutes` after 2024-06-01T12:00Z (negative: before). */
function at(minutes: number): string {
  return new Date(BASE + minutes * 60_000).toISOString();
}

function noIdentities(overrides: Partial<IdentityHashes> = {}): IdentityHashes {
  return { customer: null, user: null, email: null, emailDomain: null, phone: null, ip: null, device: null, card: null, ...overrides };
}

function fullIdentities(tag: string): IdentityHashes {
  return {
    customer: `cust-${tag}`,
    user: `user-${tag}`,
    email: `email-${tag}`,
    emailDomain: `domain-${tag}`,
    phone: `phone-${tag}`,
    ip: `ip-${tag}`,
    device: `device-${tag}`,
    card: `card-${tag}`,
  };
}

function makeScoring(accountId: string, overrides: Partial<NewScoring> = {}): NewScoring {
  return {
    accountId,
    transactionId: 'tx-1',
    scoredAt: at(0),
    identities: fullIdentities('a'),
    cardBin: '411111',
    cardLast4: '1111',
    location: 'loc-a',
    amount: 123.45,
    currency: 'USD',
    score: 87.5,
    rules: ['PF10001', 'PF10016', 'SVC2'],
    features: ['f:1a2b', 'f:3c4d'],
    ruleSet: 'rules-2024.06.01',
    dataVersions: { geolite2: '2024-05-28', disposable: 'v41' },
    outcome: null,
    ...overrides,
  };
}

function makeOutcome(accountId: string, transactionId: string, overrides: Partial<OutcomeRecord> = {}): OutcomeRecord {
  return {
    accountId,
    transactionId,
    outcome: 'chargeback',
    fraud: true,
    reason: 'stolen card',
    occurredAt: at(10),
    status: 'pending',
    identities: noIdentities({ customer: 'cust-o', email: 'email-o' }),
    updatedAt: at(11),
    ...overrides,
  };
}

function makeEvidence(accountId: string, overrides: Partial<Evidence> = {}): Evidence {
  return {
    accountId,
    type: 'email',
    valueHash: 'hash-x',
    origin: 'label',
    label: 'fraud',
    masked: 'j***@example.com',
    reason: 'chargeback',
    source: 'feedback',
    occurredAt: at(0),
    updatedAt: at(1),
    ...overrides,
  };
}

function makeUpdate(accountId: string, overrides: Partial<ModelUpdate> = {}): ModelUpdate {
  return { accountId, at: at(0), origin: 'payment:tx-1', label: 1, before: 0.25, weights: { a: 0.5, b: -0.125 }, ...overrides };
}

function logStats(amounts: number[]): { mean: number; sd: number } {
  const logs = amounts.map((x) => Math.log1p(x));
  const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
  const variance = logs.reduce((s, x) => s + (x - mean) ** 2, 0) / logs.length;
  return { mean, sd: Math.sqrt(variance) };
}

function near(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} is not ${expected}`);
}

/**
 * The behaviour every ScoringsPort, OutcomesPort, EvidencePort and ModelPort implementation must share.
 * `factory` returns a migrated store on an empty database; cases use unique account ids, so they share it.
 */
export function runLearningContract(name: string, factory: () => Promise<Store>): void {
  describe(`Learning store contract: ${name}`, () => {
    let store: Store;

    before(async () => {
      store = await factory();
    });

    after(async () => {
      await store.close();
    });

    describe('user deletions (tombstones)', () => {
      // Within the day tombstones are kept.
      const origin = Date.now() - 3600_000;
      const recent = (minutes: number) => new Date(origin + minutes * 60_000).toISOString();
      it('find: by keyed hash or any (null), at or after the time asked', async () => {
        const acct = uid('tomb');
        await store.deletedUsers.add(acct, ['h-1', 'h-2'], recent(10));
        const hashes = async (hs: string[] | null, since: string) => (await store.deletedUsers.find(acct, hs, since)).map((d) => d.valueHash).sort();
        assert.deepEqual(await hashes(['h-1', 'h-3'], recent(5)), ['h-1']);
        assert.deepEqual(await hashes(null, recent(10)), ['h-1', 'h-2'], 'at the deletion time itself');
        assert.deepEqual(await hashes(null, recent(11)), [], 'a call received after the deletion is new');
        assert.deepEqual(await hashes([], recent(0)), []);
        assert.deepEqual(await store.deletedUsers.find(uid('other'), null, recent(0)), [], 'per account');
      });

      it('a scoring made before its customer, user, email or phone was deleted is not stored; one made after is', async () => {
        const acct = uid('tomb-scoring');
        await store.deletedUsers.add(acct, ['email-gone'], recent(10));
        for (const field of ['customer', 'user', 'email', 'phone'] as const) {
          const identities = { ...fullIdentities(field), [field]: 'email-gone' };
          await assert.rejects(store.scorings.insert(makeScoring(acct, { transactionId: `before-${field}`, scoredAt: recent(9), identities })), UserDeletedError, field);
          assert.deepEqual(await store.scorings.byTransaction(acct, `before-${field}`), []);
        }
        const after = await store.scorings.insert(makeScoring(acct, { transactionId: 'after', scoredAt: recent(11), identities: { ...fullIdentities('x'), email: 'email-gone' } }));
        assert.equal((await store.scorings.byTransaction(acct, 'after'))[0]?.id, after.id);
        // Another identity type with the same hash (an IP, a device) is not the deleted person.
        await store.scorings.insert(makeScoring(acct, { transactionId: 'ip-only', scoredAt: recent(9), identities: { ...fullIdentities('y'), ip: 'email-gone' } }));
        assert.equal((await store.scorings.byTransaction(acct, 'ip-only')).length, 1);
      });
    });

    describe('scorings: insert and byTransaction', () => {
      it('scorings inserted at once each get their own row and id (stores may write them in one statement); a deleted customer\'s alone is refused', async () => {
        const acct = uid('acct-many');
        const origin = Date.now() - 3600_000;
        const when = (minutes: number) => new Date(origin + minutes * 60_000).toISOString();
        await store.deletedUsers.add(acct, ['gone'], when(10));
        const made = Array.from({ length: 40 }, (_, i) => makeScoring(acct, {
          transactionId: `many-${i}`, scoredAt: when(i % 3 === 0 ? 9 : 11), amount: i, identities: noIdentities({ customer: i === 6 || i === 8 ? 'gone' : `c-${i}` }),
        }));
        const results = await Promise.allSettled(made.map((m) => store.scorings.insert(m)));
        results.forEach((r, i) => {
          // 6 was scored before the deletion (i % 3 === 0), so only 6 is refused; 8, scored after it, is new data.
          if (i === 6) assert.ok(r.status === 'rejected' && r.reason instanceof UserDeletedError);
          else assert.equal(r.status, 'fulfilled', `${i}: ${r.status === 'rejected' ? String(r.reason) : ''}`);
        });
        const ids = new Set<number>();
        for (const [i, r] of results.entries()) {
          if (r.status !== 'fulfilled') continue;
          assert.deepEqual(r.value, { ...made[i], id: r.value.id });
          assert.deepEqual(await store.scorings.byTransaction(acct, `many-${i}`), [r.value]);
          ids.add(r.value.id);
        }
        assert.equal(ids.size, 39);
        assert.deepEqual(await store.scorings.byTransaction(acct, 'many-6'), []);
      });

      it('round-trips every field exactly, with the id the store gave', async () => {
        const acct = uid('acct');
        const full = makeScoring(acct, { dataVersions: { [AWKWARD]: AWKWARD, geolite2: '2024-05-28' }, rules: [AWKWARD, 'PF1'], features: [] });
        const stored = await store.scorings.insert(full);
        assert.equal(typeof stored.id, 'number');
        assert.ok(Number.isSafeInteger(stored.id));
        assert.deepEqual(stored, { ...full, id: stored.id });
        assert.deepEqual(await store.scorings.byTransaction(acct, 'tx-1'), [stored]);
      });

      it('keeps nulls as nulls and empty lists as empty lists', async () => {
        const acct = uid('acct');
        const bare = makeScoring(acct, {
          transactionId: 'tx-bare',
          identities: noIdentities(),
          cardBin: null,
          cardLast4: null,
          location: null,
          amount: null,
          currency: null,
          score: 0,
          rules: [],
          features: [],
          dataVersions: {},
          outcome: null,
        });
        const stored = await store.scorings.insert(bare);
        assert.deepEqual(await store.scorings.byTransaction(acct, 'tx-bare'), [{ ...bare, id: stored.id }]);
        // A scoring without a transaction id is stored, and no transaction id finds it.
        const anonymous = await store.scorings.insert(makeScoring(acct, { transactionId: null, amount: 0 }));
        assert.equal(anonymous.transactionId, null);
        assert.equal(anonymous.amount, 0);
        assert.deepEqual(await store.scorings.findByIdentity(acct, 'customer', 'cust-a'), [anonymous]);
      });

      it('normalises the timestamp to toISOString() form and gives it back so', async () => {
        const acct = uid('acct');
        const stored = await store.scorings.insert(makeScoring(acct, { scoredAt: '2024-06-01T14:00:00+02:00' }));
        assert.equal(stored.scoredAt, '2024-06-01T12:00:00.000Z');
        assert.deepEqual(await store.scorings.byTransaction(acct, 'tx-1'), [stored]);
      });

      it('lists the scorings of one id oldest first, and only that account’s', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        const first = await store.scorings.insert(makeScoring(acct, { scoredAt: at(5), score: 10 }));
        const second = await store.scorings.insert(makeScoring(acct, { scoredAt: at(1), score: 20 }));
        await store.scorings.insert(makeScoring(other));
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-2' }));
        assert.ok(second.id > first.id);
        assert.deepEqual(await store.scorings.byTransaction(acct, 'tx-1'), [first, second]);
        assert.deepEqual(await store.scorings.byTransaction(acct, 'tx-unknown'), []);
      });
    });

    describe('scorings: velocity', () => {
      it('counts the rows of one identity since the window start (inclusive), per account', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        const ids = (tag: string): IdentityHashes => noIdentities({ customer: `c-${tag}`, ip: 'ip-shared', email: null });
        await store.scorings.insert(makeScoring(acct, { scoredAt: at(-120), identities: ids('1') }));
        await store.scorings.insert(makeScoring(acct, { scoredAt: at(-60), identities: ids('1') }));
        await store.scorings.insert(makeScoring(acct, { scoredAt: at(-30), identities: ids('1') }));
        await store.scorings.insert(makeScoring(acct, { scoredAt: at(0), identities: ids('2') }));
        await store.scorings.insert(makeScoring(other, { scoredAt: at(0), identities: ids('1') }));

        const answers = await store.scorings.velocity(acct, [
          { by: 'customer', hash: 'c-1', since: at(-60) },
          { by: 'customer', hash: 'c-1', since: at(-59) },
          { by: 'customer', hash: 'c-1', since: at(-1000) },
          { by: 'customer', hash: 'c-2', since: at(-60) },
          { by: 'ip', hash: 'ip-shared', since: at(-60) },
          { by: 'customer', hash: 'c-none', since: at(-1000) },
          { by: 'email', hash: 'c-1', since: at(-1000) },
        ]);
        assert.deepEqual(answers, [2, 1, 3, 1, 3, 0, 0]);
        assert.deepEqual(await store.scorings.velocity(other, [{ by: 'customer', hash: 'c-1', since: at(-1000) }]), [1]);
        assert.deepEqual(await store.scorings.velocity(acct, []), []);
      });

      it(`reads at most the newest ${VELOCITY_ROWS} rows of an identity: short windows stay exact, long ones are lower bounds`, async () => {
        const acct = uid('acct');
        // A card with VELOCITY_ROWS + 50 earlier customers over the last 20 days, then 3 attempts (2 customers) in 10 minutes.
        const old = Array.from({ length: VELOCITY_ROWS + 50 }, (_, i) =>
          makeScoring(acct, { transactionId: `old-${i}`, scoredAt: at(-20 * 24 * 60 + i * 60), identities: noIdentities({ card: 'card-long', customer: `cust-${i}` }) }));
        for (const row of old) await store.scorings.insert(row);
        for (const [i, customer] of ['now-a', 'now-b', 'now-b'].entries()) {
          await store.scorings.insert(makeScoring(acct, { transactionId: `now-${i}`, scoredAt: at(-5 + i), identities: noIdentities({ card: 'card-long', customer }) }));
        }
        const answers = await store.scorings.velocity(acct, [
          { by: 'card', hash: 'card-long', since: at(-30 * 24 * 60) },
          { by: 'card', hash: 'card-long', since: at(-30 * 24 * 60), distinct: 'customer' },
          { by: 'card', hash: 'card-long', since: at(-10) },
          { by: 'card', hash: 'card-long', since: at(-10), distinct: 'customer' },
        ]);
        assert.deepEqual(answers, [VELOCITY_ROWS, VELOCITY_ROWS - 1, 3, 2]);
      });

      it('counts distinct values among the rows (cards per customer, customers per card, locations), NULLs not counted', async () => {
        const acct = uid('acct');
        const row = (minutes: number, customer: string, card: string | null, location: string | null): NewScoring =>
          makeScoring(acct, { scoredAt: at(minutes), identities: noIdentities({ customer, card }), location });
        await store.scorings.insert(row(-100, 'c1', 'k0', 'l0')); // before the window
        await store.scorings.insert(row(-10, 'c1', 'k1', 'l1'));
        await store.scorings.insert(row(-9, 'c1', 'k1', 'l1'));
        await store.scorings.insert(row(-8, 'c1', 'k2', null));
        await store.scorings.insert(row(-7, 'c1', null, 'l2'));
        await store.scorings.insert(row(-6, 'c2', 'k1', 'l1'));
        await store.scorings.insert(row(-5, 'c3', 'k1', null));

        const since = at(-50);
        const answers = await store.scorings.velocity(acct, [
          { by: 'customer', hash: 'c1', since, distinct: 'card' },
          { by: 'card', hash: 'k1', since, distinct: 'customer' },
          { by: 'customer', hash: 'c1', since, distinct: 'location' },
          { by: 'customer', hash: 'c1', since: at(-1000), distinct: 'card' },
          { by: 'customer', hash: 'c1', since: at(-1000), distinct: 'location' },
          { by: 'customer', hash: 'c1', since },
          { by: 'customer', hash: 'c9', since, distinct: 'card' },
          { by: 'card', hash: 'k1', since, distinct: 'email' },
        ]);
        assert.deepEqual(answers, [2, 3, 2, 3, 3, 4, 0, 0]);
      });

      it('counts by the card BIN: small-amount attempts and distinct cards of one BIN (card testing across a BIN)', async () => {
        const acct = uid('acct');
        const row = (minutes: number, card: string | null, bin: string | null, amount = 1): NewScoring =>
          makeScoring(acct, { scoredAt: at(minutes), identities: noIdentities({ card }), cardBin: bin, amount });
        // Ordinary amounts (5 and more, or none) are not in a BIN's window.
        await store.scorings.insert(row(-4, 'k8', '400022', 5));
        await store.scorings.insert(row(-4, 'k9', '400022', 120));
        await store.scorings.insert(makeScoring(acct, { scoredAt: at(-4), identities: noIdentities({ card: 'k7' }), cardBin: '400022', amount: null }));
        await store.scorings.insert(row(-30, 'k0', '400022')); // before the window
        await store.scorings.insert(row(-9, 'k1', '400022'));
        await store.scorings.insert(row(-8, 'k1', '400022'));
        await store.scorings.insert(row(-7, 'k2', '400022'));
        await store.scorings.insert(row(-6, 'k3', '511111'));
        await store.scorings.insert(row(-5, null, null));
        const since = at(-10);
        assert.deepEqual(await store.scorings.velocity(acct, [
          { by: 'bin', hash: '400022', since, distinct: 'card' },
          { by: 'bin', hash: '400022', since },
          { by: 'bin', hash: '400022', since: at(-60), distinct: 'card' },
          { by: 'bin', hash: '511111', since, distinct: 'card' },
          { by: 'bin', hash: '999999', since, distinct: 'card' },
        ]), [2, 3, 3, 1, 0]);
      });

      it('counts by the card BIN at every amount (binAny), beside the small-amount window, and cards per device and IP', async () => {
        const acct = uid('acct');
        const row = (minutes: number, ids: Partial<IdentityHashes>, bin: string | null, amount: number | null): NewScoring =>
          makeScoring(acct, { scoredAt: at(minutes), identities: noIdentities(ids), cardBin: bin, amount });
        await store.scorings.insert(row(-30, { card: 'k0', device: 'd1', ip: 'i1' }, '400022', 80));
        await store.scorings.insert(row(-9, { card: 'k1', device: 'd1', ip: 'i1' }, '400022', 40));
        await store.scorings.insert(row(-8, { card: 'k1', device: 'd1', ip: 'i1' }, '400022', 1));
        await store.scorings.insert(row(-0.5, { card: 'k2', device: 'd1', ip: 'i2' }, '400022', null));
        await store.scorings.insert(row(-0.5, { card: 'k3', device: 'd2', ip: 'i1' }, '511111', 120));
        const m10 = at(-10);
        const m1 = at(-1);
        assert.deepEqual(await store.scorings.velocity(acct, [
          { by: 'binAny', hash: '400022', since: m10, distinct: 'card' },
          { by: 'binAny', hash: '400022', since: m1, distinct: 'card' },
          { by: 'binAny', hash: '400022', since: m10 },
          { by: 'binAny', hash: '400022', since: at(-60) },
          { by: 'bin', hash: '400022', since: m10, distinct: 'card' },
          { by: 'bin', hash: '400022', since: m10 },
          { by: 'device', hash: 'd1', since: m10, distinct: 'card' },
          { by: 'device', hash: 'd1', since: m1, distinct: 'card' },
          { by: 'ip', hash: 'i1', since: m10, distinct: 'card' },
          { by: 'ip', hash: 'i1', since: at(-60), distinct: 'card' },
        ]), [2, 1, 3, 4, 1, 1, 2, 1, 2, 3]);
      });

      it('refuses unknown fields and bad timestamps instead of building SQL from them', async () => {
        const acct = uid('acct');
        const evil = 'customer_hash = customer_hash OR 1 = 1; --' as IdentityField;
        await assert.rejects(store.scorings.velocity(acct, [{ by: evil, hash: 'x', since: at(0) }]), /unknown identity field/);
        await assert.rejects(store.scorings.velocity(acct, [{ by: 'customer', hash: 'x', since: at(0), distinct: 'amount' as IdentityField }]), /unknown distinct field/);
        await assert.rejects(store.scorings.velocity(acct, [{ by: 'toString' as IdentityField, hash: 'x', since: at(0) }]), /unknown identity field/);
        await assert.rejects(store.scorings.velocity(acct, [{ by: 'customer', hash: 'x', since: 'yesterday' }]), /ISO-8601/);
        await assert.rejects(store.scorings.velocity(acct, [{ by: 'customer', hash: 'x', since: '2024-06-01T12:00:00' }]), /ISO-8601/);
        await assert.rejects(store.scorings.countFraudSince(acct, evil, 'x', at(0)), /unknown identity field/);
        await assert.rejects(store.scorings.findByIdentity(acct, evil, 'x'), /unknown identity field/);
        await assert.rejects(store.scorings.deleteByIdentity(acct, evil, 'x'), /unknown identity field/);
        await assert.rejects(store.outcomes.findByIdentity(acct, evil, 'x'), /unknown identity field/);
        await assert.rejects(store.outcomes.deleteByIdentity(acct, evil, 'x'), /unknown identity field/);
      });
    });

    describe('scorings: outcomes and fraud counts', () => {
      it('setOutcome updates every scoring of the id and returns how many; fraud counts follow the flag', async () => {
        const acct = uid('acct');
        const ids = noIdentities({ customer: 'c-f', card: 'k-f' });
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-f', scoredAt: at(-10), identities: ids }));
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-f', scoredAt: at(-5), identities: ids }));
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-g', scoredAt: at(-200), identities: ids }));
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-h', scoredAt: at(-3), identities: ids }));

        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-f', at(-1000)), 0);
        assert.equal(await store.scorings.setOutcome(acct, 'tx-f', 'chargeback', true), 2);
        assert.equal(await store.scorings.setOutcome(acct, 'tx-g', 'fraud_confirmed', true), 1);
        assert.equal(await store.scorings.setOutcome(acct, 'tx-unknown', 'chargeback', true), 0);
        assert.equal(await store.scorings.setOutcome(uid('acct'), 'tx-f', 'chargeback', true), 0);

        // Transactions, not scorings: tx-f was scored twice and counts once.
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-f', at(-1000)), 2);
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-f', at(-100)), 1);
        assert.equal(await store.scorings.countFraudSince(acct, 'card', 'k-f', at(-5)), 1);
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-other', at(-1000)), 0);
        assert.equal(await store.scorings.countFraudSince(uid('acct'), 'customer', 'c-f', at(-1000)), 0);
        assert.deepEqual(
          (await store.scorings.byTransaction(acct, 'tx-f')).map((s) => s.outcome),
          ['chargeback', 'chargeback'],
        );

        // A declined payment without a fraud reason is an outcome, not fraud.
        assert.equal(await store.scorings.setOutcome(acct, 'tx-f', 'declined', false), 2);
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-f', at(-1000)), 1);
        assert.equal(await store.scorings.setOutcome(acct, 'tx-h', 'declined', true), 1);
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-f', at(-1000)), 2);
        assert.deepEqual(
          (await store.scorings.byTransaction(acct, 'tx-f')).map((s) => s.outcome),
          ['declined', 'declined'],
        );
      });

      it('an outcome known at insert counts as fraud by its kind, or by the fraud flag of the stored feedback', async () => {
        const acct = uid('acct');
        const ids = noIdentities({ customer: 'c-i' });
        const insert = (transactionId: string, outcome: PaymentOutcome | null) =>
          store.scorings.insert(makeScoring(acct, { transactionId, identities: ids, outcome }));
        assert.equal((await insert('t1', 'fraud_confirmed')).outcome, 'fraud_confirmed');
        await insert('t2', 'chargeback');
        await insert('t3', 'declined');
        await insert('t4', 'approved');
        await insert('t5', null);
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-i', at(-1)), 2);
        // Pending feedback flagged fraud, applied at scoring time.
        await store.outcomes.put(makeOutcome(acct, 't6', { outcome: 'declined', fraud: true }));
        await insert('t6', 'declined');
        // Pending feedback not flagged: a chargeback recorded as not fraud stays not fraud.
        await store.outcomes.put(makeOutcome(acct, 't7', { outcome: 'chargeback', fraud: false }));
        await insert('t7', 'chargeback');
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-i', at(-1)), 3);
        assert.deepEqual((await store.scorings.byTransaction(acct, 't6'))[0]?.outcome, 'declined');
      });

      it('refuses an unknown outcome and a non-boolean fraud flag', async () => {
        const acct = uid('acct');
        await store.scorings.insert(makeScoring(acct));
        await assert.rejects(store.scorings.setOutcome(acct, 'tx-1', 'stolen' as PaymentOutcome, true), /unknown payment outcome/);
        await assert.rejects(store.scorings.setOutcome(acct, 'tx-1', 'chargeback', 'yes' as unknown as boolean), /boolean/);
        await assert.rejects(store.scorings.insert(makeScoring(acct, { outcome: 'stolen' as PaymentOutcome })), /unknown payment outcome/);
        assert.deepEqual((await store.scorings.byTransaction(acct, 'tx-1')).map((s) => s.outcome), [null]);
      });
    });

    describe('scorings: amountStats', () => {
      it('gives count, mean and population sd of ln(1 + amount) and the max, per currency, window and customer', async () => {
        const acct = uid('acct');
        const row = (minutes: number, amount: number | null, currency: string | null, customer: string): NewScoring =>
          makeScoring(acct, { scoredAt: at(minutes), amount, currency, identities: noIdentities({ customer }) });
        await store.scorings.insert(row(-100, 99_999, 'USD', 'c1')); // before the window
        await store.scorings.insert(row(-10, 10, 'USD', 'c1'));
        await store.scorings.insert(row(-9, 100, 'USD', 'c1'));
        await store.scorings.insert(row(-8, 1000.5, 'USD', 'c2'));
        await store.scorings.insert(row(-7, 0, 'USD', 'c2'));
        await store.scorings.insert(row(-6, null, 'USD', 'c1')); // no amount
        await store.scorings.insert(row(-5, 50, 'EUR', 'c1'));
        await store.scorings.insert(row(-4, 7, null, 'c1'));
        await store.scorings.insert(row(-3, 9, null, 'c2'));
        await store.scorings.insert(makeScoring(uid('acct'), { scoredAt: at(-2), amount: 5000, currency: 'USD' }));

        const since = at(-50);
        const all = await store.scorings.amountStats(acct, 'USD', since);
        const expected = logStats([10, 100, 1000.5, 0]);
        assert.equal(all.count, 4);
        near(all.meanLog, expected.mean, 'meanLog');
        near(all.sdLog, expected.sd, 'sdLog');
        assert.equal(all.max, 1000.5);

        const c1 = await store.scorings.amountStats(acct, 'USD', since, 'c1');
        const expectedC1 = logStats([10, 100]);
        assert.equal(c1.count, 2);
        near(c1.meanLog, expectedC1.mean, 'customer meanLog');
        near(c1.sdLog, expectedC1.sd, 'customer sdLog');
        assert.equal(c1.max, 100);

        const wide = await store.scorings.amountStats(acct, 'USD', at(-1000));
        assert.equal(wide.count, 5);
        assert.equal(wide.max, 99_999);

        const noCurrency = await store.scorings.amountStats(acct, null, since);
        assert.equal(noCurrency.count, 2);
        near(noCurrency.meanLog, logStats([7, 9]).mean, 'null-currency meanLog');
        assert.equal(noCurrency.max, 9);
        assert.equal((await store.scorings.amountStats(acct, null, since, 'c2')).count, 1);

        const euro = await store.scorings.amountStats(acct, 'EUR', since);
        assert.deepEqual({ ...euro, meanLog: 0 }, { count: 1, meanLog: 0, sdLog: 0, max: 50 });
        near(euro.meanLog, Math.log1p(50), 'single meanLog');
      });

      it('reads only the most recent `limit` scorings with an amount, for the account and for one customer', async () => {
        const acct = uid('acct');
        const amounts = [5, 6, 7, 8, 9, 1000];
        for (const [i, amount] of amounts.entries()) {
          await store.scorings.insert(makeScoring(acct, { scoredAt: at(i - 20), amount, currency: 'USD', identities: noIdentities({ customer: i % 2 ? 'odd' : 'even' }) }));
        }
        // Newer than all of them, but without an amount: not one of the rows counted.
        await store.scorings.insert(makeScoring(acct, { scoredAt: at(-1), amount: null, currency: 'USD', identities: noIdentities({ customer: 'odd' }) }));
        const recent = await store.scorings.amountStats(acct, 'USD', at(-1000), undefined, 3);
        assert.equal(recent.count, 3);
        near(recent.meanLog, logStats([8, 9, 1000]).mean, 'recent meanLog');
        assert.equal(recent.max, 1000);
        const odd = await store.scorings.amountStats(acct, 'USD', at(-1000), 'odd', 2);
        assert.equal(odd.count, 2);
        near(odd.meanLog, logStats([8, 1000]).mean, 'customer recent meanLog');
        assert.equal((await store.scorings.amountStats(acct, 'USD', at(-1000))).count, 6);
        await assert.rejects(store.scorings.amountStats(acct, 'USD', at(-1000), undefined, 0), /positive integer/);
      });

      it('history answers the fraud count and one customer\'s amounts in one call, as countFraudSince and amountStats do', async () => {
        const acct = uid('acct');
        const row = (tx: string, minutes: number, amount: number | null, currency: string | null, customer: string, email: string) =>
          store.scorings.insert(makeScoring(acct, { transactionId: tx, scoredAt: at(minutes), amount, currency, identities: noIdentities({ customer, email }) }));
        await row('h1', -30, 10, 'USD', 'hc', 'he');
        await row('h2', -20, 200, 'USD', 'hc', 'he');
        await row('h3', -10, 35, 'EUR', 'hc', 'other');
        await row('h4', -5, 80, 'USD', 'someone', 'he');
        await store.scorings.setOutcome(acct, 'h2', 'chargeback', true);
        await store.scorings.setOutcome(acct, 'h4', 'fraud_confirmed', true);
        const since = at(-1000);
        for (const [by, hash] of [['customer', 'hc'], ['email', 'he'], ['customer', 'nobody']] as const) {
          for (const currency of ['USD', 'EUR', null]) {
            const both = await store.scorings.history(acct, { fraud: { by, hash, since }, amounts: { currency, since, customer: 'hc' } });
            assert.deepEqual(both, {
              fraud: await store.scorings.countFraudSince(acct, by, hash, since),
              amounts: await store.scorings.amountStats(acct, currency, since, 'hc'),
            }, `${by} ${hash} ${currency}`);
          }
        }
        assert.deepEqual(await store.scorings.history(acct, { fraud: { by: 'email', hash: 'he', since }, amounts: null }), { fraud: 2, amounts: null });
        const amountsOnly = await store.scorings.history(acct, { fraud: null, amounts: { currency: 'USD', since, customer: 'hc' } });
        assert.equal(amountsOnly.fraud, 0);
        assert.equal(amountsOnly.amounts?.count, 2);
        assert.equal(amountsOnly.amounts?.max, 200);
        assert.deepEqual(await store.scorings.history(acct, { fraud: null, amounts: null }), { fraud: 0, amounts: null });
        // The windows hold: a fraud before `since` is not counted; the customer's amounts keep to theirs.
        assert.equal((await store.scorings.history(acct, { fraud: { by: 'customer', hash: 'hc', since: at(-15) }, amounts: { currency: 'USD', since: at(-25), customer: 'hc' } })).fraud, 0);
        assert.equal((await store.scorings.history(acct, { fraud: null, amounts: { currency: 'USD', since: at(-25), customer: 'hc' } })).amounts?.count, 1);
        const evil = 'customer_hash = customer_hash OR 1' as IdentityField;
        await assert.rejects(store.scorings.history(acct, { fraud: { by: evil, hash: 'x', since }, amounts: null }), /unknown identity field/);
      });

      it('is all zeros with no matching amount, and sd 0 when every amount is the same', async () => {
        const acct = uid('acct');
        const empty = { count: 0, meanLog: 0, sdLog: 0, max: 0 };
        assert.deepEqual(await store.scorings.amountStats(acct, 'USD', at(-1000)), empty);
        await store.scorings.insert(makeScoring(acct, { amount: null, currency: 'USD' }));
        assert.deepEqual(await store.scorings.amountStats(acct, 'USD', at(-1000)), empty);
        assert.deepEqual(await store.scorings.amountStats(acct, 'GBP', at(-1000)), empty);
        assert.deepEqual(await store.scorings.amountStats(acct, 'USD', at(-1000), 'nobody'), empty);

        for (let i = 0; i < 7; i += 1) await store.scorings.insert(makeScoring(acct, { amount: 49.99, currency: 'JPY', scoredAt: at(i) }));
        const same = await store.scorings.amountStats(acct, 'JPY', at(-1000));
        assert.equal(same.count, 7);
        assert.equal(same.sdLog, 0);
        near(same.meanLog, Math.log1p(49.99), 'meanLog');
        assert.equal(same.max, 49.99);
      });

      it('refuses a negative or non-finite amount and a bad window start', async () => {
        const acct = uid('acct');
        await assert.rejects(store.scorings.insert(makeScoring(acct, { amount: -1 })), /negative/);
        await assert.rejects(store.scorings.insert(makeScoring(acct, { amount: Number.NaN })), /finite/);
        await assert.rejects(store.scorings.insert(makeScoring(acct, { score: Number.POSITIVE_INFINITY })), /finite/);
        await assert.rejects(store.scorings.amountStats(acct, 'USD', 'last week'), /ISO-8601/);
        assert.deepEqual(await store.scorings.byTransaction(acct, 'tx-1'), []);
      });
    });

    describe('scorings: by identity', () => {
      it('finds and deletes by any identity field, leaving other identities and accounts alone', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        const u1a = await store.scorings.insert(makeScoring(acct, { transactionId: 'a', identities: noIdentities({ user: 'u1', card: 'k1' }) }));
        const u1b = await store.scorings.insert(makeScoring(acct, { transactionId: 'b', identities: noIdentities({ user: 'u1', card: 'k2' }) }));
        const u2 = await store.scorings.insert(makeScoring(acct, { transactionId: 'c', identities: noIdentities({ user: 'u2', card: 'k1' }) }));
        const foreign = await store.scorings.insert(makeScoring(other, { transactionId: 'a', identities: noIdentities({ user: 'u1' }) }));

        assert.deepEqual(await store.scorings.findByIdentity(acct, 'user', 'u1'), [u1a, u1b]);
        assert.deepEqual(await store.scorings.findByIdentity(acct, 'card', 'k1'), [u1a, u2]);
        assert.deepEqual(await store.scorings.findByIdentity(acct, 'email', 'u1'), []);

        assert.equal(await store.scorings.deleteByIdentity(acct, 'user', 'u1'), 2);
        assert.equal(await store.scorings.deleteByIdentity(acct, 'user', 'u1'), 0);
        assert.deepEqual(await store.scorings.findByIdentity(acct, 'user', 'u1'), []);
        assert.deepEqual(await store.scorings.findByIdentity(acct, 'user', 'u2'), [u2]);
        assert.deepEqual(await store.scorings.findByIdentity(other, 'user', 'u1'), [foreign]);
        assert.deepEqual(await store.scorings.velocity(acct, [{ by: 'card', hash: 'k1', since: at(-1000) }]), [1]);

        for (const field of ['customer', 'email', 'emailDomain', 'phone', 'ip', 'device', 'card'] as const) {
          const tagged = await store.scorings.insert(makeScoring(acct, { identities: noIdentities({ [field]: `only-${field}` }) }));
          assert.deepEqual(await store.scorings.findByIdentity(acct, field, `only-${field}`), [tagged], field);
          assert.equal(await store.scorings.deleteByIdentity(acct, field, `only-${field}`), 1, field);
        }
      });
    });

    describe('scorings: add (stored without its id; SQLite writes it in a group a few ms later)', () => {
      it('every read sees an added scoring at once: velocity (counts, distinct, BIN), histories, the transaction, outcomes', async () => {
        const acct = uid('acct');
        const ids = (customer: string, card: string): IdentityHashes => noIdentities({ customer, card, ip: 'ip-add' });
        await store.scorings.insert(makeScoring(acct, { transactionId: 'add-0', scoredAt: at(-20), identities: ids('c-add', 'k-1'), amount: 10 }));
        await store.scorings.add(makeScoring(acct, { transactionId: 'add-1', scoredAt: at(-10), identities: ids('c-add', 'k-2'), amount: 1 }));
        await store.scorings.add(makeScoring(acct, { transactionId: 'add-2', scoredAt: at(-5), identities: ids('c-other', 'k-2'), amount: 2 }));
        assert.deepEqual(await store.scorings.velocity(acct, [
          { by: 'customer', hash: 'c-add', since: at(-60) },
          { by: 'customer', hash: 'c-add', since: at(-60), distinct: 'card' },
          { by: 'card', hash: 'k-2', since: at(-60), distinct: 'customer' },
          { by: 'ip', hash: 'ip-add', since: at(-7) },
          { by: 'bin', hash: '411111', since: at(-60), distinct: 'card' },
        ]), [2, 2, 2, 1, 1]);
        const customer = await store.scorings.amountStats(acct, 'USD', at(-60), 'c-add');
        assert.equal(customer.count, 2);
        assert.equal(customer.max, 10);
        assert.equal((await store.scorings.amountStats(acct, 'USD', at(-60))).count, 3);
        // Ids in the order the scorings were stored, whichever way.
        const [first] = await store.scorings.byTransaction(acct, 'add-1');
        const later = await store.scorings.insert(makeScoring(acct, { transactionId: 'add-1', scoredAt: at(-1), identities: ids('c-add', 'k-2') }));
        const both = await store.scorings.byTransaction(acct, 'add-1');
        assert.deepEqual(both.map((s) => s.id), [first!.id, later.id]);
        assert.ok(first!.id < later.id);
        assert.deepEqual({ ...first, id: 0 }, { ...makeScoring(acct, { transactionId: 'add-1', scoredAt: at(-10), identities: ids('c-add', 'k-2'), amount: 1 }), id: 0 });

        await store.scorings.add(makeScoring(acct, { transactionId: 'add-3', scoredAt: at(-2), identities: ids('c-add', 'k-3') }));
        assert.equal(await store.scorings.setOutcome(acct, 'add-3', 'chargeback', true), 1);
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-add', at(-60)), 1);
        await store.scorings.add(makeScoring(acct, { transactionId: 'add-4', scoredAt: at(-1), identities: ids('c-gone', 'k-4') }));
        assert.equal((await store.scorings.findByIdentity(acct, 'customer', 'c-gone')).length, 1);
        await store.scorings.add(makeScoring(acct, { transactionId: 'add-5', scoredAt: at(-1), identities: ids('c-gone', 'k-5') }));
        assert.equal(await store.scorings.deleteByIdentity(acct, 'customer', 'c-gone'), 2);
        assert.deepEqual(await store.scorings.velocity(acct, [{ by: 'customer', hash: 'c-gone', since: at(-60) }]), [0]);
        await store.scorings.flush();
        assert.deepEqual(await store.scorings.velocity(acct, [{ by: 'ip', hash: 'ip-add', since: at(-60) }]), [5]);
      });

      it('a scoring whose outcome is known counts as fraud at once; a bad value rejects and stores nothing', async () => {
        const acct = uid('acct');
        await store.outcomes.put(makeOutcome(acct, 'known', { outcome: 'chargeback', fraud: true }));
        await store.scorings.add(makeScoring(acct, { transactionId: 'known', identities: noIdentities({ customer: 'c-k' }), outcome: 'chargeback' }));
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'c-k', at(-60)), 1);
        await assert.rejects(store.scorings.add(makeScoring(acct, { transactionId: 'bad', amount: -1, identities: noIdentities({ customer: 'c-k' }) })), RangeError);
        await assert.rejects(store.scorings.add(makeScoring(acct, { transactionId: 'bad', scoredAt: 'yesterday' })), RangeError);
        assert.deepEqual(await store.scorings.byTransaction(acct, 'bad'), []);
        assert.deepEqual(await store.scorings.velocity(acct, [{ by: 'customer', hash: 'c-k', since: at(-60) }]), [1]);
      });
    });

    describe('outcomes', () => {
      it('gets asked at once each answer their own transaction (stores may read them in one statement)', async () => {
        const acct = uid('acct-gets');
        const other = uid('acct-gets');
        for (let i = 0; i < 30; i += 3) await store.outcomes.put(makeOutcome(acct, `g-${i}`, { reason: `r-${i}`, outcome: i % 2 ? 'approved' : 'chargeback', fraud: i % 2 === 0 }));
        await store.outcomes.put(makeOutcome(other, 'g-1', { reason: 'other account' }));
        const asked = Array.from({ length: 30 }, (_, i) => [i % 4 === 1 ? other : acct, `g-${i}`] as const);
        const got = await Promise.all(asked.map(([a, tx]) => store.outcomes.get(a, tx)));
        got.forEach((record, i) => {
          const [a, tx] = asked[i]!;
          if (a === acct && i % 3 === 0) assert.deepEqual(record, makeOutcome(acct, tx, { reason: `r-${i}`, outcome: i % 2 ? 'approved' : 'chargeback', fraud: i % 2 === 0 }), tx);
          else if (a === other && tx === 'g-1') assert.equal(record?.reason, 'other account');
          else assert.equal(record, null, `${a} ${tx}`);
        });
      });

      it('put, get, replace and delete one transaction’s record', async () => {
        const acct = uid('acct');
        assert.equal(await store.outcomes.get(acct, 'tx-o'), null);
        const record = makeOutcome(acct, 'tx-o', { reason: AWKWARD, identities: fullIdentities('o') });
        await store.outcomes.put(record);
        assert.deepEqual(await store.outcomes.get(acct, 'tx-o'), record);
        assert.equal(await store.outcomes.get(uid('acct'), 'tx-o'), null);

        const replaced = makeOutcome(acct, 'tx-o', {
          outcome: 'legit_confirmed',
          fraud: false,
          reason: null,
          status: 'applied',
          occurredAt: '2024-06-02T00:00:00+01:00',
          identities: noIdentities({ phone: 'p' }),
          updatedAt: at(100),
        });
        await store.outcomes.put(replaced);
        assert.deepEqual(await store.outcomes.get(acct, 'tx-o'), { ...replaced, occurredAt: '2024-06-01T23:00:00.000Z' });

        assert.equal(await store.outcomes.delete(acct, 'tx-o'), true);
        assert.equal(await store.outcomes.delete(acct, 'tx-o'), false);
        assert.equal(await store.outcomes.get(acct, 'tx-o'), null);
      });

      it('finds and deletes by identity, leaving others', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        const a = makeOutcome(acct, 'tx-a', { identities: noIdentities({ customer: 'c1', ip: 'ip1' }) });
        const b = makeOutcome(acct, 'tx-b', { identities: noIdentities({ customer: 'c1', ip: 'ip2' }) });
        const c = makeOutcome(acct, 'tx-c', { identities: noIdentities({ customer: 'c2', ip: 'ip1' }) });
        const d = makeOutcome(other, 'tx-a', { identities: noIdentities({ customer: 'c1' }) });
        for (const record of [b, a, c, d]) await store.outcomes.put(record);

        assert.deepEqual(await store.outcomes.findByIdentity(acct, 'customer', 'c1'), [a, b]);
        assert.deepEqual(await store.outcomes.findByIdentity(acct, 'ip', 'ip1'), [a, c]);
        assert.deepEqual(await store.outcomes.findByIdentity(acct, 'user', 'c1'), []);
        assert.equal(await store.outcomes.deleteByIdentity(acct, 'customer', 'c1'), 2);
        assert.equal(await store.outcomes.deleteByIdentity(acct, 'customer', 'c1'), 0);
        assert.equal(await store.outcomes.get(acct, 'tx-a'), null);
        assert.deepEqual(await store.outcomes.get(acct, 'tx-c'), c);
        assert.deepEqual(await store.outcomes.get(other, 'tx-a'), d);
      });

      it('refuses an unknown outcome or status and a bad timestamp, writing nothing', async () => {
        const acct = uid('acct');
        await assert.rejects(store.outcomes.put(makeOutcome(acct, 't', { outcome: 'lost' as PaymentOutcome })), /unknown payment outcome/);
        await assert.rejects(store.outcomes.put(makeOutcome(acct, 't', { status: 'done' as 'applied' })), /unknown outcome status/);
        await assert.rejects(store.outcomes.put(makeOutcome(acct, 't', { occurredAt: 'now' })), /ISO-8601/);
        await assert.rejects(store.outcomes.put(makeOutcome(acct, 't', { fraud: 1 as unknown as boolean })), /boolean/);
        assert.equal(await store.outcomes.get(acct, 't'), null);
      });
    });

    describe('evidence', () => {
      it('put, get and replace one (type, hash, origin) row; other origins are rows of their own', async () => {
        const acct = uid('acct');
        assert.equal(await store.evidence.get(acct, 'email', 'hash-x', 'label'), null);
        const label = makeEvidence(acct, { masked: AWKWARD });
        await store.evidence.put(label);
        assert.deepEqual(await store.evidence.get(acct, 'email', 'hash-x', 'label'), label);

        const relabel = makeEvidence(acct, { label: 'legit', reason: null, source: null, updatedAt: at(50) });
        await store.evidence.put(relabel);
        assert.deepEqual(await store.evidence.get(acct, 'email', 'hash-x', 'label'), relabel);

        const payment = makeEvidence(acct, { origin: 'payment:tx-9' });
        await store.evidence.put(payment);
        assert.deepEqual(await store.evidence.get(acct, 'email', 'hash-x', 'payment:tx-9'), payment);
        assert.deepEqual(await store.evidence.get(acct, 'email', 'hash-x', 'label'), relabel);
        assert.equal(await store.evidence.get(acct, 'ip', 'hash-x', 'label'), null);
      });

      it('scores sums decayed evidence per identity in the database, as evidence.ts does in JS', async () => {
        const acct = uid('acct');
        const now = '2026-06-01T00:00:00.000Z';
        const day = (d: number) => new Date(Date.parse(now) - d * 86_400_000).toISOString();
        const rows = [
          makeEvidence(acct, { type: 'ip', valueHash: 'S', origin: 'label', label: 'fraud', occurredAt: day(0) }),
          makeEvidence(acct, { type: 'ip', valueHash: 'S', origin: 'payment:1', label: 'fraud', occurredAt: day(90) }),
          makeEvidence(acct, { type: 'ip', valueHash: 'S', origin: 'payment:2', label: 'legit', occurredAt: day(180) }),
          // A date after now counts as now.
          makeEvidence(acct, { type: 'email', valueHash: 'S', origin: 'label', label: 'legit', occurredAt: day(-3) }),
          makeEvidence(uid('acct'), { type: 'ip', valueHash: 'S', origin: 'label', label: 'fraud', occurredAt: day(0) }),
        ];
        for (const row of rows) await store.evidence.put(row);
        const scores = await store.evidence.scores(acct, [{ type: 'ip', valueHash: 'S' }, { type: 'email', valueHash: 'S' }, { type: 'phone', valueHash: 'S' }], now, 90);
        const byKey = new Map(scores.map((s) => [`${s.type}:${s.valueHash}`, s.score]));
        assert.equal(byKey.size, 2);
        assert.ok(Math.abs((byKey.get('ip:S') ?? NaN) - (1 + 0.5 - 0.25)) < 1e-6, String(byKey.get('ip:S')));
        // The same sum as the rule in plain code (evidence.ts), at ages between the half-lives too.
        const reference = rows.slice(0, 3).reduce((n, r) => n + (r.label === 'fraud' ? 1 : -1) * decayedWeight(r.occurredAt, new Date(now)), 0);
        assert.ok(Math.abs((byKey.get('ip:S') ?? NaN) - reference) < 1e-6);
        const odd = makeEvidence(acct, { type: 'device_id', valueHash: 'S', origin: 'label', label: 'fraud', occurredAt: day(45.5) });
        await store.evidence.put(odd);
        const [oddScore] = await store.evidence.scores(acct, [{ type: 'device_id', valueHash: 'S' }], now, 90);
        assert.ok(Math.abs((oddScore?.score ?? NaN) - evidenceScore([odd], new Date(now))) < 1e-6, String(oddScore?.score));
        assert.ok(Math.abs((byKey.get('email:S') ?? NaN) + 1) < 1e-6, String(byKey.get('email:S')));
        assert.deepEqual(await store.evidence.scores(acct, [], now, 90), []);
        await assert.rejects(store.evidence.scores(acct, [{ type: 'ip', valueHash: 'S' }], now, 0), /halfLifeDays/);
      });

      it('labelledTypes lists the types of which the account has any row, and follows deletions', async () => {
        const acct = uid('acct');
        assert.deepEqual(await store.evidence.labelledTypes(acct), []);
        await store.evidence.put(makeEvidence(uid('acct'), { type: 'phone', valueHash: 'P' }));
        await store.evidence.put(makeEvidence(acct, { type: 'ip', valueHash: 'I', origin: 'payment:1' }));
        await store.evidence.put(makeEvidence(acct, { type: 'ip', valueHash: 'J', label: 'legit' }));
        await store.evidence.put(makeEvidence(acct, { type: 'card', valueHash: 'C' }));
        assert.deepEqual((await store.evidence.labelledTypes(acct)).sort(), ['card', 'ip']);
        assert.equal(await store.evidence.deleteByIdentity(acct, 'card', 'C'), 1);
        assert.equal(await store.evidence.deleteByOrigin(acct, 'payment:1'), 1);
        assert.deepEqual(await store.evidence.labelledTypes(acct), ['ip']);
        assert.equal(await store.evidence.deleteByIdentity(acct, 'ip', 'J'), 1);
        assert.deepEqual(await store.evidence.labelledTypes(acct), []);
      });

      it('forIdentities matches (type, hash) pairs, never a hash under another type', async () => {
        const acct = uid('acct');
        const ipX = makeEvidence(acct, { type: 'ip', valueHash: 'X' });
        const emailX = makeEvidence(acct, { type: 'email', valueHash: 'X' });
        const emailY = makeEvidence(acct, { type: 'email', valueHash: 'Y' });
        const emailYPayment = makeEvidence(acct, { type: 'email', valueHash: 'Y', origin: 'payment:1' });
        const cardY = makeEvidence(acct, { type: 'card', valueHash: 'Y' });
        const foreign = makeEvidence(uid('acct'), { type: 'ip', valueHash: 'X' });
        for (const row of [ipX, emailX, emailY, emailYPayment, cardY, foreign]) await store.evidence.put(row);

        const found = await store.evidence.forIdentities(acct, [
          { type: 'ip', valueHash: 'X' },
          { type: 'email', valueHash: 'Y' },
          { type: 'email', valueHash: 'Y' },
          { type: 'phone', valueHash: 'X' },
        ]);
        const key = (e: Evidence): string => `${e.type}|${e.valueHash}|${e.origin}`;
        assert.deepEqual(found.map(key).sort(), [ipX, emailY, emailYPayment].map(key).sort());
        assert.deepEqual(
          found.find((e) => key(e) === key(ipX)),
          ipX,
        );
        assert.deepEqual(await store.evidence.forIdentities(acct, []), []);

        // Many pairs in one call (past any per-statement parameter chunk).
        const many: Array<{ type: LabelType; valueHash: string }> = Array.from({ length: 450 }, (_, i) => ({ type: 'email', valueHash: `none-${i}` }));
        many.push({ type: 'card', valueHash: 'Y' });
        assert.deepEqual(await store.evidence.forIdentities(acct, many), [cardY]);
      });

      it('deletes by origin and by identity, returning how many', async () => {
        const acct = uid('acct');
        const rows = [
          makeEvidence(acct, { type: 'ip', valueHash: 'A', origin: 'payment:1' }),
          makeEvidence(acct, { type: 'email', valueHash: 'B', origin: 'payment:1' }),
          makeEvidence(acct, { type: 'email', valueHash: 'B', origin: 'label' }),
          makeEvidence(acct, { type: 'phone', valueHash: 'B', origin: 'event:7' }),
        ];
        for (const row of rows) await store.evidence.put(row);
        const foreign = makeEvidence(uid('acct'), { type: 'ip', valueHash: 'A', origin: 'payment:1' });
        await store.evidence.put(foreign);

        assert.equal(await store.evidence.deleteByOrigin(acct, 'payment:1'), 2);
        assert.equal(await store.evidence.deleteByOrigin(acct, 'payment:1'), 0);
        assert.deepEqual(await store.evidence.get(foreign.accountId, 'ip', 'A', 'payment:1'), foreign);
        assert.equal(await store.evidence.deleteByIdentity(acct, 'email', 'B'), 1);
        assert.equal(await store.evidence.deleteByIdentity(acct, 'email', 'B'), 0);
        assert.deepEqual(await store.evidence.forIdentities(acct, [{ type: 'phone', valueHash: 'B' }]), [rows[3]]);
      });

      it('refuses an unknown type or label and a bad timestamp', async () => {
        const acct = uid('acct');
        await assert.rejects(store.evidence.put(makeEvidence(acct, { type: 'ssn' as 'ip' })), /unknown label type/);
        await assert.rejects(store.evidence.put(makeEvidence(acct, { label: 'maybe' as 'fraud' })), /unknown evidence label/);
        await assert.rejects(store.evidence.put(makeEvidence(acct, { occurredAt: '2024-13-01T00:00:00Z' })), /ISO-8601/);
        await assert.rejects(store.evidence.forIdentities(acct, [{ type: 'ssn' as 'ip', valueHash: 'x' }]), /unknown label type/);
        assert.deepEqual(await store.evidence.forIdentities(acct, [{ type: 'email', valueHash: 'hash-x' }]), []);
      });
    });

    describe('model', () => {
      it('update writes weights and history; weights() returns the stored ones only; allWeights in feature order', async () => {
        const acct = uid('acct');
        assert.deepEqual(await store.model.weights(acct, ['a', 'b']), []);
        assert.deepEqual(await store.model.allWeights(acct), []);
        assert.deepEqual(await store.model.history(acct, 10), []);

        const first = makeUpdate(acct, { at: at(1), origin: 'payment:tx-1', label: 1, before: 0.5, weights: { b: 0.25, a: -1.5 } });
        await store.model.update(
          acct,
          [
            { feature: 'b', z: 0.1, n: 1 },
            { feature: 'a', z: -2.5, n: 0.25 },
          ],
          first,
        );
        assert.deepEqual(await store.model.weights(acct, ['a', 'c', 'b', 'a']), [
          { feature: 'a', z: -2.5, n: 0.25 },
          { feature: 'b', z: 0.1, n: 1 },
        ]);

        const second = makeUpdate(acct, { at: at(2), origin: `event:${AWKWARD}`, label: 0, before: 0.75, weights: { a: 0 } });
        await store.model.update(
          acct,
          [
            { feature: 'a', z: 3, n: 2.25 },
            { feature: AWKWARD, z: 1e-12, n: 1e6 },
            { feature: 'B', z: 7, n: 7 },
          ],
          second,
        );
        const all = await store.model.allWeights(acct);
        assert.deepEqual(all, [
          { feature: 'B', z: 7, n: 7 },
          { feature: 'a', z: 3, n: 2.25 },
          { feature: 'b', z: 0.1, n: 1 },
          { feature: AWKWARD, z: 1e-12, n: 1e6 },
        ]);
        assert.deepEqual(await store.model.allWeights(uid('acct')), []);

        assert.deepEqual(await store.model.history(acct, 10), [second, first]);
        assert.deepEqual(await store.model.history(acct, 1), [second]);
        assert.deepEqual(await store.model.history(acct, 0), [second]);
        assert.deepEqual(await store.model.history(acct, 5000), [second, first]);
        assert.deepEqual(await store.model.history(uid('acct'), 10), []);
      });

      it('an update with a history entry only: the history row alone', async () => {
        const acct = uid('acct');
        const entry = makeUpdate(acct, { weights: {} });
        await store.model.update(acct, [], entry);
        assert.deepEqual(await store.model.allWeights(acct), []);
        assert.deepEqual(await store.model.history(acct, 5), [entry]);
      });

      it('deleteHistoryByOrigin removes that origin’s entries only, and keeps the weights', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        const weights = [{ feature: 'w', z: 1, n: 1 }];
        const a1 = makeUpdate(acct, { at: at(1), origin: 'payment:tx-a' });
        const b = makeUpdate(acct, { at: at(2), origin: 'payment:tx-b' });
        const a2 = makeUpdate(acct, { at: at(3), origin: 'payment:tx-a' });
        const foreign = makeUpdate(other, { origin: 'payment:tx-a' });
        for (const entry of [a1, b, a2]) await store.model.update(acct, weights, entry);
        await store.model.update(other, weights, foreign);

        assert.equal(await store.model.deleteHistoryByOrigin(acct, 'payment:tx-a'), 2);
        assert.equal(await store.model.deleteHistoryByOrigin(acct, 'payment:tx-a'), 0);
        assert.deepEqual(await store.model.history(acct, 10), [b]);
        assert.deepEqual(await store.model.history(other, 10), [foreign]);
        assert.deepEqual(await store.model.allWeights(acct), weights);
      });

      it('update is all or nothing: a bad history entry or weight writes no weights', async () => {
        const acct = uid('acct');
        const weights = [
          { feature: 'x', z: 1, n: 1 },
          { feature: 'y', z: 2, n: 2 },
        ];
        await assert.rejects(store.model.update(acct, weights, makeUpdate(acct, { at: 'not a time' })), /ISO-8601/);
        await assert.rejects(store.model.update(acct, weights, makeUpdate(acct, { label: 2 as 1 })), /label/);
        await assert.rejects(store.model.update(acct, weights, makeUpdate(acct, { before: Number.NaN })), /finite/);
        await assert.rejects(store.model.update(acct, weights, makeUpdate(acct, { weights: { x: Number.NaN } })), /finite/);
        await assert.rejects(store.model.update(acct, weights, makeUpdate(uid('acct'))), /account/);
        await assert.rejects(store.model.update(acct, [...weights, { feature: 'z', z: Number.POSITIVE_INFINITY, n: 0 }], makeUpdate(acct)), /finite/);
        assert.deepEqual(await store.model.allWeights(acct), []);
        assert.deepEqual(await store.model.history(acct, 10), []);
        await assert.rejects(store.model.history(acct, Number.NaN), /limit/);
      });
    });

    describe('learning writer (batches)', () => {
      /** Everything a batch can write about `acct`, read back through the ports. */
      async function snapshot(acct: string, txs: readonly string[], identities: ReadonlyArray<{ type: LabelType; valueHash: string }>, features: readonly string[]) {
        return {
          outcomes: await Promise.all(txs.map((tx) => store.outcomes.get(acct, tx))),
          scorings: await Promise.all(txs.map(async (tx) => (await store.scorings.byTransaction(acct, tx)).map((s) => s.outcome))),
          evidence: await store.evidence.forIdentities(acct, identities),
          weights: await store.model.weights(acct, features),
          history: await store.model.history(acct, 1000),
        };
      }

      it('applies a mixed batch: outcomes, outcomes on scorings, evidence, dropped origins, model', async () => {
        const acct = uid('acct');
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-a', scoredAt: at(-2) }));
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-a', scoredAt: at(-1) }));
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-b' }));
        const stale = makeEvidence(acct, { type: 'ip', valueHash: 'ip-1', origin: 'payment:tx-b' });
        await store.evidence.put(stale);

        const outcomeA = makeOutcome(acct, 'tx-a', { status: 'applied', reason: AWKWARD, identities: fullIdentities('a') });
        const outcomeP = makeOutcome(acct, 'tx-pending', { outcome: 'legit_confirmed', fraud: false, reason: null, occurredAt: '2024-06-02T00:00:00+01:00' });
        const emailA = makeEvidence(acct, { type: 'email', valueHash: 'email-a', origin: 'payment:tx-a', masked: AWKWARD });
        const cardA = makeEvidence(acct, { type: 'card', valueHash: 'card-a', origin: 'payment:tx-a', label: 'legit', reason: null, source: null });
        const update = makeUpdate(acct, { origin: 'payment:tx-a', weights: { f1: 0.5, [AWKWARD]: -1 } });
        const weights = [
          { feature: 'f1', z: 0.25, n: 1 },
          { feature: AWKWARD, z: -3.5, n: 2 },
        ];
        const writes: LearningWrite[] = [
          { kind: 'outcome', record: outcomeA },
          { kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-a', outcome: 'chargeback', fraud: true },
          { kind: 'evidence', evidence: emailA },
          { kind: 'evidence', evidence: cardA },
          { kind: 'model', accountId: acct, weights, history: update },
          { kind: 'outcome', record: outcomeP },
          { kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-unscored', outcome: 'declined', fraud: false },
          { kind: 'dropEvidenceOrigin', accountId: acct, origin: 'payment:tx-b' },
        ];
        assert.equal(await store.learning.apply(writes), undefined);

        assert.deepEqual(await store.outcomes.get(acct, 'tx-a'), outcomeA);
        assert.deepEqual(await store.outcomes.get(acct, 'tx-pending'), { ...outcomeP, occurredAt: '2024-06-01T23:00:00.000Z' });
        assert.deepEqual(
          (await store.scorings.byTransaction(acct, 'tx-a')).map((s) => s.outcome),
          ['chargeback', 'chargeback'],
        );
        assert.deepEqual(
          (await store.scorings.byTransaction(acct, 'tx-b')).map((s) => s.outcome),
          [null],
        );
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'cust-a', at(-1000)), 1);
        assert.deepEqual(await store.evidence.get(acct, 'email', 'email-a', 'payment:tx-a'), emailA);
        assert.deepEqual(await store.evidence.get(acct, 'card', 'card-a', 'payment:tx-a'), cardA);
        assert.equal(await store.evidence.get(acct, 'ip', 'ip-1', 'payment:tx-b'), null);
        assert.deepEqual(await store.model.allWeights(acct), [
          { feature: 'f1', z: 0.25, n: 1 },
          { feature: AWKWARD, z: -3.5, n: 2 },
        ]);
        assert.deepEqual(await store.model.history(acct, 10), [update]);
      });

      it('applies the writes in order: evidence, drop of its origin, evidence again leaves the last one', async () => {
        const acct = uid('acct');
        const first = makeEvidence(acct, { type: 'email', valueHash: 'h1', origin: 'payment:tx-1' });
        const sameKeyLater = makeEvidence(acct, { type: 'email', valueHash: 'h1', origin: 'payment:tx-1', label: 'legit', updatedAt: at(9) });
        const otherHash = makeEvidence(acct, { type: 'phone', valueHash: 'h2', origin: 'payment:tx-1' });
        const again = makeEvidence(acct, { type: 'ip', valueHash: 'h3', origin: 'payment:tx-1' });
        await store.learning.apply([
          { kind: 'evidence', evidence: first },
          { kind: 'evidence', evidence: otherHash },
          { kind: 'dropEvidenceOrigin', accountId: acct, origin: 'payment:tx-1' },
          { kind: 'evidence', evidence: again },
          { kind: 'evidence', evidence: first },
          { kind: 'evidence', evidence: sameKeyLater },
        ]);
        const key = (e: Evidence): string => `${e.type}|${e.valueHash}|${e.origin}`;
        const found = await store.evidence.forIdentities(acct, [
          { type: 'email', valueHash: 'h1' },
          { type: 'phone', valueHash: 'h2' },
          { type: 'ip', valueHash: 'h3' },
        ]);
        assert.deepEqual(
          found.sort((a, b) => (key(a) < key(b) ? -1 : 1)),
          [sameKeyLater, again].sort((a, b) => (key(a) < key(b) ? -1 : 1)),
        );

        // A drop after the last evidence of its origin leaves none; repeated writes of one key keep the last.
        await store.learning.apply([
          { kind: 'evidence', evidence: makeEvidence(acct, { type: 'ip', valueHash: 'h4', origin: 'event:1' }) },
          { kind: 'dropEvidenceOrigin', accountId: acct, origin: 'event:1' },
          { kind: 'dropEvidenceOrigin', accountId: acct, origin: 'event:1' },
          { kind: 'outcome', record: makeOutcome(acct, 'tx-o', { outcome: 'chargeback' }) },
          { kind: 'outcome', record: makeOutcome(acct, 'tx-o', { outcome: 'refunded', fraud: false }) },
        ]);
        assert.deepEqual(await store.evidence.forIdentities(acct, [{ type: 'ip', valueHash: 'h4' }]), []);
        assert.deepEqual(await store.outcomes.get(acct, 'tx-o'), makeOutcome(acct, 'tx-o', { outcome: 'refunded', fraud: false }));

        // Outcomes on scorings and model updates: the last write wins, history keeps every update in order.
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-s' }));
        const u1 = makeUpdate(acct, { at: at(1), origin: 'payment:tx-s', weights: { w: 1 } });
        const u2 = makeUpdate(acct, { at: at(1), origin: 'event:2', label: 0, weights: { w: 2 } });
        const u3 = makeUpdate(acct, { at: at(1), origin: 'payment:tx-s', before: 0.5, weights: { w: 3 } });
        await store.learning.apply([
          { kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-s', outcome: 'chargeback', fraud: true },
          { kind: 'model', accountId: acct, weights: [{ feature: 'w', z: 1, n: 1 }], history: u1 },
          { kind: 'model', accountId: acct, weights: [{ feature: 'w', z: 2, n: 2 }, { feature: 'v', z: 5, n: 5 }], history: u2 },
          { kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-s', outcome: 'refunded', fraud: false },
          { kind: 'model', accountId: acct, weights: [{ feature: 'w', z: 3, n: 3 }], history: u3 },
        ]);
        assert.deepEqual(
          (await store.scorings.byTransaction(acct, 'tx-s')).map((s) => s.outcome),
          ['refunded'],
        );
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'cust-a', at(-1000)), 0);
        assert.deepEqual(await store.model.allWeights(acct), [
          { feature: 'v', z: 5, n: 5 },
          { feature: 'w', z: 3, n: 3 },
        ]);
        assert.deepEqual(await store.model.history(acct, 10), [u3, u2, u1]);
      });

      it('is all or nothing: a batch whose last write is invalid writes nothing, and earlier rows stay as they were', async () => {
        const acct = uid('acct');
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-a' }));
        const kept = makeEvidence(acct, { type: 'ip', valueHash: 'ip-kept', origin: 'payment:tx-old' });
        await store.evidence.put(kept);
        const keptOutcome = makeOutcome(acct, 'tx-a', { outcome: 'approved', fraud: false });
        await store.outcomes.put(keptOutcome);
        const identities = [
          { type: 'ip' as const, valueHash: 'ip-kept' },
          { type: 'email' as const, valueHash: 'email-new' },
        ];
        const before = await snapshot(acct, ['tx-a', 'tx-new'], identities, ['f1', 'f2']);

        const valid: LearningWrite[] = [
          { kind: 'outcome', record: makeOutcome(acct, 'tx-a', { outcome: 'chargeback' }) },
          { kind: 'outcome', record: makeOutcome(acct, 'tx-new') },
          { kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-a', outcome: 'chargeback', fraud: true },
          { kind: 'dropEvidenceOrigin', accountId: acct, origin: 'payment:tx-old' },
          { kind: 'evidence', evidence: makeEvidence(acct, { type: 'email', valueHash: 'email-new', origin: 'payment:tx-a' }) },
          { kind: 'model', accountId: acct, weights: [{ feature: 'f1', z: 1, n: 1 }], history: makeUpdate(acct) },
        ];
        const invalid: Array<[LearningWrite, RegExp]> = [
          [{ kind: 'evidence', evidence: makeEvidence(acct, { type: 'ssn' as 'ip' }) }, /unknown label type/],
          [{ kind: 'evidence', evidence: makeEvidence(acct, { label: 'maybe' as 'fraud' }) }, /unknown evidence label/],
          [{ kind: 'evidence', evidence: makeEvidence(acct, { updatedAt: 'yesterday' }) }, /ISO-8601/],
          [{ kind: 'outcome', record: makeOutcome(acct, 'tx-b', { outcome: 'lost' as PaymentOutcome }) }, /unknown payment outcome/],
          [{ kind: 'outcome', record: makeOutcome(acct, 'tx-b', { status: 'done' as 'applied' }) }, /unknown outcome status/],
          [{ kind: 'outcome', record: makeOutcome(acct, 'tx-b', { occurredAt: '2024-06-01T12:00:00' }) }, /ISO-8601/],
          [{ kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-a', outcome: 'stolen' as PaymentOutcome, fraud: true }, /unknown payment outcome/],
          [{ kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-a', outcome: 'declined', fraud: 'yes' as unknown as boolean }, /boolean/],
          [{ kind: 'dropEvidenceOrigin', accountId: acct, origin: null as unknown as string }, /origin/],
          [{ kind: 'model', accountId: acct, weights: [{ feature: 'f2', z: 1, n: 1 }], history: makeUpdate(uid('acct')) }, /account/],
          [{ kind: 'model', accountId: acct, weights: [{ feature: 'f2', z: Number.NaN, n: 1 }], history: makeUpdate(acct) }, /finite/],
          [{ kind: 'model', accountId: acct, weights: [], history: makeUpdate(acct, { label: 2 as 1 }) }, /label/],
          [{ kind: 'forget', accountId: acct } as unknown as LearningWrite, /unknown learning write kind/],
        ];
        for (const [write, message] of invalid) {
          await assert.rejects(store.learning.apply([...valid, write]), message);
          await assert.rejects(store.learning.apply([...valid, write]), new RegExp(`learning write ${valid.length} `));
        }
        assert.deepEqual(await snapshot(acct, ['tx-a', 'tx-new'], identities, ['f1', 'f2']), before);
        assert.deepEqual(before.outcomes, [keptOutcome, null]);
        assert.deepEqual(before.evidence, [kept]);
        assert.deepEqual(before.scorings, [[null], []]);

        // The same writes without the bad one go through.
        await store.learning.apply(valid);
        assert.deepEqual((await store.scorings.byTransaction(acct, 'tx-a')).map((s) => s.outcome), ['chargeback']);
        assert.equal(await store.evidence.get(acct, 'ip', 'ip-kept', 'payment:tx-old'), null);
      });

      it('an empty batch resolves and writes nothing; a non-array is refused', async () => {
        const acct = uid('acct');
        assert.equal(await store.learning.apply([]), undefined);
        await assert.rejects(store.learning.apply(null as unknown as LearningWrite[]), /array/);
        await assert.rejects(store.learning.apply([null as unknown as LearningWrite]), /object/);
        assert.deepEqual(await store.model.history(acct, 10), []);
      });

      it('takes 3,000 writes in one call', async () => {
        const acct = uid('acct');
        const n = 600;
        for (let i = 0; i < 5; i += 1) await store.scorings.insert(makeScoring(acct, { transactionId: `tx-${i}` }));
        const writes: LearningWrite[] = [];
        for (let i = 0; i < n; i += 1) {
          const tx = `tx-${i}`;
          writes.push(
            { kind: 'outcome', record: makeOutcome(acct, tx, { reason: `r${i}` }) },
            { kind: 'scoringOutcome', accountId: acct, transactionId: tx, outcome: 'chargeback', fraud: true },
            { kind: 'evidence', evidence: makeEvidence(acct, { valueHash: `h-${i}`, origin: `payment:${tx}` }) },
            { kind: 'evidence', evidence: makeEvidence(acct, { type: 'ip', valueHash: `ip-${i % 10}`, origin: `payment:${tx}` }) },
            {
              kind: 'model',
              accountId: acct,
              weights: [
                { feature: `f-${i}`, z: i, n: 1 },
                { feature: 'shared', z: i, n: i },
              ],
              history: makeUpdate(acct, { origin: `payment:${tx}`, before: i / n }),
            },
          );
        }
        assert.equal(writes.length, 3000);
        await store.learning.apply(writes);

        assert.deepEqual(await store.outcomes.get(acct, 'tx-0'), makeOutcome(acct, 'tx-0', { reason: 'r0' }));
        assert.deepEqual(await store.outcomes.get(acct, `tx-${n - 1}`), makeOutcome(acct, `tx-${n - 1}`, { reason: `r${n - 1}` }));
        assert.equal(await store.scorings.countFraudSince(acct, 'customer', 'cust-a', at(-1000)), 5);
        const emails = await store.evidence.forIdentities(
          acct,
          Array.from({ length: n }, (_, i) => ({ type: 'email' as const, valueHash: `h-${i}` })),
        );
        assert.equal(emails.length, n);
        assert.equal((await store.evidence.forIdentities(acct, [{ type: 'ip', valueHash: 'ip-3' }])).length, n / 10);
        const all = await store.model.allWeights(acct);
        assert.equal(all.length, n + 1);
        assert.deepEqual(
          all.find((w) => w.feature === 'shared'),
          { feature: 'shared', z: n - 1, n: n - 1 },
        );
        const history = await store.model.history(acct, 1000);
        assert.equal(history.length, n);
        assert.deepEqual(
          history.map((h) => h.origin),
          Array.from({ length: n }, (_, i) => `payment:tx-${n - 1 - i}`),
        );
      });

      it('leaves other accounts untouched', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-1' }));
        await store.scorings.insert(makeScoring(other, { transactionId: 'tx-1' }));
        const otherEvidence = makeEvidence(other, { origin: 'payment:tx-1' });
        await store.evidence.put(otherEvidence);
        const otherOutcome = makeOutcome(other, 'tx-1', { outcome: 'approved', fraud: false });
        await store.outcomes.put(otherOutcome);
        const otherUpdate = makeUpdate(other);
        await store.model.update(other, [{ feature: 'f', z: 9, n: 9 }], otherUpdate);
        const identities = [{ type: 'email' as const, valueHash: 'hash-x' }];
        const before = await snapshot(other, ['tx-1'], identities, ['f']);

        await store.learning.apply([
          { kind: 'outcome', record: makeOutcome(acct, 'tx-1') },
          { kind: 'scoringOutcome', accountId: acct, transactionId: 'tx-1', outcome: 'chargeback', fraud: true },
          { kind: 'dropEvidenceOrigin', accountId: acct, origin: 'payment:tx-1' },
          { kind: 'evidence', evidence: makeEvidence(acct, { origin: 'payment:tx-1', label: 'legit' }) },
          { kind: 'model', accountId: acct, weights: [{ feature: 'f', z: 1, n: 1 }], history: makeUpdate(acct) },
        ]);
        assert.deepEqual(await snapshot(other, ['tx-1'], identities, ['f']), before);
        assert.deepEqual(before.outcomes, [otherOutcome]);
        assert.deepEqual(before.evidence, [otherEvidence]);
        assert.deepEqual(before.weights, [{ feature: 'f', z: 9, n: 9 }]);
        assert.deepEqual(before.history, [otherUpdate]);
        assert.deepEqual((await store.scorings.byTransaction(acct, 'tx-1')).map((s) => s.outcome), ['chargeback']);
        assert.deepEqual(await store.model.allWeights(acct), [{ feature: 'f', z: 1, n: 1 }]);
      });
    });

    describe('card identities: the upgrade to the card key (scheme 2)', () => {
      it('rewrites the card hashes of scorings, outcomes and card evidence once, keeps the last fours, leaves other hashes', async () => {
        const acct = uid('acct');
        await store.scorings.insert(makeScoring(acct, { transactionId: 'tx-rk', identities: fullIdentities('rk') }));
        await store.learning.apply([
          { kind: 'evidence', evidence: makeEvidence(acct, { type: 'card', valueHash: 'card-rk', origin: 'payment:tx-rk' }) },
          { kind: 'outcome', record: makeOutcome(acct, 'tx-rk', { identities: noIdentities({ card: 'card-rk', email: 'email-rk' }) }) },
        ]);
        const cards = await store.rekeyCardIdentities((h) => `v2-${h}`);
        assert.ok(cards !== null && cards >= 1, String(cards));
        const [s] = await store.scorings.byTransaction(acct, 'tx-rk');
        assert.equal(s?.identities.card, 'v2-card-rk');
        assert.equal(s?.identities.email, 'email-rk');
        assert.equal(s?.cardLast4, '1111');
        assert.equal(s?.cardBin, '411111');
        assert.equal(await store.evidence.get(acct, 'card', 'card-rk', 'payment:tx-rk'), null);
        assert.notEqual(await store.evidence.get(acct, 'card', 'v2-card-rk', 'payment:tx-rk'), null);
        assert.deepEqual((await store.outcomes.get(acct, 'tx-rk'))?.identities, noIdentities({ card: 'v2-card-rk', email: 'email-rk' }));
        // Once only: a second start finds the store upgraded and changes nothing.
        assert.equal(await store.rekeyCardIdentities((h) => `v3-${h}`), null);
        assert.equal((await store.scorings.byTransaction(acct, 'tx-rk'))[0]?.identities.card, 'v2-card-rk');
      });
    });
  });
}
