/** DATA_UPDATE_INTERVAL and the MaxMind variables in src/config.ts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseInterval } from '../../src/config.ts';

describe('DATA_UPDATE_INTERVAL', () => {
  it('is off by default and reads durations or milliseconds', () => {
    assert.equal(loadConfig({}).dataUpdateIntervalMs, 0);
    const cases: Array<[string, number | null]> = [
      ['off', 0], ['OFF', 0], ['0', 0], ['24h', 86_400_000], ['1d', 86_400_000], ['90m', 5_400_000], ['6h', 21_600_000],
      ['86400000', 86_400_000], ['600s', 600_000], ['1.5h', 5_400_000],
      ['5m', null], ['1000', null], ['soon', null], ['-1h', null], ['24 hours', null],
    ];
    for (const [raw, ms] of cases) assert.equal(parseInterval(raw), ms, raw);
    assert.equal(loadConfig({ DATA_UPDATE_INTERVAL: '12h' }).dataUpdateIntervalMs, 43_200_000);
  });
  it('names the variable and the accepted forms when invalid', () => {
    assert.throws(() => loadConfig({ DATA_UPDATE_INTERVAL: '5m' }), (e: unknown) => e instanceof ConfigError && /DATA_UPDATE_INTERVAL="5m": must be off or a duration of at least 10 minutes \(e\.g\. 24h/.test(e.message));
  });
});

describe('MaxMind credentials', () => {
  it('both or neither; the base URL defaults to MaxMind and drops a trailing slash', () => {
    assert.equal(loadConfig({}).maxmind, undefined);
    assert.deepEqual(loadConfig({ MAXMIND_ACCOUNT_ID: '123456', MAXMIND_LICENSE_KEY: 'abcDEF123_mmk' }).maxmind, { accountId: '123456', licenseKey: 'abcDEF123_mmk', baseUrl: 'https://download.maxmind.com' });
    assert.equal(loadConfig({ MAXMIND_ACCOUNT_ID: '1', MAXMIND_LICENSE_KEY: 'abcDEF123_mmk', MAXMIND_BASE_URL: 'http://127.0.0.1:9/' }).maxmind?.baseUrl, 'http://127.0.0.1:9');
    assert.throws(() => loadConfig({ MAXMIND_LICENSE_KEY: 'abcDEF123_mmk' }), /MAXMIND_ACCOUNT_ID: MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY go together/);
    assert.throws(() => loadConfig({ MAXMIND_ACCOUNT_ID: 'me', MAXMIND_LICENSE_KEY: 'abcDEF123_mmk' }), /MAXMIND_ACCOUNT_ID="me": must be the numeric MaxMind account ID/);
    assert.throws(() => loadConfig({ MAXMIND_ACCOUNT_ID: '1', MAXMIND_LICENSE_KEY: 'key with spaces' }), /MAXMIND_LICENSE_KEY: must be a MaxMind licence key/);
    assert.throws(() => loadConfig({ MAXMIND_ACCOUNT_ID: '1', MAXMIND_LICENSE_KEY: 'abcDEF123_mmk', MAXMIND_BASE_URL: 'not a url' }), /MAXMIND_BASE_URL: must be an absolute URL/);
  });
  it('never shows the licence key in an error', () => {
    try {
      loadConfig({ MAXMIND_LICENSE_KEY: 'secretKEY123456_mmk' });
      assert.fail('expected an error');
    } catch (e) {
      assert.doesNotMatch((e as Error).message, /secretKEY123456/);
    }
  });
});
