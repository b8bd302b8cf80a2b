import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(() => t.close());

describe('built-in plans', () => {
  it('are created once; an operator edit survives the next start', async () => {
    const premium = await t.store.accounts.getPlan('premium');
    assert.equal(premium?.monthlyQuota, 1_000_000);
    assert.ok(premium);
    await t.accounts.upsertPlan({ ...premium, monthlyQuota: 42 });
    await t.accounts.ensureBuiltinPlans();
    assert.equal((await t.store.accounts.getPlan('premium'))?.monthlyQuota, 42);
  });
  it('a missing built-in plan is recreated', async () => {
    const ids = (await t.accounts.listPlans()).map((p) => p.id).sort();
    assert.deepEqual(ids.filter((id) => ['payg', 'premium', 'standard', 'trial'].includes(id)), ['payg', 'premium', 'standard', 'trial']);
  });
  it('answers show an expiry in its stored form', async () => {
    const a = await t.accounts.createAccount({ plan: 'trial', subscription: { expiresAt: '2030-01-01T00:00:00Z' } });
    assert.equal(a.subscription?.expiresAt, '2030-01-01T00:00:00.000Z');
    assert.deepEqual((await t.accounts.getAccount(a.id)).subscription, a.subscription);
  });
});

describe('first-start bootstrap', () => {
  it('creates one premium account with a live and a test key, once; a racing second instance backs off', async () => {
    const { bootstrapIfEmpty } = await import('../../src/accounts/bootstrap.ts');
    const b = await makeTestApp();
    try {
      const [first, second] = await Promise.all([bootstrapIfEmpty(b.store, b.accounts, b.dir), bootstrapIfEmpty(b.store, b.accounts, b.dir)]);
      const made = [first, second].filter((r) => r !== null);
      assert.equal(made.length, 1);
      assert.equal((await b.accounts.getAccount('default')).planId, 'premium');
      assert.equal((await b.accounts.listKeys('default')).length, 2);
      assert.equal(await bootstrapIfEmpty(b.store, b.accounts, b.dir), null);
    } finally {
      await b.close();
    }
  });
});
