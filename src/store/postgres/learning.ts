import type { Pool } from 'pg';
import {
  IDENTITY_FIELDS,
  LABEL_TYPES,
  type Evidence,
  type EvidencePort,
  type IdentityField,
  type LabelType,
  type ModelPort,
  type ModelUpdate,
  type ModelWeight,
  type OutcomeRecord,
  type OutcomesPort,
  IdentityScore,
} from '../learning-ports.ts';
import {
  type EvidenceRow,
  type ModelHistoryRow,
  type ModelWeightRow,
  type OutcomeRow,
  EVIDENCE_COLUMNS,
  IDENTITY_COLUMNS,
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
import { withTransaction } from './transaction.ts';
import { isoSql, statementsBySize } from './values.ts';
import { isoTimestamp } from '../values.ts';
import { Coalescer } from '../coalescer.ts';

const TIMESTAMP_COLUMNS: ReadonlySet<string> = new Set(['occurred_at', 'updated_at']);

/** `INSERT ... ON CONFLICT (key) DO UPDATE SET` every other column: an upsert of the whole record. */
function upsertSql(table: string, columns: readonly string[], key: readonly string[]): string {
  const rest = columns.filter((column) => !key.includes(column));
  const values = columns.map((column, i) => (TIMESTAMP_COLUMNS.has(column) ? `$${i + 1}::timestamptz` : `$${i + 1}`));
  return `
    INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${rest.map((column) => `${column} = excluded.${column}`).join(', ')}`;
}

/** The select list of a table's columns, timestamps rendered as `toISOString()` text. */
function selectList(columns: readonly string[], alias = ''): string {
  return columns.map((column) => (TIMESTAMP_COLUMNS.has(column) ? `${isoSql(`${alias}${column}`)} AS ${column}` : `${alias}${column}`)).join(', ');
}

type Query = { name: string; text: string };

function perIdentity(make: (field: IdentityField, column: string) => Query): Record<IdentityField, Query> {
  return Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, make(field, IDENTITY_COLUMNS[field])])) as Record<IdentityField, Query>;
}

// ---------------------------------------------------------------------------------------------------------------
// Payment outcomes

const OUTCOME_SELECT = `SELECT ${selectList(OUTCOME_COLUMNS)} FROM payment_outcomes`;

const OQ = {
  get: { name: 'vigil_outcomes_get', text: `${OUTCOME_SELECT} WHERE account_id = $1 AND transaction_id = $2` },
  put: { name: 'vigil_outcomes_put', text: upsertSql('payment_outcomes', OUTCOME_COLUMNS, ['account_id', 'transaction_id']) },
  delete: { name: 'vigil_outcomes_delete', text: 'DELETE FROM payment_outcomes WHERE account_id = $1 AND transaction_id = $2' },
  find: perIdentity((field, column) => ({
    name: `vigil_outcomes_find_${field}`,
    text: `${OUTCOME_SELECT} WHERE account_id = $1 AND ${column} = $2 ORDER BY transaction_id`,
  })),
  remove: perIdentity((field, column) => ({
    name: `vigil_outcomes_delete_${field}`,
    text: `DELETE FROM payment_outcomes WHERE account_id = $1 AND ${column} = $2`,
  })),
} as const;

/** The outcomes of `n` transactions in one statement (see PostgresOutcomes.get). */
const outcomeGet = statementsBySize((n) => {
  const pairs = Array.from({ length: n }, (_, i) => `($${i * 2 + 1}::text, $${i * 2 + 2}::text)`);
  return n === 1 ? OQ.get : { name: `vigil_outcomes_get_${n}`, text: `${OUTCOME_SELECT} WHERE (account_id, transaction_id) IN (VALUES ${pairs.join(', ')})` };
});

export class PostgresOutcomes implements OutcomesPort {
  constructor(private readonly pool: Pool) {}

  /**
   * Every payment scoring asks for its transaction's waiting outcome once stored: the questions asked while others are
   * on their way go in one statement (Coalescer), so under load a round trip serves the scorings of a few milliseconds.
   */
  readonly #gets = new Coalescer<{ accountId: string; transactionId: string }, OutcomeRecord | null>(async (batch) => {
    const { rows } = await this.pool.query<OutcomeRow>({ ...outcomeGet(batch.length), values: batch.flatMap((b) => [b.accountId, b.transactionId]) });
    const found = new Map(rows.map((row) => [`${row.account_id}\u0000${row.transaction_id}`, row]));
    return batch.map((b) => {
      const row = found.get(`${b.accountId}\u0000${b.transactionId}`);
      return row ? toOutcome(row) : null;
    });
  }, { maxBatch: 32, maxInFlight: 2 });

  get(accountId: string, transactionId: string): Promise<OutcomeRecord | null> {
    return this.#gets.add({ accountId, transactionId });
  }

  async put(record: OutcomeRecord): Promise<void> {
    await this.pool.query({ ...OQ.put, values: outcomeParams(outcomeValues(record), (fraud) => fraud) });
  }

  async findByIdentity(accountId: string, field: IdentityField, hash: string): Promise<OutcomeRecord[]> {
    identityColumn(field);
    const { rows } = await this.pool.query<OutcomeRow>({ ...OQ.find[field], values: [accountId, hash] });
    return rows.map(toOutcome);
  }

  async deleteByIdentity(accountId: string, field: IdentityField, hash: string): Promise<number> {
    identityColumn(field);
    const result = await this.pool.query({ ...OQ.remove[field], values: [accountId, hash] });
    return result.rowCount ?? 0;
  }

  async delete(accountId: string, transactionId: string): Promise<boolean> {
    const result = await this.pool.query({ ...OQ.delete, values: [accountId, transactionId] });
    return (result.rowCount ?? 0) > 0;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Identity evidence

const EQ = {
  get: {
    name: 'vigil_evidence_get',
    text: `SELECT ${selectList(EVIDENCE_COLUMNS)} FROM identity_evidence WHERE account_id = $1 AND type = $2 AND value_hash = $3 AND origin = $4`,
  },
  put: { name: 'vigil_evidence_put', text: upsertSql('identity_evidence', EVIDENCE_COLUMNS, ['account_id', 'type', 'value_hash', 'origin']) },
  // The pairs arrive as two parallel arrays: each (type, hash) is one primary-key range lookup, whatever their number.
  forIdentities: {
    name: 'vigil_evidence_for_identities',
    text: `
      SELECT ${selectList(EVIDENCE_COLUMNS, 'e.')}
      FROM unnest($2::text[], $3::text[]) AS q (type, value_hash)
      JOIN identity_evidence e ON e.account_id = $1 AND e.type = q.type AND e.value_hash = q.value_hash
      ORDER BY e.type, e.value_hash, e.origin`,
  },
  scores: {
    name: 'vigil_evidence_scores',
    text: `
      SELECT e.type, e.value_hash,
        sum(CASE e.label WHEN 'fraud' THEN 1.0 ELSE -1.0 END
            * power(0.5, greatest(0.0, extract(epoch FROM ($4::timestamptz - e.occurred_at)) / 86400.0) / $5::float8))::float8 AS score
      FROM unnest($2::text[], $3::text[]) AS q (type, value_hash)
      JOIN identity_evidence e ON e.account_id = $1 AND e.type = q.type AND e.value_hash = q.value_hash
      GROUP BY e.type, e.value_hash`,
  },
  labelledTypes: {
    name: 'vigil_evidence_labelled_types',
    text: 'SELECT t AS type FROM unnest($2::text[]) AS t WHERE EXISTS (SELECT 1 FROM identity_evidence e WHERE e.account_id = $1 AND e.type = t)',
  },
  deleteByOrigin: { name: 'vigil_evidence_delete_origin', text: 'DELETE FROM identity_evidence WHERE account_id = $1 AND origin = $2' },
  deleteByIdentity: {
    name: 'vigil_evidence_delete_identity',
    text: 'DELETE FROM identity_evidence WHERE account_id = $1 AND type = $2 AND value_hash = $3',
  },
} as const;

export class PostgresEvidence implements EvidencePort {
  constructor(private readonly pool: Pool) {}

  async get(accountId: string, type: LabelType, valueHash: string, origin: string): Promise<Evidence | null> {
    const { rows } = await this.pool.query<EvidenceRow>({ ...EQ.get, values: [accountId, labelType(type), valueHash, origin] });
    const row = rows[0];
    return row ? toEvidence(row) : null;
  }

  async put(evidence: Evidence): Promise<void> {
    await this.pool.query({ ...EQ.put, values: evidenceParams(evidence) });
  }

  async forIdentities(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>): Promise<Evidence[]> {
    const { types, hashes } = identityPairs(identities);
    if (types.length === 0) return [];
    const { rows } = await this.pool.query<EvidenceRow>({ ...EQ.forIdentities, values: [accountId, types, hashes] });
    return rows.map(toEvidence);
  }

  async scores(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>, now: string, halfLifeDays: number): Promise<IdentityScore[]> {
    const { types, hashes } = identityPairs(identities);
    if (types.length === 0) return [];
    if (!(halfLifeDays > 0)) throw new RangeError(`halfLifeDays must be positive, got ${halfLifeDays}`);
    const { rows } = await this.pool.query<{ type: string; value_hash: string; score: number }>({ ...EQ.scores, values: [accountId, types, hashes, isoTimestamp(now), halfLifeDays] });
    return rows.map((r) => ({ type: labelType(r.type), valueHash: r.value_hash, score: Number(r.score) }));
  }

  async labelledTypes(accountId: string): Promise<LabelType[]> {
    const { rows } = await this.pool.query<{ type: string }>({ ...EQ.labelledTypes, values: [accountId, LABEL_TYPES] });
    return rows.map((r) => labelType(r.type));
  }

  async deleteByOrigin(accountId: string, origin: string): Promise<number> {
    const result = await this.pool.query({ ...EQ.deleteByOrigin, values: [accountId, origin] });
    return result.rowCount ?? 0;
  }

  async deleteByIdentity(accountId: string, type: LabelType, valueHash: string): Promise<number> {
    const result = await this.pool.query({ ...EQ.deleteByIdentity, values: [accountId, labelType(type), valueHash] });
    return result.rowCount ?? 0;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Model

const MQ = {
  weights: {
    name: 'vigil_model_weights',
    text: 'SELECT feature, z, n FROM model_weights WHERE account_id = $1 AND feature = ANY ($2::text[]) ORDER BY feature',
  },
  upsertWeights: {
    name: 'vigil_model_upsert_weights',
    text: `
      INSERT INTO model_weights (account_id, feature, z, n)
      SELECT $1, w.feature, w.z, w.n FROM unnest($2::text[], $3::float8[], $4::float8[]) AS w (feature, z, n)
      ON CONFLICT (account_id, feature) DO UPDATE SET z = excluded.z, n = excluded.n`,
  },
  appendHistory: {
    name: 'vigil_model_append_history',
    text: `
      INSERT INTO model_history (account_id, at, origin, label, before, weights)
      VALUES ($1, $2::timestamptz, $3, $4, $5, $6::jsonb)`,
  },
  deleteHistoryByOrigin: { name: 'vigil_model_delete_history_origin', text: 'DELETE FROM model_history WHERE account_id = $1 AND origin = $2' },
  deleteWeights: { name: 'vigil_model_delete_weights', text: 'DELETE FROM model_weights WHERE account_id = $1 AND feature = ANY($2::text[])' },
  allWeights: { name: 'vigil_model_all_weights', text: 'SELECT feature, z, n FROM model_weights WHERE account_id = $1 ORDER BY feature' },
  history: {
    name: 'vigil_model_history',
    text: `
      SELECT account_id, ${isoSql('at')} AS at, origin, label, before, weights::text AS weights
      FROM model_history WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
  },
} as const;

export class PostgresModel implements ModelPort {
  constructor(private readonly pool: Pool) {}

  async weights(accountId: string, features: readonly string[]): Promise<ModelWeight[]> {
    const list = featureList(features);
    if (list.length === 0) return [];
    const { rows } = await this.pool.query<ModelWeightRow>({ ...MQ.weights, values: [accountId, list] });
    return rows.map(toModelWeight);
  }

  async update(accountId: string, weights: readonly ModelWeight[], history: ModelUpdate): Promise<void> {
    // Everything is checked before the transaction starts: a bad history entry writes no weights either.
    const checked = modelWeights(weights);
    const entry = modelUpdateValues(accountId, history);
    await withTransaction(this.pool, async (client) => {
      if (checked.length > 0) {
        await client.query({
          ...MQ.upsertWeights,
          values: [accountId, checked.map((w) => w.feature), checked.map((w) => w.z), checked.map((w) => w.n)],
        });
      }
      await client.query({ ...MQ.appendHistory, values: [entry.accountId, entry.at, entry.origin, entry.label, entry.before, entry.weights] });
    });
  }

  async allWeights(accountId: string): Promise<ModelWeight[]> {
    const { rows } = await this.pool.query<ModelWeightRow>({ ...MQ.allWeights, values: [accountId] });
    return rows.map(toModelWeight);
  }

  async history(accountId: string, limit: number): Promise<ModelUpdate[]> {
    const { rows } = await this.pool.query<ModelHistoryRow>({ ...MQ.history, values: [accountId, historyLimit(limit)] });
    return rows.map(toModelUpdate);
  }

  async deleteHistoryByOrigin(accountId: string, origin: string): Promise<number> {
    const result = await this.pool.query({ ...MQ.deleteHistoryByOrigin, values: [accountId, origin] });
    return result.rowCount ?? 0;
  }

  async deleteWeights(accountId: string, features: readonly string[]): Promise<number> {
    if (features.length === 0) return 0;
    const result = await this.pool.query({ ...MQ.deleteWeights, values: [accountId, [...new Set(features)]] });
    return result.rowCount ?? 0;
  }
}
