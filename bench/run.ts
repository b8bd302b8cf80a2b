/**
 * Load benchmark: GET /lookup/country?CountryCode=DE (live key, all params) against a bare Fastify
 * JSON route, both as separate processes on 127.0.0.1, measured by autocannon in this process.
 * Prints throughput ratio and latency at a fixed 1,000 req/s. Bounded: a few 8-10 s runs, loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const KEY = 'svc_live_bench00000000000000000001';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

function start(cmd: string[], env: Record<string, string>, readyPattern: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...cmd], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (b: Buffer): void => {
      out += b.toString();
      if (readyPattern.test(out)) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${cmd.join(' ')} exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`timeout starting ${cmd.join(' ')}: ${out}`)), 30000).unref();
  });
}

async function load(url: string, opts: { connections: number; rate?: number; headers?: Record<string, string> }) {
  const r = await autocannon({ url, connections: opts.connections, duration: DURATION, ...(opts.rate ? { overallRate: opts.rate } : {}), headers: opts.headers ?? {} });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total };
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
const seed = join(dir, 'seed.json');
writeFileSync(seed, JSON.stringify({ accounts: [{ id: 'bench', plan: 'payg', keys: [KEY] }] }));
const children: ChildProcess[] = [];
try {
  const vigil = await start(['src/cli/main.ts', 'serve'], { PORT: '18080', HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn' }, /Vigil: first start|listening|serving/i);
  children.push(vigil);
  await new Promise((r) => setTimeout(r, 500));
  const bare = await start(['bench/bare-server.ts', '18081'], {}, /ready/);
  children.push(bare);

  const countryUrl = `http://127.0.0.1:18080/lookup/country?CountryCode=DE&params=language,flag,currency,timezone`;
  const probe = await fetch(countryUrl, { headers: { authorization: `Bearer ${KEY}` } });
  const body = (await probe.json()) as { status: string };
  if (body.status !== 'success') throw new Error(`probe failed: ${JSON.stringify(body)}`);
  const auth = { authorization: `Bearer ${KEY}` };

  // Warm up both (JIT, caches), then measure.
  await autocannon({ url: countryUrl, connections: 10, duration: 2, headers: auth });
  await autocannon({ url: 'http://127.0.0.1:18081/bare', connections: 10, duration: 2 });
  const bareMax = await load('http://127.0.0.1:18081/bare', { connections: 10 });
  const countryMax = await load(countryUrl, { connections: 10, headers: auth });
  const countryFixed = await load(countryUrl, { connections: 10, rate: 1000, headers: auth });

  const ratio = countryMax.rps / bareMax.rps;
  const lines = [
    `bench: ${DURATION}s per run, 10 connections, loopback, node ${process.version}`,
    `bare fastify      max: ${bareMax.rps.toFixed(0)} req/s  p50 ${bareMax.p50} ms  p99 ${bareMax.p99} ms`,
    `lookup/country    max: ${countryMax.rps.toFixed(0)} req/s  p50 ${countryMax.p50} ms  p99 ${countryMax.p99} ms`,
    `lookup/country @1000/s: ${countryFixed.rps.toFixed(0)} req/s  p50 ${countryFixed.p50} ms  p99 ${countryFixed.p99} ms`,
    `ratio country/bare throughput: ${(ratio * 100).toFixed(1)}% (goal >= 60%); p99 at 1,000 req/s: ${countryFixed.p99} ms (goal < 5 ms)`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
