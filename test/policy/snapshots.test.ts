/**
 * In-memory policy copies on a real SQLite file opened by two "instances" (two stores, two
 * snapshot caches): a change is seen at once by the instance that made it, and by the other one
 * after its refresh interval, which keeps serving the previous copy while the new one loads.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { AccountService } from '../../src/accounts/service.ts';
import { ListsService } from '../../src/policy/lists-service.ts';
import { RulesService } from '../../src/policy/rules-service.ts';
import { PolicySnapshots } from '../../src/policy/snapshots.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';

const silent = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'vigil-snap-'));
let a: SqliteStore;
let b: SqliteStore;

before(async () => {
  a = new SqliteStore({ path: join(dir, 'vigil.db') });
  await a.migrate();
  b = new SqliteStore({ path: join(dir, 'vigil.db') });
  const accounts = new AccountService(a, 'snapshot-secret-0123456789abcdef0123');
  await accounts.ensureBuiltinPlans();
  await accounts.createAccount({ id: 'acct', plan: 'premium' });
  await accounts.createAccount({ id: 'other', plan: 'premium' });
});
after(async () => {
  await a.close();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const probe = { type: 'ip' as const, value: '203.0.113.9' };

describe('policy snapshots', () => {
  it('an empty account has version 0, no rules and no list hits', async () => {
    const snaps = new PolicySnapshots(a, silent, 60_000);
    const snap = await snaps.get('other');
    assert.equal(snap.version, 0);
    assert.equal(snap.rules.size, 0);
    assert.deepEqual(snap.lists.hits([probe]), []);
  });

  it('the instance making a change sees it on its next read; another one after its refresh interval', async () => {
    const mine = new PolicySnapshots(a, silent, 60_000);
    const theirs = new PolicySnapshots(b, silent, 100);
    const lists = new ListsService(a, mine);
    const rules = new RulesService(a, mine);
    assert.deepEqual((await mine.get('acct')).lists.hits([probe]), []);
    const before = await theirs.get('acct');
    assert.deepEqual(before.lists.hits([probe]), []);

    await lists.add('acct', 'ip', ['203.0.113.0/24']);
    assert.deepEqual((await mine.get('acct')).lists.hits([probe]), [probe], 'the changing instance sees it at once');
    // The other instance keeps its copy until the interval passes...
    assert.equal(await theirs.get('acct'), before);
    await sleep(120);
    // ...then notices the new version, answers once more with the old copy, and loads the new one.
    await theirs.get('acct');
    let seen = false;
    for (let i = 0; i < 50 && !seen; i++) {
      seen = (await theirs.get('acct')).lists.hits([probe]).length === 1;
      if (!seen) await sleep(10);
    }
    assert.ok(seen, 'the other instance picked up the change');

    await rules.create('acct', { title: 'Tor', group: 'ip', conditions: { all: [{ field: 'security.isTor', op: 'eq', value: true }] }, action: { type: 'blacklist' } });
    const snap = await mine.get('acct');
    assert.equal(snap.rules.get('ip')?.size, 1);
    assert.equal(snap.rules.get('email'), undefined);
  });

  it('disabled rules are left out and rules are in numeric id order', async () => {
    const snaps = new PolicySnapshots(a, silent, 60_000);
    const rules = new RulesService(a, snaps);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await rules.create('acct', { title: `r${i}`, group: 'email', conditions: { all: [{ field: 'score', op: 'gte', value: i }] }, action: { type: 'mark_invalid' } })).id);
    }
    await rules.create('acct', { id: 'CR1000', title: 'late', group: 'email', conditions: { all: [] }, action: { type: 'mark_valid' } });
    const second = ids[1];
    assert.ok(second);
    await rules.setEnabled('acct', second, false);
    const titles = (await snaps.get('acct')).rules.get('email')?.candidates({ score: 5 }).map((r) => r.title);
    assert.deepEqual(titles, ['r0', 'r2', 'late']);
  });

  it('a failed first load rejects, and the next read retries', async () => {
    const broken = new SqliteStore({ path: join(dir, 'broken.db') });
    // Not migrated: the policy tables do not exist yet.
    const snaps = new PolicySnapshots(broken, silent, 60_000);
    await assert.rejects(snaps.get('acct'));
    await broken.migrate();
    assert.equal((await snaps.get('acct')).version, 0);
    await broken.close();
  });
});
