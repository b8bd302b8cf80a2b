/**
 * Ceiling of the two throughput goals that are not met (issue 4: GET /lookup/ip >= 50% of a bare route;
 * issue 8: POST /scoring/payment >= 20% of a bare POST route): the same ratio for a reference server that
 * does only the least work such an answer needs (bench/reference-server.ts: for an IP, the two GeoLite2
 * reads and their JSON; for a payment, the keyed hashes and the stored scoring row), against a bare Fastify
 * route answering the same bytes. If the reference itself stays near or below the goal on this machine,
 * no implementation of the whole answer can meet it here. Same request sets, connections and run length
 * as bench/ip.ts and bench/payment.ts; BENCH_PAIRS (default 2) interleaved pairs of runs per reference.
 * Bounded: a few runs of BENCH_SECONDS (default 8) on loopback only.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { load, rested, startProcess, type LoadOptions } from './lib.ts';
import { ipAddresses, transactionMaker } from './requests.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
type Requests = NonNullable<LoadOptions['requests']>;

interface Reference {
  name: string;
  goal: number;
  args: (port: number, dir: string) => string[];
  requests: Requests;
  bare: Requests;
}

const ipRequests: Requests = ipAddresses().map((ip) => ({ path: `/ip?ip=${encodeURIComponent(ip)}` }));
const transaction = transactionMaker(prng(11));
const json = { 'content-type': 'application/json' };
const bodies = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ data: transaction(i) }));

const REFERENCES: Reference[] = [
  {
    name: 'ip (GeoLite2 City + ASN reads, JSON)',
    goal: 50,
    args: (port) => ['bench/reference-server.ts', 'ip', String(port)],
    requests: ipRequests,
    bare: [{ path: '/bare' }],
  },
  {
    name: 'payment (keyed hashes, stored scoring row)',
    goal: 20,
    args: (port, dir) => ['bench/reference-server.ts', 'payment', String(port), dir],
    requests: bodies.map((body) => ({ path: '/pay', method: 'POST' as const, body, headers: json })),
    bare: bodies.slice(0, 200).map((body) => ({ path: '/bare', method: 'POST' as const, body, headers: json })),
  },
];

const lines = [`ceiling bench: ${DURATION}s per run, 10 connections, loopback, node ${process.version}, ${PAIRS} pairs of runs per reference`];
for (const ref of REFERENCES) {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-ceiling-'));
  const children: ChildProcess[] = [];
  try {
    const [port, barePort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    children.push(await startProcess({}, `${base}/healthz`, ref.args(port, dir)));
    // The bare route answers what the reference answers to its first request.
    const first = ref.requests[0]!;
    const probe = await (await fetch(`${base}${first.path}`, { method: first.method ?? 'GET', body: first.body, headers: first.headers })).text();
    if (!probe.includes('"status":"success"')) throw new Error(`reference probe failed: ${probe}`);
    const bodyFile = join(dir, 'answer.json');
    writeFileSync(bodyFile, probe);
    children.push(await startProcess({}, `http://127.0.0.1:${barePort}/bare`, ['bench/bare-server.ts', String(barePort), bodyFile]));
    const bare = `http://127.0.0.1:${barePort}`;
    // Warm both up (JIT, page cache), then alternate.
    await load(base, { connections: 10, duration: 2, requests: ref.requests });
    await load(bare, { connections: 10, duration: 2, requests: ref.bare });
    const ratios: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      await rested();
      const b = await load(bare, { connections: 10, duration: DURATION, requests: ref.bare });
      await rested();
      const r = await load(base, { connections: 10, duration: DURATION, requests: ref.requests });
      ratios.push((r.rps / b.rps) * 100);
      lines.push(`${ref.name}: bare ${b.rps.toFixed(0)} req/s, reference ${r.rps.toFixed(0)} req/s (${ratios.at(-1)!.toFixed(1)}% of bare), ${probe.length}-byte answers`);
    }
    lines.push(`  ceiling of the ${ref.goal}% goal on this machine: ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}% for the least work alone`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dir, { recursive: true, force: true });
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
