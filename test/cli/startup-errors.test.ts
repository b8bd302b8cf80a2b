/**
 * Start-up failures as an operator meets them, through the real CLI process: each names the variable, the
 * address it led to and the fix, in one line without a stack trace, and every bad variable at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freePort } from '../helpers/free-port.ts';
import { failed, tempDir, vigil } from '../helpers/cli-runner.ts';
import { PG_BASE_URL } from '../store/pg-test-database.ts';

describe('start-up failures name the variable, the address and the fix', () => {
  it('DATABASE_URL on a closed port: the address, "connection refused" and what to do; never the password', async () => {
    const port = await freePort();
    const r = await vigil(['serve'], { DATA_DIR: tempDir(), PORT: '0', DATABASE_URL: `postgres://vigil:hunter2-secret@127.0.0.1:${port}/vigil` });
    failed(r, new RegExp(`^vigil: DATABASE_URL: cannot use PostgreSQL at 127\\.0\\.0\\.1:${port}: connection refused`));
    assert.match(r.stderr, /Start PostgreSQL there or correct the host and port in DATABASE_URL/);
    assert.doesNotMatch(r.stderr, /hunter2/);
  });

  it('DATABASE_URL naming a database that does not exist: says so and how to create it', async () => {
    const url = new URL(PG_BASE_URL);
    url.pathname = '/vigil_no_such_db_7f3a';
    const r = await vigil(['plans', 'list'], { DATA_DIR: tempDir(), DATABASE_URL: url.toString() });
    failed(r, /^vigil: DATABASE_URL: cannot use PostgreSQL at .*: the database "vigil_no_such_db_7f3a" does not exist\. Create it/);
  });

  it('REDIS_URL unreachable: the address and the reason, not ioredis "max retries per request"', async () => {
    const port = await freePort();
    const r = await vigil(['serve'], { DATA_DIR: tempDir(), PORT: '0', REDIS_URL: `redis://127.0.0.1:${port}` });
    failed(r, new RegExp(`^vigil: REDIS_URL: cannot reach Redis at 127\\.0\\.0\\.1:${port}: connection refused`));
    assert.match(r.stderr, /unset REDIS_URL to keep counters in this process/);
    assert.doesNotMatch(r.stderr, /max retries/i);
  });

  it('every bad variable at once (TRUST_PROXY and DNS_SERVERS with the others), each named, secrets not echoed', async () => {
    const r = await vigil(['serve'], {
      DATA_DIR: tempDir(),
      HOST: '999.1.1.1',
      PORT: 'eighty',
      TRUST_PROXY: 'everyone!',
      DNS_SERVERS: 'resolver.local',
      LOG_LEVEL: 'loud',
      SECRET_KEY: 'too-short-secret',
    });
    failed(r, /^vigil: Invalid configuration \(6 variables/);
    assert.match(r.stderr, /HOST="999\.1\.1\.1": is not a valid IPv4 address .*use 0\.0\.0\.0/);
    assert.match(r.stderr, /PORT="eighty": must be a whole number from 0 to 65535/);
    assert.match(r.stderr, /TRUST_PROXY="everyone!": .*not an IP address, CIDR range, hop count/);
    assert.match(r.stderr, /DNS_SERVERS="resolver\.local": /);
    assert.match(r.stderr, /LOG_LEVEL="loud": /);
    assert.match(r.stderr, /SECRET_KEY: must be at least 32 characters/);
    assert.doesNotMatch(r.stderr, /too-short-secret/);
  });

  it('a HOST that is not an address of this machine: names HOST and the fix', async () => {
    // 192.0.2.1 (TEST-NET-1) is a valid address that no interface here has: nothing is sent, bind fails.
    const r = await vigil(['serve'], { DATA_DIR: tempDir(), PORT: String(await freePort()), HOST: '192.0.2.1' });
    failed(r, /^vigil: HOST: 192\.0\.2\.1 is not an address of this machine\. Set HOST to 0\.0\.0\.0/);
  });
});
