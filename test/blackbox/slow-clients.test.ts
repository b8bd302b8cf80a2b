/**
 * Black box: slow clients against the real server process, with raw sockets. A body trickling in (one byte at a
 * time, as the attack's one byte every 20 s, here sped up with small timeouts) is closed with HTTP 408 within
 * REQUEST_TIMEOUT_MS; slow headers within HEADERS_TIMEOUT_MS; one address cannot hold more than
 * MAX_CONNECTIONS_PER_IP sockets, and a slot freed is usable again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

const HEADERS_MS = 800;
const REQUEST_MS = 1500;
const CAP = 5;
// The server looks for overdue requests every 100 ms here (a tenth of the shorter timeout); the rest of the slack is
// for a loaded test machine.

interface Ended {
  /** Milliseconds from the connection to its close by the server. */
  afterMs: number;
  /** Everything the server wrote. */
  answer: string;
}

/** A connection to the server from a loopback address of the caller's choice (Linux answers the whole 127/8). */
function open(port: number, from = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves when the server closes the socket (or after `limitMs`, with afterMs Infinity). */
function whenClosed(s: Socket, startedAt: number, limitMs: number): Promise<Ended> {
  return new Promise((resolve) => {
    let answer = '';
    s.on('data', (b: Buffer) => (answer += b.toString()));
    s.on('error', () => {});
    const timer = setTimeout(() => resolve({ afterMs: Infinity, answer }), limitMs);
    s.once('close', () => {
      clearTimeout(timer);
      resolve({ afterMs: Date.now() - startedAt, answer });
    });
  });
}

/** One request on a connection of its own, closed after the answer (fetch would keep its socket open for later). */
async function rawRequest(port: number, head: string, body = '', from = '127.0.0.1'): Promise<string> {
  const sock = await open(port, from);
  const ended = whenClosed(sock, Date.now(), 5000);
  sock.write(`${head}\r\nHost: x\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  return (await ended).answer;
}

/** Writes one byte every `everyMs` while the socket is open. */
function trickle(s: Socket, everyMs: number): () => void {
  const t = setInterval(() => {
    if (!s.destroyed && s.writable) s.write('x');
  }, everyMs);
  return () => clearInterval(t);
}

describe('black box: slow clients and the per-address connection cap', () => {
  let s: Running;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-slow-'));
    s = await startServer({
      DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '',
      HEADERS_TIMEOUT_MS: String(HEADERS_MS), REQUEST_TIMEOUT_MS: String(REQUEST_MS), MAX_CONNECTIONS_PER_IP: String(CAP),
    });
  });
  after(async () => {
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a body sent one byte at a time is closed with 408 within REQUEST_TIMEOUT_MS (plus the check interval)', async () => {
    const sock = await open(s.port);
    const t0 = Date.now();
    sock.write(`POST /scoring/payment?key=svc_live_none HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const stopTrickle = trickle(sock, 200);
    const ended = await whenClosed(sock, t0, 10_000);
    stopTrickle();
    assert.ok(ended.afterMs >= REQUEST_MS - 50 && ended.afterMs <= REQUEST_MS + 1200, `closed after ${ended.afterMs} ms`);
    assert.match(ended.answer, /^HTTP\/1\.1 408 Request Timeout/);
    assert.match(ended.answer, /did not arrive in full in time/);
  });

  it('headers sent one byte at a time are closed within HEADERS_TIMEOUT_MS', async () => {
    const sock = await open(s.port);
    const t0 = Date.now();
    sock.write('GET /healthz HTTP/1.1\r\nX-Slow: ');
    const stopTrickle = trickle(sock, 100);
    const ended = await whenClosed(sock, t0, 10_000);
    stopTrickle();
    assert.ok(ended.afterMs >= HEADERS_MS - 50 && ended.afterMs <= HEADERS_MS + 1200, `closed after ${ended.afterMs} ms`);
    assert.match(ended.answer, /^HTTP\/1\.1 408/);
  });

  it('a request that arrives in time is answered (the timeouts do not count the server\'s own work)', async () => {
    const answer = await rawRequest(s.port, 'POST /scoring/payment?key=svc_live_none HTTP/1.1\r\nContent-Type: application/json', '{"data": {}}');
    assert.match(answer, /^HTTP\/1\.1 200/);
    assert.match(answer, /"code":101/);
  });

  it(`one address holds at most ${CAP} connections; the next is closed at once and counted; other addresses and a freed slot are served`, async () => {
    // From 127.0.0.2: the sockets this test process opened from 127.0.0.1 (fetch keeps one alive) do not count here.
    const from = '127.0.0.2';
    const held = await Promise.all(Array.from({ length: CAP }, () => open(s.port, from)));
    const t0 = Date.now();
    const extra = await open(s.port, from);
    const ended = await whenClosed(extra, t0, 3000);
    assert.ok(ended.afterMs < 500, `the connection over the cap was closed after ${ended.afterMs} ms`);
    assert.equal(ended.answer, '');
    // Another address is not affected.
    assert.match(await rawRequest(s.port, 'GET /healthz HTTP/1.1', '', '127.0.0.3'), /^HTTP\/1\.1 200/);
    // The held sockets are still served: a request on one of them is answered.
    const first = held[0]!;
    const answered = whenClosed(first, Date.now(), 5000);
    first.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match((await answered).answer, /^HTTP\/1\.1 200/);
    // Its slot is free again once the server has seen it close: one more connection from the address is served.
    await new Promise((r) => setTimeout(r, 200));
    assert.match(await rawRequest(s.port, 'GET /healthz HTTP/1.1', '', from), /^HTTP\/1\.1 200/);
    for (const h of held) h.destroy();
    const metrics = await rawRequest(s.port, 'GET /metrics HTTP/1.1', '', '127.0.0.3');
    assert.match(metrics, /^vigil_connections_refused_total 1$/m);
  });
});
