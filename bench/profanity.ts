/**
 * Profanity benchmark: server time of GET /scoring/profanity for 1 KB and 10,000-character texts
 * (goals: p50 < 1 ms and < 5 ms), read from the Server-Timing header of each answer (auth, engine,
 * policy and format stages added up) on a real server process with a live key. Texts are all
 * different (drawn from a seeded word list; 3 words in 1,000 are profanity, obfuscated or foreign), sent one at a time.
 * Also prints the engine alone, in process, for the same texts.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadTextData } from '../src/data/text-data.ts';
import { analyzeText } from '../src/intel/text/analyze.ts';
import { prng } from '../src/intel/text/train.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { benchDataDir, quantile, serverStages as stages, startProcess as start } from './lib.ts';

const KEY = 'svc_live_bench00000000000000000002';
const N = Number(process.env.BENCH_PROFANITY_REQUESTS ?? 300);

const WORDS = (
  'the a to and of in is you that it for on with this was are be have at or not but what all we when your can said there use an each which ' +
  'she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see ' +
  'number no way could people my than first water been call who oil its now find long down day did get come made may part order delivery ' +
  'payment customer thanks great service review product quality price shipping friend family weekend weather coffee meeting project'
).split(' ');
const SPICE = ['fuck', 'sh1t', 'f.u.c.k', 'idiot', 'b!tch', 'Scheiße', 'сука', 'putain', 'assassin', 'cocktail', '😀', '🖕', '他妈的', 'fu\u200bck'];

function makeText(rnd: () => number, chars: number): string {
  let s = '';
  while ([...s].length < chars) {
    const w = rnd() < 0.003 ? SPICE[Math.floor(rnd() * SPICE.length)] : WORDS[Math.floor(rnd() * WORDS.length)];
    s += `${w ?? 'word'}${rnd() < 0.08 ? '. ' : ' '}`;
  }
  return [...s].slice(0, chars).join('');
}


const { dir, seed } = benchDataDir('text', KEY);
let child: ChildProcess | undefined;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await start({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, SEED_FILE: seed, LOG_LEVEL: 'warn' }, `${base}/healthz`);
  const data = loadTextData();
  const lines = [`profanity bench: ${N} different texts per case, one request at a time, loopback, node ${process.version}`];
  const cases: Array<[string, number, string]> = [['1 KB', 1024, '< 1 ms'], ['10,000 chars', 10_000, '< 5 ms']];
  // Every text is made before the first request: making 330 texts of 10,000 characters takes long enough on a
  // loaded machine for the server to close the idle keep-alive connection under the client ("other side closed").
  const textsOf = new Map(cases.map(([, chars]) => {
    const rnd = prng(chars);
    return [chars, Array.from({ length: N + 30 }, () => makeText(rnd, chars))] as const;
  }));
  for (const [name, chars, goal] of cases) {
    const texts = textsOf.get(chars) ?? [];
    const server: number[] = [];
    const engine: number[] = [];
    const byStage: Record<string, number[]> = {};
    let flagged = 0;
    for (const [i, text] of texts.entries()) {
      const res = await fetch(`${base}/scoring/profanity?text=${encodeURIComponent(text)}`, { headers: { authorization: `Bearer ${KEY}` } });
      const body = (await res.json()) as { status: string; description?: string; data?: { isSafe?: boolean } };
      if (body.status !== 'success') throw new Error(`${name}: ${body.description ?? 'error'}`);
      const t0 = performance.now();
      analyzeText(data.engine, text);
      const e = performance.now() - t0;
      if (i >= 30) {
        // The first 30 warm up the JIT in both processes.
        const st = stages(res.headers.get('server-timing'));
        server.push(st.total ?? NaN);
        for (const [k, v] of Object.entries(st)) (byStage[k] ??= []).push(v);
        engine.push(e);
        if (body.data?.isSafe === false) flagged++;
      }
    }
    lines.push(
      `${name.padEnd(13)} server p50 ${quantile(server, 0.5).toFixed(3)} ms  p90 ${quantile(server, 0.9).toFixed(3)} ms  p99 ${quantile(server, 0.99).toFixed(3)} ms` +
        `  (goal p50 ${goal}); engine alone p50 ${quantile(engine, 0.5).toFixed(3)} ms`,
      `${''.padEnd(13)} stage p50: ${Object.entries(byStage).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${quantile(v, 0.5).toFixed(3)}`).join(', ')} ms; ` +
        `${flagged} of ${server.length} texts flagged (their event is stored right after the answer is written)`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
