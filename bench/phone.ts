/**
 * Phone benchmark: server time of GET /scoring/phone read from the Server-Timing header of each
 * answer (auth, engine, policy and format stages added up) on a real server process with a live
 * key and the public receive-SMS list imported (when ../shared/data holds it). Numbers are all
 * different (national, + and 00 forms, 24 countries, valid and invalid), sent one at a time.
 * Also prints the engine alone, in process, for the same numbers.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { importDisposablePhones } from '../src/data/import/disposable-phones.ts';
import { loadPhoneData } from '../src/data/phone-data.ts';
import { evaluatePhone } from '../src/intel/phone/evaluate.ts';
import { checkCountry, parsePhone } from '../src/intel/phone/parse.ts';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, quantile, serverStages as stages, startProcess as start } from './lib.ts';

const KEY = 'svc_live_bench00000000000000000005';
const N = Number(process.env.BENCH_PHONE_REQUESTS ?? 1000);
const WARMUP = 200;
const SHARED = join(import.meta.dirname, '..', '..', 'shared', 'data');

/** Country, calling code, national prefix and the leading digits of some of its ranges. */
const PLANS: Array<[string, string, string, string[], number]> = [
  ['GB', '44', '0', ['7400', '7911', '20', '800', '909'], 10], ['US', '1', '', ['415', '212', '800', '900'], 10],
  ['DE', '49', '0', ['151', '30', '800', '900'], 10], ['FR', '33', '0', ['6', '1', '9', '89'], 9], ['ES', '34', '', ['6', '91', '803'], 9],
  ['IT', '39', '', ['312', '06', '899'], 10], ['NL', '31', '0', ['6', '20', '85', '900'], 9], ['CN', '86', '', ['138', '10'], 11],
  ['IN', '91', '', ['98', '11'], 10], ['JP', '81', '0', ['90', '3', '120'], 10], ['AU', '61', '0', ['4', '2', '1900'], 9],
  ['BR', '55', '', ['119', '11'], 11], ['RU', '7', '8', ['912', '495', '800'], 10], ['SA', '966', '0', ['50', '11'], 9],
  ['AE', '971', '0', ['50', '4'], 9], ['ZA', '27', '0', ['82', '11'], 9], ['MX', '52', '', ['55'], 10], ['SE', '46', '0', ['70', '8'], 9],
  ['PL', '48', '', ['512', '12'], 9], ['TR', '90', '0', ['501', '212'], 10], ['NG', '234', '0', ['803'], 10], ['KR', '82', '0', ['10', '2'], 10],
  ['IL', '972', '0', ['50', '2'], 9], ['CH', '41', '0', ['78', '44', '900'], 9],
];

const { dir, seed } = benchDataDir('phone', KEY);
const imported = existsSync(join(SHARED, 'disposable-phone-numbers')) ? importDisposablePhones(dir, SHARED).manifest.count : 0;
let child: ChildProcess | undefined;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' }, `${base}/healthz`);
  const rnd = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const numbers = Array.from({ length: N + WARMUP }, (_, i) => {
    const [cc, code, prefix, ranges, len] = pick(PLANS);
    const range = pick(ranges);
    let rest = range;
    while (rest.length < len) rest += String(Math.floor(rnd() * 10));
    if (i % 10 === 9) rest += '12'; // some too long
    const form = i % 3;
    return { cc, phone: form === 0 ? `${prefix}${rest}` : form === 1 ? `+${code} ${rest}` : `00${code}${rest}` };
  });
  const phoneData = loadPhoneData(imported > 0 ? { dataDir: dir } : undefined, { reloadMs: 0 });
  const server: number[] = [];
  const engine: number[] = [];
  const byStage: Record<string, number[]> = {};
  let invalid = 0;
  let disposable = 0;
  for (const [i, { cc, phone }] of numbers.entries()) {
    const res = await fetch(`${base}/scoring/phone?countryCode=${cc}&phone=${encodeURIComponent(phone)}`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.json()) as { status: string; description?: string; data?: { isValid?: boolean; disposable?: boolean } };
    if (body.status !== 'success') throw new Error(`${cc} ${phone}: ${body.description ?? 'error'}`);
    const t0 = performance.now();
    const country = checkCountry(cc);
    if (country.ok) {
      const parsed = parsePhone(phone, country.region);
      if (parsed.ok) {
        const digits = parsed.phone.number.number.slice(1);
        evaluatePhone(cc, parsed.phone, country.region, { disposable: phoneData.disposable.facts(digits, new Date()), carrier: phoneData.carrier });
      }
    }
    const e = performance.now() - t0;
    if (i >= WARMUP) {
      const st = stages(res.headers.get('server-timing'));
      server.push(st.total ?? NaN);
      for (const [k, v] of Object.entries(st)) (byStage[k] ??= []).push(v);
      engine.push(e);
      if (body.data?.isValid === false) invalid++;
      if (body.data?.disposable === true) disposable++;
    }
  }
  phoneData.close();
  process.stdout.write([
    `phone bench: ${N} different numbers in ${PLANS.length} countries, receive-SMS list ${imported > 0 ? `imported (${imported} numbers)` : 'not imported (../shared/data absent)'}, ` +
      `one request at a time, loopback, node ${process.version}`,
    `scoring/phone server p50 ${quantile(server, 0.5).toFixed(3)} ms  p90 ${quantile(server, 0.9).toFixed(3)} ms  p99 ${quantile(server, 0.99).toFixed(3)} ms (goal p50 < 0.2 ms)` +
      `; engine alone p50 ${quantile(engine, 0.5).toFixed(3)} ms  p99 ${quantile(engine, 0.99).toFixed(3)} ms`,
    `              stage p50: ${Object.entries(byStage).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${quantile(v, 0.5).toFixed(3)}`).join(', ')} ms; ` +
      `${invalid} of ${server.length} invalid (their spam_phone event is stored right after the answer is written), ${disposable} disposable`,
  ].join('\n') + '\n');
} finally {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
