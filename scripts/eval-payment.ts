/**
 * npm run eval:payment -- FILE.csv [--import DIR | --url URL --key KEY] [--delay N] [--batch N]
 *                                  [--limit N] [--json OUT] [--out FILE]
 *
 * Replays a time-ordered CSV of transactions (docs/payment-eval.md) through the real HTTP API, one
 * request at a time (order matters for velocity), feeding each row's label back with
 * POST /feedback/bulk once `--delay` more orders have been scored, as a fraud team's confirmations
 * arrive late; then prints AUC, precision/recall, calibration, halves and per-pattern figures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { csvLine, parseCsvRecords } from './eval/csv.ts';
import { calibration, summarize, type Band, type Scored, type Summary } from './eval/metrics.ts';
import { parseTime, prepareRow, type Label } from './eval/rows.ts';
import { givenServer, startOwnServer, type Target } from './eval/server.ts';

const THRESHOLDS = [30, 50, 60];
const USAGE = 'usage: npm run eval:payment -- FILE.csv [--import DIR | --url URL --key KEY] [--delay N] [--batch N] [--limit N] [--json OUT] [--out FILE]';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    import: { type: 'string' },
    url: { type: 'string' },
    key: { type: 'string' },
    delay: { type: 'string', default: '2000' },
    batch: { type: 'string', default: '100' },
    limit: { type: 'string' },
    json: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const file = positionals[0];
if (opts.help || file === undefined || positionals.length > 1) {
  process.stderr.write(USAGE + '\n');
  process.exit(opts.help ? 0 : 2);
}
const intOpt = (name: string, value: string | undefined, min: number, max: number): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    process.stderr.write(`--${name} must be an integer from ${min} to ${max}\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
};
const delay = intOpt('delay', opts.delay, 0, Number.MAX_SAFE_INTEGER);
// The spec's bulk limit is 1000 items; smaller batches keep each label closer to its delay.
const batch = intOpt('batch', opts.batch, 1, 1000);
const limit = opts.limit === undefined ? Infinity : intOpt('limit', opts.limit, 1, Number.MAX_SAFE_INTEGER);
if ((opts.url === undefined) !== (opts.key === undefined) || (opts.url !== undefined && opts.import !== undefined)) {
  process.stderr.write(`--url and --key go together, and --import only with the evaluation's own server\n${USAGE}\n`);
  process.exit(2);
}
const log = (line: string): void => void process.stderr.write(line + '\n');

// Rows, in file order unless `time` says otherwise (then stably sorted by it, with a warning).
const { header, records } = parseCsvRecords(readFileSync(file, 'utf8'));
const rows = records.slice(0, limit).map((record, i) => ({ record, row: i + 1, time: parseTime(record.time) }));
let outOfOrder = 0;
for (let i = 1; i < rows.length; i++) {
  const [a, b] = [rows[i - 1]!.time, rows[i]!.time];
  if (a !== null && b !== null && b < a) outOfOrder++;
}
if (outOfOrder > 0) {
  log(`warning: ${outOfOrder} rows are earlier than the row before them; sending in time order`);
  rows.sort((a, b) => (a.time ?? -Infinity) - (b.time ?? -Infinity) || a.row - b.row);
}
const hasPattern = header.includes('pattern');

interface Result {
  row: number;
  transactionId: string;
  label: Label;
  pattern: string;
  score: number | null;
  rules: string[];
}

interface Envelope {
  status?: string;
  code?: number;
  description?: string;
  data?: { score?: number; rules?: Array<{ id: string }>; failed?: number; results?: Array<{ status?: string; code?: number; description?: string }> };
}

const errors = { scoring: 0, feedbackCalls: 0, feedbackItems: 0, samples: [] as string[] };
const noteError = (what: string): void => {
  if (errors.samples.length < 5) errors.samples.push(what);
};

async function post(target: Target, path: string, body: unknown): Promise<Envelope | null> {
  try {
    const res = await fetch(`${target.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Envelope;
  } catch (err) {
    noteError(`${path}: ${(err as Error).message}`);
    return null;
  }
}

/** Sends due labels in one bulk call, counting failed calls and items. */
async function sendLabels(target: Target, due: Array<{ transactionId: string; label: 'fraud' | 'legit' }>): Promise<void> {
  const items = due.map((d) => ({ kind: 'payment', transaction_id: d.transactionId, outcome: d.label === 'fraud' ? 'fraud_confirmed' : 'approved' }));
  const env = await post(target, '/feedback/bulk', { items });
  if (env?.status !== 'success') {
    errors.feedbackCalls++;
    errors.feedbackItems += items.length;
    if (env) noteError(`/feedback/bulk: ${env.code} ${env.description}`);
    return;
  }
  const failed = env.data?.results?.filter((r) => r.status === 'error') ?? [];
  errors.feedbackItems += failed.length;
  if (failed[0]) noteError(`/feedback/bulk item: ${failed[0].code} ${failed[0].description}`);
}

async function replay(target: Target): Promise<{ results: Result[]; labelsSent: number; labelsLeft: number; seconds: number }> {
  const results: Result[] = [];
  // Labels of scored rows, oldest first; the first `due` of them belong to rows `delay` orders back.
  const waiting: Array<{ transactionId: string; label: 'fraud' | 'legit' }> = [];
  let due = 0;
  let labelsSent = 0;
  const started = performance.now();
  for (const [i, { record, row }] of rows.entries()) {
    const p = prepareRow(record, row, Math.floor(Date.now() / 1000));
    const env = await post(target, '/scoring/payment', { data: p.data });
    let score: number | null = null;
    let rules: string[] = [];
    if (env?.status === 'success' && typeof env.data?.score === 'number') {
      score = env.data.score;
      rules = (env.data.rules ?? []).map((r) => r.id);
    } else {
      errors.scoring++;
      if (env) noteError(`row ${row}: ${env.code} ${env.description}`);
    }
    results.push({ row, transactionId: p.transactionId, label: p.label, pattern: p.pattern, score, rules });
    if (p.label !== null) waiting.push({ transactionId: p.transactionId, label: p.label });
    // With this row scored, the row `delay` orders back has its label due; due labels go in batches.
    const scored = i + 1;
    if (scored > delay && results[scored - delay - 1]!.label !== null) due++;
    if (due >= batch) {
      await sendLabels(target, waiting.splice(0, due));
      labelsSent += due;
      due = 0;
    }
    if (scored % 2000 === 0) log(`${scored} / ${rows.length} rows, ${(scored / ((performance.now() - started) / 1000)).toFixed(0)} rows/s`);
  }
  return { results, labelsSent, labelsLeft: waiting.length, seconds: (performance.now() - started) / 1000 };
}

// ---- figures -------------------------------------------------------------------------------------

const labelled = (rs: readonly Result[]): Scored[] =>
  rs.flatMap((r) => (r.label !== null && r.score !== null ? [{ score: r.score, fraud: r.label === 'fraud' }] : []));

interface PatternFigures { pattern: string; rows: number; fraudRate: number | null; meanScore: number | null; share30: number | null; share50: number | null }

function byPattern(rs: readonly Result[]): PatternFigures[] {
  const groups = new Map<string, Result[]>();
  for (const r of rs) groups.set(r.pattern || '(none)', [...(groups.get(r.pattern || '(none)') ?? []), r]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([pattern, g]) => {
    const scored = g.filter((r) => r.score !== null);
    const lab = g.filter((r) => r.label !== null);
    const share = (t: number) => (scored.length === 0 ? null : scored.filter((r) => r.score! >= t).length / scored.length);
    return {
      pattern,
      rows: g.length,
      fraudRate: lab.length === 0 ? null : lab.filter((r) => r.label === 'fraud').length / lab.length,
      meanScore: scored.length === 0 ? null : scored.reduce((s, r) => s + r.score!, 0) / scored.length,
      share30: share(30),
      share50: share(50),
    };
  });
}

/** How often each rule fired on fraud and on legit rows: which rules carry the score. */
function ruleRates(rs: readonly Result[]): Array<{ id: string; fraud: number; legit: number }> {
  const fraudRows = rs.filter((r) => r.label === 'fraud' && r.score !== null);
  const legitRows = rs.filter((r) => r.label === 'legit' && r.score !== null);
  const ids = [...new Set(rs.flatMap((r) => r.rules))].sort();
  const rate = (g: Result[], id: string) => (g.length === 0 ? 0 : g.filter((r) => r.rules.includes(id)).length / g.length);
  return ids.map((id) => ({ id, fraud: rate(fraudRows, id), legit: rate(legitRows, id) }));
}

const pct = (x: number | null, digits = 1): string => (x === null ? '-' : `${(x * 100).toFixed(digits)}%`);
const num = (x: number | null, digits = 3): string => (x === null ? '-' : x.toFixed(digits));
const pad = (s: string, n: number): string => s.padStart(n);

function summaryLines(name: string, s: Summary): string[] {
  return [
    `${name}: ${s.rows} labelled rows, fraud ${pct(s.fraudRate, 2)}, ROC AUC ${num(s.auc)}`,
    ...s.thresholds.map((t) => `  score >= ${t.threshold}: precision ${pad(pct(t.precision), 6)}  recall ${pad(pct(t.recall), 6)}  flagged ${pad(pct(t.flaggedShare, 2), 7)} (${t.truePositives} TP, ${t.falsePositives} FP)`),
  ];
}

function report(results: Result[], run: { labelsSent: number; labelsLeft: number; seconds: number }): { text: string; figures: Record<string, unknown> } {
  const all = labelled(results);
  const half = Math.ceil(results.length / 2);
  const overall = summarize(all, THRESHOLDS);
  const first = summarize(labelled(results.slice(0, half)), THRESHOLDS);
  const second = summarize(labelled(results.slice(half)), THRESHOLDS);
  const bands: Band[] = calibration(all);
  const patterns = hasPattern ? byPattern(results) : [];
  const rules = ruleRates(results);
  const lines = [
    `rows ${results.length} (${all.length} labelled, ${results.length - all.length - errors.scoring} unlabelled, ${errors.scoring} scoring errors) in ${run.seconds.toFixed(1)} s (${(results.length / run.seconds).toFixed(0)} rows/s)`,
    `labels fed back after ${delay} orders: ${run.labelsSent} sent in batches of up to ${batch}, ${run.labelsLeft} left unsent at the end; feedback errors ${errors.feedbackCalls} calls, ${errors.feedbackItems} items`,
    '',
    ...summaryLines('all rows', overall),
    '',
    'calibration   count  mean score/100  fraud rate',
    ...bands.map((b) => `  ${pad(`${b.from}-${b.to}`, 6)}  ${pad(String(b.count), 8)}  ${pad(num(b.meanScore), 14)}  ${pad(num(b.fraudRate), 10)}`),
    '',
    ...summaryLines(`first half (rows 1-${half})`, first),
    ...summaryLines(`second half (rows ${half + 1}-${results.length})`, second),
  ];
  if (hasPattern) {
    lines.push('', 'pattern                  rows   fraud  mean score   >= 30   >= 50');
    for (const p of patterns) lines.push(`  ${p.pattern.padEnd(20)} ${pad(String(p.rows), 6)}  ${pad(pct(p.fraudRate, 0), 6)}  ${pad(num(p.meanScore, 1), 10)}  ${pad(pct(p.share30), 6)}  ${pad(pct(p.share50), 6)}`);
  }
  if (rules.length > 0) {
    lines.push('', 'rule      fired on fraud  fired on legit');
    for (const r of rules) lines.push(`  ${r.id.padEnd(8)} ${pad(pct(r.fraud), 14)}  ${pad(pct(r.legit), 14)}`);
  }
  if (errors.samples.length > 0) lines.push('', 'first errors:', ...errors.samples.map((s) => `  ${s}`));
  const figures = {
    file, rows: results.length, labelled: all.length, seconds: run.seconds, delay, batch,
    labelsSent: run.labelsSent, labelsLeft: run.labelsLeft, errors,
    overall, calibration: bands, firstHalf: first, secondHalf: second, patterns, rules,
  };
  return { text: lines.join('\n') + '\n', figures };
}

// ---- run -----------------------------------------------------------------------------------------

const target = opts.url !== undefined && opts.key !== undefined ? givenServer(opts.url, opts.key) : await startOwnServer(opts.import, log);
let exitCode = 0;
const onSignal = (): void => void target.close().finally(() => process.exit(130));
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
try {
  log(`replaying ${rows.length} rows of ${file} against ${target.base}`);
  const run = await replay(target);
  const { text, figures } = report(run.results, run);
  process.stdout.write(text);
  if (opts.json !== undefined) writeFileSync(opts.json, JSON.stringify(figures, null, 2) + '\n');
  if (opts.out !== undefined) {
    const lines = [csvLine(['row', 'transaction_id', 'pattern', 'label', 'score', 'rules'])];
    for (const r of run.results) lines.push(csvLine([r.row, r.transactionId, r.pattern, r.label === null ? '' : r.label === 'fraud' ? 1 : 0, r.score, r.rules.join(' ')]));
    writeFileSync(opts.out, lines.join('\n') + '\n');
  }
  if (errors.scoring > 0 || errors.feedbackCalls > 0 || errors.feedbackItems > 0) exitCode = 1;
} finally {
  await target.close();
}
process.exit(exitCode);
