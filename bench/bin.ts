/**
 * BIN benchmark: server time of GET /lookup/bin from the Server-Timing header (auth, engine, policy
 * and format stages added up) on a real server process with a live key, one request at a time, with
 * the shared binlist snapshot imported when ../shared/data/bin-binlist exists (else a generated
 * dataset of 10,000 BINs). Inputs are all different: 6- and 8-digit BINs, full numbers (Luhn-valid
 * and not), masked and spaced numbers, mada and unknown ranges. Also prints the engine alone, in process.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBinData } from '../src/data/bin-data.ts';
import { loadCountryData } from '../src/data/countries.ts';
import { importBinList, parseBinTsv } from '../src/data/import/bin-list.ts';
import { readCurrent } from '../src/data/import/dataset-store.ts';
import { evaluateBin } from '../src/intel/bin/evaluate.ts';
import { luhnValid, parseBinInput } from '../src/intel/bin/parse.ts';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, quantile, serverStages as stages, startProcess as start } from './lib.ts';

const KEY = 'svc_live_bench00000000000000000005';
const N = Number(process.env.BENCH_BIN_REQUESTS ?? 2000);
const WARMUP = 200;
const SHARED = join(process.cwd(), '..', 'shared', 'data');

const { dir, seed } = benchDataDir('bin', KEY);
let child: ChildProcess | undefined;
try {
  const rnd = prng(7);
  let source = SHARED;
  if (!existsSync(join(SHARED, 'bin-binlist'))) {
    source = join(dir, 'src');
    mkdirSync(join(source, 'bin-list'), { recursive: true });
    const rows = Array.from({ length: 10_000 }, (_, i) => `${400000 + i * 7},VISA,DEBIT,CLASSIC,BENCH BANK ${i},US,USA,United States,,,,`);
    writeFileSync(join(source, 'bin-list', 'binlist-data.csv'), `bin,brand,type,category,issuer,alpha_2,alpha_3,country,latitude,longitude,bank_phone,bank_url\n${rows.join('\n')}\n`);
  }
  const report = importBinList(dir, source);
  const PREFIXES = ['4', '51', '52', '53', '54', '55', '2221', '34', '37', '6011', '65', '36', '35', '62', '67', '2200', '440647', '529741', '588845', '9999'];
  const digits = (n: number): string => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('');
  const known = parseBinTsv(readCurrent(dir, 'bin-list')?.content ?? '').map((r) => r.start);
  // Most numbers sent are real cards (Luhn-valid); one in ten is mistyped.
  const card = (p: string, valid: boolean): string => {
    const body = (p + digits(16)).slice(0, 15);
    for (let d = 0; d <= 9; d++) if (luhnValid(body + String(d)) === valid) return body + String(d);
    return `${body}0`;
  };
  const inputs = Array.from({ length: N + WARMUP }, (_, i) => {
    // Half the inputs start with a BIN of the dataset, half with a scheme or local range.
    const p = i % 2 === 0 ? (known[Math.floor(rnd() * known.length)] ?? '4') : (PREFIXES[i % PREFIXES.length] ?? '4');
    const full = card(p, rnd() >= 0.1);
    switch (i % 5) {
      case 0: return full.slice(0, 6);
      case 1: return full.slice(0, 8);
      case 2: return full;
      case 3: return `${full.slice(0, 6)}******${full.slice(12)}`;
      default: return `${full.slice(0, 4)} ${full.slice(4, 8)} ${full.slice(8, 12)} ${full.slice(12)}`;
    }
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' }, `${base}/healthz`);
  const bins = loadBinData({ dataDir: dir }, { reloadMs: 0 });
  const countries = loadCountryData();
  const data = { index: bins.index, countries: countries.byCode };
  const server: number[] = [];
  const engine: number[] = [];
  const byStage: Record<string, number[]> = {};
  let withBank = 0;
  let invalid = 0;
  for (const [i, bin] of inputs.entries()) {
    const res = await fetch(`${base}/lookup/bin?bin=${encodeURIComponent(bin)}`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.json()) as { status: string; description?: string; data?: { isValid?: boolean; info?: { bank?: unknown } } };
    if (body.status !== 'success') throw new Error(`${bin}: ${body.description ?? 'error'}`);
    const t0 = performance.now();
    const parsed = parseBinInput(bin);
    if (parsed.ok) evaluateBin(bin, parsed.value, data);
    const e = performance.now() - t0;
    if (i >= WARMUP) {
      const st = stages(res.headers.get('server-timing'));
      server.push(st.total ?? NaN);
      for (const [k, v] of Object.entries(st)) (byStage[k] ??= []).push(v);
      engine.push(e);
      if (body.data?.info?.bank) withBank++;
      if (body.data?.isValid === false) invalid++;
    }
  }
  bins.close();
  process.stdout.write([
    `bin bench: ${N} different inputs (BINs, full, masked, spaced), ${report.manifest.count} BIN records, one request at a time, loopback, node ${process.version}`,
    `lookup/bin server p50 ${quantile(server, 0.5).toFixed(3)} ms  p90 ${quantile(server, 0.9).toFixed(3)} ms  p99 ${quantile(server, 0.99).toFixed(3)} ms (goal p50 < 0.2 ms)` +
      `; engine alone p50 ${quantile(engine, 0.5).toFixed(3)} ms  p99 ${quantile(engine, 0.99).toFixed(3)} ms`,
    `           stage p50: ${Object.entries(byStage).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${quantile(v, 0.5).toFixed(3)}`).join(', ')} ms; ` +
      `${withBank} answers with an issuer, ${invalid} invalid (their invalid_bin event is stored right after the answer is written)`,
  ].join('\n') + '\n');
} finally {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
