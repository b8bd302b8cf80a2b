/**
 * Console page times at scale: run scripts/seed-console.ts DIR first (1,000,000 events, 200,000 payments),
 * then `node --import tsx bench/dashboard.ts DIR`. With DATABASE_URL set (for both), the store is that
 * PostgreSQL database instead of DIR/vigil.db (DIR still holds the secret and datasets). Each page is fetched in-process (app.inject) by a signed-in
 * operator, 3 times to warm up and RUNS times measured; the figure is the server's time for the whole page
 * (session check, store reads, rendering). Goal: under 200 ms per page.
 */
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { parseSeed } from '../src/accounts/seed.ts';
import { loadConfig } from '../src/config.ts';
import { loadEngineData } from '../src/data/engine-data.ts';
import { openCounters, openStore } from '../src/store/index.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --import tsx bench/dashboard.ts DIR (seeded by scripts/seed-console.ts)');
  process.exit(2);
}
const RUNS = Number(process.env.RUNS ?? 15);
const ADMIN = 'bench-admin-token-0123456789';
const databaseUrl = process.env.DATABASE_URL || undefined;
const config = loadConfig({
  DATA_DIR: dir, ADMIN_TOKEN: ADMIN, SECRET_KEY: 'bench-secret-0123456789abcdef0123456789', LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off',
  ...(databaseUrl && { DATABASE_URL: databaseUrl }),
});
const store = await openStore({ dataDir: dir, databaseUrl });
const counters = await openCounters({});
const built = await buildApp({ config, store, counters, data: loadEngineData(), secret: config.secretKey!, cardSecret: 'card-secret-for-this-run-0123456789abcdef', logger: pino({ level: 'silent' }), processMetrics: false });
await built.accounts.ensureBuiltinPlans();
await built.applySeed(parseSeed(JSON.stringify({ accounts: [{ id: 'big', plan: 'premium', keys: [] }] })));
const { app } = built;
await app.ready();

const signIn = await app.inject({ method: 'POST', url: '/dashboard/sign-in', payload: `secret=${ADMIN}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
const total = (await store.events.listEvents('big', { limit: 1 }))[0]?.eventId ?? 0;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

const pages = [
  'overview', 'events', 'events?kind=spam_email', 'events?riskMin=95', `events?before=${Math.floor(total / 2)}`, 'events?user=user-77',
  `events?from=${day(40)}&to=${day(40)}`, 'events?labelled=yes', 'events?labelled=no', 'events?kind=profanity&labelled=yes', `events/${Math.floor(total / 3)}`,
  'payments', 'payments?by=card&q=400123', 'payments?by=transaction&q=tx-777', 'rules', 'lists', 'webhooks', 'model', 'audit',
  '/dashboard/accounts', '/dashboard/plans',
];

console.log(`store: ${store.kind}, ${total.toLocaleString('en')} events in account "big"; ${RUNS} runs per page after 3 warm-up runs`);
console.log('page'.padEnd(44), 'median ms'.padStart(10), 'max ms'.padStart(8), 'bytes'.padStart(8));
const worst: number[] = [];
for (const path of pages) {
  const url = path.startsWith('/') ? path : `/dashboard/a/big/${path}`;
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const start = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.statusCode !== 200) throw new Error(`${url}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
    bytes = res.body.length;
    if (i >= 3) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  worst.push(median);
  console.log(path.padEnd(44), median.toFixed(1).padStart(10), times.at(-1)!.toFixed(1).padStart(8), String(bytes).padStart(8));
}
const exportStart = process.hrtime.bigint();
const csv = await app.inject({ method: 'GET', url: `/dashboard/a/big/events/export.csv?from=${day(10)}&to=${day(10)}`, headers: { cookie } });
console.log(`CSV export of one day (${csv.body.split('\n').length - 2} rows): ${(Number(process.hrtime.bigint() - exportStart) / 1e6).toFixed(0)} ms`);
console.log(`slowest page median: ${Math.max(...worst).toFixed(1)} ms`);
await app.close();
await store.close();
await counters.close();
