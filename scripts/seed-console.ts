/**
 * Seeds a SQLite store for measuring the console at scale (not part of npm test): one account `big` with
 * EVENTS events (default 1,000,000) over the last 90 days, PAYMENTS payment scorings (default 200,000) and
 * LABELS event labels (default 2,000). Rows go in with bulk SQL in large transactions (the ports write one
 * event per transaction, which would take minutes); the schema is the store's own, migrated first.
 *
 *   node --import tsx scripts/seed-console.ts DIR
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { EVENT_KINDS } from '../src/policy/types.ts';
import { prng } from '../src/intel/text/train.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --import tsx scripts/seed-console.ts DIR');
  process.exit(2);
}
const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const PAYMENTS = Number(process.env.PAYMENTS ?? 200_000);
const LABELS = Number(process.env.LABELS ?? 2_000);
const ACCOUNT = 'big';
const DAYS = 90;

const path = join(dir, 'vigil.db');
const store = new SqliteStore({ path });
await store.migrate();
await store.close();

const db = new Database(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF');
const random = prng(7);
const now = Date.now();
const at = (i: number, n: number) => new Date(now - DAYS * 86_400_000 + Math.floor((i / n) * DAYS * 86_400_000)).toISOString();
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const started = Date.now();
const insertEvent = db.prepare(`INSERT INTO events (account_id, event_id, kind, risk, subject, user_id, operation, created_at, summary, identity_type, identity_hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
const events = db.transaction((from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const kind = EVENT_KINDS[Math.floor(random() * EVENT_KINDS.length)]!;
    const risk = Math.round((40 + random() * 60) * 100) / 100;
    insertEvent.run(ACCOUNT, i + 1, kind, risk, `subject-${i % 50_000}@example.com`, `user-${i % 20_000}`, 'scoring.email', at(i, EVENTS),
      JSON.stringify({ score: 2, reason: 'disposable', isValid: true }), 'email', sha(`e${i % 50_000}`));
  }
});
for (let i = 0; i < EVENTS; i += 50_000) events(i, Math.min(EVENTS, i + 50_000));
// What insertEvent keeps per event: the console's daily counts.
db.exec(`INSERT INTO event_day_counts (account_id, day, kind, n)
  SELECT account_id, substr(created_at, 1, 10), kind, count(*) FROM events WHERE account_id = '${ACCOUNT}' GROUP BY 1, 2, 3
  ON CONFLICT (account_id, day, kind) DO UPDATE SET n = excluded.n`);
db.prepare(`INSERT INTO event_counters (account_id, last_event_id) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET last_event_id = excluded.last_event_id`).run(ACCOUNT, EVENTS);
console.log(`events: ${EVENTS} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const insertScoring = db.prepare(`INSERT INTO payment_scorings (account_id, transaction_id, scored_at, customer_hash, email_hash, card_hash, card_bin, card_last4, amount, amount_log, currency, score, rules, features, rule_set, data_versions)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'USD', ?, ?, '[]', 'bench', '{}')`);
const RULES = ['PF10003', 'PF10004', 'PF10009', 'PF10016', 'PF10017', 'PF10001'];
const payments = db.transaction((from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const amount = Math.round(random() * 50_000) / 100;
    const rules = RULES.filter(() => random() < 0.2);
    insertScoring.run(ACCOUNT, `tx-${i}`, at(i, PAYMENTS), sha(`c${i % 30_000}`), sha(`m${i % 30_000}`), sha(`card${i % 40_000}`), String(400000 + (i % 500)), String(1000 + (i % 9000)),
      amount, Math.log1p(amount), Math.round(random() * 10000) / 100, JSON.stringify(rules));
  }
});
for (let i = 0; i < PAYMENTS; i += 50_000) payments(i, Math.min(PAYMENTS, i + 50_000));

const insertLabel = db.prepare(`INSERT OR IGNORE INTO identity_evidence (account_id, type, value_hash, origin, label, masked, reason, source, occurred_at, updated_at)
  VALUES (?, 'email', ?, ?, ?, 'e***', NULL, 'bench', ?, ?)`);
db.transaction(() => {
  for (let i = 0; i < LABELS; i++) {
    const eventId = EVENTS - Math.floor(random() * EVENTS);
    const when = at(eventId - 1, EVENTS);
    insertLabel.run(ACCOUNT, sha(`e${(eventId - 1) % 50_000}`), `event:${eventId}`, random() < 0.3 ? 'fraud' : 'legit', when, when);
  }
})();
db.exec('ANALYZE');
db.close();
console.log(`seeded ${path}: ${EVENTS} events, ${PAYMENTS} payments, ${LABELS} labels in ${((Date.now() - started) / 1000).toFixed(1)} s`);
