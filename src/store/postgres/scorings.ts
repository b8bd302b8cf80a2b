import type { Pool } from 'pg';
import { AMOUNT_HISTORY_ROWS, IDENTITY_FIELDS, type AmountStats, type IdentityField, type NewScoring, type PaymentOutcome, type ScoringHistory, type ScoringHistoryQuery, type ScoringsPort, type StoredScoring, type VelocityQuery } from '../learning-ports.ts';
import {
  type AmountAggregateRow,
  type ScoringRow,
  type ScoringValues,
  IDENTITY_COLUMNS,
  IDENTITY_COLUMN_LIST,
  SCORING_INSERT_COLUMNS,
  historyRows,
  identityColumn,
  outcomeFraudSql,
  paymentOutcome,
  scoringParams,
  scoringValues,
  storedScoring,
  toAmountStats,
  toScoring,
  velocityAggregate,
  velocityQueries,
  VELOCITY_ROWS,
  velocityColumns,
} from '../learning-rows.ts';
import { bigintCount, isoSql, isoTimestamp, statementsBySize } from './values.ts';
import { Coalescer } from '../coalescer.ts';
import { UserDeletedError } from '../ports.ts';

const SCORING_COLUMNS =
  `id, account_id, transaction_id, ${isoSql('scored_at')} AS scored_at, ${IDENTITY_COLUMN_LIST}, card_bin, card_last4, location_hash, ` +
  'amount, currency, score, rules::text AS rules, features::text AS features, rule_set, data_versions::text AS data_versions, outcome';

/** Types of the batch insert's values, where a column is not text. */
const COLUMN_TYPES: Partial<Record<(typeof SCORING_INSERT_COLUMNS)[number], string>> = {
  scored_at: 'timestamptz',
  amount: 'float8',
  amount_log: 'float8',
  score: 'float8',
  rules: 'jsonb',
  features: 'jsonb',
  data_versions: 'jsonb',
};

/** Most scorings one insert statement carries, and batches on their way at once (Coalescer). */
const INSERT_BATCH = { maxBatch: 32, maxInFlight: 2 };

/** Scorings a process inserts before it makes sure the table has planner statistics (#analyzeIfNever). */
const ANALYZE_AFTER_ROWS = 1000;

/**
 * The insert of `rows` scorings in one statement (a named statement per size, prepared on first use by each pooled
 * connection: a VALUES list of a fixed length plans once, where arrays of any length made PostgreSQL plan every call).
 * Each row is dropped when one of its person identities was deleted at or after its scoring time (the deletion
 * tombstone; deleted-users.ts waits for this statement if it began before the deletion committed); the others get
 * ids in the rows' order. It answers each kept row's position (1-based) and id.
 */
const insertStatement = statementsBySize((rows) => {
  const width = SCORING_INSERT_COLUMNS.length;
  const tuples = Array.from({ length: rows }, (_, r) =>
    `(${SCORING_INSERT_COLUMNS.map((c, i) => `$${r * width + i + 1}::${COLUMN_TYPES[c] ?? 'text'}`).join(', ')}, ${r + 1})`);
  return {
    name: `vigil_scorings_insert_${rows}`,
    text: `
      WITH input (${SCORING_INSERT_COLUMNS.join(', ')}, ord) AS (VALUES ${tuples.join(', ')}),
      kept AS MATERIALIZED (
        SELECT ord, nextval('payment_scorings_id_seq'::regclass) AS id FROM (
          SELECT i.ord FROM input i
          WHERE NOT EXISTS (
            SELECT 1 FROM deleted_users d WHERE d.account_id = i.account_id
              AND d.value_hash IN (${PERSON_FIELDS.map((f) => `i.${IDENTITY_COLUMNS[f]}`).join(', ')})
              AND d.deleted_at >= i.scored_at)
          ORDER BY i.ord) AS k
      ),
      inserted AS (
        INSERT INTO payment_scorings (id, ${SCORING_INSERT_COLUMNS.join(', ')}, outcome_fraud) OVERRIDING SYSTEM VALUE
        SELECT k.id, ${SCORING_INSERT_COLUMNS.map((c) => `i.${c}`).join(', ')}, ${outcomeFraudSql((name) => `i.${FRAUD_PARAMS[name]}`, 'true', 'false')}
        FROM kept k JOIN input i USING (ord)
      )
      SELECT ord, id FROM kept`,
  };
});

/** The identities a user deletion names (a customer or user id, an email, a phone). */
const PERSON_FIELDS = ['customer', 'user', 'email', 'phone'] as const satisfies readonly IdentityField[];

const FRAUD_PARAMS = { account: 'account_id', transaction: 'transaction_id', outcome: 'outcome' } as const;

/** The statements whose SQL depends on an identity column, one per column (names from the closed map only). */
function perIdentity(make: (field: IdentityField, column: string) => { name: string; text: string }): Record<IdentityField, { name: string; text: string }> {
  return Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, make(field, IDENTITY_COLUMNS[field])])) as Record<IdentityField, { name: string; text: string }>;
}

// Named statements are parsed once per pooled connection.
const Q = {
  byTransaction: {
    name: 'vigil_scorings_by_transaction',
    text: `SELECT ${SCORING_COLUMNS} FROM payment_scorings WHERE account_id = $1 AND transaction_id = $2 ORDER BY id`,
  },
  setOutcome: {
    name: 'vigil_scorings_set_outcome',
    text: 'UPDATE payment_scorings SET outcome = $3, outcome_fraud = $4 WHERE account_id = $1 AND transaction_id = $2',
  },
  countFraud: perIdentity((field) => ({ name: `vigil_scorings_fraud_${field}`, text: fraudCountText(field, 'n') })),
  find: perIdentity((field, column) => ({
    name: `vigil_scorings_find_${field}`,
    text: `SELECT ${SCORING_COLUMNS} FROM payment_scorings WHERE account_id = $1 AND ${column} = $2 ORDER BY id`,
  })),
  remove: perIdentity((field, column) => ({
    name: `vigil_scorings_delete_${field}`,
    text: `DELETE FROM payment_scorings WHERE account_id = $1 AND ${column} = $2`,
  })),
} as const;

export class PostgresScorings implements ScoringsPort {
  constructor(private readonly pool: Pool) {}

  /**
   * Scorings stored while others are on their way go together in one statement (Coalescer): at a few hundred a
   * second the statement, its locks on the table and its sixteen indexes, and its commit are shared by the scorings
   * of a few milliseconds, not paid by each.
   */
  readonly #inserts = new Coalescer<ScoringValues, StoredScoring | null>((batch) => this.#insertBatch(batch), INSERT_BATCH);

  /** Scorings this process inserted, and whether it has checked that the table has statistics (#analyzeIfNever). */
  #inserted = 0;
  #analyzeChecked = false;

  /**
   * Statistics for the planner once the table has rows, if nothing gave it any (autovacuum off, or not yet run). Without
   * them PostgreSQL cannot tell the customer index from the account's time index for a customer's history: equal
   * guesses on an empty table, and a named statement keeps the plan it made then (seen: 16 ms of the database's CPU a
   * scoring against 0.03). ANALYZE makes every session plan its statements again. Run once per process, after its
   * first ANALYZE_AFTER_ROWS scorings, and only when the table was never analyzed.
   */
  async #analyzeIfNever(): Promise<void> {
    const { rows } = await this.pool.query<{ never: boolean }>(
      "SELECT last_analyze IS NULL AND last_autoanalyze IS NULL AS never FROM pg_stat_user_tables WHERE relid = 'payment_scorings'::regclass",
    );
    if (rows[0]?.never === true) await this.pool.query('ANALYZE payment_scorings');
  }

  async insert(scoring: NewScoring): Promise<StoredScoring> {
    const stored = await this.#inserts.add(scoringValues(scoring));
    if (stored === null) throw new UserDeletedError('the scoring\'s customer was deleted after it was scored');
    return stored;
  }

  /** One statement for the batch; null for a scoring dropped because its customer was deleted after it was scored. */
  async #insertBatch(batch: readonly ScoringValues[]): Promise<Array<StoredScoring | null>> {
    const { rows } = await this.pool.query<{ ord: number; id: string }>({ ...insertStatement(batch.length), values: batch.flatMap(scoringParams) });
    this.#inserted += batch.length;
    if (this.#inserted >= ANALYZE_AFTER_ROWS && !this.#analyzeChecked) {
      this.#analyzeChecked = true;
      void this.#analyzeIfNever().catch(() => undefined);
    }
    const out: Array<StoredScoring | null> = batch.map(() => null);
    for (const row of rows) {
      const i = Number(row.ord) - 1;
      out[i] = storedScoring(batch[i]!, bigintCount(row.id));
    }
    return out;
  }

  /** Written at once: on PostgreSQL the velocity windows come from the rows or from Redis (recorded with the id). */
  async add(scoring: NewScoring): Promise<void> {
    await this.insert(scoring);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async byTransaction(accountId: string, transactionId: string): Promise<StoredScoring[]> {
    const { rows } = await this.pool.query<ScoringRow>({ ...Q.byTransaction, values: [accountId, transactionId] });
    return rows.map(toScoring);
  }

  /** All questions in one statement (one round trip, one snapshot): one scalar subquery per question. */
  async velocity(accountId: string, queries: readonly VelocityQuery[]): Promise<number[]> {
    const checked = velocityQueries(queries);
    if (checked.length === 0) return [];
    const values: unknown[] = [accountId];
    const columns = checked.map((query, i) => {
      values.push(query.hash, query.since);
      const hash = values.length - 1;
      const since = values.length;
      // The newest VELOCITY_ROWS rows of the window, read backwards along the identity's index (learning-rows.ts).
      return `(SELECT ${velocityAggregate(query)} FROM (SELECT ${velocityColumns([query])} FROM payment_scorings
               WHERE account_id = $1 AND ${query.byColumn} = $${hash}::text AND scored_at >= $${since}::timestamptz${query.filter}
               ORDER BY scored_at DESC LIMIT ${VELOCITY_ROWS}) w) AS c${i}`;
    });
    const { rows } = await this.pool.query<Record<string, string>>({ text: `SELECT ${columns.join(', ')}`, values });
    const row = rows[0];
    if (row === undefined) throw new Error('velocity query returned no row');
    return checked.map((_, i) => bigintCount(row[`c${i}`] ?? 'NaN'));
  }

  async countFraudSince(accountId: string, by: IdentityField, hash: string, since: string): Promise<number> {
    identityColumn(by);
    const { rows } = await this.pool.query<{ n: string }>({ ...Q.countFraud[by], values: [accountId, hash, isoTimestamp(since)] });
    return bigintCount(rows[0]?.n ?? '0');
  }

  async amountStats(accountId: string, currency: string | null, since: string, customer?: string, limit = AMOUNT_HISTORY_ROWS): Promise<AmountStats> {
    const values: unknown[] = [];
    const text = amountSelect(values, accountId, currency, since, customer, limit);
    const name = `vigil_scorings_amounts_${currency === null ? 'n' : 'c'}${customer === undefined ? '' : 'u'}`;
    const { rows } = await this.pool.query<AmountAggregateRow>({ name, text, values });
    return toAmountStats(rows[0]);
  }

  async history(accountId: string, query: ScoringHistoryQuery): Promise<ScoringHistory> {
    const { fraud, amounts } = query;
    if (fraud === null) {
      return { fraud: 0, amounts: amounts === null ? null : await this.amountStats(accountId, amounts.currency, amounts.since, amounts.customer) };
    }
    if (amounts === null) return { fraud: await this.countFraudSince(accountId, fraud.by, fraud.hash, fraud.since), amounts: null };
    // One statement, one round trip: the fraud count and the customer's amounts.
    const values: unknown[] = [accountId, fraud.hash, isoTimestamp(fraud.since)];
    const amountText = amountSelect(values, accountId, amounts.currency, amounts.since, amounts.customer, AMOUNT_HISTORY_ROWS);
    const { rows } = await this.pool.query<AmountAggregateRow & { fraud: string }>({
      name: `vigil_scorings_history_${identityColumn(fraud.by)}_${amounts.currency === null ? 'n' : 'c'}`,
      text: `SELECT f.fraud, a.n, a.mean, a.mean_sq, a.max FROM (${fraudCountText(fraud.by, 'fraud')}) AS f, (${amountText}) AS a`,
      values,
    });
    return { fraud: bigintCount(rows[0]?.fraud ?? '0'), amounts: toAmountStats(rows[0]) };
  }

  async setOutcome(accountId: string, transactionId: string, outcome: PaymentOutcome, fraud: boolean): Promise<number> {
    const checked = paymentOutcome(outcome);
    if (typeof fraud !== 'boolean') throw new RangeError('fraud must be a boolean');
    const result = await this.pool.query({ ...Q.setOutcome, values: [accountId, transactionId, checked, fraud] });
    return result.rowCount ?? 0;
  }

  async findByIdentity(accountId: string, field: IdentityField, hash: string): Promise<StoredScoring[]> {
    identityColumn(field);
    const { rows } = await this.pool.query<ScoringRow>({ ...Q.find[field], values: [accountId, hash] });
    return rows.map(toScoring);
  }

  async deleteByIdentity(accountId: string, field: IdentityField, hash: string): Promise<number> {
    identityColumn(field);
    const result = await this.pool.query({ ...Q.remove[field], values: [accountId, hash] });
    return result.rowCount ?? 0;
  }
}

/**
 * amountStats's SELECT (one row: n, mean, mean_sq, max), its values appended to `values` (placeholders numbered after
 * those already there).
 *
 * Two shapes rather than IS NOT DISTINCT FROM, so the (account, currency, scored_at) index serves both. One
 * customer's history is a few rows of the customer index, and two other indexes also give the account's rows
 * newest first: walking either backwards, filtering on the customer, reads the account's whole history (seen: 16
 * ms of the database's CPU a scoring against 0.03). So there the currency test is wrapped in IS TRUE, which no
 * index matches; the time index is the planner's statistics' to rule out (PostgresScorings.#analyzeIfNever).
 */
function amountSelect(values: unknown[], accountId: string, currency: string | null, since: string, customer: string | undefined, limit: number): string {
  values.push(accountId, isoTimestamp(since));
  const where = [`account_id = $${values.length - 1}`, `scored_at >= $${values.length}::timestamptz`, 'amount IS NOT NULL'];
  const test = (condition: string) => (customer === undefined ? condition : `(${condition}) IS TRUE`);
  if (currency === null) where.push(test('currency IS NULL'));
  else {
    values.push(currency);
    where.push(test(`currency = $${values.length}::text`));
  }
  if (customer !== undefined) {
    values.push(customer);
    where.push(`customer_hash = $${values.length}::text`);
  }
  values.push(historyRows(limit));
  return `
    SELECT count(*) AS n, avg(amount_log) AS mean, avg(amount_log * amount_log) AS mean_sq, max(amount) AS max
    FROM (SELECT amount, amount_log FROM payment_scorings WHERE ${where.join(' AND ')}
          ORDER BY scored_at DESC LIMIT $${values.length}::int) AS recent`;
}

/** countFraudSince's SELECT of identity `by` ($1 account, $2 hash, $3 since), its count named `as`. */
function fraudCountText(by: IdentityField, as: string): string {
  return `SELECT count(DISTINCT coalesce(transaction_id, 'scoring:' || id)) AS ${as} FROM payment_scorings WHERE account_id = $1 AND ${identityColumn(by)} = $2 AND scored_at >= $3::timestamptz AND outcome_fraud`;
}
