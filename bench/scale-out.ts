/**
 * Scale-out benchmark: the throughput of one instance on PostgreSQL + Redis against one on SQLite (its
 * own DATA_DIR), for GET /lookup/ip (every module) and POST /scoring/payment (every field, live), in
 * interleaved runs of BENCH_SECONDS (default 8) each, as fast as each server answers (32 connections).
 * PostgreSQL, Redis and the load generator share the machine's cores with the server under test: the
 * ratio is what one instance keeps of its SQLite throughput on the same host, not a cluster's capacity.
 * Needs the local PostgreSQL and Redis of the tests (TEST_DATABASE_URL, TEST_REDIS_URL); makes its own
 * database and key prefix and removes them.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../test/helpers/free-port.ts';
import { createTestDatabase } from '../test/store/pg-test-database.ts';
import { deleteKeys, openRedisAdmin, TEST_REDIS_URL } from '../test/helpers/redis.ts';
import { prng } from '../src/intel/text/train.ts';
import { benchDataDir, load, rested, startProcess } from './lib.ts';
import { ipAddresses, transactionMaker } from './requests.ts';

const KEY = 'svc_live_bench0000000000000000000s';
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const db = await createTestDatabase();
const prefix = `vigil-bench-${db.name}:`;
const sqlite = benchDataDir('scale-sqlite', KEY);
const pgDir = benchDataDir('scale-pg', KEY);
// The IP answers ask for every module: the plan needs security and device.
for (const { seed } of [sqlite, pgDir]) {
  writeFileSync(seed, JSON.stringify({
    plans: [{ id: 'bench', methods: ['*'], modules: ['security', 'device'], monthlyQuota: null, flood: { limit: 10_000_000, windowSeconds: 1 } }],
    accounts: [{ id: 'bench', plan: 'bench', keys: [KEY] }],
  }));
}
const children: ChildProcess[] = [];
try {
  const start = async (dir: string, seed: string, env: Record<string, string>) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    children.push(await startProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off', ...env }, `${base}/healthz`));
    return base;
  };
  const servers = {
    sqlite: await start(sqlite.dir, sqlite.seed, {}),
    postgres: await start(pgDir.dir, pgDir.seed, { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, SECRET_KEY: 'bench-secret-0123456789abcdef0123456789' }),
  };
  const headers = { authorization: `Bearer ${KEY}` };
  const ips = ipAddresses().map((ip) => ({ path: `/lookup/ip?ip=${encodeURIComponent(ip)}&params=security,currency,timezone,location`, headers }));
  const transaction = transactionMaker(prng(17));
  let tx = 0;
  // Orders not sent before, more than a run sends (load() deals them out to the connections): a set replayed
  // within a run is the same cards again, which the velocity rules rightly judge card testing.
  const payments = () => Array.from({ length: 2000 * DURATION }, () => ({
    path: '/scoring/payment', method: 'POST' as const, body: JSON.stringify({ data: transaction(tx++) }), headers: { ...headers, 'content-type': 'application/json' },
  }));
  const results: Record<string, Record<string, number[]>> = { ip: { sqlite: [], postgres: [] }, payment: { sqlite: [], postgres: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which store goes first, so neither always meets the machine in the same state.
    const order = round % 2 === 0 ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const);
    for (const store of order) {
      await rested();
      results.ip![store]!.push((await load(servers[store], { connections: 32, duration: DURATION, requests: ips })).rps);
      await rested();
      results.payment![store]!.push((await load(servers[store], { connections: 32, duration: DURATION, requests: payments() })).rps);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const [what, by] of Object.entries(results)) {
    const [s, p] = [mean(by.sqlite!), mean(by.postgres!)];
    console.log(`${what.padEnd(8)} sqlite ${by.sqlite!.map((x) => x.toFixed(0)).join('/')} req/s  postgres+redis ${by.postgres!.map((x) => x.toFixed(0)).join('/')} req/s  ratio ${((p / s) * 100).toFixed(1)}% (goal >= 50%)`);
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  for (const d of [sqlite.dir, pgDir.dir]) rmSync(d, { recursive: true, force: true });
  const redis = await openRedisAdmin();
  await deleteKeys(redis, `${prefix}*`);
  await redis.quit();
  await db.drop();
}
