import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKey, hashKey, keyKind } from './keys.ts';
import { invalidHostEntry } from './authorized-hosts.ts';
import { parseSeed } from './seed.ts';
import { loadConfig, ConfigError } from '../config.ts';

describe('keys', () => {
  it('prefix decides the kind', () => {
    assert.equal(keyKind('svc_live_acme0000000000000000000001'), 'live');
    assert.equal(keyKind('svc_test_acme0000000000000000000001'), 'test');
    for (const bad of ['', 'svc_live_', 'svc_live_short', 'svc_prod_acme0000000000000000000001', 'svc_live_acme00000000000000000000!1', 'x'.repeat(300)]) {
      assert.equal(keyKind(bad), null, bad);
    }
  });
  it('generated keys are valid, unique and hash deterministically per secret', () => {
    const a = generateKey('live');
    const b = generateKey('live');
    assert.equal(keyKind(a), 'live');
    assert.notEqual(a, b);
    assert.equal(hashKey('s'.repeat(32), a), hashKey('s'.repeat(32), a));
    assert.notEqual(hashKey('s'.repeat(32), a), hashKey('t'.repeat(32), a));
    assert.doesNotMatch(hashKey('s'.repeat(32), a), new RegExp(a));
  });
});

describe('authorized host entries', () => {
  for (const ok of ['example.com', '*.example.com', '203.0.113.7', '2001:db8::1', '10.0.0.0/8', '2001:db8::/32', 'localhost']) {
    it(`accepts ${ok}`, () => assert.equal(invalidHostEntry(ok), null));
  }
  for (const bad of ['', 'http://x.com', 'a b', '10.0.0.0/33', '*.', 'exa_mple.com', '1.2.3.4/x', '*']) {
    it(`rejects "${bad}"`, () => assert.notEqual(invalidHostEntry(bad), null));
  }
});

describe('seed file', () => {
  it('parses the decisions.md example', () => {
    const seed = parseSeed(JSON.stringify({
      plans: [{ id: 'tiny', methods: ['*'], modules: ['security', 'device'], monthlyQuota: 5, flood: { limit: 3, windowSeconds: 1 } }],
      accounts: [{ id: 'acme', status: 'active', plan: 'premium', subscription: { expiresAt: '2030-01-01T00:00:00Z' }, authorizedHosts: [],
        settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 100 }, keys: ['svc_live_acme0000000000000000000001', 'svc_test_acme0000000000000000000001'],
        blacklists: [{ type: 'ip', values: ['203.0.113.7'] }], customRules: [], webhooks: [{ url: 'http://127.0.0.1:9100/hook', secret: 'whsec_x' }] }],
    }));
    assert.equal(seed.accounts[0]?.keys.length, 2);
    assert.equal(seed.plans[0]?.monthlyQuota, 5);
  });
  it('null subscription stays null; defaults fill in', () => {
    const seed = parseSeed('{"accounts":[{"id":"x","plan":"trial","subscription":null}]}');
    assert.equal(seed.accounts[0]?.subscription, null);
    assert.equal(seed.accounts[0]?.status, 'active');
  });
  for (const [name, text] of [
    ['not json', '{'],
    ['bad key prefix', '{"accounts":[{"id":"x","plan":"trial","keys":["abc"]}]}'],
    ['bad status', '{"accounts":[{"id":"x","plan":"trial","status":"paused"}]}'],
    ['bad host', '{"accounts":[{"id":"x","plan":"trial","authorizedHosts":["http://a"]}]}'],
    ['bad flood', '{"plans":[{"id":"p","methods":["*"],"flood":{"limit":0,"windowSeconds":1}}]}'],
  ] as const) {
    it(`rejects ${name}`, () => assert.throws(() => parseSeed(text)));
  }
});

describe('config', () => {
  it('defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dataDir, './data');
    assert.equal(c.trustProxy, false);
    assert.ok(Object.isFrozen(c));
  });
  it('parses TRUST_PROXY forms', () => {
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy, ['10.0.0.1', '10.0.0.0/8']);
  });
  for (const [name, env] of [
    ['port', { PORT: 'abc' }],
    ['port range', { PORT: '70000' }],
    ['database url', { DATABASE_URL: 'mysql://x' }],
    ['redis url', { REDIS_URL: 'http://x' }],
    ['short secret', { SECRET_KEY: 'short' }],
    ['log level', { LOG_LEVEL: 'loud' }],
    ['trust proxy', { TRUST_PROXY: 'everyone!' }],
    ['public url', { PUBLIC_URL: 'not a url' }],
  ] as const) {
    it(`rejects bad ${name} with a clear message`, () =>
      assert.throws(() => loadConfig(env), (e: Error) => e instanceof ConfigError && /Invalid configuration|TRUST_PROXY/.test(e.message)));
  }
});
