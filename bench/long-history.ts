/**
 * Long-history bench (issue 27): the server time of a payment scoring whose card already has 5,000 earlier
 * scorings by 5,000 different customers, against scorings of fresh cards, on a real server process (SQLite under a
 * temp DATA_DIR). Interleaved, one request at a time; prints median and p90 of the Server-Timing total and their
 * ratio. Scoring cost must not grow with an identity's history (velocity reads bounded per identity).
 *   node --import tsx bench/long-history.ts            (LONG_HISTORY=5000 earlier customers, ROUNDS=300)
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, quantile, serverStages, startProcess } from './lib.ts';
import { luhnCheckDigit } from '../scripts/synth/cards.ts';

const KEY = 'svc_live_bench0000000000000000long1';
const HISTORY = Number(process.env.LONG_HISTORY ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 300);
const LONG_CARD = '4111111111111111';

/** A Luhn-valid 16-digit card from a number. */
function card(n: number): string {
  const body = `5${String(n).padStart(14, '0')}`;
  return body + luhnCheckDigit(body);
}

const payment = (i: number, cardNumber: string) => ({
  transaction_id: `lh-${i}`, transaction_amount: 20 + (i % 50), transaction_currency: 'EUR', payment_type: 'cards',
  customer_id: `lh-cust-${i}`, customer_email: `lh${i}@example.com`, customer_ip: `81.2.${(i >> 8) % 250}.${(i % 250) + 1}`,
  customer_country: 'DE', billing_country: 'DE', shipping_country: 'DE', card_number: cardNumber,
});

const { dir, seed } = benchDataDir('long-history', KEY);
let child: ChildProcess | undefined;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await startProcess({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' }, `${base}/healthz`);
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const stages: Record<'long' | 'fresh', Record<string, number[]>> = { long: {}, fresh: {} };
  const score = async (body: unknown, kind?: 'long' | 'fresh'): Promise<number> => {
    const res = await fetch(`${base}/scoring/payment`, { method: 'POST', headers, body: JSON.stringify({ data: body }) });
    const parsed = (await res.json()) as { status: string; description?: string };
    if (parsed.status !== 'success') throw new Error(parsed.description);
    const timing = serverStages(res.headers.get('server-timing'));
    if (kind) for (const [k, v] of Object.entries(timing)) (stages[kind][k] ??= []).push(v);
    return timing.total ?? NaN;
  };
  let tx = 0;
  for (let i = 0; i < HISTORY; i++) await score(payment(tx++, LONG_CARD));
  const long: number[] = [];
  const fresh: number[] = [];
  for (let i = 0; i < 100; i++) await score(payment(tx++, card(1_000_000 + tx))); // warm-up
  for (let i = 0; i < ROUNDS; i++) {
    long.push(await score(payment(tx++, LONG_CARD), 'long'));
    fresh.push(await score(payment(tx++, card(1_000_000 + tx)), 'fresh'));
  }
  const row = (name: string, xs: number[]) => `${name.padEnd(34)} p50 ${quantile(xs, 0.5).toFixed(2)} ms  p90 ${quantile(xs, 0.9).toFixed(2)} ms`;
  console.log(`long-history bench: ${ROUNDS} interleaved scorings each, server time (Server-Timing), node ${process.version}`);
  console.log(row(`card with ${HISTORY} earlier customers`, long));
  console.log(row('fresh card', fresh));
  for (const k of Object.keys(stages.long).filter((k) => k !== 'total')) {
    console.log(`  stage ${k.padEnd(12)} p50 long ${quantile(stages.long[k]!, 0.5).toFixed(2)} ms, fresh ${quantile(stages.fresh[k] ?? [], 0.5).toFixed(2)} ms`);
  }
  console.log(`ratio p50 ${(quantile(long, 0.5) / quantile(fresh, 0.5)).toFixed(2)}`);
} finally {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
