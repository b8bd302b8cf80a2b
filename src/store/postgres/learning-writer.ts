import type { Pool, PoolClient } from 'pg';
import type { LearningWrite, LearningWriter } from '../learning-ports.ts';
import { type CheckedLearningWrite, EVIDENCE_COLUMNS, OUTCOME_COLUMNS, learningWrites, outcomeParams } from '../learning-rows.ts';
import { withTransaction } from './transaction.ts';

/*
 * Feedback batches on PostgreSQL. Every write is checked first; then, in one transaction on one client, each
 * run of consecutive writes of one kind becomes ONE statement over parallel arrays (`unnest`), whatever its
 * length, so a bulk feedback of 1000 items costs a handful of round trips and one commit.
 *
 * Order: the batch is first split per table (payment_outcomes, payment_scorings, identity_evidence, the model
 * tables), keeping the batch order within each table. Writes to different tables commute (no triggers or
 * foreign keys join them), so applying the tables one after the other gives exactly what applying the writes
 * one by one would. Within a table, runs of one kind keep their order (evidence, then a drop of its origin,
 * then evidence again leaves the last one only).
 *
 * Within a run: an upsert replaces the whole row, so of two writes to one key the last wins; the run keeps only
 * that one (a multi-row ON CONFLICT DO UPDATE must not touch a row twice). The same for the outcome written on
 * a transaction's scorings, and for model coordinates. History rows are appended in batch order.
 */

type Column = { name: string; type: string };

function typed(columns: readonly string[], types: Readonly<Record<string, string>>): Column[] {
  return columns.map((name) => ({ name, type: types[name] ?? 'text' }));
}

const OUTCOME_TYPED = typed(OUTCOME_COLUMNS, { fraud: 'boolean', occurred_at: 'timestamptz', updated_at: 'timestamptz' });
const EVIDENCE_TYPED = typed(EVIDENCE_COLUMNS, { occurred_at: 'timestamptz', updated_at: 'timestamptz' });

/** `unnest($1::t1[], $2::t2[], ...) AS alias (c1, c2, ...)`: one row per index of the parallel arrays. */
function unnest(columns: readonly Column[], alias: string, ordinality = false): string {
  const arrays = columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ');
  const names = columns.map((column) => column.name);
  if (ordinality) names.push('ord');
  return `unnest(${arrays})${ordinality ? ' WITH ORDINALITY' : ''} AS ${alias} (${names.join(', ')})`;
}

/** Multi-row upsert of whole records: `INSERT ... SELECT FROM unnest(...) ON CONFLICT (key) DO UPDATE SET` every other column. */
function upsertSql(table: string, columns: readonly Column[], key: readonly string[]): string {
  const names = columns.map((column) => column.name);
  const rest = names.filter((name) => !key.includes(name));
  return `
    INSERT INTO ${table} (${names.join(', ')})
    SELECT ${names.map((name) => `q.${name}`).join(', ')} FROM ${unnest(columns, 'q')}
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${rest.map((name) => `${name} = excluded.${name}`).join(', ')}`;
}

const Q = {
  putOutcomes: { name: 'vigil_learning_put_outcomes', text: upsertSql('payment_outcomes', OUTCOME_TYPED, ['account_id', 'transaction_id']) },
  setScoringOutcomes: {
    name: 'vigil_learning_set_scoring_outcomes',
    text: `
      UPDATE payment_scorings s SET outcome = q.outcome, outcome_fraud = q.fraud
      FROM ${unnest(typed(['account_id', 'transaction_id', 'outcome', 'fraud'], { fraud: 'boolean' }), 'q')}
      WHERE s.account_id = q.account_id AND s.transaction_id = q.transaction_id`,
  },
  putEvidence: { name: 'vigil_learning_put_evidence', text: upsertSql('identity_evidence', EVIDENCE_TYPED, ['account_id', 'type', 'value_hash', 'origin']) },
  dropEvidenceOrigins: {
    name: 'vigil_learning_drop_evidence_origins',
    text: `
      DELETE FROM identity_evidence e USING ${unnest(typed(['account_id', 'origin'], {}), 'q')}
      WHERE e.account_id = q.account_id AND e.origin = q.origin`,
  },
  upsertWeights: {
    name: 'vigil_learning_upsert_weights',
    text: upsertSql('model_weights', typed(['account_id', 'feature', 'z', 'n'], { z: 'float8', n: 'float8' }), ['account_id', 'feature']),
  },
  // WITH ORDINALITY ... ORDER BY: the identity column numbers the entries in batch order (history reads newest first by id).
  appendHistory: {
    name: 'vigil_learning_append_history',
    text: `
      INSERT INTO model_history (account_id, at, origin, label, before, weights)
      SELECT q.account_id, q.at, q.origin, q.label, q.before, q.weights::jsonb
      FROM ${unnest(typed(['account_id', 'at', 'origin', 'label', 'before', 'weights'], { at: 'timestamptz', label: 'int2', before: 'float8' }), 'q', true)}
      ORDER BY q.ord`,
  },
} as const;

type Kind = CheckedLearningWrite['kind'];
type Of<K extends Kind> = Extract<CheckedLearningWrite, { kind: K }>;
type Table = 'outcomes' | 'scorings' | 'evidence' | 'model';

const TABLE: Record<Kind, Table> = {
  outcome: 'outcomes',
  scoringOutcome: 'scorings',
  evidence: 'evidence',
  dropEvidenceOrigin: 'evidence',
  model: 'model',
};

/**
 * The rows of one run, the last write of each key only, sorted by key: concurrent batches then lock the rows
 * they share in the same order, so two of them wait for each other instead of deadlocking.
 */
function lastPerKey<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(key(row), row);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Positional rows → one array per column (the parameters of an `unnest`). */
function columnsOf(rows: ReadonlyArray<readonly unknown[]>, width: number): unknown[][] {
  return Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));
}

/** Consecutive writes of one kind. */
function runs(writes: readonly CheckedLearningWrite[]): CheckedLearningWrite[][] {
  const out: CheckedLearningWrite[][] = [];
  for (const write of writes) {
    const last = out.at(-1);
    if (last?.[0]?.kind === write.kind) last.push(write);
    else out.push([write]);
  }
  return out;
}

async function applyRun(client: PoolClient, run: readonly CheckedLearningWrite[]): Promise<void> {
  const kind = run[0]?.kind;
  switch (kind) {
    case undefined:
      return;
    case 'outcome': {
      const rows = lastPerKey(run as Array<Of<'outcome'>>, (w) => JSON.stringify([w.values.accountId, w.values.transactionId]));
      const params = rows.map((w) => outcomeParams(w.values, (fraud) => fraud));
      await client.query({ ...Q.putOutcomes, values: columnsOf(params, OUTCOME_TYPED.length) });
      return;
    }
    case 'scoringOutcome': {
      const rows = lastPerKey(run as Array<Of<'scoringOutcome'>>, (w) => JSON.stringify([w.accountId, w.transactionId]));
      await client.query({
        ...Q.setScoringOutcomes,
        values: [rows.map((w) => w.accountId), rows.map((w) => w.transactionId), rows.map((w) => w.outcome), rows.map((w) => w.fraud)],
      });
      return;
    }
    case 'evidence': {
      // EVIDENCE_COLUMNS order: account_id, type, value_hash, origin first.
      const rows = lastPerKey(run as Array<Of<'evidence'>>, (w) => JSON.stringify(w.params.slice(0, 4)));
      await client.query({ ...Q.putEvidence, values: columnsOf(rows.map((w) => w.params), EVIDENCE_TYPED.length) });
      return;
    }
    case 'dropEvidenceOrigin': {
      const rows = lastPerKey(run as Array<Of<'dropEvidenceOrigin'>>, (w) => JSON.stringify([w.accountId, w.origin]));
      await client.query({ ...Q.dropEvidenceOrigins, values: [rows.map((w) => w.accountId), rows.map((w) => w.origin)] });
      return;
    }
    case 'model': {
      const updates = run as Array<Of<'model'>>;
      const weights = lastPerKey(
        updates.flatMap((w) => w.weights.map((weight) => ({ accountId: w.accountId, ...weight }))),
        (w) => JSON.stringify([w.accountId, w.feature]),
      );
      if (weights.length > 0) {
        await client.query({
          ...Q.upsertWeights,
          values: [weights.map((w) => w.accountId), weights.map((w) => w.feature), weights.map((w) => w.z), weights.map((w) => w.n)],
        });
      }
      const history = updates.map((w) => w.history);
      await client.query({
        ...Q.appendHistory,
        values: [
          history.map((h) => h.accountId),
          history.map((h) => h.at),
          history.map((h) => h.origin),
          history.map((h) => h.label),
          history.map((h) => h.before),
          history.map((h) => h.weights),
        ],
      });
      return;
    }
  }
}

export class PostgresLearningWriter implements LearningWriter {
  constructor(private readonly pool: Pool) {}

  async apply(writes: readonly LearningWrite[]): Promise<void> {
    // Everything is checked before the transaction starts: a bad last write leaves the database untouched.
    const checked = learningWrites(writes);
    if (checked.length === 0) return;
    const perTable = new Map<Table, CheckedLearningWrite[]>();
    for (const write of checked) {
      const table = TABLE[write.kind];
      const list = perTable.get(table);
      if (list) list.push(write);
      else perTable.set(table, [write]);
    }
    await withTransaction(this.pool, async (client) => {
      for (const list of perTable.values()) {
        for (const run of runs(list)) await applyRun(client, run);
      }
    });
  }
}
