/**
 * npm run synth:payment -- [--rows N] [--seed S] [--days D] [--tor FILE] [--out FILE]
 *
 * Writes a synthetic, labelled, time-ordered CSV of payments in the format of
 * scripts/eval-payment.ts (docs/payment-eval.md): legit shoppers (returning, new, travelling,
 * households sharing a card) and five fraud patterns (card testing, account takeover, new-account
 * bust-out, fraud ring, geo mismatch), about 8% fraud. Deterministic: the same seed, row count and
 * package versions (the GeoLite2 databases behind the IP pools) give the same file.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { csvLine } from './eval/csv.ts';
import { cardOf, cardOnBin, BINS } from './synth/cards.ts';
import { browserUa, emulatorUa, headlessUa, personName, phoneOf, realEmail, throwawayEmail } from './synth/identities.ts';
import { IpPools, readAddressList } from './synth/ip-pools.ts';
import { mulberry32, Random } from './synth/prng.ts';

const USAGE = 'usage: npm run synth:payment -- [--rows N] [--seed S] [--days D] [--tor FILE] [--out FILE]';
const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
    days: { type: 'string', default: '30' },
    tor: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (opts.help) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}
const intOpt = (name: string, v: string | undefined, min: number): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`--${name} must be an integer of at least ${min}\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
};
const N = intOpt('rows', opts.rows, 100);
const SEED = intOpt('seed', opts.seed, 0);
const DAYS = intOpt('days', opts.days, 1);

const rnd = new Random(mulberry32(SEED));
/** Simulated time starts at a fixed date so the file does not depend on the day it is made. */
const T0 = Date.UTC(2026, 0, 1) / 1000;
const SPAN = DAYS * 86_400;
const DAY = 86_400;

/** Where legit customers live, by share of customers. Every one has BINs and webmail domains. */
const HOME = { US: 35, GB: 12, DE: 12, FR: 8, BR: 8, IN: 6, CA: 5, ES: 5, IT: 5, NL: 4 } as const;
type Home = keyof typeof HOME;
const HOMES = Object.keys(HOME) as Home[];
/** Where fraudsters connect from (besides proxies, Tor and the victims' own countries). */
const FRAUD_ORIGIN = ['NG', 'RU', 'RO', 'UA', 'ID', 'VN', 'PK'] as const;

const ips = new IpPools(new Random(mulberry32(SEED ^ 0x5eed)), [...HOMES, ...FRAUD_ORIGIN]);
const tor = opts.tor === undefined ? [] : readAddressList(opts.tor);

interface Tx {
  t: number;
  pattern: string;
  label: 0 | 1;
  customer_id?: string;
  account_age_seconds?: number;
  transaction_amount: number;
  isDigitalProducts: boolean;
  customer_email?: string;
  customer_phone?: string;
  customer_ip?: string;
  customer_country?: string;
  customer_device_id?: string;
  customer_useragent?: string;
  card_number?: string;
  billing_country?: string;
  shipping_country?: string;
}
const txs: Tx[] = [];
const money = (x: number): number => Math.round(Math.max(0.5, x) * 100) / 100;
const device = (): string => `dev-${rnd.hex(16)}`;
const otherThan = <T>(xs: readonly T[], ...not: T[]): T => rnd.pick(xs.filter((x) => !not.includes(x)));

// ---- budgets -------------------------------------------------------------------------------------
const fraudRows = Math.round(N * 0.08);
const budget = {
  card_testing: Math.round(fraudRows * 0.3),
  account_takeover: Math.round(fraudRows * 0.15),
  new_account_bustout: Math.round(fraudRows * 0.2),
  fraud_ring: Math.round(fraudRows * 0.2),
  geo_mismatch: 0,
};
budget.geo_mismatch = fraudRows - budget.card_testing - budget.account_takeover - budget.new_account_bustout - budget.fraud_ring;
const legitRows = N - fraudRows;
const newCustomerRows = Math.round(legitRows * 0.1);

// ---- legit: returning customers, travellers, households -----------------------------------------
interface Customer {
  id: string;
  country: Home;
  email: string;
  phone?: string;
  card: string;
  device: string;
  ua: string;
  ips: string[];
  ageAtT0: number;
  median: number;
  digital: number;
  times: number[];
  amounts: number[];
}
const customers: Customer[] = [];
let nextCustomer = 1;

function makeCustomer(country: Home, card?: string, homeIp?: string): Customer {
  const name = personName(rnd);
  const home = homeIp ?? ips.residential(rnd, country);
  return {
    id: `c${nextCustomer++}`,
    country,
    email: realEmail(rnd, country, name),
    ...(rnd.chance(0.7) ? { phone: phoneOf(rnd, country) } : {}),
    card: card ?? cardOf(rnd, country),
    device: device(),
    ua: browserUa(rnd),
    // Some shop from home and from their phone's network: two addresses of their country.
    ips: rnd.chance(0.15) ? [home, ips.residential(rnd, country)] : [home],
    // Accounts from a week to about five years old, most a year or two (log-uniform).
    ageAtT0: Math.round(Math.exp(rnd.float(Math.log(7), Math.log(1800))) * DAY),
    median: Math.min(1500, Math.max(5, rnd.logNormal(60, 0.8))),
    digital: rnd.chance(0.2) ? 0.8 : 0.05,
    times: [],
    amounts: [],
  };
}

function legitTx(c: Customer, t: number, pattern: string, ip?: string): Tx {
  const amount = money(rnd.logNormal(c.median, 0.35));
  c.times.push(t);
  c.amounts.push(amount);
  return {
    t, pattern, label: 0, customer_id: c.id, account_age_seconds: c.ageAtT0 + (t - T0), transaction_amount: amount,
    isDigitalProducts: rnd.chance(c.digital), customer_email: c.email, ...(c.phone ? { customer_phone: c.phone } : {}),
    customer_ip: ip ?? rnd.pick(c.ips), customer_country: c.country, customer_device_id: c.device, customer_useragent: c.ua,
    card_number: c.card, billing_country: c.country, shipping_country: c.country,
  };
}

let legitLeft = legitRows - newCustomerRows;
while (legitLeft > 0) {
  const c = makeCustomer(rnd.weighted(HOME));
  customers.push(c);
  // 2-5 purchases in the window: enough history for the amount rules, and few enough that the
  // replay's compressed clock (every row within the same hour) does not make repeat shoppers look
  // like velocity: PF10002 fires from a customer's sixth purchase in an hour, from the fourth on
  // digital goods, so customers who mostly buy digital goods buy at most three times.
  const k = Math.min(legitLeft, c.digital > 0.5 ? rnd.int(2, 3) : rnd.int(2, 5));
  const times = Array.from({ length: k }, () => T0 + rnd.next() * SPAN).sort((a, b) => a - b);
  const traveller = k >= 2 && rnd.chance(0.06) ? rnd.int(1, k - 1) : -1;
  const household = rnd.chance(0.04);
  const pattern = household ? 'legit_household' : 'legit';
  times.forEach((t, i) => {
    if (i === traveller) txs.push(legitTx(c, t, 'legit_traveller', ips.residential(rnd, otherThan(HOMES, c.country))));
    else txs.push(legitTx(c, t, pattern));
  });
  legitLeft -= k;
  if (household && legitLeft > 0) {
    // A partner: own account, email and device, same card and same home address.
    const partner = makeCustomer(c.country, c.card, c.ips[0]);
    customers.push(partner);
    const m = Math.min(legitLeft, rnd.int(1, 3));
    for (let i = 0; i < m; i++) txs.push(legitTx(partner, T0 + rnd.next() * SPAN, 'legit_household'));
    legitLeft -= m;
  }
}

// New customers: one purchase; account age spread over 0-120 days, some registered the same day.
for (let i = 0; i < newCustomerRows; i++) {
  const c = makeCustomer(rnd.weighted(HOME));
  c.ageAtT0 = 0;
  const age = rnd.chance(0.15) ? rnd.int(60, DAY) : rnd.int(0, 120 * DAY);
  const tx = legitTx(c, T0 + rnd.next() * SPAN, 'legit_new');
  txs.push({ ...tx, account_age_seconds: age });
}

// ---- fraud ----------------------------------------------------------------------------------------
const stolenCountry = (): Home => rnd.weighted(HOME);
const fraudIp = (): string => ips.residential(rnd, rnd.pick(FRAUD_ORIGIN));
let nextFraudster = 1;

// Card testing: bursts of small charges on one stolen card or a few cards of one BIN, seconds apart.
for (let left = budget.card_testing; left > 0; ) {
  const country = stolenCountry();
  const bin = rnd.pick(BINS[country]!);
  const cards = Array.from({ length: rnd.chance(0.6) ? 1 : rnd.int(3, 6) }, () => cardOnBin(rnd, bin));
  const tries = Math.min(left, rnd.int(8, 30));
  let t = T0 + rnd.next() * (SPAN - 3600);
  const burstIp = fraudIp();
  const burstDevice = rnd.chance(0.5) ? device() : undefined;
  const ua = rnd.chance(0.3) ? headlessUa(rnd) : browserUa(rnd);
  const digital = rnd.chance(0.7);
  for (let i = 0; i < tries; i++) {
    t += rnd.float(5, 90);
    const withId = rnd.chance(0.4);
    txs.push({
      t, pattern: 'card_testing', label: 1, transaction_amount: money(rnd.float(0.5, 5)), isDigitalProducts: digital,
      ...(withId ? { customer_id: `f${nextFraudster++}`, account_age_seconds: rnd.int(60, 3600) } : {}),
      customer_email: throwawayEmail(rnd, 0.3),
      customer_ip: rnd.chance(0.7) ? (rnd.chance(0.3) ? ips.hosting(rnd) : fraudIp()) : burstIp,
      ...(burstDevice ? { customer_device_id: burstDevice } : {}),
      customer_useragent: ua, card_number: cards[i % cards.length], billing_country: country,
      ...(digital ? {} : { shipping_country: country }),
    });
  }
  left -= tries;
}

// Account takeover: a returning customer's account, a new device, an IP abroad, a new shipping
// country and an amount far above the customer's own.
const victims = customers.filter((c) => c.times.length >= 3);
for (let left = budget.account_takeover; left > 0 && victims.length > 0; ) {
  const c = victims.splice(rnd.int(0, victims.length - 1), 1)[0]!;
  const last = c.times[c.times.length - 1]!;
  let t = Math.min(T0 + SPAN - 600, last + rnd.float(3600, 3 * DAY));
  if (t <= last) t = last + 60;
  const ipCountry = rnd.chance(0.7) ? rnd.pick(FRAUD_ORIGIN) : otherThan(HOMES, c.country);
  const ip = ips.residential(rnd, ipCountry);
  const dev = device();
  const ua = browserUa(rnd);
  const ship = otherThan([...HOMES, ...FRAUD_ORIGIN], c.country);
  const k = Math.min(left, rnd.chance(0.7) ? 1 : 2);
  for (let i = 0; i < k; i++, t += rnd.float(60, 900)) {
    txs.push({
      t, pattern: 'account_takeover', label: 1, customer_id: c.id, account_age_seconds: c.ageAtT0 + (t - T0),
      transaction_amount: money(Math.min(5000, c.median * rnd.float(5, 15))), isDigitalProducts: rnd.chance(0.3),
      customer_email: c.email, ...(c.phone ? { customer_phone: c.phone } : {}), customer_ip: ip, customer_country: c.country,
      customer_device_id: dev, customer_useragent: ua, card_number: c.card, billing_country: c.country, shipping_country: ship,
    });
  }
  left -= k;
}

// New-account bust-out: registered seconds to minutes before buying big, often with a disposable
// address and sometimes from Tor or a hosting/VPN network.
for (let left = budget.new_account_bustout; left > 0; ) {
  const country = stolenCountry();
  const card = cardOf(rnd, country);
  const id = `f${nextFraudster++}`;
  const email = throwawayEmail(rnd, 0.6);
  const r = rnd.next();
  const ip = r < 0.25 && tor.length > 0 ? rnd.pick(tor) : r < 0.4 ? ips.hosting(rnd) : rnd.chance(0.5) ? fraudIp() : ips.residential(rnd, country);
  const dev = device();
  const ua = rnd.chance(0.2) ? emulatorUa(rnd) : browserUa(rnd);
  const digital = rnd.chance(0.5);
  const ship = rnd.chance(0.5) ? country : rnd.pick(FRAUD_ORIGIN);
  const age = rnd.int(1, 300);
  let t = T0 + rnd.next() * (SPAN - 3600);
  const k = Math.min(left, rnd.int(1, 3));
  for (let i = 0; i < k; i++) {
    txs.push({
      t, pattern: 'new_account_bustout', label: 1, customer_id: id, account_age_seconds: age,
      transaction_amount: money(Math.min(3000, Math.max(100, rnd.logNormal(450, 0.5)))), isDigitalProducts: digital,
      customer_email: email, customer_ip: ip, customer_country: country, customer_device_id: dev, customer_useragent: ua,
      card_number: card, billing_country: country, ...(digital ? {} : { shipping_country: ship }),
    });
    t += rnd.float(30, 600);
  }
  left -= k;
}
// The ages above are at the first purchase; later purchases of the same account are older by the gap.
{
  const first = new Map<string, number>();
  for (const tx of txs) if (tx.pattern === 'new_account_bustout' && tx.customer_id) {
    const t0 = first.get(tx.customer_id) ?? tx.t;
    first.set(tx.customer_id, t0);
    tx.account_age_seconds = (tx.account_age_seconds ?? 0) + Math.round(tx.t - t0);
  }
}

// Fraud ring: a few devices and IPs behind many accounts, each buying once, mid amounts.
for (let left = budget.fraud_ring; left > 0; ) {
  const size = Math.min(left, rnd.int(15, 40));
  const where = rnd.chance(0.6) ? rnd.pick(FRAUD_ORIGIN) : rnd.weighted(HOME);
  const ringIps = Array.from({ length: rnd.int(2, 3) }, () => ips.residential(rnd, where));
  const devices = Array.from({ length: rnd.int(2, 4) }, device);
  const ua = rnd.chance(0.4) ? emulatorUa(rnd) : browserUa(rnd);
  const start = T0 + rnd.next() * (SPAN - 3 * DAY);
  const length = rnd.float(1, 3) * DAY;
  for (let i = 0; i < size; i++) {
    const country = stolenCountry();
    const t = start + rnd.next() * length;
    txs.push({
      t, pattern: 'fraud_ring', label: 1, customer_id: `f${nextFraudster++}`, account_age_seconds: rnd.int(1, 30) * DAY + rnd.int(0, DAY),
      transaction_amount: money(rnd.logNormal(150, 0.4)), isDigitalProducts: rnd.chance(0.3),
      customer_email: realEmail(rnd, 'US', personName(rnd)).replace('@', `${rnd.int(10, 999)}@`),
      customer_ip: rnd.pick(ringIps), customer_country: country, customer_device_id: rnd.pick(devices), customer_useragent: ua,
      card_number: cardOf(rnd, country), billing_country: country, shipping_country: where === 'NG' || rnd.chance(0.5) ? country : where,
    });
  }
  left -= size;
}

// Geo mismatch: card of one country, IP of a second, shipping to a third, phone of a fourth.
for (let i = 0; i < budget.geo_mismatch; i++) {
  const card = stolenCountry();
  const ipc = rnd.chance(0.5) ? rnd.pick(FRAUD_ORIGIN) : otherThan(HOMES, card);
  const ship = otherThan([...HOMES, ...FRAUD_ORIGIN], card, ipc);
  const phone = otherThan([...HOMES, ...FRAUD_ORIGIN], card);
  txs.push({
    t: T0 + rnd.next() * SPAN, pattern: 'geo_mismatch', label: 1, customer_id: `f${nextFraudster++}`, account_age_seconds: rnd.int(0, 60 * DAY),
    transaction_amount: money(rnd.logNormal(250, 0.6)), isDigitalProducts: rnd.chance(0.2),
    customer_email: rnd.chance(0.5) ? realEmail(rnd, 'US', personName(rnd)) : throwawayEmail(rnd, 0.3),
    customer_phone: phoneOf(rnd, phone), customer_ip: ips.residential(rnd, ipc), customer_country: card, customer_device_id: device(),
    customer_useragent: browserUa(rnd), card_number: cardOf(rnd, card), billing_country: card, shipping_country: ship,
  });
}

// ---- write ----------------------------------------------------------------------------------------
txs.sort((a, b) => a.t - b.t);
const COLUMNS = [
  'time', 'transaction_id', 'pattern', 'label', 'customer_id', 'account_age_seconds', 'transaction_amount', 'transaction_currency',
  'isDigitalProducts', 'customer_email', 'customer_phone', 'customer_ip', 'customer_country', 'customer_device_id',
  'customer_useragent', 'payment_type', 'card_number', 'billing_country', 'shipping_country',
] as const;
const out: WriteStream | NodeJS.WriteStream = opts.out === undefined ? process.stdout : createWriteStream(opts.out);
out.write(csvLine([...COLUMNS]) + '\n');
txs.forEach((tx, i) => {
  const row: Partial<Record<(typeof COLUMNS)[number], string | number | boolean>> = {
    ...tx,
    account_age_seconds: tx.account_age_seconds === undefined ? undefined : Math.max(0, Math.round(tx.account_age_seconds)),
    time: new Date(Math.round(tx.t) * 1000).toISOString(),
    transaction_id: `syn${SEED}-${i + 1}`,
    transaction_currency: 'USD',
    payment_type: 'cards',
  };
  out.write(csvLine(COLUMNS.map((c) => row[c])) + '\n');
});
if (out !== process.stdout) out.end();

const counts = new Map<string, number>();
for (const tx of txs) counts.set(tx.pattern, (counts.get(tx.pattern) ?? 0) + 1);
process.stderr.write(
  `${txs.length} rows, ${((txs.filter((t) => t.label === 1).length / txs.length) * 100).toFixed(2)}% fraud, seed ${SEED}: ` +
    [...counts].sort().map(([p, n]) => `${p} ${n}`).join(', ') + (opts.out ? ` -> ${opts.out}` : '') + '\n',
);
