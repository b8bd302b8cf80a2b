import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { StoredEvent } from '../../store/ports.ts';
import { SqliteStore } from '../../store/sqlite/sqlite-store.ts';
import { payloadBody, webhookPayload } from './payload.ts';
import { openSecret, sealSecret } from './seal.ts';
import { MAX_URL_LENGTH, WebhookError, WebhookService, generateSecret, webhookUrl } from './service.ts';
import { signPayload, verifySignature } from './sign.ts';
import { backoffMs } from './worker.ts';

const SERVER_SECRET = 'test-server-secret-0123456789abcdef';

describe('webhook signatures', () => {
  const body = '{"event_id":1,"event":"suspicious_ip"}';
  const secret = 'whsec_abcdefghijklmnopqrstuvwxyz012345';

  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const header = signPayload(secret, body, 1_700_000_000);
    const hex = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    assert.equal(header, `t=1700000000,v1=${hex}`);
  });

  it('verifies with the secret within the tolerance, and only then', () => {
    const header = signPayload(secret, body, 1_700_000_000);
    assert.equal(verifySignature(header, body, secret, 300, 1_700_000_100), true);
    assert.equal(verifySignature(header, body, secret, 300, 1_699_999_900), true);
    assert.equal(verifySignature(header, body, secret, 300, 1_700_000_301), false, 'too old: a replay');
    assert.equal(verifySignature(header, body, `${secret}x`, 300, 1_700_000_000), false, 'another secret');
    assert.equal(verifySignature(header, `${body} `, secret, 300, 1_700_000_000), false, 'another body');
    assert.equal(verifySignature(header.replace('t=1700000000', 't=1700000001'), body, secret, 300, 1_700_000_000), false, 'another time');
  });

  it('accepts any of several v1 entries and ignores unknown schemes; malformed headers are not valid', () => {
    const good = signPayload(secret, body, 1_700_000_000).split(',')[1] ?? '';
    assert.equal(verifySignature(`t=1700000000, v0=abc, v1=${'0'.repeat(64)}, ${good}`, body, secret, 300, 1_700_000_000), true);
    for (const header of ['', 't=1700000000', good, 't=abc,' + good, `t=1700000000,v1=${'z'.repeat(64)}`, `t=1700000000,v1=${'0'.repeat(63)}`, 'garbage']) {
      assert.equal(verifySignature(header, body, secret, 300, 1_700_000_000), false, header);
    }
  });

  it('signs the exact bytes: non-ASCII bodies included', () => {
    const text = '{"subject":"日本語 👩‍💻"}';
    assert.equal(verifySignature(signPayload(secret, text, 5), text, secret, 0, 5), true);
    assert.throws(() => signPayload(secret, text, 1.5));
  });
});

describe('sealed secrets', () => {
  it('round-trips, with a fresh IV each time', () => {
    const plain = 'whsec_abc 日本語';
    const a = sealSecret(SERVER_SECRET, plain);
    const b = sealSecret(SERVER_SECRET, plain);
    assert.match(a, /^v1:[A-Za-z0-9+/]+=*$/);
    assert.notEqual(a, b);
    assert.ok(!a.includes('whsec'));
    assert.equal(openSecret(SERVER_SECRET, a), plain);
    assert.equal(openSecret(SERVER_SECRET, b), plain);
  });

  it('detects tampering, another server key and malformed input', () => {
    const sealed = sealSecret(SERVER_SECRET, 'whsec_secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    for (const index of [0, 14, raw.length - 1]) {
      const flipped = Buffer.from(raw);
      flipped[index] = (flipped[index] ?? 0) ^ 1;
      assert.throws(() => openSecret(SERVER_SECRET, `v1:${flipped.toString('base64')}`), /authentication failed/);
    }
    assert.throws(() => openSecret('another-server-secret', sealed), /authentication failed/);
    assert.throws(() => openSecret(SERVER_SECRET, 'whsec_secret'), /unknown format/);
    assert.throws(() => openSecret(SERVER_SECRET, 'v1:AAAA'), /too short/);
    assert.throws(() => sealSecret('', 'x'), /empty/);
  });
});

describe('webhook payload', () => {
  it('is {event_id, event, created_at, mode, user_id, data}', () => {
    const event: StoredEvent = {
      accountId: 'acct',
      eventId: 7,
      kind: 'fraud_payment',
      risk: 80,
      subject: 'j***@example.com',
      userId: null,
      operation: 'scoring.payment',
      createdAt: '2024-05-01T10:00:00.000Z',
      summary: { score: 80, rules: ['PF10017'] },
      identity: null,
    };
    assert.deepEqual(webhookPayload(event), {
      event_id: 7,
      event: 'fraud_payment',
      created_at: '2024-05-01T10:00:00.000Z',
      mode: 'live',
      user_id: null,
      data: { score: 80, rules: ['PF10017'] },
    });
    assert.equal(payloadBody(event), JSON.stringify(webhookPayload(event)));
  });
});

describe('retry backoff', () => {
  it('doubles from the base, is capped, and jitters down by at most 10%', () => {
    const none = (): number => 0;
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffMs(n, 10_000, 3_600_000, none)),
      [10_000, 20_000, 40_000, 80_000],
    );
    assert.equal(backoffMs(30, 10_000, 3_600_000, none), 3_600_000);
    assert.equal(backoffMs(5000, 10_000, 3_600_000, none), 3_600_000);
    assert.equal(backoffMs(1, 10_000, 3_600_000, () => 0.999), 9001);
  });
});

describe('webhook URLs', () => {
  it('accepts absolute http and https URLs and normalises them', () => {
    assert.equal(webhookUrl('https://hooks.example.com/vigil?x=1'), 'https://hooks.example.com/vigil?x=1');
    assert.equal(webhookUrl('  http://127.0.0.1:8080  '), 'http://127.0.0.1:8080/');
    assert.equal(webhookUrl('https://HOOKS.example.com/a#frag'), 'https://hooks.example.com/a');
    assert.equal(webhookUrl('http://[::1]:9/x'), 'http://[::1]:9/x');
  });

  it('refuses other schemes, relative URLs, credentials and very long URLs', () => {
    for (const bad of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '/relative', 'https://user:pass@example.com/', 'http://user@example.com/', '']) {
      assert.throws(
        () => webhookUrl(bad),
        (e: unknown) => e instanceof WebhookError && e.kind === 'invalid',
        bad,
      );
    }
    const long = `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`;
    assert.throws(() => webhookUrl(long), /at most 2048/);
    assert.equal(webhookUrl(`https://example.com/${'a'.repeat(MAX_URL_LENGTH - 20)}`).length, MAX_URL_LENGTH);
  });
});

describe('WebhookService', () => {
  let store: SqliteStore;
  let service: WebhookService;
  let queued = 0;
  const now = new Date('2024-05-01T10:00:00.000Z');

  before(async () => {
    store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    service = new WebhookService(store, SERVER_SECRET, () => now, () => (queued += 1));
  });

  after(async () => {
    await store.close();
  });

  it('generates whsec_ secrets of 32 base64url characters', () => {
    const secret = generateSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{32}$/);
    assert.notEqual(generateSecret(), secret);
  });

  it('add returns the secret once; the store holds it sealed; list never shows it', async () => {
    const added = await service.add('acct-a', 'https://hooks.example.com/a');
    assert.match(added.id, /^wh_[0-9a-f]{24}$/);
    assert.match(added.secret, /^whsec_/);
    assert.deepEqual(added, { id: added.id, accountId: 'acct-a', url: 'https://hooks.example.com/a', createdAt: now.toISOString(), secret: added.secret });
    const stored = await store.events.getWebhook('acct-a', added.id);
    assert.ok(stored);
    assert.notEqual(stored.secret, added.secret);
    assert.equal(openSecret(SERVER_SECRET, stored.secret), added.secret);
    const listed = await service.list('acct-a');
    assert.deepEqual(listed, [{ id: added.id, accountId: 'acct-a', url: 'https://hooks.example.com/a', createdAt: now.toISOString() }]);
    assert.ok(!JSON.stringify(listed).includes('secret'));
    assert.deepEqual(await service.get('acct-a', added.id), listed[0]);
  });

  it('keeps a secret the operator chose; refuses an unusable one', async () => {
    const added = await service.add('acct-b', 'http://hooks.example.com:9/hook', 'whsec_x');
    assert.equal(added.secret, 'whsec_x');
    for (const bad of ['', 'has space', 'tab\there', 'é-not-ascii', 'x'.repeat(257)]) {
      await assert.rejects(service.add('acct-b', 'http://hooks.example.com:9/hook', bad), (e: unknown) => e instanceof WebhookError && e.kind === 'invalid');
    }
    await assert.rejects(service.add('acct-b', 'ftp://example.com/'), /http or https/);
  });

  it('rotateSecret returns a new secret once and seals it', async () => {
    const added = await service.add('acct-c', 'https://hooks.example.com/c');
    const rotated = await service.rotateSecret('acct-c', added.id);
    assert.notEqual(rotated.secret, added.secret);
    assert.equal(rotated.id, added.id);
    const stored = await store.events.getWebhook('acct-c', added.id);
    assert.equal(openSecret(SERVER_SECRET, stored?.secret ?? ''), rotated.secret);
    await assert.rejects(service.rotateSecret('acct-other', added.id), (e: unknown) => e instanceof WebhookError && e.kind === 'not_found');
  });

  it('remove, then not_found', async () => {
    const added = await service.add('acct-d', 'https://hooks.example.com/d');
    await service.remove('acct-d', added.id);
    assert.deepEqual(await service.list('acct-d'), []);
    await assert.rejects(service.remove('acct-d', added.id), (e: unknown) => e instanceof WebhookError && e.kind === 'not_found');
    await assert.rejects(service.get('acct-d', added.id), (e: unknown) => e instanceof WebhookError && e.kind === 'not_found');
  });

  it('caps the webhooks of one account', async () => {
    for (let i = 0; i < 20; i += 1) await service.add('acct-many', `https://hooks.example.com/${i}`);
    await assert.rejects(service.add('acct-many', 'https://hooks.example.com/21'), /at most 20/);
  });

  it('redeliver queues jobs (and says so), or reports what is missing', async () => {
    const hook = await service.add('acct-e', 'https://hooks.example.com/e');
    const event = await store.events.insertEvent({
      accountId: 'acct-e',
      kind: 'spam_email',
      risk: 3,
      subject: 'j***@example.com',
      userId: 'u1',
      operation: 'scoring.email',
      createdAt: now.toISOString(),
      summary: { score: 3 },
    });
    const before = queued;
    const jobs = await service.redeliver('acct-e', event.eventId);
    assert.deepEqual(jobs.map((j) => [j.webhookId, j.eventId, j.status]), [[hook.id, event.eventId, 'pending']]);
    assert.equal(queued, before + 1);
    assert.equal((await service.redeliver('acct-e', event.eventId, hook.id)).length, 1);
    await assert.rejects(service.redeliver('acct-e', 999), (e: unknown) => e instanceof WebhookError && e.kind === 'not_found');
    await assert.rejects(service.redeliver('acct-e', event.eventId, 'wh_nope'), (e: unknown) => e instanceof WebhookError && e.kind === 'not_found');
    assert.equal((await service.deliveries('acct-e', { eventId: event.eventId })).length, 3);
    assert.equal((await service.deliveries('acct-e', { webhookId: hook.id, limit: 1 })).length, 1);
    assert.deepEqual(await service.attempts('acct-e', { eventId: event.eventId }), []);
    await assert.rejects(service.attempts('acct-e', {}), (e: unknown) => e instanceof WebhookError && e.kind === 'invalid');
  });
});
