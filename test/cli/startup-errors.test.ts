/**
 * Start-up failures as an operator meets them, through the real CLI process: each names the variable, the
 * address it led to and the fix, in one line without a stack trace, and every bad variable at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('DATA_DIR an existing file: DATA_DIR, the path and the fix, with the other bad variables (not a bare EEXIST)', async () => {
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await vigil(['serve'], { DATA_DIR: file, PORT: 'eighty' });
    failed(r, /^vigil: Invalid configuration \(2 variables/);
    assert.match(r.stderr, new RegExp(`DATA_DIR="${file}": is a file, not a directory; set DATA_DIR to a directory this user can write \\(it is created if missing\\)`));
    assert.match(r.stderr, /PORT="eighty": /);
    assert.doesNotMatch(r.stderr, /EEXIST/);
    // Below a file too: the file is named.
    const below = await vigil(['accounts', 'list'], { DATA_DIR: join(file, 'data') });
    failed(below, new RegExp(`DATA_DIR="${file}/data": cannot be created: ${file} is a file, not a directory; set DATA_DIR`));
  });

  it('DATA_DIR on /proc (or /sys): fails at once, naming DATA_DIR, the path and the fix; nothing is written', { skip: !existsSync('/proc/self') }, async () => {
    const started = Date.now();
    const r = await vigil(['serve'], { DATA_DIR: '/proc', PORT: '0' });
    failed(r, /^vigil: Invalid configuration \(1 variable; see README "Configuration"\):\n {2}DATA_DIR="\/proc": is on proc, the kernel's virtual files, not a disk; set DATA_DIR to a directory/);
    const below = await vigil(['data', 'status'], { DATA_DIR: '/proc/vigil-data' });
    failed(below, /DATA_DIR="\/proc\/vigil-data": would be on proc, the kernel's virtual files/);
    if (existsSync('/sys/kernel')) failed(await vigil(['migrate'], { DATA_DIR: '/sys/kernel' }), /DATA_DIR="\/sys\/kernel": is on sysfs/);
    // Fails before opening anything: three CLI starts well within the child timeout.
    assert.ok(Date.now() - started < 25_000, `${Date.now() - started} ms`);
  });
});
