/**
 * Policy-stage benchmark: an account with 1,000 custom rules (all in the group the method runs)
 * and 1,000,000 blacklist entries, against an account with none, on the same method. The policy
 * stage's own time comes from each answer's Server-Timing header (`policy;dur=`), so the figure is
 * what the stage adds, not the client's view. In-process (app.inject), SQLite store in a temp dir.
 * Bounded: ~20,000 requests per account.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loadEngineData } from '../src/data/engine-data.ts';
import { parseSeed } from '../src/accounts/seed.ts';
import { openCounters, openStore } from '../src/store/index.ts';
import { withPolicyProbe } from '../test/helpers/policy-probe.ts';

const REQUESTS = Number(process.env.BENCH_POLICY_REQUESTS ?? 20_000);
const SECRET = 'bench-secret-0123456789abcdef0123456789';
const HEAVY = 'svc_live_benchheavy00000000000000001';
const PLAIN = 'svc_live_benchplain00000000000000001';
const EVENTS = 'svc_live_benchevent00000000000000001';
const COUNTRIES = ['FR', 'IT', 'ES', 'PL', 'NL', 'BE', 'AT', 'CZ', 'SE', 'DK', 'FI', 'PT', 'GR', 'HU', 'RO', 'BG', 'IE', 'US', 'CA', 'BR', 'JP', 'CN', 'IN', 'RU'];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** 1,000 IP-group rules of mixed operators; 5 of them (whitelist rules, so no event is raised) match a German answer. */
function rules(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 1000; i++) {
    const c = COUNTRIES[i % COUNTRIES.length] ?? 'FR';
    const kind = i % 5;
    const conditions =
      kind === 0 ? { all: [{ field: 'countryCode', op: 'eq', value: c }] }
      : kind === 1 ? { all: [{ field: 'countryName', op: 'matches', value: `(?i)^${c}x` }, { field: 'countryCode', op: 'neq', value: 'DE' }] }
      : kind === 2 ? { any: [{ field: 'security.isTor', op: 'eq', value: true }, { field: 'asn.asn', op: 'in', value: [String(1000 + i), String(2000 + i)] }] }
      : kind === 3 ? { all: [{ field: 'ip', op: 'in_cidr', value: `10.${i % 256}.0.0/16` }] }
      : { all: [{ field: 'continentCode', op: 'eq', value: 'EU' }, { field: 'countryCode', op: 'in', value: [c, 'XX', 'YY'] }] };
    out.push({ title: `rule ${i}`, group: 'ip', conditions, action: { type: i % 2 ? 'blacklist' : 'whitelist' } });
  }
  for (let i = 0; i < 5; i++) out[i * 200] = { title: `matches DE ${i}`, group: 'ip', conditions: { all: [{ field: 'countryCode', op: 'eq', value: 'de' }] }, action: { type: 'whitelist' } };
  return out;
}

/** 1,000,000 entries: 600k IPv4 addresses, 100k IPv4 ranges, 100k IPv6 addresses, 200k customer ids. */
function* lists(): Generator<[type: 'ip' | 'customer_id', values: string[]]> {
  const chunk = 100_000;
  for (let c = 0; c < 6; c++) yield ['ip', Array.from({ length: chunk }, (_, i) => { const n = c * chunk + i; return `11.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`; })];
  yield ['ip', Array.from({ length: chunk }, (_, i) => `${20 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.0/24`)];
  yield ['ip', Array.from({ length: chunk }, (_, i) => `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`)];
  for (let c = 0; c < 2; c++) yield ['customer_id', Array.from({ length: chunk }, (_, i) => `customer-${c}-${i}`)];
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-policy-'));
const store = await openStore({ dataDir: dir });
const counters = await openCounters({});
try {
  const config = loadConfig({ DATA_DIR: dir, SECRET_KEY: SECRET, LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', DECISION_LOG_DAYS: process.env.DECISION_LOG_DAYS ?? '30' });
  const built = await buildApp({ config, store, counters, data: loadEngineData(), secret: SECRET, cardSecret: SECRET, logger: pino({ level: 'silent' }), processMetrics: false, endpoints: () => withPolicyProbe(loadEngineData()) });
  await built.accounts.ensureBuiltinPlans();
  await built.applySeed(parseSeed(JSON.stringify({
    plans: [{ id: 'bench', methods: ['*'], modules: ['security', 'device'], monthlyQuota: null, flood: { limit: 10_000_000, windowSeconds: 1 } }],
    accounts: [
      { id: 'heavy', plan: 'bench', keys: [HEAVY] },
      { id: 'plain', plan: 'bench', keys: [PLAIN] },
      // Every answer of this account is blacklisted, so every call stores a suspicious_ip event.
      { id: 'events', plan: 'bench', keys: [EVENTS], blacklists: [{ type: 'card_country', values: ['DE'] }] },
    ],
  })));
  let t0 = performance.now();
  for (const rule of rules()) await built.policy.rules.create('heavy', rule);
  const rulesMs = performance.now() - t0;
  t0 = performance.now();
  let entries = 0;
  for (const [type, values] of lists()) entries += (await built.policy.lists.add('heavy', type, values)).changed;
  const listsMs = performance.now() - t0;
  await built.app.ready();

  const heapBefore = process.memoryUsage().heapUsed;
  t0 = performance.now();
  const snapshot = await built.policy.snapshots.get('heavy');
  const loadMs = performance.now() - t0;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;

  const run = async (key: string, n: number): Promise<{ policy: number[]; total: number[]; rulesApplied: number }> => {
    const policy: number[] = [];
    const total: number[] = [];
    let rulesApplied = 0;
    for (let i = 0; i < n; i++) {
      const res = await built.app.inject({ method: 'GET', url: '/lookup/country?CountryCode=DE', headers: { authorization: `Bearer ${key}` } });
      const timing = String(res.headers['server-timing']);
      const stage = /policy;dur=([\d.]+)/.exec(timing);
      const stages = [...timing.matchAll(/;dur=([\d.]+)/g)].reduce((s, m) => s + Number(m[1]), 0);
      if (!stage) throw new Error(`no policy stage in ${timing}: ${res.body}`);
      policy.push(Number(stage[1]));
      total.push(stages);
      if (i === 0) rulesApplied = (JSON.parse(res.body) as { data: { custom_rules_applied: { total: number } } }).data.custom_rules_applied.total;
    }
    return { policy: policy.sort((a, b) => a - b), total: total.sort((a, b) => a - b), rulesApplied };
  };
  await run(HEAVY, 2000);
  await run(PLAIN, 2000);
  await run(EVENTS, 1000);
  const heavy = await run(HEAVY, REQUESTS);
  const plain = await run(PLAIN, REQUESTS);
  const events = await run(EVENTS, Math.min(REQUESTS, 5000));
  if (heavy.rulesApplied !== 5) throw new Error(`the heavy account should apply 5 rules to DE, applied ${heavy.rulesApplied}`);
  const added = quantile(heavy.policy, 0.5) - quantile(plain.policy, 0.5);
  const lines = [
    `policy bench: ${REQUESTS} requests per account, in-process, node ${process.version}`,
    `setup: 1,000 rules saved in ${(rulesMs / 1000).toFixed(1)} s; ${entries.toLocaleString('en')} list entries saved in ${(listsMs / 1000).toFixed(1)} s (SQLite)`,
    `snapshot of ${snapshot.lists.size.toLocaleString('en')} entries and ${snapshot.rules.get('ip')?.size ?? 0} rules loaded in ${(loadMs / 1000).toFixed(2)} s, heap +${heapMb.toFixed(0)} MB`,
    `policy stage, no rules or lists:      p50 ${quantile(plain.policy, 0.5).toFixed(3)} ms  p99 ${quantile(plain.policy, 0.99).toFixed(3)} ms`,
    `policy stage, 1,000 rules + 1M lists: p50 ${quantile(heavy.policy, 0.5).toFixed(3)} ms  p99 ${quantile(heavy.policy, 0.99).toFixed(3)} ms`,
    `server time (all stages) p50: ${quantile(plain.total, 0.5).toFixed(3)} ms without, ${quantile(heavy.total, 0.5).toFixed(3)} ms with (ratio ${(quantile(heavy.total, 0.5) / quantile(plain.total, 0.5)).toFixed(2)})`,
    `the policy stage adds ${added.toFixed(3)} ms at p50 (goal < 0.2 ms)`,
    `policy stage of calls raising one event (stored once the answer is written, not in this stage): p50 ${quantile(events.policy, 0.5).toFixed(3)} ms  p99 ${quantile(events.policy, 0.99).toFixed(3)} ms`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  await built.app.close();
} finally {
  await store.close();
  await counters.close();
  rmSync(dir, { recursive: true, force: true });
}
