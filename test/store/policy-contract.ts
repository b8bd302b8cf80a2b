import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BlacklistType, CustomRule } from '../../src/policy/types.ts';
import { PolicyConflictError } from '../../src/store/policy-errors.ts';
import type { BlacklistEntry, DecisionRecord, Store } from '../../src/store/ports.ts';
import { uid } from './fixtures.ts';

/** Quotes, backslash, SQL comment, CJK, emoji (ZWJ sequence), combining mark; no NUL (PostgreSQL text refuses it). */
const AWKWARD = `it's "quoted" \\ -- ; /* x */ 日本語 👩‍💻 🚀 e\u0301 %_`;

function makeRule(overrides: Partial<CustomRule> = {}): CustomRule {
  return {
    id: '',
    title: 'Block risky IPs',
    group: 'ip',
    enabled: true,
    conditions: { all: [{ field: 'result.risk', op: 'gte', value: 80 }] },
    action: { type: 'blacklist' },
    createdAt: '2024-03-01T12:00:00.000Z',
    updatedAt: '2024-03-01T12:00:00.000Z',
    ...overrides,
  };
}

function entry(type: BlacklistType, value: string, overrides: Partial<BlacklistEntry> = {}): BlacklistEntry {
  return { type, value, note: null, createdAt: '2024-03-01T12:00:00.000Z', ...overrides };
}

function decision(accountId: string, at: string, overrides: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    accountId,
    group: 'email',
    operation: 'email.check',
    userId: null,
    at,
    input: { email: 'someone@example.com' },
    result: { score: 1, valid: true },
    ...overrides,
  };
}

/**
 * The behaviour every PolicyPort and DecisionLogPort implementation must share. `factory` returns a migrated
 * store on an empty database; cases use unique account ids, so they may share that store.
 */
export function runPolicyContract(name: string, factory: () => Promise<Store>): void {
  describe(`Policy store contract: ${name}`, () => {
    let store: Store;

    before(async () => {
      store = await factory();
    });

    after(async () => {
      await store.close();
    });

    describe('custom rules', () => {
      it('an account with nothing saved has version 0, no rules and no lists', async () => {
        const acct = uid('acct');
        assert.equal(await store.policy.version(acct), 0);
        assert.deepEqual(await store.policy.listRules(acct), []);
        assert.equal(await store.policy.getRule(acct, 'CR101'), null);
        assert.deepEqual(await store.policy.countBlacklist(acct), {});
        assert.deepEqual(await store.policy.listBlacklist(acct, {}), []);
        assert.deepEqual(await store.policy.allBlacklistValues(acct), []);
      });

      it('inserts with an assigned id from CR101 up and reads the rule back', async () => {
        const acct = uid('acct');
        const first = await store.policy.insertRule(acct, makeRule());
        const second = await store.policy.insertRule(acct, makeRule({ title: 'second', enabled: false }));
        assert.deepEqual(first, makeRule({ id: 'CR101' }));
        assert.deepEqual(second, makeRule({ id: 'CR102', title: 'second', enabled: false }));
        assert.deepEqual(await store.policy.getRule(acct, 'CR101'), first);
        assert.deepEqual(await store.policy.getRule(acct, 'CR102'), second);
        assert.deepEqual(await store.policy.listRules(acct), [first, second]);
        assert.equal(await store.policy.getRule(acct, 'CR103'), null);
        assert.equal(await store.policy.getRule(acct, 'nonsense'), null);
      });

      it('conditions, action and text round-trip: nesting, awkward strings, numbers, null, booleans', async () => {
        const acct = uid('acct');
        const rule = makeRule({
          title: AWKWARD,
          group: 'payment',
          conditions: {
            any: [
              { field: 'input.email', op: 'ends_with', value: AWKWARD },
              { all: [{ field: 'result.amount', op: 'gt', value: 1234.5 }, { field: 'input.country', op: 'in', value: ['FR', 'DE', '日本'] }] },
              { any: [{ field: 'input.ip', op: 'in_cidr', value: '10.0.0.0/8' }, { field: 'input.note', op: 'exists', value: false }] },
              { field: 'input.big', op: 'lt', value: 9007199254740991 },
              { field: 'input.tiny', op: 'gte', value: -0.000001 },
              { field: 'input.nothing', op: 'eq', value: null },
              { field: 'input.name', op: 'matches', value: '^a\\d+"$' },
            ],
          },
          action: { type: 'overwrite_score', score: 97 },
        });
        const saved = await store.policy.insertRule(acct, rule);
        assert.deepEqual(saved, { ...rule, id: 'CR101' });
        assert.deepEqual(await store.policy.getRule(acct, 'CR101'), saved);
      });

      it('normalises timestamps to toISOString() form and rejects invalid ones', async () => {
        const acct = uid('acct');
        const saved = await store.policy.insertRule(acct, makeRule({ createdAt: '2024-03-01T14:00:00+02:00', updatedAt: '2024-03-01T12:00Z' }));
        assert.equal(saved.createdAt, '2024-03-01T12:00:00.000Z');
        assert.equal(saved.updatedAt, '2024-03-01T12:00:00.000Z');
        await assert.rejects(store.policy.insertRule(acct, makeRule({ createdAt: 'now' })), RangeError);
        await assert.rejects(store.policy.insertRule(acct, makeRule({ updatedAt: '2024-03-01T12:00:00' })), RangeError);
        assert.equal((await store.policy.listRules(acct)).length, 1);
      });

      it('rejects malformed rules before writing anything', async () => {
        const acct = uid('acct');
        const bad = [
          makeRule({ group: 'nope' as CustomRule['group'] }),
          makeRule({ action: { type: 'explode' as CustomRule['action']['type'] } }),
          makeRule({ conditions: [] as unknown as CustomRule['conditions'] }),
        ];
        for (const rule of bad) await assert.rejects(store.policy.insertRule(acct, rule), RangeError);
        assert.equal(await store.policy.version(acct), 0);
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR101');
      });

      it('ids are never reused, even after deleting the newest or every rule', async () => {
        const acct = uid('acct');
        await store.policy.insertRule(acct, makeRule());
        await store.policy.insertRule(acct, makeRule());
        assert.equal(await store.policy.deleteRule(acct, 'CR102'), true);
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR103');
        assert.equal(await store.policy.deleteRule(acct, 'CR101'), true);
        assert.equal(await store.policy.deleteRule(acct, 'CR103'), true);
        assert.deepEqual(await store.policy.listRules(acct), []);
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR104');
      });

      it('an explicit id is kept; one above the counter moves it up; a free one below it is allowed', async () => {
        const acct = uid('acct');
        assert.equal((await store.policy.insertRule(acct, makeRule({ id: 'CR150' }))).id, 'CR150');
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR151');
        assert.equal((await store.policy.insertRule(acct, makeRule({ id: 'CR120' }))).id, 'CR120');
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR152');
        assert.equal((await store.policy.insertRule(acct, makeRule({ id: 'CR101' }))).id, 'CR101');
        assert.deepEqual(
          (await store.policy.listRules(acct)).map((r) => r.id),
          ['CR101', 'CR120', 'CR150', 'CR151', 'CR152'],
        );
      });

      it('lists in numeric id order (CR101 < CR200 < CR1000 < CR10000)', async () => {
        const acct = uid('acct');
        for (const id of ['CR1000', 'CR200', 'CR10000', 'CR101', 'CR999']) await store.policy.insertRule(acct, makeRule({ id }));
        assert.deepEqual(
          (await store.policy.listRules(acct)).map((r) => r.id),
          ['CR101', 'CR200', 'CR999', 'CR1000', 'CR10000'],
        );
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR10001');
      });

      it('refuses explicit ids that are not CR101 up (CR99, CR100, leading zero, lower case...)', async () => {
        const acct = uid('acct');
        for (const id of ['CR99', 'CR100', 'CR0', 'CR0101', 'cr101', 'CR', 'CR 101', 'CR101 ', 'CR1e3', 'CR-101', 'X101', '101', 'CR１０１', 'CR99999999999999999999']) {
          await assert.rejects(store.policy.insertRule(acct, makeRule({ id })), RangeError, id);
        }
        assert.equal(await store.policy.version(acct), 0);
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR101');
      });

      it('a duplicate explicit id fails with a conflict and changes nothing (version, counter, rule)', async () => {
        const acct = uid('acct');
        const original = await store.policy.insertRule(acct, makeRule({ id: 'CR101', title: 'original' }));
        const version = await store.policy.version(acct);
        await assert.rejects(store.policy.insertRule(acct, makeRule({ id: 'CR101', title: 'impostor' })), (error: unknown) => {
          assert.ok(error instanceof PolicyConflictError);
          assert.match(error.message, /CR101/);
          assert.match(error.message, /exists/);
          return true;
        });
        assert.equal(await store.policy.version(acct), version);
        assert.deepEqual(await store.policy.getRule(acct, 'CR101'), original);
        assert.equal((await store.policy.insertRule(acct, makeRule())).id, 'CR102');
      });

      it('concurrent inserts get distinct ids and each bumps the version', async () => {
        const acct = uid('acct');
        const saved = await Promise.all(Array.from({ length: 10 }, (_, i) => store.policy.insertRule(acct, makeRule({ title: `r${i}` }))));
        const ids = saved.map((r) => r.id).sort();
        assert.deepEqual(
          ids,
          Array.from({ length: 10 }, (_, i) => `CR${101 + i}`),
        );
        assert.equal(await store.policy.version(acct), 10);
        assert.equal((await store.policy.listRules(acct)).length, 10);
      });

      it('concurrent inserts of one explicit id: exactly one wins, the others conflict', async () => {
        const acct = uid('acct');
        const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => store.policy.insertRule(acct, makeRule({ id: 'CR500', title: `r${i}` }))));
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
        for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof PolicyConflictError);
        assert.equal(await store.policy.version(acct), 1);
      });

      it('replaceRule replaces every field but the id; false (and no bump) when there is no such rule', async () => {
        const acct = uid('acct');
        await store.policy.insertRule(acct, makeRule());
        const replaced = makeRule({
          id: 'CR101',
          title: 'renamed',
          group: 'email',
          enabled: false,
          conditions: { any: [{ field: 'result.disposable', op: 'eq', value: true }] },
          action: { type: 'mark_invalid' },
          updatedAt: '2024-04-01T00:00:00.000Z',
        });
        assert.equal(await store.policy.version(acct), 1);
        assert.equal(await store.policy.replaceRule(acct, replaced), true);
        assert.equal(await store.policy.version(acct), 2);
        assert.deepEqual(await store.policy.getRule(acct, 'CR101'), replaced);
        assert.equal(await store.policy.replaceRule(acct, { ...replaced, id: 'CR102' }), false);
        assert.equal(await store.policy.replaceRule(acct, { ...replaced, id: 'bogus' }), false);
        assert.equal(await store.policy.replaceRule(uid('acct'), replaced), false);
        assert.equal(await store.policy.version(acct), 2);
        assert.equal(await store.policy.getRule(acct, 'CR102'), null);
      });

      it('deleteRule removes one rule; false (and no bump) when there is none', async () => {
        const acct = uid('acct');
        await store.policy.insertRule(acct, makeRule());
        await store.policy.insertRule(acct, makeRule());
        assert.equal(await store.policy.deleteRule(acct, 'CR101'), true);
        assert.equal(await store.policy.version(acct), 3);
        assert.equal(await store.policy.deleteRule(acct, 'CR101'), false);
        assert.equal(await store.policy.deleteRule(acct, 'CR999'), false);
        assert.equal(await store.policy.deleteRule(acct, 'x'), false);
        assert.equal(await store.policy.version(acct), 3);
        assert.deepEqual(
          (await store.policy.listRules(acct)).map((r) => r.id),
          ['CR102'],
        );
      });

      it('accounts are isolated: ids, counters, versions and rules', async () => {
        const a = uid('acct');
        const b = uid('acct');
        await store.policy.insertRule(a, makeRule({ title: 'a1' }));
        await store.policy.insertRule(a, makeRule({ title: 'a2' }));
        const b1 = await store.policy.insertRule(b, makeRule({ title: 'b1' }));
        assert.equal(b1.id, 'CR101');
        assert.equal(await store.policy.version(a), 2);
        assert.equal(await store.policy.version(b), 1);
        assert.equal((await store.policy.getRule(a, 'CR101'))?.title, 'a1');
        assert.equal(await store.policy.deleteRule(b, 'CR102'), false);
        assert.deepEqual(await store.policy.listRules(b), [b1]);
        await store.policy.addBlacklist(b, [entry('ip', '192.0.2.1')]);
        assert.equal(await store.policy.version(a), 2);
      });

      it('awkward account ids work', async () => {
        const acct = uid(`acct ${AWKWARD}`);
        const saved = await store.policy.insertRule(acct, makeRule());
        assert.deepEqual(await store.policy.listRules(acct), [saved]);
        assert.equal(await store.policy.version(acct), 1);
      });
    });

    describe('policy version', () => {
      it('bumps once per change of each kind and not for no-ops', async () => {
        const acct = uid('acct');
        const version = (): Promise<number> => store.policy.version(acct);
        await store.policy.insertRule(acct, makeRule());
        assert.equal(await version(), 1);
        await store.policy.replaceRule(acct, makeRule({ id: 'CR101', title: 'new' }));
        assert.equal(await version(), 2);
        assert.equal(await store.policy.addBlacklist(acct, [entry('ip', '198.51.100.1'), entry('email', 'a@example.com')]), 2);
        assert.equal(await version(), 3);
        assert.equal(await store.policy.addBlacklist(acct, [entry('ip', '198.51.100.1'), entry('email', 'a@example.com')]), 0);
        assert.equal(await version(), 3, 'a no-op add must not bump');
        assert.equal(await store.policy.addBlacklist(acct, []), 0);
        assert.equal(await version(), 3);
        assert.equal(await store.policy.removeBlacklist(acct, 'ip', ['203.0.113.99']), 0);
        assert.equal(await store.policy.removeBlacklist(acct, 'ip', []), 0);
        assert.equal(await version(), 3, 'a no-op remove must not bump');
        assert.equal(await store.policy.removeBlacklist(acct, 'ip', ['198.51.100.1']), 1);
        assert.equal(await version(), 4);
        await store.policy.deleteRule(acct, 'CR101');
        assert.equal(await version(), 5);
      });

      it('no-op changes on an unknown account leave it at version 0', async () => {
        const acct = uid('acct');
        await store.policy.removeBlacklist(acct, 'ip', ['192.0.2.1']);
        await store.policy.deleteRule(acct, 'CR101');
        await store.policy.replaceRule(acct, makeRule({ id: 'CR101' }));
        assert.equal(await store.policy.version(acct), 0);
      });
    });

    describe('blacklists', () => {
      it('add returns how many were new; re-adding is idempotent and keeps the first note and time', async () => {
        const acct = uid('acct');
        const first = entry('email', 'a@example.com', { note: 'first', createdAt: '2024-03-01T00:00:00.000Z' });
        assert.equal(await store.policy.addBlacklist(acct, [first, entry('ip', '192.0.2.1')]), 2);
        assert.equal(
          await store.policy.addBlacklist(acct, [
            entry('email', 'a@example.com', { note: 'second', createdAt: '2024-05-01T00:00:00.000Z' }),
            entry('email', 'b@example.com'),
            entry('email', 'b@example.com'),
          ]),
          1,
        );
        const listed = await store.policy.listBlacklist(acct, { type: 'email' });
        assert.deepEqual(listed, [first, entry('email', 'b@example.com')]);
      });

      it('one value in two types is two entries', async () => {
        const acct = uid('acct');
        assert.equal(await store.policy.addBlacklist(acct, [entry('customer_id', '42'), entry('card_bin', '42')]), 2);
        assert.deepEqual(await store.policy.countBlacklist(acct), { card_bin: 1, customer_id: 1 });
      });

      it('remove returns how many existed, only of that type', async () => {
        const acct = uid('acct');
        await store.policy.addBlacklist(acct, [entry('phone', '33612345678'), entry('phone', '4915112345678'), entry('customer_id', '33612345678')]);
        assert.equal(await store.policy.removeBlacklist(acct, 'phone', ['33612345678', '33612345678', '1000000000', '4915112345678']), 2);
        assert.equal(await store.policy.removeBlacklist(acct, 'phone', ['33612345678']), 0);
        assert.deepEqual(await store.policy.allBlacklistValues(acct), [['customer_id', '33612345678']]);
      });

      it('lists ordered by type then value in code-point order, with notes and times', async () => {
        const acct = uid('acct');
        const entries = [
          entry('ip', '10.0.0.2', { note: 'import:list.txt', createdAt: '2024-02-03T04:05:06.789+01:00' }),
          entry('email', 'b@example.com', { note: 'feedback' }),
          entry('email', 'B@example.com'),
          entry('email', 'a@example.com'),
          entry('email_domain', 'example.com'),
          entry('card_country', 'FR'),
          entry('ip', '10.0.0.10'),
        ];
        await store.policy.addBlacklist(acct, entries);
        assert.deepEqual(await store.policy.listBlacklist(acct, {}), [
          entry('card_country', 'FR'),
          entry('email', 'B@example.com'),
          entry('email', 'a@example.com'),
          entry('email', 'b@example.com', { note: 'feedback' }),
          entry('email_domain', 'example.com'),
          entry('ip', '10.0.0.10'),
          entry('ip', '10.0.0.2', { note: 'import:list.txt', createdAt: '2024-02-03T03:05:06.789Z' }),
        ]);
        assert.deepEqual(
          (await store.policy.listBlacklist(acct, { type: 'ip' })).map((e) => e.value),
          ['10.0.0.10', '10.0.0.2'],
        );
        assert.deepEqual(await store.policy.listBlacklist(acct, { type: 'phone' }), []);
      });

      it('pages with after and limit, across types and within one type', async () => {
        const acct = uid('acct');
        const values = Array.from({ length: 25 }, (_, i) => `user${String(i).padStart(2, '0')}`);
        await store.policy.addBlacklist(acct, [...values.map((v) => entry('customer_id', v)), entry('card_bin', '411111'), entry('ip', '192.0.2.1')]);

        const seen: string[] = [];
        let after: { type: BlacklistType; value: string } | undefined;
        for (;;) {
          const page = await store.policy.listBlacklist(acct, after ? { limit: 7, after } : { limit: 7 });
          seen.push(...page.map((e) => `${e.type}:${e.value}`));
          const last = page[page.length - 1];
          if (page.length < 7 || !last) break;
          after = { type: last.type, value: last.value };
        }
        assert.deepEqual(seen, ['card_bin:411111', ...values.map((v) => `customer_id:${v}`), 'ip:192.0.2.1']);

        const typed = await store.policy.listBlacklist(acct, { type: 'customer_id', limit: 5, after: { type: 'customer_id', value: 'user09' } });
        assert.deepEqual(
          typed.map((e) => e.value),
          ['user10', 'user11', 'user12', 'user13', 'user14'],
        );
        // after may point at an entry that does not exist, or at an earlier type.
        assert.deepEqual(
          (await store.policy.listBlacklist(acct, { type: 'customer_id', limit: 2, after: { type: 'card_bin', value: 'zzz' } })).map((e) => e.value),
          ['user00', 'user01'],
        );
        assert.deepEqual(
          (await store.policy.listBlacklist(acct, { limit: 2, after: { type: 'customer_id', value: 'user235' } })).map((e) => e.value),
          ['user24', '192.0.2.1'],
        );
        assert.deepEqual(await store.policy.listBlacklist(acct, { type: 'customer_id', after: { type: 'ip', value: '' } }), []);
      });

      it('limit defaults to 1000, is capped at 10,000, and must be a positive integer', async () => {
        const acct = uid('acct');
        const entries = Array.from({ length: 10_050 }, (_, i) => entry('email', `u${String(i).padStart(5, '0')}@example.com`));
        assert.equal(await store.policy.addBlacklist(acct, entries), 10_050);
        assert.equal((await store.policy.listBlacklist(acct, {})).length, 1000);
        assert.equal((await store.policy.listBlacklist(acct, { limit: 50_000 })).length, 10_000);
        assert.equal((await store.policy.listBlacklist(acct, { limit: 1 })).length, 1);
        await assert.rejects(store.policy.listBlacklist(acct, { limit: 0 }), RangeError);
        await assert.rejects(store.policy.listBlacklist(acct, { limit: 2.5 }), RangeError);
      });

      it('counts per type', async () => {
        const acct = uid('acct');
        await store.policy.addBlacklist(acct, [
          entry('ip', '192.0.2.1'),
          entry('ip', '192.0.2.0/24'),
          entry('ip', '2001:db8::/32'),
          entry('email', 'x@example.com'),
          entry('confirmed_fraud', 'user-7'),
        ]);
        assert.deepEqual(await store.policy.countBlacklist(acct), { ip: 3, email: 1, confirmed_fraud: 1 });
        await store.policy.removeBlacklist(acct, 'email', ['x@example.com']);
        assert.deepEqual(await store.policy.countBlacklist(acct), { ip: 3, confirmed_fraud: 1 });
      });

      it('a large batch (60,001 entries) adds, reads back in full, and removes in one call each', async () => {
        const acct = uid('acct');
        const values = Array.from({ length: 60_001 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
        assert.equal(await store.policy.addBlacklist(acct, values.map((v) => entry('ip', v))), 60_001);
        assert.equal(await store.policy.addBlacklist(acct, [entry('ip', values[0] ?? ''), entry('email', 'late@example.com')]), 1);
        const all = await store.policy.allBlacklistValues(acct);
        assert.equal(all.length, 60_002);
        assert.deepEqual(all[0], ['email', 'late@example.com']);
        const ips = all.slice(1).map(([, v]) => v);
        assert.equal(new Set(ips).size, 60_001);
        assert.deepEqual(ips, [...ips].sort());
        assert.deepEqual(await store.policy.countBlacklist(acct), { ip: 60_001, email: 1 });
        assert.equal(await store.policy.removeBlacklist(acct, 'ip', values), 60_001);
        assert.deepEqual(await store.policy.allBlacklistValues(acct), [['email', 'late@example.com']]);
        assert.equal(await store.policy.version(acct), 3);
      });

      it('awkward values and notes survive add, list, all, count and remove', async () => {
        const acct = uid(`acct ${AWKWARD}`);
        const values = [AWKWARD, `'; DROP TABLE blacklist_entries; --`, 'NULL', '', ' ', 'a\\b', '{"json": [1]}', '{}', 'x,y', '中文@例子.中国', '🚀'];
        const entries = values.map((v) => entry('customer_id', v, { note: AWKWARD }));
        assert.equal(await store.policy.addBlacklist(acct, entries), values.length);
        assert.equal(await store.policy.addBlacklist(acct, entries), 0);
        const listed = await store.policy.listBlacklist(acct, { type: 'customer_id' });
        assert.deepEqual(new Set(listed.map((e) => e.value)), new Set(values));
        assert.ok(listed.every((e) => e.note === AWKWARD));
        assert.deepEqual(new Set((await store.policy.allBlacklistValues(acct)).map(([, v]) => v)), new Set(values));
        assert.deepEqual(await store.policy.countBlacklist(acct), { customer_id: values.length });
        // Pages through awkward values too.
        const firstTwo = await store.policy.listBlacklist(acct, { limit: 2 });
        const last = firstTwo[1];
        assert.ok(last);
        const rest = await store.policy.listBlacklist(acct, { after: { type: last.type, value: last.value } });
        assert.deepEqual([...firstTwo, ...rest], listed);
        assert.equal(await store.policy.removeBlacklist(acct, 'customer_id', values), values.length);
        assert.deepEqual(await store.policy.allBlacklistValues(acct), []);
      });

      it('rejects an unknown type or a bad timestamp, and writes nothing of that batch', async () => {
        const acct = uid('acct');
        await assert.rejects(store.policy.addBlacklist(acct, [entry('ip', '192.0.2.1'), entry('nope' as BlacklistType, 'x')]), RangeError);
        await assert.rejects(store.policy.addBlacklist(acct, [entry('ip', '192.0.2.1'), entry('ip', '192.0.2.2', { createdAt: 'yesterday' })]), RangeError);
        await assert.rejects(store.policy.removeBlacklist(acct, 'nope' as BlacklistType, ['x']), RangeError);
        assert.deepEqual(await store.policy.allBlacklistValues(acct), []);
        assert.equal(await store.policy.version(acct), 0);
      });

      it('accounts are isolated', async () => {
        const a = uid('acct');
        const b = uid('acct');
        await store.policy.addBlacklist(a, [entry('ip', '192.0.2.1'), entry('email', 'a@example.com')]);
        assert.equal(await store.policy.addBlacklist(b, [entry('ip', '192.0.2.1')]), 1);
        assert.equal(await store.policy.removeBlacklist(b, 'email', ['a@example.com']), 0);
        assert.deepEqual(await store.policy.allBlacklistValues(b), [['ip', '192.0.2.1']]);
        assert.deepEqual(await store.policy.countBlacklist(a), { ip: 1, email: 1 });
        assert.equal((await store.policy.listBlacklist(b, {})).length, 1);
        assert.equal((await store.policy.listBlacklist(b, { after: { type: 'email', value: '' } })).length, 1);
      });

      it('concurrent adds of overlapping batches count each entry once in total', async () => {
        const acct = uid('acct');
        const batches = Array.from({ length: 5 }, (_, b) => Array.from({ length: 200 }, (_, i) => entry('phone', String(1_000_000 + b * 100 + i))));
        const added = await Promise.all(batches.map((batch) => store.policy.addBlacklist(acct, batch)));
        assert.equal(
          added.reduce((sum, n) => sum + n, 0),
          600,
        );
        assert.deepEqual(await store.policy.countBlacklist(acct), { phone: 600 });
        assert.equal(await store.policy.version(acct), added.filter((n) => n > 0).length);
      });
    });

    describe('decision log', () => {
      it('appends a batch and lists one account and group in [from, to), oldest first', async () => {
        const acct = uid('acct');
        const other = uid('acct');
        const at = (h: number): string => `2024-03-01T${String(h).padStart(2, '0')}:00:00.000Z`;
        const inside = [decision(acct, at(10)), decision(acct, at(11), { userId: 'u1' }), decision(acct, at(12))];
        await store.decisions.append([
          inside[2] as DecisionRecord,
          decision(acct, at(9)), // before the window
          inside[0] as DecisionRecord,
          decision(acct, at(13)), // at `to`: excluded
          decision(acct, at(11), { group: 'ip' }),
          decision(other, at(11)),
        ]);
        await store.decisions.append([inside[1] as DecisionRecord]);
        assert.deepEqual(await store.decisions.list(acct, 'email', at(10), at(13), 100), inside);
        assert.deepEqual(await store.decisions.list(acct, 'email', at(10), at(10), 100), []);
        assert.deepEqual(await store.decisions.list(acct, 'email', at(13), at(14), 100), [decision(acct, at(13))]);
        assert.deepEqual(await store.decisions.list(acct, 'ip', at(0), at(23), 100), [decision(acct, at(11), { group: 'ip' })]);
        assert.deepEqual(await store.decisions.list(other, 'email', at(0), at(23), 100), [decision(other, at(11))]);
        assert.deepEqual(await store.decisions.list(uid('acct'), 'email', at(0), at(23), 100), []);
      });

      it('limit keeps the oldest; records at the same instant keep their append order', async () => {
        const acct = uid('acct');
        const at = '2024-03-01T10:00:00.000Z';
        const records = ['a', 'b', 'c', 'd', 'e'].map((op) => decision(acct, at, { operation: op }));
        await store.decisions.append(records.slice(0, 3));
        await store.decisions.append(records.slice(3));
        assert.deepEqual(await store.decisions.list(acct, 'email', at, '2024-03-02T00:00:00.000Z', 100), records);
        assert.deepEqual(await store.decisions.list(acct, 'email', at, '2024-03-02T00:00:00.000Z', 2), records.slice(0, 2));
        assert.deepEqual(await store.decisions.list(acct, 'email', at, '2024-03-02T00:00:00.000Z', 0), []);
        await assert.rejects(store.decisions.list(acct, 'email', at, '2024-03-02T00:00:00.000Z', -1), RangeError);
      });

      it('input and result JSON round-trip exactly', async () => {
        const acct = uid('acct');
        const input = {
          email: `${AWKWARD}@example.com`,
          nested: { deeper: { deepest: [1, 'two', { three: 3 }, [], {}] } },
          quotes: `"'\`\\`,
          unicode: 'Ünïcödé 中文 العربية 👩‍👩‍👧 \u2028\u2029 \t\n\r',
          numbers: [0, -1, 1.5, -0.000001, 1e-7, 123456789.123, 9007199254740991, -9007199254740991, 1.5e300, 5e-324],
          booleans: [true, false],
          nothing: null,
          empty: '',
        };
        const result = { score: 2.75, valid: false, reasons: ['disposable', 'role'], custom_rules_applied: { total: 1, rules: [{ id: 'CR101', title: AWKWARD }] } };
        const record = decision(acct, '2024-03-01T10:00:00.000Z', { input, result, userId: AWKWARD, operation: AWKWARD, group: AWKWARD });
        await store.decisions.append([record]);
        const [read] = await store.decisions.list(acct, AWKWARD, '2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 10);
        assert.deepEqual(read, record);
        assert.deepEqual(await store.decisions.list(acct, 'email', '2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 10), []);
      });

      it('identity hashes read back with their record (distinct, in order), for backtest labels', async () => {
        const acct = uid('acct');
        const [h1, h2] = ['a'.repeat(64), 'b'.repeat(64)];
        const at = '2024-03-01T10:00:00.000Z';
        await store.decisions.append([decision(acct, at, { operation: 'one', identities: [h1, h2, h1] }), decision(acct, at, { operation: 'none' })]);
        const read = await store.decisions.list(acct, 'email', at, '2024-03-02T00:00:00.000Z', 10);
        assert.deepEqual(read, [decision(acct, at, { operation: 'one', identities: [h1, h2] }), decision(acct, at, { operation: 'none' })]);
      });

      it('normalises timestamps and rejects invalid ones (the whole batch)', async () => {
        const acct = uid('acct');
        await store.decisions.append([decision(acct, '2024-03-01T12:00:00+01:00')]);
        assert.equal((await store.decisions.list(acct, 'email', '2024-03-01T11:00:00Z', '2024-03-01T11:00:00.001Z', 10))[0]?.at, '2024-03-01T11:00:00.000Z');
        await assert.rejects(store.decisions.append([decision(acct, '2024-03-01T13:00:00.000Z'), decision(acct, 'now')]), RangeError);
        await assert.rejects(store.decisions.list(acct, 'email', 'yesterday', '2024-03-02T00:00:00.000Z', 10), RangeError);
        await assert.rejects(store.decisions.prune('2024-03-01'), RangeError);
        assert.equal((await store.decisions.list(acct, 'email', '2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 10)).length, 1);
      });

      it('an empty batch is a no-op', async () => {
        await store.decisions.append([]);
      });

      it('deleteByUser removes only that user of that account and returns the count', async () => {
        const a = uid('acct');
        const b = uid('acct');
        const user = uid('user');
        const at = '2024-03-01T10:00:00.000Z';
        await store.decisions.append([
          decision(a, at, { userId: user }),
          decision(a, at, { userId: user, group: 'ip' }),
          decision(a, at, { userId: uid('user') }),
          decision(a, at),
          decision(b, at, { userId: user }),
        ]);
        assert.equal(await store.decisions.deleteByUser(a, user), 2);
        assert.equal(await store.decisions.deleteByUser(a, user), 0);
        const window = ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'] as const;
        assert.equal((await store.decisions.list(a, 'email', ...window, 10)).length, 2);
        assert.equal((await store.decisions.list(a, 'ip', ...window, 10)).length, 0);
        assert.equal((await store.decisions.list(b, 'email', ...window, 10)).length, 1);
      });

      it('deleteForUser removes the records of the user or mentioning a needle (input or result), counted per group', async () => {
        const a = uid('acct');
        const b = uid('acct');
        const at = '2024-04-01T10:00:00.000Z';
        const window = ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'] as const;
        const email = `${uid('jane')}@example.com`;
        const phone = '4915112345678';
        await store.decisions.append([
          decision(a, at, { userId: 'u1', input: { email: 'x@example.com' } }), // by user
          decision(a, at, { userId: 'u1', group: 'ip', input: { ip: '192.0.2.1' } }), // by user
          decision(a, at, { userId: 'u2', input: { email: email.toUpperCase() } }), // needle in input, other case
          decision(a, at, { group: 'phone', input: { phone: `+${phone}` } }), // phone digits in input
          decision(a, at, { group: 'phone', input: { q: 'n/a' }, result: { matched: { phone: `00${phone}`, ok: false } } }), // in result
          decision(a, at, { userId: 'u2', group: 'ip', input: { ip: '192.0.2.2' } }), // kept: other user, no needle
          decision(a, at, { group: 'phone', input: { phone: '4915100000000' } }), // kept: other digits
          decision(b, at, { userId: 'u1', input: { email } }), // kept: another account
        ]);
        const counts = await store.decisions.deleteForUser(a, { userId: 'u1', needles: [email, phone] });
        assert.deepEqual(counts, { email: 2, ip: 1, phone: 2 });
        assert.deepEqual(
          (await store.decisions.list(a, 'ip', ...window, 10)).map((r) => r.input),
          [{ ip: '192.0.2.2' }],
        );
        assert.deepEqual(
          (await store.decisions.list(a, 'phone', ...window, 10)).map((r) => r.input),
          [{ phone: '4915100000000' }],
        );
        assert.deepEqual(await store.decisions.list(a, 'email', ...window, 10), []);
        assert.deepEqual(await store.decisions.list(b, 'email', ...window, 10), [decision(b, at, { userId: 'u1', input: { email } })]);
        assert.deepEqual(await store.decisions.deleteForUser(a, { userId: 'u1', needles: [email, phone] }), {}, 'a second run finds nothing');
      });

      it('deleteForUser by user only, by needle only, and with nothing to match', async () => {
        const a = uid('acct');
        const at = '2024-04-01T10:00:00.000Z';
        const window = ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'] as const;
        const email = `${uid('joe')}@Example.COM`;
        await store.decisions.append([
          decision(a, at, { userId: 'u1' }),
          decision(a, at, { userId: 'u2', result: { seen: [email] } }),
          decision(a, at, { userId: null }),
        ]);
        assert.deepEqual(await store.decisions.deleteForUser(a, { needles: [] }), {}, 'no user and no needle: nothing');
        assert.deepEqual(await store.decisions.deleteForUser(a, { needles: [''] }), {}, 'an empty needle matches nothing');
        assert.deepEqual(await store.decisions.deleteForUser(a, { userId: 'nobody', needles: ['nobody@example.com'] }), {});
        assert.deepEqual(await store.decisions.deleteForUser(uid('acct'), { userId: 'u1', needles: [email] }), {}, 'another account');
        assert.equal((await store.decisions.list(a, 'email', ...window, 10)).length, 3);
        assert.deepEqual(await store.decisions.deleteForUser(a, { userId: 'u1', needles: [] }), { email: 1 });
        assert.deepEqual(await store.decisions.deleteForUser(a, { needles: [email.toLowerCase()] }), { email: 1 });
        assert.deepEqual(await store.decisions.list(a, 'email', ...window, 10), [decision(a, at, { userId: null })]);
      });

      it('deleteForUser matches needles literally: %, _, quotes and backslashes are not patterns', async () => {
        const a = uid('acct');
        const at = '2024-04-01T10:00:00.000Z';
        const window = ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'] as const;
        const odd = `o'brien"100%_x\\y@example.com`;
        const kept = [
          decision(a, at, { input: { email: 'obrien100ax-y@example.com' } }), // what LIKE 'o%brien...' or _ would match
          decision(a, at, { input: { email: 'o\'brien"100%-x\\y@example.com' } }), // differs only where _ would match
          decision(a, at, { input: { email: 'someone@example.com', note: 'anything' } }),
        ];
        await store.decisions.append([decision(a, at, { input: { email: odd } }), decision(a, at, { group: 'ip', result: { seen: odd.toUpperCase() } }), ...kept]);
        for (const needle of ['o%brien', 'obrien100_x', '%@example.com%', 'o_brien', "' OR '1'='1", '"); DROP TABLE decision_log; --']) {
          assert.deepEqual(await store.decisions.deleteForUser(a, { needles: [needle] }), {}, `needle ${needle}`);
        }
        assert.deepEqual(await store.decisions.deleteForUser(a, { needles: [odd] }), { email: 1, ip: 1 });
        assert.deepEqual(await store.decisions.list(a, 'email', ...window, 10), kept);
        assert.deepEqual(await store.decisions.list(a, 'ip', ...window, 10), []);
      });

      it('prune removes every account’s records older than `before` and returns how many', async () => {
        // Years no other case uses: prune is global, and the store is shared between cases.
        const a = uid('acct');
        const b = uid('acct');
        await store.decisions.append([
          decision(a, '1990-01-01T00:00:00.000Z'),
          decision(b, '1990-05-31T23:59:59.999Z'),
          decision(a, '1990-06-01T00:00:00.000Z'),
          decision(a, '1991-01-01T00:00:00.000Z'),
        ]);
        assert.equal(await store.decisions.prune('1990-06-01T00:00:00.000Z'), 2);
        assert.equal(await store.decisions.prune('1990-06-01T00:00:00.000Z'), 0);
        assert.deepEqual(
          (await store.decisions.list(a, 'email', '1980-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z', 10)).map((r) => r.at),
          ['1990-06-01T00:00:00.000Z', '1991-01-01T00:00:00.000Z'],
        );
        assert.deepEqual(await store.decisions.list(b, 'email', '1980-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z', 10), []);
        assert.equal(await store.decisions.prune('1991-01-01T00:00:00.001Z'), 2);
      });
    });
  });
}
