/**
 * Black box: webhook targets inside the server's network are refused by default, at registration for a literal
 * address and at delivery for a name that resolves inside; WEBHOOK_ALLOW_PRIVATE lets a named receiver in.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.ts';
import { startServer, stop, type Running } from '../helpers/server-process.ts';
import { isPrivateAddress } from '../../src/policy/webhooks/targets.ts';

const KEY = 'svc_live_hooktargets0000000000000001';
const ADMIN = 'blackbox-admin-token-hooks-0001';

describe('black box: webhook targets', () => {
  let dir: string;
  let s: Running | undefined;
  let receiver: Server;
  let hookPort: number;
  let got = 0;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-hooks-'));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ accounts: [{ id: 'acme', plan: 'premium', keys: [KEY] }] }));
    hookPort = await freePort();
    receiver = createServer((req, res) => {
      got++;
      req.resume();
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(hookPort, '127.0.0.1', resolve));
  });
  after(async () => {
    await stop(s);
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = async (path: string, body?: unknown): Promise<{ http: number; json: { status: string; data?: { id: string }; description?: string } }> => {
    const r = await fetch(`http://127.0.0.1:${s?.port}/admin${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { http: r.status, json: (await r.json()) as { status: string; data?: { id: string }; description?: string } };
  };
  const profane = async (): Promise<void> => {
    const r = await fetch(`http://127.0.0.1:${s?.port}/scoring/profanity?text=${encodeURIComponent('you fucking asshole')}&userID=u-1&key=${KEY}`);
    assert.equal(((await r.json()) as { status: string }).status, 'success');
  };

  it('by default: literal private addresses get 400 at registration, naming the address and the setting', async () => {
    s = await startServer({ DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), ADMIN_TOKEN: ADMIN, DATABASE_URL: '', REDIS_URL: '' });
    for (const url of ['http://169.254.169.254/latest/meta-data/', `http://127.0.0.1:${hookPort}/hook`, 'http://10.0.0.1/', 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]/', 'http://[fe80::1]/', 'http://localhost/']) {
      const a = await admin('/accounts/acme/webhooks', { url });
      assert.equal(a.http, 400, `${url}: ${JSON.stringify(a.json)}`);
      assert.match(String(a.json.description), /private, loopback or link-local|loopback name/);
      assert.match(String(a.json.description), /WEBHOOK_ALLOW_PRIVATE/);
    }
    assert.equal((await admin('/accounts/acme/webhooks', { url: 'https://hooks.example.com/in' })).http, 201);
  });

  it('a name that resolves inside is refused at delivery: failed at once with the reason, nothing sent', async (t) => {
    // This machine's own name resolves to a loopback address on the test machines (/etc/hosts).
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0 || !addresses.every((a) => isPrivateAddress(a.address))) return t.skip(`${name} does not resolve to a private address here`);
    const added = await admin('/accounts/acme/webhooks', { url: `http://${name}:${hookPort}/hook` });
    assert.equal(added.http, 201, JSON.stringify(added.json));
    await profane();
    const deadline = Date.now() + 10_000;
    let event: { deliveries: Array<{ webhookId: string; status: string }>; attempts: Array<{ webhookId: string; error: string | null }> } | undefined;
    while (Date.now() < deadline) {
      const r = await admin('/accounts/acme/events/1');
      event = r.json.data as unknown as typeof event;
      if (event?.deliveries.some((d) => d.webhookId === added.json.data?.id && d.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const mine = event?.attempts.filter((a) => a.webhookId === added.json.data?.id) ?? [];
    assert.equal(mine.length, 1, JSON.stringify(event));
    assert.match(String(mine[0]?.error), new RegExp(`^refused: ${name} resolves to [^ ]+, a private, loopback or link-local address`));
    assert.equal(got, 0);
    // The allow entry of the next test (127.0.0.1:<port>) would let this name in too: it connects to the same receiver.
    const gone = await fetch(`http://127.0.0.1:${s?.port}/admin/accounts/acme/webhooks/${added.json.data?.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
    assert.equal(gone.status, 200);
  });

  it('WEBHOOK_ALLOW_PRIVATE=127.0.0.1:<port> lets that receiver in, and only it', async () => {
    await stop(s);
    s = await startServer({ DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), ADMIN_TOKEN: ADMIN, DATABASE_URL: '', REDIS_URL: '', WEBHOOK_ALLOW_PRIVATE: `127.0.0.1:${hookPort}` });
    assert.equal((await admin('/accounts/acme/webhooks', { url: `http://127.0.0.1:${hookPort + 1}/hook` })).http, 400, 'another port');
    assert.equal((await admin('/accounts/acme/webhooks', { url: `http://127.0.0.1:${hookPort}/hook` })).http, 201);
    await profane();
    const deadline = Date.now() + 10_000;
    while (got === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(got, 1);
  });

  it('a malformed WEBHOOK_ALLOW_PRIVATE stops the start with the entry named', async () => {
    await stop(s);
    s = undefined;
    await assert.rejects(startServer({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/33', DATABASE_URL: '', REDIS_URL: '' }), /WEBHOOK_ALLOW_PRIVATE[\s\S]*10\.0\.0\.0\/33/);
  });
});
