/**
 * Load benchmark: GET /lookup/country?CountryCode=DE (live key, all params) against a bare Fastify
 * JSON route answering the same bytes, both as separate processes on 127.0.0.1, measured by
 * autocannon in this process.
 * Prints throughput ratio and latency at a fixed 1,000 req/s. Bounded: a few 8-10 s runs, loopback only.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/free-port.ts';
import { load as loadRun, paced, startProcess, type LoadOptions, rested } from './lib.ts';

const KEY = 'svc_live_bench00000000000000000001';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);


const load = (url: string, opts: Omit<LoadOptions, 'duration'>) => loadRun(url, { ...opts, duration: DURATION });

/** Cumulative bucket counts of vigil_request_duration_seconds for lookup.country, by upper bound (ms). */
async function histogram(metricsUrl: string): Promise<Map<number, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const buckets = new Map<number, number>();
  for (const m of text.matchAll(/vigil_request_duration_seconds_bucket\{le="([^"]+)",operation="lookup\.country"\} (\d+)/g)) {
    buckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]) * 1000, Number(m[2]));
  }
  return buckets;
}

/** Smallest bucket bound holding quantile `q` of the requests between two readings. */
function quantileBound(before: Map<number, number>, after: Map<number, number>, q: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  for (const b of bounds) if ((after.get(b) ?? 0) - (before.get(b) ?? 0) >= q * total) return b;
  return Infinity;
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
const seed = join(dir, 'seed.json');
// The bench plan lifts the flood limit: a built-in plan's 1,000 req/s would turn most answers into 106.
writeFileSync(seed, JSON.stringify({
  plans: [{ id: 'bench', methods: ['*'], modules: ['security', 'device'], monthlyQuota: null, flood: { limit: 10_000_000, windowSeconds: 1 } }],
  accounts: [{ id: 'bench', plan: 'bench', keys: [KEY] }],
}));
const children: ChildProcess[] = [];
try {
  const [vigilPort, barePort] = [await freePort(), await freePort()];
  const vigilUrl = `http://127.0.0.1:${vigilPort}`;
  const bareUrl = `http://127.0.0.1:${barePort}/bare`;
  children.push(await startProcess({ PORT: String(vigilPort), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn' }, `${vigilUrl}/healthz`));

  const countryUrl = `${vigilUrl}/lookup/country?CountryCode=DE&params=language,flag,currency,timezone`;
  const probe = await fetch(countryUrl, { headers: { authorization: `Bearer ${KEY}` } });
  const probeText = await probe.text();
  const body = JSON.parse(probeText) as { status: string };
  if (body.status !== 'success') throw new Error(`probe failed: ${probeText}`);
  const bodyFile = join(dir, 'country.json');
  writeFileSync(bodyFile, probeText);
  children.push(await startProcess({}, bareUrl, ['bench/bare-server.ts', String(barePort), bodyFile]));
  const auth = { authorization: `Bearer ${KEY}` };

  // Warm up both (JIT, caches), then measure.
  await autocannon({ url: countryUrl, connections: 10, duration: 2, headers: auth });
  await autocannon({ url: bareUrl, connections: 10, duration: 2 });
  await rested();
  const bareMax = await load(bareUrl, { connections: 10 });
  await rested();
  const countryMax = await load(countryUrl, { connections: 10, headers: auth });
  const before = await histogram(`${vigilUrl}/metrics`);
  await rested();
  const countryFixed = await load(countryUrl, { connections: 10, rate: 1000, headers: auth });
  const serverP99 = quantileBound(before, await histogram(`${vigilUrl}/metrics`), 0.99);
  await rested();
  const bareFixed = await load(bareUrl, { connections: 10, rate: 1000 });
  const countryPath = new URL(countryUrl);
  await rested();
  const countryPaced = await paced(vigilUrl, { rate: 1000, duration: DURATION, requests: [{ path: `${countryPath.pathname}${countryPath.search}` }], headers: auth });
  await rested();
  const barePaced = await paced(`http://127.0.0.1:${barePort}`, { rate: 1000, duration: DURATION, requests: [{ path: '/bare' }] });

  // Every answer is HTTP 200, so count outcomes from the server's own metrics: all must be successes.
  const metrics = await (await fetch(`${vigilUrl}/metrics`)).text();
  const outcomes = [...metrics.matchAll(/vigil_requests_total\{operation="lookup\.country",code="(\d+)"\} (\d+)/g)].map((m) => [m[1], Number(m[2])] as const);
  const failed = outcomes.filter(([code]) => code !== '0');
  if (failed.length > 0) throw new Error(`lookup/country answered errors during the bench: ${JSON.stringify(failed)}`);
  const successes = outcomes.find(([code]) => code === '0')?.[1] ?? 0;

  const ratio = countryMax.rps / bareMax.rps;
  const lines = [
    `bench: ${DURATION}s per run, 10 connections, loopback, node ${process.version}, ${probeText.length}-byte answers on both`,
    `bare fastify      max: ${bareMax.rps.toFixed(0)} req/s  p50 ${bareMax.p50} ms  p99 ${bareMax.p99} ms`,
    `lookup/country    max: ${countryMax.rps.toFixed(0)} req/s  p50 ${countryMax.p50} ms  p99 ${countryMax.p99} ms`,
    `bare fastify   @1000/s: ${bareFixed.rps.toFixed(0)} req/s  p50 ${bareFixed.p50} ms  p99 ${bareFixed.p99} ms`,
    `lookup/country @1000/s: ${countryFixed.rps.toFixed(0)} req/s  p50 ${countryFixed.p50} ms  p99 ${countryFixed.p99} ms`,
    `lookup/country @1000/s server time (Vigil's own histogram): p99 <= ${serverP99} ms`,
    `bare fastify   @1000/s paced: p50 ${barePaced.p50.toFixed(1)} ms  p99 ${barePaced.p99.toFixed(1)} ms  max ${barePaced.max.toFixed(0)} ms`,
    `lookup/country @1000/s paced: p50 ${countryPaced.p50.toFixed(1)} ms  p99 ${countryPaced.p99.toFixed(1)} ms  max ${countryPaced.max.toFixed(0)} ms`,
    `lookup/country answers: ${successes} successes, 0 errors`,
    `ratio country/bare throughput: ${(ratio * 100).toFixed(1)}% (goal >= 60%); p99 at 1,000 req/s: ${countryPaced.p99.toFixed(1)} ms paced, ${countryFixed.p99} ms autocannon (goal < 5 ms)`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
