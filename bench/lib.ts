/** Helpers shared by the benches: start a server process, read Server-Timing, quantiles. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, startCommand } from '../test/helpers/build.ts';

/**
 * Vigil as `npm start` runs it: the compiled build (bin/vigil.js, dist/), plain JavaScript without the tsx
 * loader, with the Node flags of package.json's start script (read from it, so the benches measure what
 * `npm start` serves). Built first when dist/ is missing or older than a source.
 */
export const COMPILED_SERVE = startArguments();

function startArguments(): string[] {
  const [node, ...args] = startCommand();
  if (node !== 'node' || !args.includes('bin/vigil.js')) throw new Error(`package.json's start script is not \`node [flags] bin/vigil.js serve\`: ${[node, ...args].join(' ')}`);
  return args;
}

/**
 * Starts `node <args>` (default: Vigil's `serve` from the sources, through tsx; `.ts` entry points get
 * `--import tsx`, COMPILED_SERVE none) and resolves once `readyUrl` answers 2xx.
 */
export async function startProcess(env: Record<string, string>, readyUrl: string, args: string[] = ['src/cli/main.ts', 'serve']): Promise<ChildProcess> {
  if (args.includes('bin/vigil.js')) ensureBuilt();
  const loader = args[0]?.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // BENCH_PROFILE_DIR=DIR writes a V8 CPU profile of every started process into DIR when it exits.
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  // BENCH_NODE_FLAGS='--trace-gc ...' adds V8/Node flags (also those NODE_OPTIONS refuses) to every started process.
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  // A card key of the benches' own (overridable), so no card key file is left beside their temp DATA_DIRs.
  const child = spawn(process.execPath, [...profile, ...flags, ...loader, ...args], { env: { CARD_KEY: 'bench-card-key-0123456789abcdef01234567', ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  // BENCH_SERVER_LOG=FILE appends what every started process writes (e.g. with BENCH_NODE_FLAGS=--trace-gc) to FILE.
  const log = process.env.BENCH_SERVER_LOG;
  if (log) for (const stream of [child.stdout, child.stderr]) stream?.on('data', (b: Buffer) => appendFileSync(log, b));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}: ${out}`);
    try {
      if ((await fetch(readyUrl)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`timeout starting ${args.join(' ')}: ${out}`);
}

/**
 * A pause before each measured run (BENCH_REST seconds, default 20; 0 for none). On the 2-core bench VM
 * the same server gets slower the longer load has run without a break (2026-11-24: CPU per payment
 * scoring 1.37, 1.95, 2.17, 2.95 ms in four back-to-back runs of the same commit, 1.42 ms again after
 * 90 s idle; a pure compute loop on both cores did not slow down), so without it whichever run comes
 * last measures the machine's state more than the code.
 */
export async function rested(): Promise<void> {
  const seconds = Number(process.env.BENCH_REST ?? 20);
  if (seconds > 0) await new Promise((r) => setTimeout(r, seconds * 1000));
}

/**
 * CPU time (user + system) a process has used so far, in µs, from /proc (Linux, ticks of USER_HZ 100): all its
 * threads, or with `mainThread` its main thread only.
 */
export function cpuTimeUs(pid: number, mainThread = false): number {
  const fields = (readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The q-quantile of unsorted values. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** Stage durations of a Server-Timing header, and their sum as `total`. */
export function serverStages(header: string | null): Record<string, number> {
  const out: Record<string, number> = { total: 0 };
  for (const m of (header ?? '').matchAll(/(\w+);dur=([\d.]+)/g)) {
    out[m[1] ?? '?'] = Number(m[2]);
    out.total = (out.total ?? 0) + Number(m[2]);
  }
  return out;
}

/**
 * A temp DATA_DIR holding a seed file: plan `bench` (no quota, a flood limit no bench reaches, so
 * every answer is a real one and not a 106) and account `bench` with the given key.
 */
export function benchDataDir(name: string, key: string): { dir: string; seed: string } {
  const dir = mkdtempSync(join(tmpdir(), `vigil-bench-${name}-`));
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({
    plans: [{ id: 'bench', methods: ['*'], modules: [], monthlyQuota: null, flood: { limit: 10_000_000, windowSeconds: 1 } }],
    accounts: [{ id: 'bench', plan: 'bench', keys: [key] }],
  }));
  return { dir, seed };
}

export interface LoadOptions {
  connections: number;
  /** Seconds of load. */
  duration: number;
  /** Fixed total request rate; absent: as fast as the server answers. */
  rate?: number;
  headers?: Record<string, string>;
  /**
   * Requests on `url`'s host (GET unless a method is given); absent: `url` itself. They are dealt out to the
   * connections (request i to connection i mod connections), each connection cycling through its share: every
   * request is sent by one connection, in about the list's order, until the list runs out.
   */
  requests?: LoadRequest[];
}
type LoadRequest = { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };

/**
 * One autocannon run; throws when any answer was not HTTP 2xx or a request failed.
 *
 * autocannon gives every connection the whole `requests` list, each starting at its first entry: ten
 * connections sent each payment ten times within a millisecond (the same card ten times, which the velocity
 * rules rightly judge card testing), and each connection prepared the whole list again before the run,
 * blocking this process for 15-19 s with 32,000 requests (its first requests' latencies and timeouts were
 * the client's, 2026-11-27). So each connection gets its own share (`setupClient`, which runs before the
 * connection sends anything), and the list is prepared once.
 */
export async function load(url: string, opts: LoadOptions): Promise<{ rps: number; p50: number; p99: number; total: number }> {
  const requests = opts.requests;
  let next = 0;
  const shares = requests && requests.length >= opts.connections
    ? Array.from({ length: opts.connections }, (_, c) => requests.filter((_r, i) => i % opts.connections === c))
    : undefined;
  const r = await autocannon({
    url, connections: opts.connections, duration: opts.duration, headers: opts.headers ?? {},
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    ...(requests ? { requests: shares ? [shares[0]![0]!] : requests } : {}),
    ...(shares ? { setupClient: (client) => client.setRequests(shares[next++ % shares.length]!) } : {}),
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors (${r.timeouts} timeouts, ${r.resets} resets)`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total };
}

export interface PacedOptions {
  rate: number;
  duration: number;
  requests: NonNullable<LoadOptions['requests']>;
  headers?: Record<string, string>;
}
export interface PacedResult { sent: number; p50: number; p99: number; max: number }

/**
 * Open-loop load at a fixed rate: request i is sent at start + i/rate whatever the earlier ones are
 * doing (as real clients arrive), on up to 64 keep-alive sockets, and its latency runs from that moment
 * to the end of its answer. autocannon's fixed rate is closed-loop instead (10 connections, each
 * waiting for its answer, a per-second budget spent in a burst), which measures its own pacing more
 * than the server; both are printed. Throws when any answer was not HTTP 2xx.
 *
 * The client runs in a process of its own (bench/paced-client.ts): inside the bench process, whose
 * heap holds the request sets and autocannon's leftovers, its own pauses made a bare Fastify route
 * measure p99 13.8 ms at 2,000 req/s, against 2.0-3.5 ms from a process of its own (2026-11-24).
 */
export async function paced(base: string, opts: PacedOptions): Promise<PacedResult> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-paced-'));
  try {
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify({ base, opts }));
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/paced-client.ts', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`paced client exited ${code}: ${out}`);
    return JSON.parse(out) as PacedResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The paced client itself (see `paced`), run in bench/paced-client.ts's process. */
export async function pacedInProcess(base: string, opts: PacedOptions): Promise<PacedResult> {
  // The first second opens the sockets and warms the client; it is sent but not counted.
  const warmup = 1000;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  // BENCH_PACED_TRACE=FILE writes each counted request's due time (ms from the client's start), latency (ms) and due
  // time as Unix epoch ms (to line up with a server's log), one request a line.
  const trace = process.env.BENCH_PACED_TRACE ? ([] as string[]) : undefined;
  let failed = 0;
  const send = (r: NonNullable<LoadOptions['requests']>[number], due: number, counted: boolean) =>
    new Promise<void>((resolve) => {
      // From the moment it was due, or sent if that is later: a late client does not hide server time.
      const t0 = Math.min(due, performance.now());
      const req = httpRequest(`${base}${r.path}`, { method: r.method ?? 'GET', agent, headers: { ...opts.headers, ...r.headers } }, (res) => {
        if ((res.statusCode ?? 0) >= 300) failed++;
        res.resume();
        res.on('end', () => {
          if (counted) {
            latencies.push(performance.now() - t0);
            trace?.push(`${(due - start).toFixed(1)} ${latencies.at(-1)!.toFixed(2)} ${(performance.timeOrigin + due).toFixed(0)}`);
          }
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(r.body);
    });
  const total = Math.round(opts.rate * (opts.duration + warmup / 1000));
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(opts.requests[i % opts.requests.length]!, due, due - start >= warmup));
  }
  await Promise.all(inFlight);
  agent.destroy();
  if (trace) writeFileSync(process.env.BENCH_PACED_TRACE!, trace.join('\n') + '\n');
  if (failed > 0) throw new Error(`${base}: ${failed} of ${total} paced requests failed or were not 2xx`);
  return { sent: latencies.length, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: Math.max(...latencies) };
}
