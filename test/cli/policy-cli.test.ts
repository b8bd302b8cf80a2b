/**
 * `vigil rules|blacklist|webhooks|events` and the policy part of `vigil seed`, run as child
 * processes against a temp DATA_DIR (SQLite).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { SqliteStore } from '../../src/store/index.ts';
import { failed, ok, tempDir, vigil } from '../helpers/cli-runner.ts';

interface RuleOut {
  id: string;
  title: string;
  enabled: boolean;
}
interface ChangeOut {
  received: number;
  changed: number;
  skipped: number;
}

describe('policy CLI', () => {
  let env: Record<string, string>;
  let dir: string;
  const file = (name: string, content: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  before(async () => {
    dir = tempDir();
    env = { DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' };
    const seed = {
      accounts: [
        {
          id: 'acme', plan: 'premium', keys: ['svc_live_acmecli000000000000000001'],
          blacklists: [{ type: 'ip', values: ['203.0.113.7', '198.51.100.0/24'] }],
          customRules: [{ title: 'Tor', group: 'ip', conditions: { all: [{ field: 'security.isTor', op: 'eq', value: true }] }, action: { type: 'blacklist' } }],
          webhooks: [{ url: 'http://127.0.0.1:9/hook', secret: 'whsec_x' }],
        },
      ],
    };
    const path = file('seed.json', seed);
    assert.deepEqual(ok(await vigil(['seed', path], env)), { plans: 0, accounts: 1, keysAdded: 1, rules: 1, listValues: 2, webhooks: 1 });
    // Idempotent: the same rule is replaced, not added; values and the webhook are kept.
    assert.deepEqual(ok(await vigil(['seed', path], env)), { plans: 0, accounts: 1, keysAdded: 0, rules: 1, listValues: 0, webhooks: 0 });
  });

  it('rules: add, list, test, disable, delete; invalid rules are refused', async () => {
    const seeded = ok<RuleOut[]>(await vigil(['rules', 'list', 'acme'], env));
    assert.deepEqual(seeded.map((r) => [r.id, r.title]), [['CR101', 'Tor']]);
    const added = ok<RuleOut[]>(await vigil(['rules', 'add', 'acme', file('rule.json', { title: 'Gmail', group: 'email', conditions: { any: [{ field: 'domain.name', op: 'eq', value: 'gmail.com' }] }, action: { type: 'mark_invalid' } })], env));
    assert.deepEqual(added.map((r) => r.id), ['CR102']);
    const sample = file('sample.json', { input: { email: 'a@gmail.com' }, result: { domain: { name: 'GMAIL.com' } } });
    const trace = ok<{ matched: boolean; wouldApply: unknown }>(await vigil(['rules', 'test', 'acme', '--id', 'CR102', '--sample', sample], env));
    assert.equal(trace.matched, true);
    assert.deepEqual(trace.wouldApply, { type: 'mark_invalid' });
    assert.equal(ok<RuleOut>(await vigil(['rules', 'disable', 'acme', 'CR102'], env)).enabled, false);
    assert.deepEqual(ok(await vigil(['rules', 'delete', 'acme', 'CR102'], env)), { id: 'CR102', deleted: true });
    failed(await vigil(['rules', 'delete', 'acme', 'CR102'], env), /no rule "CR102"/);
    failed(await vigil(['rules', 'add', 'acme', file('bad.json', { title: 'x', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'like', value: 'x' }] }, action: { type: 'blacklist' } })], env), /like/);
    failed(await vigil(['rules', 'add', 'acme', file('broken.json', '{"title": ')], env), /not valid JSON/);
    assert.equal(ok<RuleOut[]>(await vigil(['rules', 'list', 'acme'], env)).length, 1, 'nothing saved by refused rules');
  });

  it('rules backtest counts the feedback labels stored in DATA_DIR', async () => {
    // Two logged IP evaluations, one about an identity labelled fraud, written straight into the store.
    const store = new SqliteStore({ path: join(dir, 'vigil.db') });
    await store.migrate();
    const [fraud, other] = ['f'.repeat(64), 'e'.repeat(64)];
    const at = '2024-05-01T10:00:00.000Z';
    const record = (ip: string, hash: string) => ({ accountId: 'acme', group: 'ip', operation: 'lookup.ip', userId: null, at, input: { ip }, result: { ip, countryCode: 'FR' }, identities: [hash] });
    await store.decisions.append([record('192.0.2.1', fraud), record('192.0.2.2', other)]);
    await store.evidence.put({ accountId: 'acme', type: 'ip', valueHash: fraud, origin: 'label', label: 'fraud', masked: '192.0.2.*', reason: null, source: null, occurredAt: new Date().toISOString(), updatedAt: new Date().toISOString() });
    await store.close();
    const rule = file('fr.json', { title: 'France', group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'FR' }] }, action: { type: 'blacklist' } });
    const result = ok<{ evaluated: number; matched: number; labels: Record<string, unknown> }>(await vigil(['rules', 'backtest', 'acme', '--rule', rule, '--from', '2024-05-01T00:00:00Z', '--to', '2024-05-02T00:00:00Z'], env));
    assert.equal(result.evaluated, 2);
    assert.equal(result.matched, 2);
    assert.deepEqual(result.labels, { labelled: 1, fraud: 1, legit: 0, truePositives: 1, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, precision: 1, recall: 1 });
  });

  it('blacklist: add, import with and without --skip-invalid, counts, remove', async () => {
    assert.equal(ok<ChangeOut>(await vigil(['blacklist', 'add', 'acme', 'ip', '10.1.2.3/8', '2001:DB8::/32'], env)).changed, 2);
    const emails = file('emails.txt', '# fraudsters\nA@Example.com\nb@example.com\n\nnot-an-email\n');
    failed(await vigil(['blacklist', 'import', 'acme', 'email', emails], env), /not-an-email/);
    const skipped = ok<ChangeOut>(await vigil(['blacklist', 'import', 'acme', 'email', emails, '--skip-invalid'], env));
    assert.deepEqual([skipped.received, skipped.changed, skipped.skipped], [3, 2, 1]);
    assert.deepEqual(ok(await vigil(['blacklist', 'counts', 'acme'], env)), { email: 2, ip: 4 });
    const ips = ok<Array<{ value: string }>>(await vigil(['blacklist', 'list', 'acme', '--type', 'ip'], env)).map((e) => e.value);
    assert.ok(ips.includes('10.0.0.0/8') && ips.includes('2001:db8::/32'), ips.join(','));
    assert.equal(ok<ChangeOut>(await vigil(['blacklist', 'remove', 'acme', 'ip', '10.0.0.0/8'], env)).changed, 1);
    failed(await vigil(['blacklist', 'add', 'acme', 'colour', 'red'], env), /unknown blacklist type/);
  });

  it('webhooks: add shows the secret once, list hides it, rotate, remove', async () => {
    const hook = ok<{ id: string; secret: string }>(await vigil(['webhooks', 'add', 'acme', 'https://hooks.example.com/vigil'], env));
    assert.match(hook.secret, /^whsec_/);
    const listed = ok<Array<Record<string, unknown>>>(await vigil(['webhooks', 'list', 'acme'], env));
    assert.equal(listed.length, 2);
    assert.ok(listed.every((w) => w.secret === undefined));
    assert.notEqual(ok<{ secret: string }>(await vigil(['webhooks', 'rotate', 'acme', hook.id], env)).secret, hook.secret);
    assert.deepEqual(ok(await vigil(['webhooks', 'remove', 'acme', hook.id], env)), { id: hook.id, deleted: true });
    failed(await vigil(['webhooks', 'add', 'acme', 'file:///etc/passwd'], env), /http/);
  });

  it('events: list, CSV export, unknown accounts and missing arguments', async () => {
    assert.deepEqual(ok(await vigil(['events', 'list', 'acme'], env)), []);
    const csv = await vigil(['events', 'export', 'acme'], env);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout.trim(), 'event_id,kind,risk,subject,user_id,operation,created_at,summary');
    failed(await vigil(['events', 'list', 'ghost'], env), /no account with id "ghost"/);
    failed(await vigil(['events', 'list', 'acme', '--kind', 'nope'], env), /--kind/);
    for (const args of [['rules'], ['rules', 'add', 'acme'], ['blacklist', 'add', 'acme', 'ip'], ['webhooks', 'add', 'acme'], ['events', 'redeliver', 'acme', 'x']]) {
      const r = await vigil(args, env);
      assert.equal(r.code, 2, args.join(' '));
      // The command's own usage, not the whole help.
      assert.match(r.stderr, new RegExp(`Usage:\\n {2}vigil ${args[0] ?? ''} `));
      assert.doesNotMatch(r.stderr, /unknown command|vigil serve/);
    }
  });
});
