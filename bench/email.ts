/**
 * Email benchmark: server time of GET /scoring/email with NETWORK=off (so DNS and RDAP take no
 * part and the figure is Vigil's own work), then with the network on against a real DNS and RDAP
 * server on 127.0.0.1 once their answers are cached (the issue's measure), read from the Server-Timing header of each answer
 * (auth, engine, policy and format stages added up) on a real server process with a live key.
 * Addresses are all different (seeded names and domains: webmail, typos, disposable, academic,
 * IDN, mashed), sent one at a time. Also prints the engine alone, in process, for the same addresses.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import { loadDomainLists } from '../src/data/domain-lists.ts';
import { loadEmailData } from '../src/data/email-lists.ts';
import { evaluateEmail } from '../src/intel/email/evaluate.ts';
import { parseEmail } from '../src/intel/email/syntax.ts';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, quantile, serverStages as stages, startProcess as start } from './lib.ts';
import { startDnsServer, type DnsTestServer } from '../test/helpers/dns-server.ts';
import { startRdapServer, type RdapTestServer } from '../test/helpers/rdap-server.ts';

const KEY = 'svc_live_bench00000000000000000003';
const N = Number(process.env.BENCH_EMAIL_REQUESTS ?? 1000);
const WARMUP = 100;

const FIRST = ['jean', 'hans', 'hiroshi', 'olusegun', 'xiaoming', 'ivan', 'maria', 'john', 'fatima', 'priya', 'lars', 'sofia', 'info', 'asdfghjkl', 'xkqzvbwp'];
const LAST = ['dupont', 'mueller', 'sato', 'obasanjo', 'wang', 'ivanov', 'garcia', 'smith', 'khan', 'patel', 'nielsen', 'rossi'];
const DOMAINS = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'outlook.com', 'gmx.de', 'web.de', 'icloud.com', 'mail.ru', 'example.com', 'shop.example.org',
  'gmial.com', 'hotmial.com', 'yaho.com', 'gmail.con', 'iclod.com', 'mailinator.com', 'guerrillamail.com', 'cs.stanford.edu', 'ox.ac.uk', 'münchen.de',
];


const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;

const { dir, seed } = benchDataDir('email', KEY);
let child: ChildProcess | undefined;
let dns: DnsTestServer | undefined;
let rdap: RdapTestServer | undefined;
const toAscii = (d: string): string => domainToASCII(d);
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn', NETWORK: 'off' }, `${base}/healthz`);
  const email = loadEmailData();
  const domainLists = loadDomainLists({ dataDir: null });
  const unknown = { is_mx: null, is_spf: null, is_dmarc: null, is_dkim: null, is_bimi: null, created_at: null, is_new: null };
  const rnd = prng(42);
  const addresses = Array.from({ length: N + WARMUP }, (_, i) => {
    const sep = pick(rnd, ['.', '_', '', '-']);
    const tag = rnd() < 0.1 ? `+t${i}` : '';
    return `${pick(rnd, FIRST)}${sep}${pick(rnd, LAST)}${i}${tag}@${pick(rnd, DOMAINS)}`;
  });
  const server: number[] = [];
  const engine: number[] = [];
  const byStage: Record<string, number[]> = {};
  let risky = 0;
  for (const [i, address] of addresses.entries()) {
    const res = await fetch(`${base}/scoring/email?email=${encodeURIComponent(address)}`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.json()) as { status: string; description?: string; data?: { score?: number } };
    if (body.status !== 'success') throw new Error(`${address}: ${body.description ?? 'error'}`);
    const t0 = performance.now();
    const parsed = parseEmail(address);
    if (parsed.ok) evaluateEmail(address, parsed.email, email.lists, { domainLists: domainLists.lists(parsed.email.domain), network: unknown });
    const e = performance.now() - t0;
    if (i >= WARMUP) {
      const st = stages(res.headers.get('server-timing'));
      server.push(st.total ?? NaN);
      for (const [k, v] of Object.entries(st)) (byStage[k] ??= []).push(v);
      engine.push(e);
      if ((body.data?.score ?? 0) >= 2) risky++;
    }
  }
  domainLists.close();
  process.stdout.write([
    `email bench: ${N} different addresses, NETWORK=off, one request at a time, loopback, node ${process.version}`,
    `scoring/email server p50 ${quantile(server, 0.5).toFixed(3)} ms  p90 ${quantile(server, 0.9).toFixed(3)} ms  p99 ${quantile(server, 0.99).toFixed(3)} ms` +
      `; engine alone p50 ${quantile(engine, 0.5).toFixed(3)} ms  p99 ${quantile(engine, 0.99).toFixed(3)} ms`,
    `              stage p50: ${Object.entries(byStage).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${quantile(v, 0.5).toFixed(3)}`).join(', ')} ms; ` +
      `${risky} of ${server.length} scored 2 or more (their spam_email event is stored right after the answer is written)`,
  ].join('\n') + '\n');
  child.kill('SIGTERM');

  // Network on, against local DNS and RDAP servers: every domain's facts are looked up once, then
  // the measured requests find them cached (what a busy server sees for the domains it keeps meeting).
  const zone = {
    mx: Object.fromEntries(DOMAINS.map((d) => [toAscii(d), [{ exchange: `mx.${toAscii(d)}`, priority: 10 }]])),
    txt: Object.fromEntries(DOMAINS.flatMap((d) => [[toAscii(d), ['v=spf1 -all']], [`_dmarc.${toAscii(d)}`, ['v=DMARC1; p=reject']]])),
  };
  dns = await startDnsServer(zone);
  rdap = await startRdapServer({ registered: Object.fromEntries(DOMAINS.map((d) => [toAscii(d), '2001-01-01T00:00:00Z'])) });
  const bootstrap = join(dir, 'rdap.json');
  writeFileSync(bootstrap, JSON.stringify(rdap.bootstrap([...new Set(DOMAINS.map((d) => toAscii(d).split('.').pop() ?? ''))])));
  const port2 = await freePort();
  const base2 = `http://127.0.0.1:${port2}`;
  child = await start({ PORT: String(port2), HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'warn', NETWORK: 'on', DNS_SERVERS: dns.address, RDAP_BOOTSTRAP_FILE: bootstrap }, `${base2}/healthz`);
  for (const d of DOMAINS) await fetch(`${base2}/scoring/email?email=${encodeURIComponent(`warm@${d}`)}`, { headers: { authorization: `Bearer ${KEY}` } });
  await new Promise((r) => setTimeout(r, 1500));
  const cached: number[] = [];
  let withMx = 0;
  for (const [i, address] of addresses.entries()) {
    const res = await fetch(`${base2}/scoring/email?email=${encodeURIComponent(address)}`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.json()) as { status: string; description?: string; data?: { domain?: { is_mx?: boolean | null } } };
    if (body.status !== 'success') throw new Error(`${address}: ${body.description ?? 'error'}`);
    if (i >= WARMUP) {
      cached.push(stages(res.headers.get('server-timing')).total ?? NaN);
      if (body.data?.domain?.is_mx === true) withMx++;
    }
  }
  process.stdout.write(
    `scoring/email, DNS and RDAP answers cached (local servers): server p50 ${quantile(cached, 0.5).toFixed(3)} ms  p90 ${quantile(cached, 0.9).toFixed(3)} ms  ` +
      `p99 ${quantile(cached, 0.99).toFixed(3)} ms (goal p50 < 1 ms); ${withMx} of ${cached.length} answers had is_mx from DNS\n`,
  );
} finally {
  child?.kill('SIGTERM');
  await dns?.close();
  await rdap?.close();
  rmSync(dir, { recursive: true, force: true });
}
