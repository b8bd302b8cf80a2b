/**
 * npm run eval:text [-- --olid DIR] [--list FUNCTIONALITY]
 *
 * Judgement figures of the profanity engine (docs/text-model.md "Evaluation"), without training:
 * - HateCheck (../shared/data/hatecheck) by functionality, split by target identity into a
 *   development half (women, black people, gay people, immigrants) and a report half (trans
 *   people, disabled people, Muslims), so that rules tuned on one half are checked on the other;
 *   cases naming no identity are reported apart;
 * - false positives on ordinary text: the "neither" tweets of the held-out Davidson split (the
 *   same seeded split as the model's) and HateCheck's neutral and positive mentions of groups;
 * - with --olid DIR (val_text.txt and val_labels.txt of TweetEval `offensive`, one per line; read
 *   from outside the project, never stored in it): F1 at riskScore ≥ 0.5 and ROC AUC.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadTextLexicon } from '../src/data/text-lexicon.ts';
import { loadTextModel } from '../src/data/text-model.ts';
import { TEST_SHARE } from '../src/data/text-model-build.ts';
import { analyzeText, type TextEngine } from '../src/intel/text/analyze.ts';
import { cleanTweet, davidsonExamples, DEFAULT_TRAIN_OPTIONS, metrics, parseCsv, rocAuc, split } from '../src/intel/text/train.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HATECHECK = resolve(ROOT, '../shared/data/hatecheck/test_suite_cases.csv');
const DAVIDSON = resolve(ROOT, '../shared/data/profanity-train/labeled_data.csv.gz');

/** Target identities developed on; the others are only reported. */
export const DEV_TARGETS = new Set(['women', 'black people', 'gay people', 'immigrants']);
const SAFE = new Set(['ident_neutral_nh', 'ident_pos_nh', 'negate_neg_nh', 'counter_quote_nh', 'counter_ref_nh', 'slur_homonym_nh', 'slur_reclaimed_nh']);
const JUDGEMENT = new Set(['target_obj_nh', 'target_indiv_nh', 'target_group_nh']);

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const engine: TextEngine = { lexicon: loadTextLexicon(), model: loadTextModel().model };
const pct = (a: number, b: number): string => (b === 0 ? '-' : ((100 * a) / b).toFixed(1));

// HateCheck.
if (existsSync(HATECHECK)) {
  const rows = parseCsv(readFileSync(HATECHECK, 'utf8'));
  const h = rows[0] ?? [];
  const [F, T, I] = ['functionality', 'test_case', 'target_ident'].map((c) => h.indexOf(c)) as [number, number, number];
  type Tally = { pass: number; total: number };
  const by = new Map<string, Record<'dev' | 'report' | 'none', Tally>>();
  const list = opt('--list');
  for (const r of rows.slice(1)) {
    const f = r[F] ?? '';
    const text = r[T] ?? '';
    const ident = r[I] ?? '';
    const half = ident === '' ? 'none' : DEV_TARGETS.has(ident) ? 'dev' : 'report';
    const flagged = !analyzeText(engine, text).isSafe;
    const pass = JUDGEMENT.has(f) ? flagged : flagged !== SAFE.has(f);
    const e = by.get(f) ?? { dev: { pass: 0, total: 0 }, report: { pass: 0, total: 0 }, none: { pass: 0, total: 0 } };
    e[half].total++;
    if (pass) e[half].pass++;
    by.set(f, e);
    if (list === f && !pass && half !== 'report') process.stdout.write(`  miss [${ident}] ${text}\n`);
  }
  const sum = { dev: [0, 0], report: [0, 0], none: [0, 0], all: [0, 0] };
  process.stdout.write('| functionality | dev % | report % | no target % | all % |\n|---|---|---|---|---|\n');
  for (const [f, e] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    const all = { pass: e.dev.pass + e.report.pass + e.none.pass, total: e.dev.total + e.report.total + e.none.total };
    process.stdout.write(`| ${f} | ${pct(e.dev.pass, e.dev.total)} | ${pct(e.report.pass, e.report.total)} | ${pct(e.none.pass, e.none.total)} | ${pct(all.pass, all.total)} |\n`);
    if (JUDGEMENT.has(f)) continue;
    for (const k of ['dev', 'report', 'none'] as const) {
      sum[k][0]! += e[k].pass;
      sum[k][1]! += e[k].total;
      sum.all[0]! += e[k].pass;
      sum.all[1]! += e[k].total;
    }
  }
  const s = (k: keyof typeof sum): string => `${pct(sum[k][0]!, sum[k][1]!)}% of ${sum[k][1]}`;
  process.stdout.write(`HateCheck outside the judgement calls: dev ${s('dev')}, report ${s('report')}, no target ${s('none')}, all ${s('all')}\n`);
}

// Ordinary text: held-out Davidson "neither" tweets.
if (existsSync(DAVIDSON)) {
  const all = davidsonExamples(gunzipSync(readFileSync(DAVIDSON)).toString('utf8'));
  const { test } = split(all, DEFAULT_TRAIN_OPTIONS.seed, TEST_SHARE);
  const clean = test.filter((e) => e.label === 0);
  const flagged = clean.filter((e) => !analyzeText(engine, e.text).isSafe);
  process.stdout.write(`ordinary tweets (held-out Davidson "neither"): ${flagged.length} of ${clean.length} flagged (${pct(flagged.length, clean.length)}%)\n`);
  if (args.includes('--show-fp')) for (const e of flagged) process.stdout.write(`  fp ${e.text}\n`);
  const labels = test.map((e) => e.label);
  const scores = test.map((e) => analyzeText(engine, e.text).riskScore);
  const m = metrics(labels, scores.map((x) => x >= 0.5));
  process.stdout.write(`held-out Davidson: F1 ${m.f1.toFixed(4)}, AUC ${rocAuc(labels, scores).toFixed(4)}\n`);
}

// OLID sample.
const olid = opt('--olid');
if (olid) {
  const texts = readFileSync(join(olid, 'val_text.txt'), 'utf8').split('\n');
  const labels = readFileSync(join(olid, 'val_labels.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => (l.trim() === '1' ? 1 : 0));
  const n = Math.min(labels.length, texts.length);
  const scores = texts.slice(0, n).map((t) => analyzeText(engine, cleanTweet(t)).riskScore);
  const m = metrics(labels.slice(0, n), scores.map((x) => x >= 0.5));
  process.stdout.write(
    `OLID sample (${n} tweets, ${labels.slice(0, n).filter((l) => l === 1).length} offensive): precision ${m.precision.toFixed(3)}, recall ${m.recall.toFixed(3)}, F1 ${m.f1.toFixed(3)}, AUC ${rocAuc(labels.slice(0, n), scores).toFixed(3)}\n`,
  );
  if (args.includes('--show-olid')) texts.slice(0, n).forEach((t, i) => process.stdout.write(`  ${labels[i]} ${scores[i]} ${t}\n`));
}
