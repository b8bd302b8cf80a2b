/**
 * The textbook fraud patterns through the HTTP API, each in its band (docs/payment.md "Rules and their
 * priors"), on a real SQLite store with the Tor exit list and the BIN list imported from the team's
 * public data and a simulated clock:
 *
 * - a clean returning customer stays low (< 30);
 * - card testing (one card, 13 attempts in a minute, 13 emails, 13 IPs), one card across ten
 *   customer_ids in a minute, and a disposable email on Tor paying 2,500 as a new customer reach the
 *   high band (>= 60) and raise fraud_payment;
 * - a card issued in the US paid from Germany and shipped to Nigeria reaches review (>= 30);
 * - a package forwarder's warehouse and a Nigerian phone on an otherwise US payment are named;
 * - explain=yes contributions add up exactly to the score.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { loadEngineData } from '../../src/data/engine-data.ts';
import { IMPORTERS } from '../../src/data/import/index.ts';
import type { EngineData } from '../../src/http/routes/index.ts';
import { apiCall } from '../helpers/api-client.ts';
import { liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';
import { SHARED_DATA } from '../helpers/shared-data.ts';

const KEY = liveKey('patterns');
const ACCOUNT = 'patterns';
/** A busy web shop of its own (its BINs' usual rates are its own). */
const SHOP_KEY = liveKey('busyshop');
const SHOP = 'busyshop';
const DAY = 86_400_000;
/** A US residential address (Comcast, San Jose) and a German one (Berlin), as the bundled GeoLite2 places them. */
const US_IP = '73.162.0.1';
const DE_IP = '91.64.0.1';
/** A Luhn-valid number on `prefix`, 16 digits. */
function luhn(prefix: string): string {
  const body = prefix.padEnd(15, '7');
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = Number(body[14 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}
/** A Visa debit card of a US credit union (BIN 400022 in the imported bin-list's ranges.csv). */
const US_CARD = luhn('400022');
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

interface PaymentData {
  score: number;
  rules: Array<{ id: string; description: string }>;
  explanation?: { contributions: Array<{ source: string; id: string; points: number; logOdds?: number; detail?: string }> };
}

let now = Date.parse('2026-03-02T09:00:00.000Z');
let t: TestApp;
let data: EngineData;
let dataDir: string;
let tx = 0;

function torExit(): string {
  const line = readFileSync(join(SHARED_DATA, 'tor-exit-nodes/tor-exit-nodes.txt'), 'utf8').split('\n').find((l) => /^\d+\.\d+\.\d+\.\d+$/.test(l.trim()));
  assert.ok(line, 'an IPv4 Tor exit in the shared list');
  return line.trim();
}

async function pay(fields: Record<string, unknown>, at = now, key = KEY): Promise<PaymentData> {
  now = at;
  const a = await apiCall<PaymentData>(t, 'POST', '/scoring/payment', key, { data: { transaction_id: `p-${++tx}`, ...fields } }, { explain: 'yes' });
  assert.equal(a.status, 'success', a.raw);
  const sum = (a.data.explanation?.contributions ?? []).reduce((n, c) => n + c.points, 0);
  assert.equal(Math.round(sum * 100), Math.round(a.data.score * 100), `contributions add up to the score: ${a.raw}`);
  return a.data;
}

const ids = (d: PaymentData): string[] => d.rules.map((r) => r.id);

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigil-patterns-'));
  for (const name of ['tor-exit-nodes', 'bin-list']) IMPORTERS[name]!(dataDir, SHARED_DATA);
  data = loadEngineData(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  t = await makeTestApp({ data, clock: () => new Date(now), seed: { accounts: [{ id: ACCOUNT, plan: 'premium', keys: [KEY] }, { id: SHOP, plan: 'premium', keys: [SHOP_KEY] }] } });
});

after(async () => {
  await t.close();
  data.ip.close();
  data.reshippers.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('payment scoring: the textbook patterns land in their bands', () => {
  it('a clean returning customer stays low (< 30)', async () => {
    const customer = { customer_id: 'jane-1', customer_email: 'jane.doe@gmail.com', customer_ip: US_IP, card_number: '4000056655665556', customer_device_id: 'jane-phone', customer_useragent: CHROME, billing_country: 'US', shipping_country: 'US', customer_country: 'US', customer_registration_date: Math.floor((now - 400 * DAY) / 1000) };
    const scores: number[] = [];
    for (let k = 0; k < 5; k++) scores.push((await pay({ ...customer, transaction_amount: 40 + k * 7, transaction_currency: 'USD' }, now + 6 * DAY)).score);
    for (const s of scores) assert.ok(s < 30, scores.join(', '));
    assert.ok(scores.at(-1)! < 5, scores.join(', '));
  });

  it('card testing: 13 attempts in a minute with 13 emails and 13 IPs reach the high band', async () => {
    const start = now + DAY;
    const seen: PaymentData[] = [];
    for (let k = 0; k < 13; k++) {
      seen.push(await pay({ card_number: '5555555555554444', customer_email: `tester${k}@example.net`, customer_ip: `73.162.${k + 1}.${k + 7}`, transaction_amount: 1 + k / 10 }, start + k * 4000));
    }
    const scores = seen.map((d) => d.score);
    assert.ok(scores[0]! < 30, scores.join(', '));
    for (const d of seen.slice(3)) assert.ok(d.score >= 60, scores.join(', '));
    assert.ok(ids(seen.at(-1)!).includes('PF10027') && ids(seen.at(-1)!).includes('PF10028'), seen.at(-1)!.rules.map((r) => r.id).join(','));
    const [event] = await t.store.events.listEvents(ACCOUNT, { kind: 'fraud_payment' });
    assert.ok(event, 'fraud_payment raised');
  });

  it('one card across ten customer_ids in a minute reaches the high band', async () => {
    const start = now + DAY;
    let last: PaymentData | undefined;
    for (let k = 0; k < 10; k++) last = await pay({ card_number: '4012888888881881', customer_id: `ring-${k}`, customer_ip: US_IP, transaction_amount: 60 }, start + k * 5000);
    assert.ok(last && last.score >= 60, JSON.stringify(last));
    assert.ok(ids(last).includes('PF10012'), ids(last).join(','));
  });

  it('a disposable email on Tor paying 2,500 as a new customer reaches the high band', async () => {
    const d = await pay({ customer_id: 'newbie-1', customer_email: 'quick.buyer@mailinator.com', customer_ip: torExit(), transaction_amount: 2500, transaction_currency: 'USD' }, now + DAY);
    assert.ok(d.score >= 60, JSON.stringify(d));
    assert.ok(ids(d).includes('PF10003') && ids(d).includes('PF10004'), ids(d).join(','));
    const tor = d.explanation!.contributions.find((c) => c.id === 'PF10003')!;
    const email = d.explanation!.contributions.find((c) => c.id === 'PF10004')!;
    // Compounding: together they score more than either alone would.
    const alone = await pay({ customer_id: 'newbie-2', customer_email: 'quick.buyer2@mailinator.com', customer_ip: US_IP, transaction_amount: 2500, transaction_currency: 'USD' });
    assert.ok(d.score > alone.score + 20, `${alone.score} → ${d.score}`);
    assert.ok(tor.points > 0 && email.points > 0);
  });

  it('a US card paid from Germany and shipped to Nigeria reaches review (>= 30)', async () => {
    const d = await pay({ card_number: US_CARD, customer_ip: DE_IP, shipping_country: 'NG', billing_country: 'US', transaction_amount: 480, transaction_currency: 'USD' }, now + DAY);
    assert.ok(d.score >= 30, JSON.stringify(d));
    assert.ok(ids(d).includes('PF10029'), ids(d).join(','));
  });

  it('a package forwarder and a Nigerian phone on an otherwise US payment are named and raise the score', async () => {
    const base = { card_number: US_CARD, customer_ip: US_IP, billing_country: 'US', shipping_country: 'US', transaction_amount: 120, transaction_currency: 'USD' };
    const plain = await pay({ ...base, customer_id: 'fw-0', shipping_zip: '94110', shipping_street: '123 Valencia St', shipping_city: 'San Francisco' }, now + DAY);
    const forwarder = await pay({ ...base, customer_id: 'fw-1', shipping_zip: '90250', shipping_street: '3501 Jack Northrop Ave Suite 12345', shipping_city: 'Hawthorne', shipping_region: 'CA' });
    assert.ok(ids(forwarder).includes('PF10032'), ids(forwarder).join(','));
    assert.ok(forwarder.score > plain.score, `${plain.score} → ${forwarder.score}`);
    const phone = await pay({ ...base, customer_id: 'fw-2', customer_phone: '+2348031234567' });
    assert.ok(ids(phone).includes('PF10029'), ids(phone).join(','));
    assert.ok(phone.score > plain.score, `${plain.score} → ${phone.score}`);
  });

  it('a legitimate Indian RuPay card (81/82 series) stays low: a valid BIN, issued in India', async () => {
    for (const prefix of ['817200', '820000']) {
      const d = await pay({ card_number: luhn(prefix), customer_ip: '49.36.0.1', billing_country: 'IN', shipping_country: 'IN', customer_country: 'IN', payment_type: 'rupay', transaction_amount: 1499, transaction_currency: 'INR' });
      assert.ok(d.score < 30, JSON.stringify(d));
      assert.ok(!ids(d).includes('PF10007') && !ids(d).includes('PF10008'), ids(d).join(','));
    }
  });

  it('a BIN attack with ordinary amounts: 15 cards of one BIN in two minutes, amounts 40-120, varied emails and IPs, reaches the high band by the 9th', async () => {
    const start = now + DAY;
    const seen: PaymentData[] = [];
    for (let k = 0; k < 15; k++) {
      const card = luhn(`453201${String(1000 + k * 37)}`);
      seen.push(await pay({ card_number: card, customer_email: `buyer.${k}.x@example.org`, customer_ip: `73.162.${100 + k}.${20 + k}`, transaction_amount: 40 + Math.round(k * 5.7), transaction_currency: 'USD', billing_country: 'US' }, start + k * 8000));
    }
    const scores = seen.map((d) => d.score);
    assert.ok(scores[0]! < 30, scores.join(', '));
    // Five earlier cards of one quiet BIN in ten minutes (the 6th attempt): review; eight (the 9th): the high band.
    assert.ok(scores[5]! >= 30, scores.join(', '));
    for (const s of scores.slice(8)) assert.ok(s >= 60, scores.join(', '));
    const last = seen.at(-1)!;
    assert.ok(ids(last).includes('PF10033'), ids(last).join(','));
    assert.match(last.explanation!.contributions.find((c) => c.id === 'PF10033')!.detail ?? '', /cards of this BIN in the last 10 minutes 14/);
  });

  it('many cards from one device in ten minutes (card enumeration) are named from the fourth card, in review from the sixth', async () => {
    const start = now + DAY;
    const seen: PaymentData[] = [];
    for (let k = 0; k < 6; k++) {
      seen.push(await pay({ card_number: luhn(`5${k + 1}0000${String(200 + k)}`), customer_device_id: 'enum-device-1', customer_ip: `98.${k + 20}.4.5`, transaction_amount: 75, transaction_currency: 'USD' }, start + k * 40_000));
    }
    assert.ok(!ids(seen[2]!).includes('PF10033'), ids(seen[2]!).join(','));
    assert.ok(ids(seen[3]!).includes('PF10033'), JSON.stringify(seen[3]));
    assert.ok(seen[5]!.score >= 30, JSON.stringify(seen[5]));
  });

  it("a busy shop's ordinary traffic (popular BINs, 150 to 450 payments an hour for eight hours) stays low", async () => {
    // A seeded generator: 3,000 customers, each with one card; 40% of them on three popular BINs, 30% on twenty
    // others, the rest on BINs of their own; the pace ramps from 150 to 450 payments an hour (busy evening hours).
    let seed = 23;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const popular = ['414720', '517805', '440066'];
    const others = Array.from({ length: 20 }, (_, i) => `4${String(31000 + i * 137).padStart(5, '0')}`);
    const customers = Array.from({ length: 3000 }, (_, i) => {
      const r = rand();
      const bin = r < 0.2 ? popular[0]! : r < 0.32 ? popular[1]! : r < 0.4 ? popular[2]! : r < 0.7 ? others[Math.floor(rand() * others.length)]! : `4${String(60000 + i).padStart(5, '0')}`;
      return {
        customer_id: `shop-c${i}`, card_number: luhn(`${bin}${String(i).padStart(5, '0')}`), customer_email: `customer${i}@gmail.com`,
        customer_ip: `73.${100 + (i % 100)}.${Math.floor(i / 100)}.${10 + (i % 200)}`, customer_device_id: `dev-${i}`, billing_country: 'US', shipping_country: 'US',
        customer_registration_date: Math.floor((now - 200 * DAY) / 1000),
      };
    });
    const start = now + DAY;
    const hours = 8;
    let at = start;
    let n = 0;
    let fired = 0;
    let warm = 0;
    const high: string[] = [];
    while (at < start + hours * 3600_000) {
      const perHour = 150 + (300 * (at - start)) / (hours * 3600_000);
      at += Math.ceil((-Math.log(1 - rand()) * 3600_000) / perHour);
      const c = customers[Math.floor(rand() * customers.length)]!;
      const d = await pay({ ...c, transaction_amount: Math.round(Math.exp(Math.log(60) + 0.6 * (rand() + rand() + rand() - 1.5)) * 100) / 100, transaction_currency: 'USD' }, at, SHOP_KEY);
      n++;
      // The first hour builds the BINs' usual rates (a new account's first minutes have none: docs/payment.md).
      if (at < start + 3600_000) {
        if (ids(d).includes('PF10033')) warm++;
        continue;
      }
      if (ids(d).includes('PF10033')) fired++;
      if (d.score >= 30) high.push(`${d.score} ${ids(d).join(',')}`);
    }
    assert.ok(n > 2000, `${n} payments`);
    console.log(`busy shop: ${n} payments, warm-up fires ${warm}`);
    assert.equal(fired, 0, 'PF10033 on ordinary traffic');
    assert.deepEqual(high, []);
  });

  it('a purchase within a minute of sign-up reaches the fraud_payment event alone', async () => {
    const d = await pay({ customer_id: 'fresh-1', customer_registration_date: Math.floor(now / 1000) - 20, transaction_amount: 80, customer_ip: US_IP });
    assert.ok(d.score >= 50, JSON.stringify(d));
    assert.ok(ids(d).includes('PF10020'));
    const hourOld = await pay({ customer_id: 'fresh-2', customer_registration_date: Math.floor(now / 1000) - 2 * 3600, transaction_amount: 80, customer_ip: US_IP });
    assert.ok(hourOld.score < 30 && hourOld.score < d.score, JSON.stringify(hourOld));
  });
});
