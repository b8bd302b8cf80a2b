/**
 * Black-box tests: start the real server process (`npm start`) and talk HTTP to it on 127.0.0.1.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as rawRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.ts';
import { startServer, stop, type Running } from '../helpers/server-process.ts';
import { verifySignature } from '../../src/policy/webhooks/sign.ts';

const SEED_KEY = 'svc_live_blackbox000000000000000001';

/** Sends raw bytes and returns the raw response (for requests fetch refuses to build). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1', () => sock.end(text));
    let data = '';
    sock.on('data', (b) => (data += b.toString()));
    sock.on('end', () => resolve(data));
    sock.on('error', reject);
    setTimeout(() => {
      sock.destroy();
      resolve(data);
    }, 5000).unref();
  });
}

describe('black box: first start on an empty store', () => {
  let dir: string;
  let s: Running;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-bb-'));
    s = await startServer({ DATA_DIR: dir }, true);
  });
  after(async () => {
    if (s.child.exitCode === null) await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a working live key and saves it 0600', async () => {
    const m = /live key: (svc_live_[A-Za-z0-9]+)/.exec(s.output());
    assert.ok(m?.[1], s.output());
    const key = m[1];
    const file = join(dir, 'bootstrap-keys.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal((JSON.parse(readFileSync(file, 'utf8')) as { liveKey: string }).liveKey, key);
    const r = await fetch(`http://127.0.0.1:${s.port}/lookup/country?CountryCode=DE&key=${key}`);
    const body = (await r.json()) as { status: string; data: { countryName: string } };
    assert.equal(body.status, 'success');
    assert.equal(body.data.countryName, 'Germany');
  });

  it('SIGTERM stops gracefully with exit code 0 after flushing usage; a restart keeps the key without a new bootstrap', async () => {
    const key = /live key: (svc_live_[A-Za-z0-9]+)/.exec(s.output())?.[1] ?? '';
    assert.ok(key);
    await stop(s);
    const env = { DATA_DIR: dir, ADMIN_TOKEN: 'blackbox-admin-token-0001' };
    s = await startServer(env);
    assert.doesNotMatch(s.output(), /first start/);
    const body = (await (await fetch(`http://127.0.0.1:${s.port}/lookup/country?CountryCode=FR`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string };
    assert.equal(body.status, 'success');
    assert.equal(await stop(s), 0);
    assert.match(s.output(), /shutting down/);
    s = await startServer(env);
    const usage = (await (await fetch(`http://127.0.0.1:${s.port}/admin/accounts/default/usage`, { headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` } })).json()) as { data: { total: number } };
    // Two live calls in all (one per run), both written: the second only by the shutdown flush.
    assert.equal(usage.data.total, 2);
  });
});

describe('black box: seeded server and hostile transport input', () => {
  let dir: string;
  let s: Running;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-bb-'));
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify({ accounts: [{ id: 'acme', plan: 'premium', keys: [SEED_KEY] }] }));
    s = await startServer({ DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'debug' });
  });
  after(async () => {
    if (s.child.exitCode === null) await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });
  const url = (p: string): string => `http://127.0.0.1:${s.port}${p}`;

  it('the seed key works; an unknown key gets 101 with HTTP 200', async () => {
    const ok = (await (await fetch(url(`/lookup/country?CountryCode=jp&key=${SEED_KEY}&lang=JA`))).json()) as { status: string; data: { countryName: string } };
    assert.equal(ok.status, 'success');
    assert.equal(ok.data.countryName, '日本');
    const r = await fetch(url('/lookup/country?CountryCode=DE&key=svc_live_nobody0000000000000000000'));
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as { code: number }).code, 101);
  });

  it('answers written per event-loop turn: pipelined requests come back in order, concurrent ones each get their own', async () => {
    // Five requests on one socket in one write: Node answers them in order, each with its own body.
    const codes = ['DE', 'fr', 'XX', 'JP', 'it'];
    const text = codes.map((c) => `GET /lookup/country?CountryCode=${c}&key=${SEED_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join('') +
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';
    const answer = await raw(s.port, text);
    const bodies = answer.split('HTTP/1.1 ').slice(1).map((part) => part.slice(part.indexOf('\r\n\r\n') + 4));
    assert.equal(bodies.length, 6, answer);
    const parsed = bodies.slice(0, 5).map((b) => JSON.parse(b) as { status: string; code?: number; data?: { countryCode: string } });
    assert.deepEqual(parsed.map((b) => b.data?.countryCode ?? b.code), ['DE', 'FR', 116, 'JP', 'IT']);
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.deepEqual(JSON.parse(bodies[5] ?? ''), { status: 'ok', version });
    // Many connections at once (one turn of the server takes several): every answer is its own.
    const all = ['AT', 'BE', 'CH', 'DK', 'ES', 'FI', 'GR', 'HU', 'IE', 'LU', 'NL', 'NO', 'PL', 'PT', 'SE', 'SK'];
    const got = await Promise.all(all.map(async (c) => ((await (await fetch(url(`/lookup/country?CountryCode=${c}&key=${SEED_KEY}&params=timezone,flag`))).json()) as { data: { countryCode: string; flag: { svg: string } } }).data));
    assert.deepEqual(got.map((d) => d.countryCode), all);
    for (const d of got) assert.match(d.flag.svg, new RegExp(`/flags/svg/${d.countryCode.toLowerCase()}\\.svg$`));
  });

  it('GET /ip answers without a key', async () => {
    const body = (await (await fetch(url('/ip'))).json()) as { status: string; data: string };
    assert.equal(body.status, 'success');
    assert.equal(body.data, '127.0.0.1');
  });

  it('unknown paths: HTTP 404 with the envelope; OPTIONS: 204 with CORS', async () => {
    const r = await fetch(url('/nope'));
    assert.equal(r.status, 404);
    assert.equal(((await r.json()) as { status: string }).status, 'error');
    const o = await fetch(url('/lookup/country'), { method: 'OPTIONS' });
    assert.equal(o.status, 204);
    assert.equal(o.headers.get('access-control-allow-origin'), '*');
  });

  it('oversized headers and query strings get a clean envelope, never a 5xx', async () => {
    const big = 'a'.repeat(200 * 1024);
    const res = await raw(s.port, `GET /lookup/country?CountryCode=DE&x=${big} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(res, /^HTTP\/1\.1 431/);
    assert.match(res, /"status":"error"/);
    const res2 = await raw(s.port, `GET /ip HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`);
    assert.match(res2, /^HTTP\/1\.1 431/);
    assert.match(res2, /"status":"error"/);
  });

  it('a long but legal query string (60 KB) is accepted', async () => {
    const r = await fetch(url(`/lookup/country?CountryCode=DE&key=${SEED_KEY}&userID=${'u'.repeat(200)}&pad=${'p'.repeat(60000)}`));
    assert.equal(((await r.json()) as { status: string }).status, 'success');
  });

  it('broken HTTP gets a 400 envelope', async () => {
    const res = await raw(s.port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.match(res, /^HTTP\/1\.1 400/);
    assert.match(res, /"status":"error"/);
  });

  it('invalid UTF-8 and bad percent-encoding in the query: clean error envelope', async () => {
    for (const q of ['CountryCode=%FF%FE', 'CountryCode=%E0%A4%A', 'CountryCode=%', 'CountryCode=D%00E']) {
      const r = await fetch(url(`/lookup/country?${q}&key=${SEED_KEY}`));
      assert.equal(r.status, 200, q);
      const body = (await r.json()) as { status: string; code: number };
      assert.equal(body.status, 'error', q);
      assert.equal(body.code, 116, q);
    }
  });

  it('a malformed path encoding gets an envelope, not a stack trace', async () => {
    const res = await raw(s.port, 'GET /lookup/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(res, /^HTTP\/1\.1 (400|404)/);
    assert.match(res, /"status":"error"/);
    assert.doesNotMatch(res, /at .*\.(ts|js):\d+/);
  });

  it('odd Content-Types and bodies on GET do not break the answer', async () => {
    for (const ct of ['application/x-unknown', 'application/json', 'text/plain; charset=bogus', 'multipart/form-data']) {
      const body = await new Promise<string>((resolve, reject) => {
        const req = rawRequest(url(`/lookup/country?CountryCode=DE&key=${SEED_KEY}`), { method: 'GET', headers: { 'content-type': ct, 'content-length': '9' } }, (res) => {
          let d = '';
          res.on('data', (c: Buffer) => (d += c.toString()));
          res.on('end', () => resolve(`${res.statusCode} ${d}`));
        });
        req.on('error', reject);
        req.end('{not json');
      });
      assert.match(body, /^200 /, ct);
      assert.match(body, /"status":"(success|error)"/, ct);
    }
  });

  it('a /docs asset path with `..` segments (refused by @fastify/static) is HTTP 404, as a missing asset is; the assets still load', async () => {
    // node:http sends the path as given (fetch would resolve the dots first).
    const get = (path: string): Promise<{ status: number; type: string; body: string }> =>
      new Promise((resolve, reject) => {
        const req = rawRequest({ host: '127.0.0.1', port: s.port, path }, (res) => {
          let body = '';
          res.on('data', (b: Buffer) => (body += b.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/docs/static/../../package.json', '/docs/static/%2e%2e/%2e%2e/package.json', '/docs/static/../static/index.css', '/docs/static/nope.js']) {
      const r = await get(path);
      assert.equal(r.status, 404, `${path}: ${r.body}`);
      assert.deepEqual(JSON.parse(r.body), { status: 'error', code: 404, type: 'not_found', description: 'There is no method at this path. See /docs for the list of methods.' });
      assert.doesNotMatch(r.body, /"dependencies"/);
    }
    const css = await get('/docs/static/index.css');
    assert.equal(css.status, 200);
    assert.match(css.type, /text\/css/);
  });

  it('repeated parameters are rejected with the parameter\'s own code', async () => {
    const body = (await (await fetch(url(`/lookup/country?CountryCode=DE&CountryCode=FR&key=${SEED_KEY}`))).json()) as { code: number };
    assert.equal(body.code, 116);
  });

  it('logs never contain keys', async () => {
    await fetch(url(`/lookup/country?CountryCode=DE&key=${SEED_KEY}`));
    await fetch(url('/lookup/country?CountryCode=DE'), { headers: { authorization: `Bearer ${SEED_KEY}` } });
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(s.output().length > 0);
    assert.ok(!s.output().includes(SEED_KEY), 'the seed key appeared in the logs');
  });
});

describe('black box: a server killed between an event and its delivery delivers after restart', () => {
  const HOOK_SECRET = 'whsec_blackbox_restart_000000000001';
  let dir: string;
  let receiver: Server | undefined;
  let s: Running | undefined;
  after(async () => {
    if (s && s.child.exitCode === null) await stop(s);
    if (receiver) await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('the pending delivery survives SIGKILL and reaches the receiver, signed, once the server is back', { timeout: 60_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-bb-hook-'));
    const hookPort = await freePort();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify({
      accounts: [{ id: 'hooked', plan: 'premium', keys: [SEED_KEY], webhooks: [{ url: `http://127.0.0.1:${hookPort}/hook`, secret: HOOK_SECRET }] }],
    }));
    // The receiver is down: the first delivery attempt fails, and the job stays pending in the store.
    const admin = 'blackbox-admin-token-0002';
    // The receiver is on 127.0.0.1, refused unless allowed.
    s = await startServer({ DATA_DIR: dir, SEED_FILE: seed, ADMIN_TOKEN: admin, WEBHOOK_ALLOW_PRIVATE: `127.0.0.1:${hookPort}` });
    const res = await fetch(`http://127.0.0.1:${s.port}/scoring/profanity?text=${encodeURIComponent('you fucking asshole')}&userID=u-1`, { headers: { authorization: `Bearer ${SEED_KEY}` } });
    const answer = (await res.json()) as { status: string; data: { isSafe: boolean } };
    assert.equal(answer.status, 'success');
    assert.equal(answer.data.isSafe, false);
    // The event is stored right after its answer, before the server reads another request (docs/policy.md).
    const events = (await (await fetch(`http://127.0.0.1:${s.port}/admin/accounts/hooked/events`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { data: Array<{ kind: string }> };
    assert.deepEqual(events.data.map((e) => e.kind), ['profanity']);
    if (s.child.pid !== undefined) process.kill(-s.child.pid, 'SIGKILL');
    await s.exited;

    const got: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
    receiver = createServer((req, reply) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        reply.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver?.listen(hookPort, '127.0.0.1', resolve));
    s = await startServer({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE: `127.0.0.1:${hookPort}` });
    // At most one backoff step (10 s) after the failed first attempt.
    const until = Date.now() + 30_000;
    while (got.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.equal(got.length, 1, s.output());
    const first = got[0];
    assert.ok(first);
    assert.ok(verifySignature(String(first.headers['x-webhook-signature']), first.body, HOOK_SECRET, 300, Math.floor(Date.now() / 1000)));
    const payload = JSON.parse(first.body) as { event_id: number; event: string; user_id: string; data: { isSafe: boolean } };
    assert.deepEqual([payload.event_id, payload.event, payload.user_id, payload.data.isSafe], [1, 'profanity', 'u-1', false]);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(got.length, 1, 'delivered once');
  });
});
