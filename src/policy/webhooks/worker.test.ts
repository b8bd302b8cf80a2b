import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, afterEach, describe, it } from 'node:test';
import pino from 'pino';
import { freePort } from '../../../test/helpers/free-port.ts';
import type { Store } from '../../store/ports.ts';
import { SqliteStore } from '../../store/sqlite/sqlite-store.ts';
import { WebhookService } from './service.ts';
import { verifySignature } from './sign.ts';
import { type WebhookWorkerOptions, WebhookWorker } from './worker.ts';
import { parseAllowedTargets } from './targets.ts';

/** The receivers of these tests listen on 127.0.0.1: allowed, as WEBHOOK_ALLOW_PRIVATE would. */
const LOCAL = parseAllowedTargets('127.0.0.1/32');
import { writeTurn } from '../../http/write-turn.ts';

const SERVER_SECRET = 'test-server-secret-0123456789abcdef';
/** Fast retries so a test sees several attempts in well under a second. */
const FAST: Partial<WebhookWorkerOptions> = { pollMs: 50, leaseMs: 2000, timeoutMs: 1000, backoffBaseMs: 20, backoffMaxMs: 80, concurrency: 4 };

const root = mkdtempSync(join(tmpdir(), 'vigil-webhooks-'));
after(() => {
  rmSync(root, { recursive: true, force: true });
});

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  eventId: number;
}

interface Receiver {
  url(path: string): string;
  received: Received[];
  /** Bodies per path, as event ids, in arrival order. */
  ids(path: string): number[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (ephemeral port); `answer` decides each reply (it may also never reply). */
async function startReceiver(answer: (got: Received, res: ServerResponse) => void): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let eventId = -1;
      try {
        eventId = (JSON.parse(body) as { event_id: number }).event_id;
      } catch {
        // not a delivery
      }
      const got = { path: req.url ?? '', headers: req.headers, body, eventId };
      received.push(got);
      answer(got, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    ids: (path) => received.filter((r) => r.path === path).map((r) => r.eventId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers).end(status === 204 ? undefined : 'ok');
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A pino logger writing into an array, to check what the worker logs. */
function capturingLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const silent = pino({ level: 'silent' });

async function memoryStore(): Promise<Store> {
  const store = new SqliteStore({ path: ':memory:' });
  await store.migrate();
  return store;
}

async function fileStore(path: string): Promise<Store> {
  const store = new SqliteStore({ path });
  await store.migrate();
  return store;
}

async function raise(store: Store, accountId: string, count: number, userId: string | null = 'user-1'): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await store.events.insertEvent({
      accountId,
      kind: 'suspicious_ip',
      risk: 60 + i,
      subject: `203.0.113.${i}`,
      userId,
      operation: 'lookup.ip',
      createdAt: new Date().toISOString(),
      summary: { ip: `203.0.113.${i}`, risk: 60 + i, note: 'ünïcödé ✓' },
    });
  }
}

/** Everything a test started, stopped after it whatever happened. */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function track<T extends { stop(): Promise<void> } | { close(): Promise<void> }>(thing: T): T {
  cleanups.push(() => ('stop' in thing ? thing.stop() : thing.close()));
  return thing;
}

function startWorker(store: Store, options: Partial<WebhookWorkerOptions> = FAST, logger: pino.Logger = silent): WebhookWorker {
  const worker = track(new WebhookWorker({ store, serverSecret: SERVER_SECRET, logger, options, targets: LOCAL }));
  worker.start();
  return worker;
}

describe('WebhookWorker', () => {
  it('reads the outbox after the answers of the turn that woke it are written', async () => {
    const store = track(await memoryStore());
    const order: string[] = [];
    const bound = <T extends object>(target: T, key: string | symbol): unknown => {
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    };
    // The real store, with its outbox reads noted.
    const events = new Proxy(store.events, {
      get: (target, key) =>
        key === 'claimDue'
          ? (...args: Parameters<Store['events']['claimDue']>) => {
              order.push('outbox read');
              return target.claimDue(...args);
            }
          : bound(target, key),
    });
    const watched = new Proxy(store, { get: (target, key) => (key === 'events' ? events : bound(target, key)) });
    const worker = startWorker(watched, { ...FAST, pollMs: 60_000 });
    await waitFor('the first poll', () => order.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.length = 0;
    // A call stores an event and wakes the worker, then its answer waits for the turn's writes (register-endpoint.ts).
    worker.wake();
    await writeTurn();
    order.push('answers written');
    await waitFor('the outbox read', () => order.includes('outbox read'));
    assert.deepEqual(order.slice(0, 2), ['answers written', 'outbox read']);
  });

  it('POSTs the signed payload at once on wake(), with the documented headers', async () => {
    const receiver = track(await startReceiver((_got, res) => reply(res, 204)));
    const store = track(await memoryStore());
    const hook = await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/hook'));
    const { logger, lines } = capturingLogger();
    // A long poll: only wake() can make this fast.
    // A poll far longer than the wait below (generous, for loaded machines): only wake() can make this pass.
    const worker = startWorker(store, { ...FAST, pollMs: 60_000 }, logger);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await raise(store, 'acct', 1, null);
    worker.wake();
    await waitFor('the delivery, started by wake() rather than the poll', () => receiver.received.length === 1, 10_000);

    const got = receiver.received[0];
    assert.ok(got);
    assert.equal(got.path, '/hook');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], 'vigil-webhooks/1');
    assert.equal(got.headers['x-webhook-id'], hook.id);
    const signature = String(got.headers['x-webhook-signature']);
    assert.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);
    const nowSeconds = Math.floor(Date.now() / 1000);
    assert.ok(verifySignature(signature, got.body, hook.secret, 300, nowSeconds));
    assert.ok(!verifySignature(signature, got.body, 'whsec_another', 300, nowSeconds));
    const event = await store.events.getEvent('acct', 1);
    assert.deepEqual(JSON.parse(got.body), { event_id: 1, event: 'suspicious_ip', created_at: event?.createdAt, mode: 'live', user_id: null, data: event?.summary });

    await waitFor('the delivery to be recorded', async () => (await store.events.listDeliveries('acct', {}))[0]?.status === 'delivered');
    const [job] = await store.events.listDeliveries('acct', {});
    assert.equal(job?.attempts, 1);
    assert.ok(job?.deliveredAt);
    const attempts = await store.events.listAttempts('acct', { eventId: 1 });
    assert.deepEqual(attempts.map((a) => [a.httpStatus, a.error]), [[204, null]]);
    assert.ok((attempts[0]?.latencyMs ?? -1) >= 0);
    await worker.stop();
    const log = lines.join('');
    assert.ok(log.includes('webhook delivered'));
    assert.ok(!log.includes(hook.secret) && !log.includes('203.0.113.0') && !log.includes('/hook'), 'no secret, body or URL path in the logs');
  });

  it('retries a receiver answering 500 twice per event: each event acknowledged once, in event order', async () => {
    const tries = new Map<number, number>();
    const receiver = track(
      await startReceiver((got, res) => {
        const n = (tries.get(got.eventId) ?? 0) + 1;
        tries.set(got.eventId, n);
        reply(res, n <= 2 ? 500 : 200);
      }),
    );
    const store = track(await memoryStore());
    await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/flaky'));
    await raise(store, 'acct', 4);
    const worker = startWorker(store);
    worker.wake();
    await waitFor('four acknowledged events', async () => (await store.events.listDeliveries('acct', {})).every((d) => d.status === 'delivered'));
    assert.deepEqual(receiver.ids('/flaky'), [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    for (const eventId of [1, 2, 3, 4]) {
      const attempts = await store.events.listAttempts('acct', { eventId });
      assert.deepEqual(attempts.map((a) => [a.httpStatus, a.error]), [[500, 'HTTP 500'], [500, 'HTTP 500'], [200, null]]);
    }
    const jobs = await store.events.listDeliveries('acct', {});
    assert.deepEqual(jobs.map((j) => j.attempts), [3, 3, 3, 3]);
  });

  it('a failing webhook does not hold up another webhook of the same account', async () => {
    const receiver = track(await startReceiver((got, res) => reply(res, got.path === '/down' ? 503 : 200)));
    const store = track(await memoryStore());
    const service = new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL);
    const down = await service.add('acct', receiver.url('/down'));
    const up = await service.add('acct', receiver.url('/up'));
    await raise(store, 'acct', 3);
    startWorker(store).wake();
    await waitFor('the healthy webhook to get all events', async () => (await store.events.listDeliveries('acct', { webhookId: up.id })).every((d) => d.status === 'delivered'));
    await waitFor('a few retries of the failing one', () => receiver.ids('/down').length >= 3);
    assert.deepEqual(receiver.ids('/up'), [1, 2, 3]);
    assert.deepEqual([...new Set(receiver.ids('/down'))], [1], 'the failing webhook stays on its first event');
    const downJobs = await store.events.listDeliveries('acct', { webhookId: down.id });
    assert.deepEqual(downJobs.map((d) => [d.eventId, d.status]), [[3, 'pending'], [2, 'pending'], [1, 'pending']]);
    assert.ok((downJobs[2]?.attempts ?? 0) >= 2);
    assert.deepEqual([downJobs[0]?.attempts, downJobs[1]?.attempts], [0, 0]);
  });

  it('gives up on a job older than giveUpAfterMs, marks it failed and moves on', async () => {
    const receiver = track(await startReceiver((got, res) => reply(res, got.eventId === 1 ? 500 : 200)));
    const store = track(await memoryStore());
    await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/giveup'));
    await raise(store, 'acct', 3);
    const { logger, lines } = capturingLogger();
    startWorker(store, { ...FAST, giveUpAfterMs: 250 }, logger).wake();
    await waitFor('events 2 and 3 delivered', async () => (await store.events.listDeliveries('acct', {})).filter((d) => d.status === 'delivered').length === 2);
    const jobs = await store.events.listDeliveries('acct', {});
    assert.deepEqual(jobs.map((j) => [j.eventId, j.status]), [[3, 'delivered'], [2, 'delivered'], [1, 'failed']]);
    // Usually several attempts; on a loaded machine the first may already come after the deadline.
    assert.ok((jobs[2]?.attempts ?? 0) >= 1);
    assert.equal(jobs[2]?.deliveredAt, null);
    const ids = receiver.ids('/giveup');
    assert.deepEqual(ids.slice(-2), [2, 3]);
    assert.ok(ids.slice(0, -2).every((id) => id === 1), 'event 2 was only sent once event 1 was given up');
    assert.ok(lines.join('').includes('webhook delivery given up'));
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const receiver = track(await startReceiver((got, res) => (got.path === '/moved' ? reply(res, 302, { location: '/elsewhere' }) : reply(res, 200))));
    const store = track(await memoryStore());
    await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/moved'));
    await raise(store, 'acct', 1);
    startWorker(store).wake();
    await waitFor('two attempts', async () => (await store.events.listAttempts('acct', { eventId: 1 })).length >= 2);
    const attempts = await store.events.listAttempts('acct', { eventId: 1 });
    assert.deepEqual(attempts.slice(0, 2).map((a) => [a.httpStatus, a.error]), [[302, 'HTTP 302'], [302, 'HTTP 302']]);
    assert.deepEqual(receiver.ids('/elsewhere'), []);
  });

  it('records timeouts and refused connections as attempts with an error, then retries', async () => {
    let first = true;
    const receiver = track(
      await startReceiver((_got, res) => {
        if (first) {
          first = false; // never answer: the worker's timeout ends it
          return;
        }
        reply(res, 200);
      }),
    );
    const closedPort = await freePort();
    const store = track(await memoryStore());
    const service = new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL);
    const slow = await service.add('acct', receiver.url('/slow'));
    const refused = await service.add('acct', `http://127.0.0.1:${closedPort}/nobody`);
    await raise(store, 'acct', 1);
    startWorker(store, { ...FAST, timeoutMs: 200 }).wake();
    await waitFor('the slow webhook to be delivered', async () => (await store.events.listDeliveries('acct', { webhookId: slow.id }))[0]?.status === 'delivered');
    await waitFor('two refused attempts', async () => (await store.events.listAttempts('acct', { eventId: 1 })).filter((a) => a.webhookId === refused.id).length >= 2);
    const attempts = await store.events.listAttempts('acct', { eventId: 1 });
    const ofSlow = attempts.filter((a) => a.webhookId === slow.id);
    assert.deepEqual(ofSlow.map((a) => [a.httpStatus, a.error]), [[null, 'timeout after 200 ms'], [200, null]]);
    assert.ok((ofSlow[0]?.latencyMs ?? 0) >= 150);
    const ofRefused = attempts.filter((a) => a.webhookId === refused.id);
    assert.equal(ofRefused[0]?.httpStatus, null);
    assert.match(ofRefused[0]?.error ?? '', /ECONNREFUSED/);
  });

  it('two workers on one SQLite file deliver each event once, in order per webhook', async () => {
    const receiver = track(await startReceiver((_got, res) => reply(res, 200)));
    const path = join(root, 'two-workers', 'vigil.db');
    const a = track(await fileStore(path));
    const b = track(await fileStore(path));
    const service = new WebhookService(a, SERVER_SECRET, undefined, undefined, undefined, LOCAL);
    await service.add('acct', receiver.url('/one'));
    await service.add('acct', receiver.url('/two'));
    await service.add('other', receiver.url('/three'));
    const workers = [startWorker(a), startWorker(b)];
    for (let i = 0; i < 10; i += 1) {
      await raise(i % 2 === 0 ? a : b, 'acct', 1);
      await raise(b, 'other', 1);
      for (const worker of workers) worker.wake();
    }
    await waitFor('every delivery', async () => receiver.received.length >= 30 && (await a.events.listDeliveries('acct', {})).every((d) => d.status === 'delivered'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const expected = Array.from({ length: 10 }, (_, i) => i + 1);
    assert.deepEqual(receiver.ids('/one'), expected);
    assert.deepEqual(receiver.ids('/two'), expected);
    assert.deepEqual(receiver.ids('/three'), expected);
    const attempts = await a.events.listAttempts('acct', { eventId: 5 });
    assert.equal(attempts.length, 2, 'one attempt per webhook');
  });

  it('delivers after a restart what was queued before the server stopped (or died mid-send)', async () => {
    const receiver = track(await startReceiver((_got, res) => reply(res, 200)));
    const path = join(root, 'restart', 'vigil.db');
    const first = await fileStore(path);
    await new WebhookService(first, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/later'));
    await raise(first, 'acct', 2);
    // The "server" claims event 1 for sending and dies before recording anything: its lease runs 300 ms.
    const now = Date.now();
    const claimed = await first.events.claimDue(new Date(now).toISOString(), new Date(now + 300).toISOString(), 10);
    assert.deepEqual(claimed.map((c) => c.event.eventId), [1]);
    await first.close();
    assert.deepEqual(receiver.received, []);

    const second = track(await fileStore(path));
    startWorker(second).wake();
    await waitFor('both events after restart', () => receiver.received.length === 2);
    assert.ok(Date.now() - now >= 290, 'the dead worker’s lease was respected');
    assert.deepEqual(receiver.ids('/later'), [1, 2]);
  });

  it('stop() waits for the sends in flight and records them; a stopped worker sends nothing more', async () => {
    let release: (() => void) | undefined;
    const receiver = track(
      await startReceiver((_got, res) => {
        release = () => reply(res, 200);
      }),
    );
    const store = track(await memoryStore());
    await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/held'));
    await raise(store, 'acct', 2);
    const worker = startWorker(store);
    worker.wake();
    await waitFor('the first request', () => receiver.received.length === 1);
    assert.equal(worker.busy, 1);
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(stopped, false, 'still waiting for the send in flight');
    release?.();
    await stopping;
    const jobs = await store.events.listDeliveries('acct', {});
    assert.deepEqual(jobs.map((j) => [j.eventId, j.status]), [[2, 'pending'], [1, 'delivered']]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(receiver.received.length, 1);
  });

  it('a secret sealed under another SECRET_KEY is a recorded failure, not a crash', async () => {
    const receiver = track(await startReceiver((_got, res) => reply(res, 200)));
    const store = track(await memoryStore());
    await new WebhookService(store, 'an-older-server-secret', undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/rekeyed'));
    await raise(store, 'acct', 1);
    startWorker(store).wake();
    await waitFor('an attempt', async () => (await store.events.listAttempts('acct', { eventId: 1 })).length >= 1);
    const [attempt] = await store.events.listAttempts('acct', { eventId: 1 });
    assert.equal(attempt?.httpStatus, null);
    assert.match(attempt?.error ?? '', /rotate the webhook secret/);
    assert.deepEqual(receiver.received, [], 'nothing is sent unsigned');
  });

  it('refuses options that would let a slow send be claimed twice', () => {
    assert.throws(() => new WebhookWorker({ store: {} as Store, serverSecret: 'x', logger: silent, options: { leaseMs: 1000, timeoutMs: 1000 } }), /leaseMs/);
    assert.throws(() => new WebhookWorker({ store: {} as Store, serverSecret: 'x', logger: silent, options: { concurrency: 0 } }), /concurrency/);
    assert.equal(new WebhookWorker({ store: {} as Store, serverSecret: 'x', logger: silent }).options.giveUpAfterMs, 72 * 3_600_000);
  });

  it('checks the address at every delivery: a name that later resolves inside is refused, recorded as failed at once, never sent', async () => {
    const receiver = track(await startReceiver((_got, res) => reply(res, 200)));
    const store = track(await memoryStore());
    const port = new URL(receiver.url('/')).port;
    // The receiver's name resolves to 127.0.0.1 (allowed here), then to 10.0.0.1 (a DNS change, or a rebinding
    // answer): the second is refused before any connection, so no packet leaves for it.
    let answer = '127.0.0.1';
    const resolve = (): Promise<Array<{ address: string; family: number }>> => Promise.resolve([{ address: answer, family: 4 }]);
    await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', `http://hooks.test:${port}/named`);
    const { logger, lines } = capturingLogger();
    const worker = track(new WebhookWorker({ store, serverSecret: SERVER_SECRET, logger, options: FAST, targets: LOCAL, resolve }));
    worker.start();
    await raise(store, 'acct', 1);
    worker.wake();
    await waitFor('the first delivery', () => receiver.received.length === 1);
    answer = '10.0.0.1';
    await raise(store, 'acct', 2);
    worker.wake();
    await waitFor('the refusal to be recorded', async () => (await store.events.listDeliveries('acct', {})).some((d) => d.status === 'failed'));
    const attempts = await store.events.listAttempts('acct', { eventId: 2 });
    assert.equal(attempts.length, 1, 'not retried');
    assert.equal(attempts[0]?.httpStatus, null);
    assert.match(attempts[0]?.error ?? '', /^refused: hooks\.test resolves to 10\.0\.0\.1, a private, loopback or link-local address; set WEBHOOK_ALLOW_PRIVATE/);
    assert.equal(receiver.received.length, 1);
    await worker.stop();
    assert.match(lines.join(''), /webhook delivery given up/);
  });

  it('refuses a literal private address by default, with no DNS lookup and no connection', async () => {
    const receiver = track(await startReceiver((_got, res) => reply(res, 200)));
    const store = track(await memoryStore());
    // Added while allowed, then delivered by a worker that allows nothing (WEBHOOK_ALLOW_PRIVATE removed since).
    await new WebhookService(store, SERVER_SECRET, undefined, undefined, undefined, LOCAL).add('acct', receiver.url('/literal'));
    const worker = track(new WebhookWorker({ store, serverSecret: SERVER_SECRET, logger: silent, options: FAST }));
    worker.start();
    await raise(store, 'acct', 1);
    worker.wake();
    await waitFor('the refusal', async () => (await store.events.listDeliveries('acct', {}))[0]?.status === 'failed');
    const [attempt] = await store.events.listAttempts('acct', { eventId: 1 });
    assert.match(attempt?.error ?? '', /^refused: 127\.0\.0\.1 is a private, loopback or link-local address; set WEBHOOK_ALLOW_PRIVATE/);
    assert.deepEqual(receiver.received, []);
  });
});
