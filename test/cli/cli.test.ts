/**
 * The real CLI (`src/cli/main.ts`) run as child processes against a temp DATA_DIR (SQLite) and a
 * fresh PostgreSQL database; keys it creates are then used against an app on the same store.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import { sharedEngineData } from '../helpers/harness.ts';
import { freePort } from '../helpers/free-port.ts';
import { CHILD_TIMEOUT_MS, failed, ok, ROOT, SECRET, tempDir, vigil } from '../helpers/cli-runner.ts';

const PG_BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The decisions.md example seed. */
const EXAMPLE_SEED = {
  plans: [{ id: 'tiny', methods: ['*'], modules: ['security', 'device'], monthlyQuota: 5, flood: { limit: 3, windowSeconds: 1 } }],
  accounts: [
    {
      id: 'acme', status: 'active', plan: 'premium', subscription: { expiresAt: '2030-01-01T00:00:00Z' }, authorizedHosts: [],
      settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 100 },
      keys: ['svc_live_acme0000000000000000000001', 'svc_test_acme0000000000000000000001'],
      blacklists: [{ type: 'ip', values: ['203.0.113.7'] }], customRules: [], webhooks: [{ url: 'http://127.0.0.1:9100/hook', secret: 'whsec_x' }],
    },
  ],
};

interface AccountOut {
  id: string;
  status: string;
  planId: string;
  subscription: { expiresAt: string | null } | null;
  authorizedHosts: string[];
}
interface KeyOut {
  id: string;
  accountId: string;
  kind: string;
  key?: string;
  hint?: string;
  revokedAt?: string | null;
}
interface PlanOut {
  id: string;
  methods: string[];
  modules: string[];
  monthlyQuota: number | null;
  flood: { limit: number; windowSeconds: number };
}

describe('cli usage and configuration', () => {
  let env: Record<string, string>;
  before(() => {
    env = { DATA_DIR: tempDir() };
  });

  it('no arguments: usage on stdout, exit 2', async () => {
    const r = await vigil([], env);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^vigil: self-hosted fraud prevention API/);
    assert.match(r.stdout, /Usage:[\s\S]*vigil accounts create[\s\S]*vigil keys revoke KEY_ID/);
    assert.equal(r.stderr, '');
  });

  it('help, --help and -h: usage on stdout, exit 0', async () => {
    for (const arg of ['help', '--help', '-h']) {
      const r = await vigil([arg], env);
      assert.equal(r.code, 0, arg);
      assert.match(r.stdout, /Usage:/, arg);
      assert.equal(r.stderr, '', arg);
    }
  });

  it('an unknown command: the whole help on stderr, exit 2', async () => {
    const r = await vigil(['bogus'], env);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^vigil: unknown command "bogus"/);
    assert.match(r.stderr, /Usage:[\s\S]*vigil accounts create[\s\S]*vigil keys revoke KEY_ID/);
  });

  it('a known command called wrongly: the usage of that command only, exit 2', async () => {
    const cases: [string[], RegExp, RegExp][] = [
      [['keys', 'create'], /^vigil: missing or extra arguments for "vigil keys create"/, /^Usage:\n {2}vigil keys create ACCOUNT \[--test\][^\n]*$/m],
      [['accounts', 'disable'], /^vigil: missing or extra arguments for "vigil accounts disable"/, /vigil accounts disable ID/],
      [['accounts'], /^vigil: "vigil accounts" needs a sub-command/, /vigil accounts list[\s\S]*vigil accounts create/],
      [['plans', 'delete'], /^vigil: unknown plans command "delete"/, /vigil plans list/],
      [['seed'], /^vigil: "vigil seed" needs a sub-command/, /vigil seed FILE/],
    ];
    for (const [args, why, usage] of cases) {
      const r = await vigil(args, env);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      assert.match(r.stderr, why, args.join(' '));
      assert.match(r.stderr, usage, args.join(' '));
      // Only that command's lines: no other command, not the whole help.
      assert.doesNotMatch(r.stderr, /unknown command|vigil serve|vigil data import/, args.join(' '));
    }
    const keys = await vigil(['keys', 'create'], env);
    assert.equal(keys.stderr.split('\n').filter((l) => l.startsWith('  vigil ')).length, 1);
  });

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const arg of ['--version', '-v', 'version']) {
      const r = await vigil([arg], env);
      assert.equal(r.code, 0, arg);
      assert.equal(r.stdout, `vigil ${version}\n`);
    }
  });

  it('an unknown option is a usage error (exit 2), not a stack trace', async () => {
    const r = await vigil(['accounts', 'create', '--colour', 'red'], env);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^vigil: Unknown option '--colour'/);
    assert.match(r.stderr, /Usage:/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(readdirSync(env.DATA_DIR ?? ''), [], 'nothing was opened or written');
  });

  it('bad configuration: exit 1 naming each bad variable', async () => {
    const r = await vigil(['plans', 'list'], { ...env, PORT: 'abc' });
    failed(r, /Invalid configuration/);
    assert.match(r.stderr, /PORT/);
    const two = await vigil(['accounts', 'list'], { ...env, PORT: '70000', SECRET_KEY: 'short', DATABASE_URL: 'mysql://x' });
    failed(two, /Invalid configuration/);
    for (const name of ['PORT', 'SECRET_KEY', 'DATABASE_URL']) assert.match(two.stderr, new RegExp(`\\b${name}\\b`), name);
  });
});

describe('cli plans, accounts and keys (SQLite)', () => {
  let env: Record<string, string>;
  before(() => {
    env = { DATA_DIR: tempDir() };
  });

  it('plans list: the four built-in plans', async () => {
    const plans = ok<PlanOut[]>(await vigil(['plans', 'list'], env));
    assert.deepEqual(plans.map((p) => p.id).sort(), ['payg', 'premium', 'standard', 'trial']);
    const quota = Object.fromEntries(plans.map((p) => [p.id, p.monthlyQuota]));
    assert.deepEqual(quota, { payg: null, premium: 1000000, standard: 100000, trial: 5000 });
    for (const p of plans) assert.deepEqual(p.flood, { limit: 1000, windowSeconds: 1 });
    assert.deepEqual(plans.find((p) => p.id === 'standard')?.modules, ['security']);
  });

  it('migrate: applies the migrations and exits 0 (a deployment\'s migration step)', async () => {
    const dir = tempDir();
    assert.deepEqual(ok<{ migrated: string }>(await vigil(['migrate'], { DATA_DIR: dir })), { migrated: 'sqlite' });
    assert.ok(existsSync(join(dir, 'vigil.db')));
  });

  it('accounts create, then list shows it', async () => {
    const created = ok<AccountOut>(await vigil(['accounts', 'create', '--id', 'acme', '--plan', 'trial', '--host', 'shop.example.com', '--host', '10.0.0.0/8'], env));
    assert.equal(created.id, 'acme');
    assert.equal(created.planId, 'trial');
    assert.equal(created.status, 'active');
    assert.deepEqual(created.subscription, { expiresAt: null });
    assert.deepEqual(created.authorizedHosts, ['shop.example.com', '10.0.0.0/8']);
    const list = ok<AccountOut[]>(await vigil(['accounts', 'list'], env));
    assert.deepEqual(list.map((a) => a.id), ['acme']);
    assert.deepEqual(list[0]?.authorizedHosts, ['shop.example.com', '10.0.0.0/8']);
  });

  it('creating the same account again: exit 1 with a clear message', async () => {
    failed(await vigil(['accounts', 'create', '--id', 'acme', '--plan', 'premium'], env), /^vigil: account "acme" already exists\n$/);
    const list = ok<AccountOut[]>(await vigil(['accounts', 'list'], env));
    assert.equal(list.find((a) => a.id === 'acme')?.planId, 'trial');
  });

  it('unknown plan, bad host, bad expiry: exit 1, nothing created', async () => {
    failed(await vigil(['accounts', 'create', '--id', 'gold', '--plan', 'gold'], env), /unknown plan "gold"/);
    failed(await vigil(['accounts', 'create', '--id', 'badhost', '--host', 'http://shop.example.com'], env), /authorized host/);
    failed(await vigil(['accounts', 'create', '--id', 'badexp', '--expires', 'someday'], env), /expiresAt "someday" is not a date/);
    const ids = ok<AccountOut[]>(await vigil(['accounts', 'list'], env)).map((a) => a.id);
    assert.deepEqual(ids, ['acme']);
  });

  it('--expires none and an ISO date', async () => {
    const none = ok<AccountOut>(await vigil(['accounts', 'create', '--id', 'nosub', '--expires', 'none'], env));
    assert.equal(none.subscription, null);
    assert.equal(none.planId, 'premium', 'premium is the default plan');
    const dated = ok<AccountOut>(await vigil(['accounts', 'create', '--id', 'dated', '--expires', '2031-05-01T00:00:00Z'], env));
    assert.deepEqual(dated.subscription, { expiresAt: '2031-05-01T00:00:00.000Z' }, 'shown in its stored form');
  });

  let liveId = '';
  let liveKey = '';
  it('keys create prints a svc_live_ key; --test a svc_test_ key', async () => {
    const live = ok<KeyOut>(await vigil(['keys', 'create', 'acme'], env));
    assert.match(live.key ?? '', /^svc_live_[A-Za-z0-9]{32}$/);
    assert.equal(live.kind, 'live');
    assert.equal(live.accountId, 'acme');
    const test = ok<KeyOut>(await vigil(['keys', 'create', 'acme', '--test'], env));
    assert.match(test.key ?? '', /^svc_test_[A-Za-z0-9]{32}$/);
    assert.equal(test.kind, 'test');
    liveId = live.id;
    liveKey = live.key ?? '';
  });

  it('keys list shows no hash and no plaintext', async () => {
    const r = await vigil(['keys', 'list', 'acme'], env);
    const keys = ok<KeyOut[]>(r);
    assert.equal(keys.length, 2);
    for (const k of keys) {
      assert.deepEqual(Object.keys(k).sort(), ['accountId', 'createdAt', 'hint', 'id', 'kind', 'revokedAt']);
      assert.equal(k.revokedAt, null);
    }
    assert.ok(!r.stdout.includes(liveKey), 'plaintext not listed');
    assert.doesNotMatch(r.stdout, /svc_(live|test)_/);
    assert.doesNotMatch(r.stdout, /[0-9a-f]{64}/, 'no hash');
    assert.equal(keys.find((k) => k.id === liveId)?.hint, liveKey.slice(-4));
  });

  it('keys revoke works once; unknown ids and accounts are exit 1', async () => {
    assert.deepEqual(ok(await vigil(['keys', 'revoke', liveId], env)), { id: liveId, revoked: true });
    const keys = ok<KeyOut[]>(await vigil(['keys', 'list', 'acme'], env));
    assert.match(keys.find((k) => k.id === liveId)?.revokedAt ?? '', /^\d{4}-\d{2}-\d{2}T/);
    failed(await vigil(['keys', 'revoke', liveId], env), /no active key with id/);
    failed(await vigil(['keys', 'revoke', 'key_doesnotexist'], env), /no active key with id "key_doesnotexist"/);
    failed(await vigil(['keys', 'create', 'ghost'], env), /no account with id "ghost"/);
    failed(await vigil(['keys', 'list', 'ghost'], env), /no account with id "ghost"/);
  });

  it('accounts disable sets the status to inactive; an unknown id is exit 1', async () => {
    const disabled = ok<AccountOut>(await vigil(['accounts', 'disable', 'acme'], env));
    assert.equal(disabled.status, 'inactive');
    assert.equal(disabled.planId, 'trial');
    assert.equal(ok<AccountOut[]>(await vigil(['accounts', 'list'], env)).find((a) => a.id === 'acme')?.status, 'inactive');
    failed(await vigil(['accounts', 'disable', 'ghost'], env), /no account with id "ghost"/);
  });
});

describe('cli seed', () => {
  let env: Record<string, string>;
  let dir: string;
  before(() => {
    dir = tempDir();
    // The example seed's webhook is on 127.0.0.1 (decisions.md): refused unless allowed.
    env = { DATA_DIR: join(dir, 'data'), WEBHOOK_ALLOW_PRIVATE: '127.0.0.1:9100' };
  });

  it('loads the decisions.md example and is idempotent', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify(EXAMPLE_SEED));
    assert.deepEqual(ok(await vigil(['seed', file], env)), { plans: 1, accounts: 1, keysAdded: 2, rules: 0, listValues: 1, webhooks: 1 });
    const firstAccounts = ok<AccountOut[]>(await vigil(['accounts', 'list'], env));
    assert.deepEqual(ok(await vigil(['seed', file], env)), { plans: 1, accounts: 1, keysAdded: 0, rules: 0, listValues: 0, webhooks: 0 });
    const secondAccounts = ok<AccountOut[]>(await vigil(['accounts', 'list'], env));
    assert.deepEqual(secondAccounts, firstAccounts);
    assert.deepEqual(secondAccounts.map((a) => a.id), ['acme']);
    assert.equal(secondAccounts[0]?.planId, 'premium');
    assert.equal(Date.parse(secondAccounts[0]?.subscription?.expiresAt ?? ''), Date.parse('2030-01-01T00:00:00Z'));
    const keys = ok<KeyOut[]>(await vigil(['keys', 'list', 'acme'], env));
    assert.deepEqual(keys.map((k) => k.kind).sort(), ['live', 'test']);
    const tiny = ok<PlanOut[]>(await vigil(['plans', 'list'], env)).find((p) => p.id === 'tiny');
    assert.deepEqual(tiny, EXAMPLE_SEED.plans[0]);
  });

  it('invalid seeds: exit 1 naming the problem, nothing stored', async () => {
    const cases: [string, string, RegExp][] = [
      ['bad-json.json', '{"accounts": [', /seed file is not valid JSON/],
      ['bad-prefix.json', JSON.stringify({ accounts: [{ id: 'evil', plan: 'trial', keys: ['sk_live_0000000000000000000000'] }] }), /seed file is invalid:[\s\S]*accounts\.0\.keys\.0: keys start with svc_live_ or svc_test_/],
      ['bad-status.json', JSON.stringify({ accounts: [{ id: 'evil', plan: 'trial', status: 'paused' }] }), /accounts\.0\.status/],
      ['bad-flood.json', JSON.stringify({ plans: [{ id: 'evilplan', methods: ['*'], flood: { limit: 0, windowSeconds: 1 } }] }), /plans\.0\.flood\.limit/],
      ['unknown-plan.json', JSON.stringify({ accounts: [{ id: 'evil', plan: 'gold' }] }), /unknown plan "gold"/],
    ];
    for (const [name, text, why] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      failed(await vigil(['seed', file], env), why);
    }
    failed(await vigil(['seed', join(dir, 'missing.json')], env), /seed file .*missing\.json cannot be read: ENOENT/);
    const noFile = await vigil(['seed'], env);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /Usage:\n {2}vigil seed FILE/);
    const ids = ok<AccountOut[]>(await vigil(['accounts', 'list'], env)).map((a) => a.id);
    assert.deepEqual(ids, ['acme']);
    assert.ok(!ok<PlanOut[]>(await vigil(['plans', 'list'], env)).some((p) => p.id === 'evilplan'));
  });
});

describe('cli keys work against the API on the same store', () => {
  let dataDir: string;
  const keys: Record<string, string> = {};
  before(async () => {
    dataDir = tempDir();
    const env = { DATA_DIR: dataDir };
    ok(await vigil(['accounts', 'create', '--id', 'e2e', '--plan', 'standard'], env));
    keys.live = ok<KeyOut>(await vigil(['keys', 'create', 'e2e'], env)).key ?? '';
    keys.test = ok<KeyOut>(await vigil(['keys', 'create', 'e2e', '--test'], env)).key ?? '';
    const revoked = ok<KeyOut>(await vigil(['keys', 'create', 'e2e'], env));
    keys.revoked = revoked.key ?? '';
    ok(await vigil(['keys', 'revoke', revoked.id], env));
    // A key hashed under another secret must not resolve.
    keys.otherSecret = ok<KeyOut>(await vigil(['keys', 'create', 'e2e'], { ...env, SECRET_KEY: 'another-secret-0123456789abcdefghijklmn' })).key ?? '';
    ok(await vigil(['accounts', 'create', '--id', 'off'], env));
    keys.disabled = ok<KeyOut>(await vigil(['keys', 'create', 'off'], env)).key ?? '';
    ok(await vigil(['accounts', 'disable', 'off'], env));
  });

  it('live and test keys answer; revoked, disabled and foreign-secret keys do not', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: SECRET, LOG_LEVEL: 'silent' });
    const store = await openStore({ dataDir });
    const counters = await openCounters({});
    const { app, recorder } = await buildApp({ config, store, counters, data: sharedEngineData(), secret: SECRET, cardSecret: SECRET, logger: pino({ level: 'silent' }), processMetrics: false });
    try {
      await app.ready();
      const call = async (key: string) => {
        const res = await app.inject({ url: '/lookup/country', query: { CountryCode: 'JP', key } });
        assert.equal(res.statusCode, 200);
        return JSON.parse(res.body) as { status: string; code?: number; data?: { countryCode: string } };
      };
      const live = await call(keys.live ?? '');
      assert.equal(live.status, 'success', JSON.stringify(live));
      assert.equal(live.data?.countryCode, 'JP');
      assert.equal((await call(keys.test ?? '')).status, 'success');
      assert.equal((await call(keys.revoked ?? '')).code, 101);
      assert.equal((await call(keys.otherSecret ?? '')).code, 101);
      assert.equal((await call(keys.disabled ?? '')).code, 102);
      await recorder.flush();
      const day = new Date().toISOString().slice(0, 10);
      const usage = await store.usage.list('e2e', day, day);
      assert.deepEqual(usage.map((u) => [u.method, u.count]), [['lookup/country', 1]]);
    } finally {
      await app.close();
      await store.close();
      await counters.close();
    }
  });

  it('serve on the same DATA_DIR accepts the CLI key over HTTP', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir, SECRET_KEY: SECRET, LOG_LEVEL: 'silent', PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CHILD_TIMEOUT_MS,
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let body: { status?: string; data?: { countryCode: string } } | undefined;
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && body === undefined) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/lookup/country?CountryCode=BR`, { headers: { authorization: `Bearer ${keys.live}` } });
          body = (await res.json()) as typeof body;
        } catch {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      assert.ok(body, `server did not answer: ${out}`);
      assert.equal(body.status, 'success', JSON.stringify(body));
      assert.equal(body.data?.countryCode, 'BR');
      // The store was not empty, so no bootstrap account or key file appeared.
      assert.ok(!readdirSync(dataDir).includes('bootstrap-keys.json'));
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0, out);
    }
  });
});

describe('cli on PostgreSQL', () => {
  const name = `vigil_cli_${randomBytes(6).toString('hex')}`;
  const url = new URL(PG_BASE_URL);
  url.pathname = `/${name}`;
  let env: Record<string, string>;
  const adminQuery = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: PG_BASE_URL, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  before(async () => {
    await adminQuery(`CREATE DATABASE ${name}`);
    env = { DATA_DIR: tempDir(), DATABASE_URL: url.toString() };
  });
  after(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('accounts create, list and keys work there, and nothing lands in DATA_DIR', async () => {
    const created = ok<AccountOut>(await vigil(['accounts', 'create', '--id', 'pgacme', '--plan', 'standard', '--host', '*.example.com'], env));
    assert.equal(created.planId, 'standard');
    const list = ok<AccountOut[]>(await vigil(['accounts', 'list'], env));
    assert.deepEqual(list.map((a) => [a.id, a.planId, a.authorizedHosts]), [['pgacme', 'standard', ['*.example.com']]]);
    failed(await vigil(['accounts', 'create', '--id', 'pgacme'], env), /already exists/);
    const key = ok<KeyOut>(await vigil(['keys', 'create', 'pgacme'], env));
    assert.match(key.key ?? '', /^svc_live_/);

    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      const accounts = await client.query<{ id: string }>('SELECT id FROM accounts');
      assert.deepEqual(accounts.rows.map((r) => r.id), ['pgacme']);
      const dump = JSON.stringify((await client.query('SELECT * FROM api_keys')).rows);
      assert.ok(dump.includes(key.id));
      assert.ok(!dump.includes(key.key ?? '∅'), 'the plaintext key is not stored');
    } finally {
      await client.end();
    }
    assert.deepEqual(readdirSync(env.DATA_DIR ?? ''), [], 'SQLite was not used');
  });
});
