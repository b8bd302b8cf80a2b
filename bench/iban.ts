/**
 * IBAN benchmark: server time of GET /lookup/iban, read from the Server-Timing header of each answer
 * (auth, engine, policy and format stages added up) on a real server process with a live key, one
 * request at a time. The IBAN registry and the BIC directory are imported first when ../shared/data
 * is there (country facts and Gulf banks as in production). IBANs are all different: accounts of 16
 * countries (the Gulf ones included) with fresh account numbers, and one in ten with wrong check
 * digits (its invalid_iban event is stored right after the answer is written). Also prints the engine alone.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadCountryData } from '../src/data/countries.ts';
import { loadIbanData } from '../src/data/iban-data.ts';
import { importIbanRegistry } from '../src/data/import/iban-registry.ts';
import { importSwiftBic } from '../src/data/import/swift-bic.ts';
import { evaluateIban } from '../src/intel/iban/lookup.ts';
import { ibanCheckDigits, parseIban } from '../src/intel/iban/validate.ts';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, quantile, serverStages as stages, startProcess as start } from './lib.ts';

const KEY = 'svc_live_bench00000000000000000005';
const N = Number(process.env.BENCH_IBAN_REQUESTS ?? 2000);
const WARMUP = 200;
const SHARED = join(import.meta.dirname, '../../shared/data');

/** Country, fixed BBAN head (bank and branch), and how many account digits follow (countries without national check digits). */
const SHAPES: Array<[string, string, number]> = [
  ['DE', '37040044', 10], ['GB', 'NWBK601613', 8], ['NL', 'ABNA', 10], ['AT', '19043', 11], ['CH', '00762', 12], ['IE', 'AIBK931152', 8],
  ['DK', '0040', 10], ['SE', '500', 17], ['LU', '001', 13], ['SA', '80', 18], ['AE', '033', 16], ['KW', 'CBKU', 22],
  ['BH', 'BMAG', 14], ['QA', 'DOHB', 21], ['JO', 'CBJO', 22], ['LT', '10000', 11],
];

const { dir, seed } = benchDataDir('iban', KEY);
let child: ChildProcess | undefined;
try {
  const imported = existsSync(join(SHARED, 'iban-registry'));
  if (imported) {
    importIbanRegistry(dir, SHARED);
    importSwiftBic(dir, SHARED);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' }, `${base}/healthz`);
  const data = loadIbanData(loadCountryData(), { dataDir: dir });
  const rnd = prng(7);
  const ibans = Array.from({ length: N + WARMUP }, (_, i) => {
    const [country, head, digits] = SHAPES[i % SHAPES.length] ?? ['DE', '37040044', 10];
    const bban = head + Array.from({ length: digits }, () => Math.floor(rnd() * 10)).join('');
    const cd = ibanCheckDigits(country, bban);
    const wrong = i % 10 === 9 ? String((Number(cd) % 96) + 2).padStart(2, '0') : cd;
    return `${country}${wrong}${bban}`;
  });
  const server: number[] = [];
  const engine: number[] = [];
  const byStage: Record<string, number[]> = {};
  let invalid = 0;
  let banks = 0;
  for (const [i, iban] of ibans.entries()) {
    const res = await fetch(`${base}/lookup/iban?iban=${iban}`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.json()) as { status: string; description?: string; data?: { isValid?: boolean; bank?: unknown } };
    if (body.status !== 'success') throw new Error(`${iban}: ${body.description ?? 'error'}`);
    const t0 = performance.now();
    const p = parseIban(iban);
    if (p.ok) evaluateIban(p, data.engine, 'EN');
    const e = performance.now() - t0;
    if (i >= WARMUP) {
      const st = stages(res.headers.get('server-timing'));
      server.push(st.total ?? NaN);
      for (const [k, v] of Object.entries(st)) (byStage[k] ??= []).push(v);
      engine.push(e);
      if (body.data?.isValid === false) invalid++;
      if (body.data?.bank) banks++;
    }
  }
  data.close();
  process.stdout.write([
    `iban bench: ${N} different IBANs of ${SHAPES.length} countries, registry and BICs ${imported ? 'imported' : 'not imported (shared data absent)'}, one request at a time, loopback, node ${process.version}`,
    `lookup/iban server p50 ${quantile(server, 0.5).toFixed(3)} ms  p90 ${quantile(server, 0.9).toFixed(3)} ms  p99 ${quantile(server, 0.99).toFixed(3)} ms (goal p50 < 0.2 ms)` +
      `; engine alone p50 ${quantile(engine, 0.5).toFixed(3)} ms  p99 ${quantile(engine, 0.99).toFixed(3)} ms`,
    `            stage p50: ${Object.entries(byStage).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${quantile(v, 0.5).toFixed(3)}`).join(', ')} ms; ` +
      `${invalid} of ${server.length} invalid (invalid_iban stored), ${banks} with a bank`,
  ].join('\n') + '\n');
} finally {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
