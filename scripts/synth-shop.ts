/**
 * npm run synth:shop -- [--rows N] [--seed S] [--out FILE]
 *
 * A synthetic web-shop order log shaped like the public e-commerce fraud sets used to judge payment
 * scoring (one purchase per new account, ~9.5% fraud), in the CSV format of scripts/eval-payment.ts.
 * Each order carries only what such a shop sends: customer_id, the account age at the purchase
 * (`account_age_seconds`), transaction_amount, customer_device_id, customer_ip and a browser
 * User-Agent. No card, email or country: the patterns must be found in those few fields.
 *
 * - `legit` (~90.5%): account age spread over 0-120 days, amounts log-normal around 35, own device
 *   (one in twenty shared with a second account: a family), an ordinary IP;
 * - `bot_signup` (~half of the fraud): a script signs up and buys within a second or two, many
 *   accounts per device and IP in bursts;
 * - `slow_fraud` (the rest): accounts aged like legit ones but skewed young, a little more spent,
 *   mostly their own devices: hard to tell from legit on these fields alone, as in the real sets.
 *
 * Deterministic: one seed gives one file. Generated data is never committed.
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { csvLine } from './eval/csv.ts';
import { mulberry32, Random } from './synth/prng.ts';

const { values: opts } = parseArgs({
  options: { rows: { type: 'string', default: '30000' }, seed: { type: 'string', default: '1' }, out: { type: 'string' } },
});
const N = Number(opts.rows);
const SEED = Number(opts.seed);
if (!Number.isInteger(N) || N < 100 || !Number.isInteger(SEED)) {
  process.stderr.write('usage: npm run synth:shop -- [--rows N>=100] [--seed S] [--out FILE]\n');
  process.exit(2);
}
const rnd = new Random(mulberry32(SEED));
const DAY = 86_400;
const FRAUD_RATE = 0.095;
const BOT_SHARE = 0.54;

const BROWSERS: Record<string, string> = {
  Chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36',
  IE: 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko',
  Safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  FireFox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0',
  Opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0',
};
const LEGIT_BROWSERS = { Chrome: 40, IE: 24, Safari: 16, FireFox: 16, Opera: 4 };
const FRAUD_BROWSERS = { Chrome: 44, IE: 22, Safari: 15, FireFox: 16, Opera: 3 };

let next = 0;
const id = (prefix: string): string => `${prefix}${(++next).toString(36)}${rnd.int(0, 1e6).toString(36)}`;
/** A public-looking IPv4 address (first octet 24-223, avoiding the private and reserved blocks). */
function ip(): string {
  let a = rnd.int(24, 223);
  while (a === 127 || a === 169 || a === 172 || a === 192 || a === 100) a = rnd.int(24, 223);
  return `${a}.${rnd.int(0, 255)}.${rnd.int(0, 255)}.${rnd.int(1, 254)}`;
}
const amount = (median: number): number => Math.max(9, Math.round(rnd.logNormal(median, 0.5)));

interface Row {
  customer_id: string;
  account_age_seconds: number;
  transaction_amount: number;
  customer_device_id: string;
  customer_ip: string;
  customer_useragent: string;
  label: 0 | 1;
  pattern: string;
}

/** A family device some legit accounts share. */
const familyDevices: Array<{ device: string; ip: string }> = [];
/** An open bot burst: its device and IP, and how many more accounts it signs up. */
let burst: { device: string; ip: string; left: number; ua: string } | null = null;

function legit(): Row {
  let device = id('d');
  let addr = ip();
  if (rnd.chance(0.05) && familyDevices.length > 0) ({ device, ip: addr } = rnd.pick(familyDevices));
  else if (rnd.chance(0.05)) familyDevices.push({ device, ip: addr });
  return {
    customer_id: id('u'), account_age_seconds: rnd.int(60, 120 * DAY), transaction_amount: amount(35), customer_device_id: device, customer_ip: addr,
    customer_useragent: BROWSERS[rnd.weighted(LEGIT_BROWSERS)]!, label: 0, pattern: 'legit',
  };
}

function botSignup(): Row {
  if (burst === null || burst.left <= 0) burst = { device: id('d'), ip: ip(), left: rnd.int(1, 6), ua: BROWSERS[rnd.weighted(FRAUD_BROWSERS)]! };
  burst.left--;
  return {
    customer_id: id('u'), account_age_seconds: rnd.int(1, 2), transaction_amount: amount(36), customer_device_id: burst.device, customer_ip: burst.ip,
    customer_useragent: burst.ua, label: 1, pattern: 'bot_signup',
  };
}

function slowFraud(): Row {
  const age = rnd.chance(0.5) ? rnd.int(3600, 30 * DAY) : rnd.int(3600, 120 * DAY);
  return {
    customer_id: id('u'), account_age_seconds: age, transaction_amount: amount(40), customer_device_id: rnd.chance(0.1) ? (burst?.device ?? id('d')) : id('d'),
    customer_ip: ip(), customer_useragent: BROWSERS[rnd.weighted(FRAUD_BROWSERS)]!, label: 1, pattern: 'slow_fraud',
  };
}

const out = opts.out === undefined ? process.stdout : createWriteStream(opts.out);
const COLUMNS: Array<keyof Row> = ['customer_id', 'account_age_seconds', 'transaction_amount', 'customer_device_id', 'customer_ip', 'customer_useragent', 'label', 'pattern'];
out.write(csvLine(COLUMNS) + '\n');
let frauds = 0;
for (let i = 0; i < N; i++) {
  // A bot burst, once started, takes the next bot orders until its accounts are used up.
  const r = !rnd.chance(FRAUD_RATE) ? legit() : rnd.chance(BOT_SHARE) ? botSignup() : slowFraud();
  frauds += r.label;
  out.write(csvLine(COLUMNS.map((c) => r[c])) + '\n');
}
if (out !== process.stdout) (out as ReturnType<typeof createWriteStream>).end();
process.stderr.write(`${N} rows, ${((100 * frauds) / N).toFixed(2)}% fraud, seed ${SEED}\n`);
