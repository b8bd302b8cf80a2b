/**
 * Summarises a V8 CPU profile written with BENCH_PROFILE_DIR (see lib.ts): the functions with the
 * most self time, and the self time per source file or package.
 * Usage: tsx bench/profile-top.ts FILE.cpuprofile [rows] [fromSecond] [toSecond]
 * Without a window it prints how busy each second of the profile was, to choose one (e.g. the
 * full-speed run) and summarise only that.
 */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const [file, rowsArg, fromArg, toArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/profile-top.ts FILE.cpuprofile [rows]');
const rows = Number(rowsArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
const [from, to] = [Number(fromArg ?? 0) * 1e6, toArg === undefined ? Infinity : Number(toArg) * 1e6];
const selfUs = new Map<number, number>();
const busyPerSecond: number[] = [];
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  const second = Math.floor(at / 1e6);
  if (!idle.has(id)) busyPerSecond[second] = (busyPerSecond[second] ?? 0) + dt;
  if (at >= from && at < to) selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
});
if (fromArg === undefined) console.log(`busy share per second: ${[...busyPerSecond].map((us, s) => `${s}:${Math.round((us ?? 0) / 1e4)}`).join(' ')}`);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** Where a frame comes from: a package name, a project path, or a Node/V8 bucket. */
function origin(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  const own = /\/(src|dist|bench|test)\/(.*)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url.startsWith('node:') ? url : url === '' ? '(native)' : url;
}

const fns = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, us] of selfUs) {
  const f = byId.get(id)?.callFrame;
  if (!f) continue;
  const where = origin(f.url);
  const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  files.set(where, (files.get(where) ?? 0) + us);
}
// Inclusive time of the project's own functions: self time plus everything they called.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const f = byId.get(n)?.callFrame;
    if (!f || !/\/(src|dist)\//.test(f.url)) continue;
    const key = `${f.functionName || '(anonymous)'}  ${origin(f.url)}:${f.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log(`total ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\nself time by function');
for (const [k, us] of top(fns, rows)) console.log(`${pct(us)}  ${k}`);
console.log('\ninclusive time of project functions');
for (const [k, us] of top(inclusive, rows)) console.log(`${pct(us)}  ${k}`);
console.log('\nself time by file or package');
for (const [k, us] of top(files, Math.ceil(rows / 2))) console.log(`${pct(us)}  ${k}`);
