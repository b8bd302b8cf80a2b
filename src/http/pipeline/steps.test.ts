import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors.ts';
import { checkAccountActive } from './account.ts';
import { checkSubscription } from './subscription.ts';
import { checkPlan } from './plan.ts';
import { checkAuthorizedHost } from './authorized-host.ts';
import { checkKey, extractKey } from './key.ts';
import { compileHostMatcher } from '../../accounts/authorized-hosts.ts';
import type { Account, Plan } from '../../store/ports.ts';
import type { Caller } from '../context.ts';

const account: Account = {
  id: 'a', status: 'active', planId: 'p', subscription: { expiresAt: null }, authorizedHosts: [],
  settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 100 }, createdAt: '2026-01-01T00:00:00Z',
};
const plan: Plan = { id: 'p', methods: ['lookup/country'], modules: ['security'], monthlyQuota: 10, flood: { limit: 5, windowSeconds: 1 } };
const codeOf = (fn: () => unknown): number | 'ok' => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
};

describe('key step', () => {
  it('Bearer wins over the query key', () => {
    assert.equal(extractKey({ key: 'q' }, 'Bearer h'), 'h');
    assert.equal(extractKey({ key: 'q' }, 'bearer   h  '), 'h');
    assert.equal(extractKey({ key: 'q' }, 'Basic abc'), 'q');
    assert.equal(extractKey({}, undefined), undefined);
    assert.equal(extractKey({}, 'Bearer '), '');
  });
  it('a repeated key parameter is invalid', () => assert.equal(codeOf(() => extractKey({ key: ['a', 'b'] }, undefined)), 101));
  it('missing, empty and unknown keys give 101', async () => {
    const resolver = { resolve: (k: string) => Promise.resolve(k === 'good' ? ({ account } as unknown as Caller) : null) };
    for (const k of [undefined, '', 'bad']) await assert.rejects(checkKey(k, resolver), (e: ApiError) => e.code === 101);
    assert.equal((await checkKey('good', resolver)).account.id, 'a');
  });
});

describe('account, subscription, plan steps', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  it('inactive → 102', () => {
    assert.equal(codeOf(() => checkAccountActive(account)), 'ok');
    assert.equal(codeOf(() => checkAccountActive({ ...account, status: 'inactive' })), 102);
  });
  it('subscription: none → 127, expired → 105, future or open-ended → ok', () => {
    assert.equal(codeOf(() => checkSubscription({ ...account, subscription: null }, now)), 127);
    assert.equal(codeOf(() => checkSubscription({ ...account, subscription: { expiresAt: '2026-05-31T23:59:59Z' } }, now)), 105);
    assert.equal(codeOf(() => checkSubscription({ ...account, subscription: { expiresAt: '2026-06-01T00:00:00Z' } }, now)), 105);
    assert.equal(codeOf(() => checkSubscription({ ...account, subscription: { expiresAt: '2030-01-01T00:00:00Z' } }, now)), 'ok');
    assert.equal(codeOf(() => checkSubscription(account, now)), 'ok');
  });
  it('plan: method → 117, plan module → 114, free modules pass', () => {
    assert.equal(codeOf(() => checkPlan(plan, 'lookup/ip', new Set())), 117);
    assert.equal(codeOf(() => checkPlan(plan, 'lookup/country', new Set(['security', 'timezone']))), 'ok');
    assert.equal(codeOf(() => checkPlan(plan, 'lookup/country', new Set(['device']))), 114);
    assert.equal(codeOf(() => checkPlan({ ...plan, methods: ['*'] }, 'lookup/ip', new Set())), 'ok');
  });
});

describe('authorized host step', () => {
  const caller = (hosts: string[]): Caller => ({ account, plan, key: {} as Caller['key'], hosts: compileHostMatcher(hosts) });
  const table: [string, string[], Record<string, string>, string, number | 'ok'][] = [
    ['empty list allows all', [], {}, '198.51.100.1', 'ok'],
    ['origin exact', ['shop.example.com'], { origin: 'https://shop.example.com' }, '198.51.100.1', 'ok'],
    ['origin other', ['shop.example.com'], { origin: 'https://evil.com' }, '198.51.100.1', 113],
    ['referer host', ['shop.example.com'], { referer: 'https://shop.example.com/cart?x=1' }, '198.51.100.1', 'ok'],
    ['wildcard subdomain', ['*.example.com'], { origin: 'https://a.b.example.com' }, '198.51.100.1', 'ok'],
    ['wildcard not apex', ['*.example.com'], { origin: 'https://example.com' }, '198.51.100.1', 113],
    ['suffix trick', ['*.example.com'], { origin: 'https://evilexample.com' }, '198.51.100.1', 113],
    ['server ip', ['203.0.113.7'], {}, '203.0.113.7', 'ok'],
    ['server ip mapped v6', ['203.0.113.7'], {}, '::ffff:203.0.113.7', 'ok'],
    ['cidr v4', ['203.0.113.0/24'], {}, '203.0.113.99', 'ok'],
    ['cidr v4 miss', ['203.0.113.0/24'], {}, '203.0.114.1', 113],
    ['cidr v6', ['2001:db8::/32'], {}, '2001:db8:1::5', 'ok'],
    ['garbage origin', ['shop.example.com'], { origin: 'not a url' }, '198.51.100.1', 113],
  ];
  for (const [name, hosts, headers, ip, want] of table) {
    it(name, () => assert.equal(codeOf(() => checkAuthorizedHost(caller(hosts), headers, ip)), want));
  }
});
