/**
 * Server CPU per request: Vigil and the bare Fastify route, each driven at full speed by autocannon
 * (10 connections) for a few seconds, the server's user + system time read from /proc/<pid>/stat.
 * Steadier than throughput on a noisy machine, and the same ratio: the bare route's CPU per request
 * over Vigil's. Usage: tsx bench/cpu.ts [PATH] (default: the country bench's request). Linux only.
 * MAIN_THREAD=1 counts the main thread only: the event loop's share, without worker threads (the WAL
 * checkpointer, the decision log's writer).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDataDir, cpuTimeUs, load, startProcess } from './lib.ts';
import { freePort } from '../test/helpers/free-port.ts';

const KEY = 'svc_live_bench00000000000000000001';
const path = process.argv[2] ?? '/lookup/country?CountryCode=DE&params=language,flag,currency,timezone';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const RUNS = 3;

async function cpuPerRequest(url: string, pid: number, headers: Record<string, string>): Promise<number[]> {
  const cpu = (): number => cpuTimeUs(pid, Boolean(process.env.MAIN_THREAD));
  await load(url, { connections: 10, duration: 2, headers });
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = cpu();
    const run = await load(url, { connections: 10, duration: SECONDS, headers });
    out.push((cpu() - before) / run.total);
  }
  return out;
}

const { dir, seed } = benchDataDir('cpu', KEY);
const [vigilPort, barePort] = [await freePort(), await freePort()];
const vigil = await startProcess({ PORT: String(vigilPort), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn' }, `http://127.0.0.1:${vigilPort}/healthz`);
// The bare route answers Vigil's bytes (as in run.ts), and a probe makes sure Vigil's answer is a success.
const probe = await (await fetch(`http://127.0.0.1:${vigilPort}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).text();
if ((JSON.parse(probe) as { status?: string }).status !== 'success') throw new Error(`probe failed: ${probe}`);
const bodyFile = join(dir, 'answer.json');
writeFileSync(bodyFile, probe);
const bare = await startProcess({}, `http://127.0.0.1:${barePort}/bare`, ['bench/bare-server.ts', String(barePort), bodyFile]);
try {
  const auth = { authorization: `Bearer ${KEY}` };
  const vigilUs = await cpuPerRequest(`http://127.0.0.1:${vigilPort}${path}`, vigil.pid ?? 0, auth);
  const bareUs = await cpuPerRequest(`http://127.0.0.1:${barePort}/bare`, bare.pid ?? 0, {});
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  console.log(`server CPU per request, ${RUNS} runs of ${SECONDS}s at full speed, 10 connections:`);
  console.log(`bare fastify: ${bareUs.map((x) => x.toFixed(1)).join(' ')} µs`);
  console.log(`vigil ${path}: ${vigilUs.map((x) => x.toFixed(1)).join(' ')} µs`);
  console.log(`ratio of medians bare/vigil: ${((100 * median(bareUs)) / median(vigilUs)).toFixed(1)}%`);
} finally {
  vigil.kill('SIGTERM');
  bare.kill('SIGTERM');
}
