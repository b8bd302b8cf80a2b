import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { TrustProxy } from '../config.ts';
import { capConnectionsPerAddress, timeoutOptions } from './connection-limits.ts';

/** How many of `n` connections from `from` a server capped at 2 keeps open (the others it closes on arrival). */
async function kept(trustProxy: TrustProxy, from: string, n: number): Promise<{ kept: number; refused: number }> {
  const server = createServer((_req, res) => res.end());
  let refused = 0;
  capConnectionsPerAddress(server, { maxPerAddress: 2, trustProxy, onRefused: () => refused++ });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const sockets: Socket[] = [];
  let closed = 0;
  for (let i = 0; i < n; i++) {
    const s = connect({ port, host: '127.0.0.1', localAddress: from });
    s.on('error', () => {});
    s.on('close', () => closed++);
    sockets.push(s);
    await new Promise((r) => s.once('connect', r));
  }
  await new Promise((r) => setTimeout(r, 100));
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  return { kept: n - closed, refused };
}

describe('connection cap per client address', () => {
  it('an untrusted address keeps the cap; the connections over it are refused and counted', async () => {
    assert.deepEqual(await kept(false, '127.0.0.2', 4), { kept: 2, refused: 2 });
  });
  it('a proxy TRUST_PROXY names (address, range or keyword) is not capped; another address still is', async () => {
    assert.deepEqual(await kept(['127.0.0.2'], '127.0.0.2', 4), { kept: 4, refused: 0 });
    assert.deepEqual(await kept(['127.0.0.0/8'], '127.0.0.2', 4), { kept: 4, refused: 0 });
    assert.deepEqual(await kept(['loopback'], '127.0.0.2', 4), { kept: 4, refused: 0 });
    assert.deepEqual(await kept(['127.0.0.9'], '127.0.0.2', 4), { kept: 2, refused: 2 });
  });
  it('TRUST_PROXY=true or a hop count trusts every peer: no cap', async () => {
    assert.deepEqual(await kept(true, '127.0.0.2', 3), { kept: 3, refused: 0 });
    assert.deepEqual(await kept(1, '127.0.0.2', 3), { kept: 3, refused: 0 });
  });
  it('overdue requests are looked for every tenth of the shorter timeout, 100 ms to 1 s', () => {
    assert.equal(timeoutOptions({ headersTimeoutMs: 20_000, requestTimeoutMs: 30_000 }).connectionsCheckingInterval, 1000);
    assert.equal(timeoutOptions({ headersTimeoutMs: 800, requestTimeoutMs: 1500 }).connectionsCheckingInterval, 100);
    assert.equal(timeoutOptions({ headersTimeoutMs: 3000, requestTimeoutMs: 5000 }).connectionsCheckingInterval, 300);
  });
});
