/**
 * CPU per payment scoring, from /proc: the server's main thread and the whole process (worker threads
 * included), over rounds of N scorings sent by a tight keep-alive client with C in flight. Steadier than
 * req/s on a shared machine. With BENCH_OTHER=DIR (a checkout of another commit, node_modules beside it)
 * the rounds alternate between this checkout's server and that one's, each with its own DATA_DIR, so
 * both see the same minutes of the machine.
 * Usage: tsx bench/payment-cpu.ts [rounds=6] [perRound=1500] [inFlight=4]. Linux only. BENCH_RATE=500 paces the
 * requests instead (the CPU per scoring at the paced p99 goal's rate, where fewer calls share each write).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, cpuTimeUs, quantile } from './lib.ts';
import { transactionMaker } from './requests.ts';

const KEY = 'svc_live_bench00000000000000000008';
const [ROUNDS, PER_ROUND, IN_FLIGHT] = [Number(process.argv[2] ?? 6), Number(process.argv[3] ?? 1500), Number(process.argv[4] ?? 4)];
/** BENCH_RATE=R sends R requests a second (open loop, any number in flight) instead of IN_FLIGHT back to back. */
const RATE = Number(process.env.BENCH_RATE ?? 0);

interface Server { name: string; child: ChildProcess; port: number; dir: string; agent: Agent; tx: number; transaction: (i: number) => Record<string, unknown>; main: number[]; all: number[]; ms: number[] }

async function start(name: string, cwd: string): Promise<Server> {
  const { dir, seed } = benchDataDir(`cpu-${name}`, KEY);
  const port = await freePort();
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd,
    env: { CARD_KEY: 'bench-card-key-0123456789abcdef01234567', ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, child, port, dir, agent: new Agent({ keepAlive: true, maxSockets: RATE > 0 ? 64 : IN_FLIGHT }), tx: 0, transaction: transactionMaker(prng(11)), main: [], all: [], ms: [] };
}

function post(s: Server, body: string): Promise<void> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: s.port, path: '/scoring/payment', method: 'POST', agent: s.agent, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => (text.includes('"status":"success"') ? done() : fail(new Error(text.slice(0, 300)))));
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function round(s: Server, n: number): Promise<{ main: number; all: number; ms: number }> {
  const bodies = Array.from({ length: n }, () => JSON.stringify({ data: s.transaction(s.tx++) }));
  const pid = s.child.pid!;
  const [m0, a0, t0] = [cpuTimeUs(pid, true), cpuTimeUs(pid), performance.now()];
  let next = 0;
  if (RATE > 0) {
    // Open loop: one request every 1/RATE s whatever is in flight, as the paced client of payment.ts sends.
    const sent: Array<Promise<void>> = [];
    for (let i = 0; i < bodies.length; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now();
      if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
      sent.push(post(s, bodies[i]!));
    }
    await Promise.all(sent);
  } else {
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < bodies.length) await post(s, bodies[next++]!);
    }));
  }
  const ms = performance.now() - t0;
  // Let buffered writes of the round land in this round's figures.
  await new Promise((r) => setTimeout(r, 300));
  return { main: (cpuTimeUs(pid, true) - m0) / n, all: (cpuTimeUs(pid) - a0) / n, ms: ms / n };
}

const servers = [await start('this', resolve('.'))];
if (process.env.BENCH_OTHER) servers.push(await start('other', resolve(process.env.BENCH_OTHER)));
try {
  for (const s of servers) await round(s, 1500);
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
      const m = await round(s, PER_ROUND);
      s.main.push(m.main);
      s.all.push(m.all);
      s.ms.push(m.ms);
    }
  }
  console.log(`CPU per scoring, ${ROUNDS} rounds of ${PER_ROUND}, ${RATE > 0 ? `paced at ${RATE}/s` : `${IN_FLIGHT} in flight`} (µs; main thread / whole process; wall ms per scoring)`);
  for (const s of servers) {
    console.log(`${s.name.padEnd(6)} main p50 ${quantile(s.main, 0.5).toFixed(0)} [${s.main.map((x) => x.toFixed(0)).join(' ')}]  all p50 ${quantile(s.all, 0.5).toFixed(0)} [${s.all.map((x) => x.toFixed(0)).join(' ')}]  wall ${quantile(s.ms, 0.5).toFixed(3)}`);
  }
} finally {
  // Each DATA_DIR goes once its server has exited (it writes its held scorings and checkpoints on the way out).
  await Promise.all(servers.map((s) => {
    s.agent.destroy();
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    return exited;
  }));
  for (const s of servers) rmSync(s.dir, { recursive: true, force: true });
}
