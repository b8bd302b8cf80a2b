import type { Database, Statement } from 'better-sqlite3';
import { isoTimestamp } from '../values.ts';
import { LABEL_TYPES, type Evidence, type EvidencePort, type IdentityField, type IdentityScore, type LabelType, type ModelPort, type ModelUpdate, type ModelWeight, type OutcomeRecord, type OutcomesPort } from '../learning-ports.ts';
import {
  type EvidenceRow,
  type ModelHistoryRow,
  type ModelUpdateValues,
  type ModelWeightRow,
  type OutcomeRow,
  EVIDENCE_COLUMNS,
  IDENTITY_COLUMN_LIST,
  OUTCOME_COLUMNS,
  evidenceParams,
  featureList,
  historyLimit,
  identityColumn,
  identityPairs,
  labelType,
  modelUpdateValues,
  modelWeights,
  outcomeParams,
  outcomeValues,
  toEvidence,
  toModelUpdate,
  toModelWeight,
  toOutcome,
} from '../learning-rows.ts';
import { settle } from './values.ts';

/** `INSERT ... ON CONFLICT (key) DO UPDATE SET` every other column: an upsert of the whole record. */
function upsertSql(table: string, columns: readonly string[], key: readonly string[]): string {
  const rest = columns.filter((column) => !key.includes(column));
  return `
    INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${rest.map((column) => `${column} = excluded.${column}`).join(', ')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Payment outcomes

const OUTCOME_SELECT = `SELECT account_id, transaction_id, outcome, fraud, reason, occurred_at, status, ${IDENTITY_COLUMN_LIST}, updated_at FROM payment_outcomes`;

/** Statements of the outcomes port; the batch writer (learning-writer.ts) runs them too, as it does the evidence and model ones. */
export function prepareOutcomes(db: Database) {
  return {
    get: db.prepare<[string, string], OutcomeRow>(`${OUTCOME_SELECT} WHERE account_id = ? AND transaction_id = ?`),
    put: db.prepare<unknown[]>(upsertSql('payment_outcomes', OUTCOME_COLUMNS, ['account_id', 'transaction_id'])),
    delete: db.prepare<[string, string]>('DELETE FROM payment_outcomes WHERE account_id = ? AND transaction_id = ?'),
  };
}

export class SqliteOutcomes implements OutcomesPort {
  #statements: ReturnType<typeof prepareOutcomes> | undefined;
  readonly #byColumn = new Map<string, { find: Statement<[string, string], OutcomeRow>; remove: Statement<[string, string]> }>();

  constructor(private readonly db: Database) {}

  private get statements(): ReturnType<typeof prepareOutcomes> {
    this.#statements ??= prepareOutcomes(this.db);
    return this.#statements;
  }

  /** Statements of one identity column (named by the closed map only). */
  private byIdentity(field: IdentityField) {
    const column = identityColumn(field);
    let statements = this.#byColumn.get(column);
    if (!statements) {
      statements = {
        find: this.db.prepare<[string, string], OutcomeRow>(`${OUTCOME_SELECT} WHERE account_id = ? AND ${column} = ? ORDER BY transaction_id`),
        remove: this.db.prepare<[string, string]>(`DELETE FROM payment_outcomes WHERE account_id = ? AND ${column} = ?`),
      };
      this.#byColumn.set(column, statements);
    }
    return statements;
  }

  get(accountId: string, transactionId: string): Promise<OutcomeRecord | null> {
    return settle(() => {
      const row = this.statements.get.get(accountId, transactionId);
      return row ? toOutcome(row) : null;
    });
  }

  put(record: OutcomeRecord): Promise<void> {
    return settle(() => {
      this.statements.put.run(...outcomeParams(outcomeValues(record), (fraud) => (fraud ? 1 : 0)));
    });
  }

  findByIdentity(accountId: string, field: IdentityField, hash: string): Promise<OutcomeRecord[]> {
    return settle(() => this.byIdentity(field).find.all(accountId, hash).map(toOutcome));
  }

  deleteByIdentity(accountId: string, field: IdentityField, hash: string): Promise<number> {
    return settle(() => this.byIdentity(field).remove.run(accountId, hash).changes);
  }

  delete(accountId: string, transactionId: string): Promise<boolean> {
    return settle(() => this.statements.delete.run(accountId, transactionId).changes > 0);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Identity evidence

const ALL_LABEL_TYPES = JSON.stringify(LABEL_TYPES);
const EVIDENCE_SELECT = EVIDENCE_COLUMNS.map((column) => `e.${column}`).join(', ');

export function prepareEvidence(db: Database) {
  return {
    get: db.prepare<[string, string, string, string], EvidenceRow>(
      `SELECT ${EVIDENCE_SELECT} FROM identity_evidence e WHERE account_id = ? AND type = ? AND value_hash = ? AND origin = ?`,
    ),
    put: db.prepare<unknown[]>(upsertSql('identity_evidence', EVIDENCE_COLUMNS, ['account_id', 'type', 'value_hash', 'origin'])),
    // The pairs arrive as one JSON array of [type, hash]; CROSS JOIN keeps them the outer loop, so each pair is one
    // primary-key range lookup however many pairs are asked (no bound-parameter limit, no chunking).
    forIdentities: db.prepare<[string, string], EvidenceRow>(`
      SELECT ${EVIDENCE_SELECT} FROM json_each(?) AS q CROSS JOIN identity_evidence AS e
      WHERE e.account_id = ? AND e.type = q.value ->> 0 AND e.value_hash = q.value ->> 1
      ORDER BY e.type, e.value_hash, e.origin`),
    scores: db.prepare<{ pairs: string; account: string; now: string; half: number }, { type: string; value_hash: string; score: number }>(`
      SELECT e.type, e.value_hash,
        sum(CASE e.label WHEN 'fraud' THEN 1.0 ELSE -1.0 END * pow(0.5, max(0.0, julianday(@now) - julianday(e.occurred_at)) / @half)) AS score
      FROM json_each(@pairs) AS q CROSS JOIN identity_evidence AS e
      WHERE e.account_id = @account AND e.type = q.value ->> 0 AND e.value_hash = q.value ->> 1
      GROUP BY e.type, e.value_hash`),
    labelledTypes: db.prepare<[string, string], { type: string }>(`
      SELECT t.value AS type FROM json_each(?) AS t
      WHERE EXISTS (SELECT 1 FROM identity_evidence e WHERE e.account_id = ? AND e.type = t.value)`),
    deleteByOrigin: db.prepare<[string, string]>('DELETE FROM identity_evidence INDEXED BY identity_evidence_origin WHERE account_id = ? AND origin = ?'),
    deleteByIdentity: db.prepare<[string, string, string]>('DELETE FROM identity_evidence WHERE account_id = ? AND type = ? AND value_hash = ?'),
  };
}

export class SqliteEvidence implements EvidencePort {
  #statements: ReturnType<typeof prepareEvidence> | undefined;

  constructor(private readonly db: Database) {}

  private get statements(): ReturnType<typeof prepareEvidence> {
    this.#statements ??= prepareEvidence(this.db);
    return this.#statements;
  }

  get(accountId: string, type: LabelType, valueHash: string, origin: string): Promise<Evidence | null> {
    return settle(() => {
      const row = this.statements.get.get(accountId, labelType(type), valueHash, origin);
      return row ? toEvidence(row) : null;
    });
  }

  put(evidence: Evidence): Promise<void> {
    return settle(() => {
      this.statements.put.run(...evidenceParams(evidence));
    });
  }

  forIdentities(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>): Promise<Evidence[]> {
    return settle(() => {
      const { types, hashes } = identityPairs(identities);
      if (types.length === 0) return [];
      const pairs = JSON.stringify(types.map((type, i) => [type, hashes[i]]));
      return this.statements.forIdentities.all(pairs, accountId).map(toEvidence);
    });
  }

  scores(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>, now: string, halfLifeDays: number): Promise<IdentityScore[]> {
    return settle(() => {
      const { types, hashes } = identityPairs(identities);
      if (types.length === 0) return [];
      if (!(halfLifeDays > 0)) throw new RangeError(`halfLifeDays must be positive, got ${halfLifeDays}`);
      const pairs = JSON.stringify(types.map((type, i) => [type, hashes[i]]));
      return this.statements.scores.all({ pairs, account: accountId, now: isoTimestamp(now), half: halfLifeDays }).map((r) => ({ type: labelType(r.type), valueHash: r.value_hash, score: r.score }));
    });
  }

  labelledTypes(accountId: string): Promise<LabelType[]> {
    return settle(() => this.statements.labelledTypes.all(ALL_LABEL_TYPES, accountId).map((r) => labelType(r.type)));
  }

  deleteByOrigin(accountId: string, origin: string): Promise<number> {
    return settle(() => this.statements.deleteByOrigin.run(accountId, origin).changes);
  }

  deleteByIdentity(accountId: string, type: LabelType, valueHash: string): Promise<number> {
    return settle(() => this.statements.deleteByIdentity.run(accountId, labelType(type), valueHash).changes);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Model

export function prepareModel(db: Database) {
  return {
    // Features arrive as one JSON array, looked up one primary key each (see forIdentities).
    weights: db.prepare<[string, string], ModelWeightRow>(`
      SELECT w.feature, w.z, w.n FROM json_each(?) AS q CROSS JOIN model_weights AS w
      WHERE w.account_id = ? AND w.feature = q.value
      ORDER BY w.feature`),
    upsertWeight: db.prepare<[string, string, number, number]>(`
      INSERT INTO model_weights (account_id, feature, z, n) VALUES (?, ?, ?, ?)
      ON CONFLICT (account_id, feature) DO UPDATE SET z = excluded.z, n = excluded.n`),
    appendHistory: db.prepare<ModelUpdateValues>(`
      INSERT INTO model_history (account_id, at, origin, label, before, weights)
      VALUES (@accountId, @at, @origin, @label, @before, @weights)`),
    allWeights: db.prepare<[string], ModelWeightRow>('SELECT feature, z, n FROM model_weights WHERE account_id = ? ORDER BY feature'),
    deleteHistoryByOrigin: db.prepare<[string, string]>('DELETE FROM model_history WHERE account_id = ? AND origin = ?'),
    deleteWeight: db.prepare<[string, string]>('DELETE FROM model_weights WHERE account_id = ? AND feature = ?'),
    history: db.prepare<[string, number], ModelHistoryRow>(
      'SELECT account_id, at, origin, label, before, weights FROM model_history WHERE account_id = ? ORDER BY id DESC LIMIT ?',
    ),
  };
}

export class SqliteModel implements ModelPort {
  #statements: ReturnType<typeof prepareModel> | undefined;
  readonly #update: (accountId: string, weights: ModelWeight[], history: ModelUpdateValues) => void;

  constructor(private readonly db: Database) {
    const update = db.transaction((accountId: string, weights: ModelWeight[], history: ModelUpdateValues) => {
      const s = this.statements;
      for (const weight of weights) s.upsertWeight.run(accountId, weight.feature, weight.z, weight.n);
      s.appendHistory.run(history);
    });
    this.#update = (accountId, weights, history) => update.immediate(accountId, weights, history);
  }

  private get statements(): ReturnType<typeof prepareModel> {
    this.#statements ??= prepareModel(this.db);
    return this.#statements;
  }

  weights(accountId: string, features: readonly string[]): Promise<ModelWeight[]> {
    return settle(() => {
      const list = featureList(features);
      if (list.length === 0) return [];
      return this.statements.weights.all(JSON.stringify(list), accountId).map(toModelWeight);
    });
  }

  update(accountId: string, weights: readonly ModelWeight[], history: ModelUpdate): Promise<void> {
    return settle(() => {
      // Everything is checked before the transaction starts: a bad history entry writes no weights either.
      const checked = modelWeights(weights);
      const entry = modelUpdateValues(accountId, history);
      this.#update(accountId, checked, entry);
    });
  }

  allWeights(accountId: string): Promise<ModelWeight[]> {
    return settle(() => this.statements.allWeights.all(accountId).map(toModelWeight));
  }

  history(accountId: string, limit: number): Promise<ModelUpdate[]> {
    return settle(() => this.statements.history.all(accountId, historyLimit(limit)).map(toModelUpdate));
  }

  deleteHistoryByOrigin(accountId: string, origin: string): Promise<number> {
    return settle(() => this.statements.deleteHistoryByOrigin.run(accountId, origin).changes);
  }

  deleteWeights(accountId: string, features: readonly string[]): Promise<number> {
    return settle(() => {
      let n = 0;
      for (const f of new Set(features)) n += this.statements.deleteWeight.run(accountId, f).changes;
      return n;
    });
  }
}
