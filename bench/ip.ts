/**
 * IP benchmark: GET /lookup/ip with every module (security, currency, timezone, location) against a
 * bare Fastify route answering the same bytes, both as separate processes on 127.0.0.1, with the
 * threat, ASN and postal lists imported from ../shared/data when present (else GeoLite2 only).
 * Addresses vary (200 public IPv4/IPv6 addresses from the databases' own networks).
 * Prints: throughput ratio, latency at a fixed 2,000 req/s, server time from Server-Timing one
 * request at a time, the bulk of 50, and the server's RSS with all data loaded.
 * Bounded: a few runs of BENCH_SECONDS (default 8) on loopback only.
 * Vigil runs from the compiled build as `npm start` does (built first when stale); the bare route through tsx.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { IMPORTERS } from '../src/data/import/index.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, COMPILED_SERVE, load as loadRun, paced, quantile, serverStages, startProcess, rested } from './lib.ts';
import { ipAddresses } from './requests.ts';

const KEY = 'svc_live_bench00000000000000000009';
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const SHARED = join(process.cwd(), '..', 'shared', 'data');
const IP_DATASETS = ['tor-exit-nodes', 'vpn-datacenter-x4bnet', 'cloud-ranges-jhassine', 'datacenter-ipcat', 'icloud-private-relay', 'asn-bgptools', 'asn-names-asn2org', 'geonames-postal'];

const load = (requests: Array<{ path: string }>, base: string, opts: { connections: number; rate?: number; headers?: Record<string, string> }) =>
  loadRun(base, { ...opts, requests, duration: DURATION });

const { dir, seed } = benchDataDir('ip', KEY);
// The bench plan needs the security module.
writeFileSync(seed, JSON.stringify({
  plans: [{ id: 'bench', methods: ['*'], modules: ['security', 'device'], monthlyQuota: null, flood: { limit: 10_000_000, windowSeconds: 1 } }],
  accounts: [{ id: 'bench', plan: 'bench', keys: [KEY] }],
}));
const children: ChildProcess[] = [];
try {
  const imported = existsSync(SHARED) ? IP_DATASETS.filter((n) => existsSync(join(SHARED, n))) : [];
  for (const name of imported) IMPORTERS[name]!(dir, SHARED);
  const [port, barePort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  children.push(await startProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' }, `${base}/healthz`, COMPILED_SERVE));
  const auth = { authorization: `Bearer ${KEY}` };
  const ips = ipAddresses();
  const path = (ip: string) => `/lookup/ip?ip=${encodeURIComponent(ip)}&params=security,currency,timezone,location`;
  const probe = await (await fetch(`${base}${path('8.8.8.8')}`, { headers: auth })).text();
  if ((JSON.parse(probe) as { status: string }).status !== 'success') throw new Error(`probe failed: ${probe}`);
  const bodyFile = join(dir, 'ip.json');
  writeFileSync(bodyFile, probe);
  children.push(await startProcess({}, `http://127.0.0.1:${barePort}/bare`, ['bench/bare-server.ts', String(barePort), bodyFile]));
  const bare = `http://127.0.0.1:${barePort}`;
  const ipRequests = ips.map((ip) => ({ path: path(ip) }));
  const bareRequests = [{ path: '/bare' }];

  // Server time, one request at a time (the Server-Timing stages added up).
  const server: number[] = [];
  for (let i = 0; i < 2200; i++) {
    const res = await fetch(`${base}${ipRequests[i % ipRequests.length]!.path}`, { headers: auth });
    const body = (await res.json()) as { status: string; description?: string };
    if (body.status !== 'success') throw new Error(body.description);
    if (i >= 200) server.push(serverStages(res.headers.get('server-timing')).total ?? NaN);
  }
  const bulk: number[] = [];
  const bulkServer: number[] = [];
  for (let i = 0; i < 300; i++) {
    const chunk = Array.from({ length: 50 }, (_, k) => ips[(i * 7 + k) % ips.length]!);
    const t0 = performance.now();
    const res = await fetch(`${base}/lookup/ip/bulk?ips=${encodeURIComponent(chunk.join(','))}&params=security,currency,timezone,location`, { headers: auth });
    const body = (await res.json()) as { status: string; description?: string };
    if (body.status !== 'success') throw new Error(body.description);
    if (i >= 50) {
      bulk.push(performance.now() - t0);
      bulkServer.push(serverStages(res.headers.get('server-timing')).total ?? NaN);
    }
  }

  await autocannon({ url: base, requests: ipRequests, connections: 10, duration: 2, headers: auth });
  await autocannon({ url: bare, requests: bareRequests, connections: 10, duration: 2 });
  await rested();
  const bareMax = await load(bareRequests, bare, { connections: 10 });
  await rested();
  const ipMax = await load(ipRequests, base, { connections: 10, headers: auth });
  await rested();
  const ipFixed = await load(ipRequests, base, { connections: 10, rate: 2000, headers: auth });
  await rested();
  const bareFixed = await load(bareRequests, bare, { connections: 10, rate: 2000 });
  await rested();
  const ipPaced = await paced(base, { rate: 2000, duration: DURATION, requests: ipRequests, headers: auth });
  await rested();
  const barePaced = await paced(bare, { rate: 2000, duration: DURATION, requests: bareRequests });

  const metrics = await (await fetch(`${base}/metrics`)).text();
  const rss = Number(/process_resident_memory_bytes (\d+)/.exec(metrics)?.[1] ?? NaN);
  const failed = [...metrics.matchAll(/vigil_requests_total\{operation="lookup\.ip(?:\.bulk)?",code="(\d+)"\} (\d+)/g)].filter((m) => m[1] !== '0');
  if (failed.length > 0) throw new Error(`lookup/ip answered errors during the bench: ${failed.map((m) => m[0]).join(', ')}`);

  const ratio = ipMax.rps / bareMax.rps;
  process.stdout.write([
    `ip bench: ${DURATION}s per run, 10 connections, loopback, node ${process.version}, ${probe.length}-byte answers on both; imported: ${imported.join(', ') || 'none'}`,
    `bare fastify     max: ${bareMax.rps.toFixed(0)} req/s  p50 ${bareMax.p50} ms  p99 ${bareMax.p99} ms`,
    `lookup/ip        max: ${ipMax.rps.toFixed(0)} req/s  p50 ${ipMax.p50} ms  p99 ${ipMax.p99} ms`,
    `bare fastify  @2000/s: ${bareFixed.rps.toFixed(0)} req/s  p50 ${bareFixed.p50} ms  p99 ${bareFixed.p99} ms`,
    `lookup/ip     @2000/s: ${ipFixed.rps.toFixed(0)} req/s  p50 ${ipFixed.p50} ms  p99 ${ipFixed.p99} ms (autocannon's closed-loop rate)`,
    `bare fastify  @2000/s paced: p50 ${barePaced.p50.toFixed(1)} ms  p99 ${barePaced.p99.toFixed(1)} ms  max ${barePaced.max.toFixed(0)} ms`,
    `lookup/ip     @2000/s paced: p50 ${ipPaced.p50.toFixed(1)} ms  p99 ${ipPaced.p99.toFixed(1)} ms  max ${ipPaced.max.toFixed(0)} ms (goal p99 < 5 ms)`,
    `lookup/ip server time (Server-Timing, sequential): p50 ${quantile(server, 0.5).toFixed(3)} ms  p99 ${quantile(server, 0.99).toFixed(3)} ms (goal p50 < 0.3 ms)`,
    `lookup/ip/bulk of 50 (sequential): client p50 ${quantile(bulk, 0.5).toFixed(2)} ms  p99 ${quantile(bulk, 0.99).toFixed(2)} ms (goal p99 < 15 ms); server p50 ${quantile(bulkServer, 0.5).toFixed(2)} ms`,
    `RSS with all data loaded: ${(rss / 1048576).toFixed(0)} MiB (goal < 1024 MiB)`,
    `ratio lookup/ip / bare throughput: ${(ratio * 100).toFixed(1)}% (goal >= 50%)`,
  ].join('\n') + '\n');
} finally {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
