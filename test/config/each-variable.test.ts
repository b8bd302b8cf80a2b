/**
 * Bad variables one by one, as a newcomer meets them: each alone stops the start with one line that names
 * the variable, shows its value unless it may be a secret, and says what it must be. Every variable of the
 * README's configuration table is tried (those naming files are read, and checked, when used).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'vigil-vars-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const aFile = join(dir, 'a-file');
writeFileSync(aFile, 'x');

/** [variable, bad value, what the line must say]. */
const BAD: Array<[string, string, RegExp]> = [
  ['PORT', '80800', /whole number from 0 to 65535/],
  ['HOST', '999.1.1.1', /not a valid IPv4 address/],
  ['DATA_DIR', aFile, /is a file, not a directory/],
  ['DATABASE_URL', 'mysql://u:pw-secret@db/vigil', /postgres:\/\/ or postgresql:\/\/ URL/],
  ['DATABASE_POOL_SIZE', '1', /2/],
  ['REDIS_URL', 'http://pw-secret@redis', /redis:\/\/ or rediss:\/\/ URL/],
  ['REDIS_PREFIX', 'my prefix', /spaces or braces/],
  ['REDIS_CLUSTER', 'yes', /on|off/],
  ['TRUST_PROXY', 'everyone', /not an IP address, CIDR range, hop count/],
  ['SECRET_KEY', 'short-pw-secret', /at least 32 characters/],
  ['CARD_KEY', 'short-pw-secret', /at least 32 characters/],
  ['ADMIN_TOKEN', 'pw-secret', /at least 16 characters/],
  ['PUBLIC_URL', 'api.shop.local', /absolute URL/],
  ['LOG_LEVEL', 'loud', /fatal|info/],
  ['SHUTDOWN_TIMEOUT_MS', '-5', /whole number/],
  ['HEADERS_TIMEOUT_MS', '40000', /must not exceed REQUEST_TIMEOUT_MS/],
  ['REQUEST_TIMEOUT_MS', 'soon', /whole number/],
  ['KEEP_ALIVE_TIMEOUT_MS', '1.5', /whole number/],
  ['MAX_CONNECTIONS_PER_IP', '-1', /whole number/],
  ['DECISION_LOG_DAYS', '9999', /whole number from 0 to 3650/],
  ['POLICY_REFRESH_MS', '10', /whole number from 50/],
  ['WEBHOOK_WORKER', 'maybe', /on|off/],
  ['WEBHOOK_TIMEOUT_MS', 'ten', /whole number/],
  ['WEBHOOK_LEASE_MS', '5000', /must exceed WEBHOOK_TIMEOUT_MS/],
  ['WEBHOOK_ALLOW_PRIVATE', 'not a target!', /host:port, IP addresses or CIDR ranges/],
  ['NETWORK', 'maybe', /on|off/],
  ['DNS_SERVERS', 'resolver.local', /not an IP address with an optional port/],
  ['DNS_CANARY_NAME', 'no spaces allowed', /domain name with MX records, or off/],
  ['NETWORK_BUDGET_MS', '-1', /whole number/],
  ['NETWORK_TIMEOUT_MS', '1', /whole number from 50/],
  ['DATA_UPDATE_INTERVAL', '5m', /at least 10 minutes/],
  ['MAXMIND_ACCOUNT_ID', 'acct', /numeric MaxMind account ID/],
  ['MAXMIND_LICENSE_KEY', 'pw-secret!', /MaxMind licence key/],
  ['MAXMIND_BASE_URL', 'mirror.local', /absolute URL/],
  ['DASHBOARD', 'maybe', /on|off/],
  ['DASHBOARD_SESSION_MINUTES', '1', /5/],
];
/** Read from disk when used (and refused then with their own message), or a pair already in BAD. */
const CHECKED_WHEN_USED = new Set(['CARD_KEY_FILE', 'SEED_FILE', 'RDAP_ASN_BOOTSTRAP_FILE', 'CRAWLER_RANGES_FILE', 'DATA_SOURCES_FILE', 'RDAP_BOOTSTRAP_FILE', 'DATA_IMPORT_DIR']);

describe('bad variables one by one', () => {
  const base = { DATA_DIR: join(dir, 'data') };
  for (const [name, value, says] of BAD) {
    it(`${name}=${JSON.stringify(value)}`, () => {
      // The pair needs its other half to be about this one variable.
      const other = name === 'MAXMIND_ACCOUNT_ID' ? { MAXMIND_LICENSE_KEY: 'abcdefgh12' } : name === 'MAXMIND_LICENSE_KEY' ? { MAXMIND_ACCOUNT_ID: '123' } : {};
      let message = '';
      assert.throws(() => loadConfig({ ...base, ...other, [name]: value }), (e: unknown) => e instanceof ConfigError && (message = e.message) !== '');
      assert.match(message, /^Invalid configuration \(1 variable; see README "Configuration"\):\n {2}/);
      const line = message.split('\n')[1] ?? '';
      assert.ok(line.startsWith(`  ${name}`), line);
      assert.match(line, says);
      // Values of variables that may hold a secret (keys, tokens, URLs with a password) are never repeated.
      if (/SECRET|TOKEN|_URL$|_KEY$/.test(name)) assert.ok(!line.includes(value), `the value is not repeated: ${line}`);
      else assert.ok(line.includes(JSON.stringify(value)), `the value is shown: ${line}`);
    });
  }

  it('covers every variable of the README table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## CLI'));
    const names = new Set([...section.matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...(m[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((n) => n[1] ?? '')));
    const tried = new Set(BAD.map(([n]) => n));
    const missing = [...names].filter((n) => !tried.has(n) && !CHECKED_WHEN_USED.has(n));
    assert.ok(names.size > 30, [...names].join(' '));
    assert.deepEqual(missing, []);
  });
});

describe('every bad variable at once', () => {
  it('reports the checks between variables beside a bad variable elsewhere', () => {
    let message = '';
    assert.throws(
      () => loadConfig({ DATA_DIR: join(dir, 'data'), PORT: 'eighty', HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000', MAXMIND_LICENSE_KEY: 'abcdefgh12', WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '5000' }),
      (e: unknown) => e instanceof ConfigError && (message = e.message) !== '',
    );
    assert.match(message, /^Invalid configuration \(4 variables;/);
    for (const says of [/PORT="eighty": /, /HEADERS_TIMEOUT_MS="40000": must not exceed REQUEST_TIMEOUT_MS/, /MAXMIND_ACCOUNT_ID: MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY go together/, /WEBHOOK_LEASE_MS="5000": must exceed WEBHOOK_TIMEOUT_MS/]) {
      assert.match(message, says);
    }
  });

  it('does not judge a pair when one of its variables is itself bad', () => {
    let message = '';
    assert.throws(() => loadConfig({ DATA_DIR: join(dir, 'data'), REQUEST_TIMEOUT_MS: 'soon', HEADERS_TIMEOUT_MS: '40000' }), (e: unknown) => e instanceof ConfigError && (message = e.message) !== '');
    assert.match(message, /^Invalid configuration \(1 variable;/);
    assert.match(message, /REQUEST_TIMEOUT_MS="soon"/);
  });
});
