import type { Pool } from 'pg';
import { AMOUNT_HISTORY_ROWS, IDENTITY_FIELDS, type AmountStats, type IdentityField, type NewScoring, type PaymentOutcome, type ScoringHistory, type ScoringHistoryQuery, type ScoringsPort, type StoredScoring, type VelocityQuery } from '../learning-ports.ts';
import {
  type AmountAggregateRow,
  type ScoringRow,
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
import { bigintCount, isoSql, isoTimestamp } from './values.ts';
import { UserDeletedError } from '../ports.ts';

const SCORING_COLUMNS =
  `id, account_id, transaction_id, ${isoSql('scored_at')} AS scored_at, ${IDENTITY_COLUMN_LIST}, card_bin, card_last4, location_hash, ` +
  'amount, currency, score, rules::text AS rules, features::text AS features, rule_set, data_versions::text AS data_versions, outcome';

/** Placeholders of the insert: `$n`, cast where the column type alone does not say it (JSONB, and the outcome subquery). */
const INSERT_CASTS: Partial<Record<(typeof SCORING_INSERT_COLUMNS)[number], string>> = {
  rules: 'jsonb',
  features: 'jsonb',
  data_versions: 'jsonb',
  transaction_id: 'text',
  outcome: 'text',
  scored_at: 'timestamptz',
};

function placeholder(column: (typeof SCORING_INSERT_COLUMNS)[number]): string {
  const index = SCORING_INSERT_COLUMNS.indexOf(column) + 1;
  const cast = INSERT_CASTS[column];
  return cast === undefined ? `$${index}` : `$${index}::${cast}`;
}

/** The identities a user deletion names (a customer or user id, an email, a phone). */
const PERSON_FIELDS = ['customer', 'user', 'email', 'phone'] as const satisfies readonly IdentityField[];

const FRAUD_PARAMS = { account: 'account_id', transaction: 'transaction_id', outcome: 'outcome' } as const;

/** The statements whose SQL depends on an identity column, one per column (names from the closed map only). */
function perIdentity(make: (field: IdentityField, column: string) => { name: string; text: string }): Record<IdentityField, { name: string; text: string }> {
  return Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, make(field, IDENTITY_COLUMNS[field])])) as Record<IdentityField, { name: string; text: string }>;
}

// Named statements are parsed once per pooled connection.
const Q = {
  // Nothing is stored when one of the person's identities was deleted after the scoring was made (a deletion on
  // another instance while this one scored: deleted-users.ts waits for this statement if it began before).
  insert: {
    name: 'vigil_scorings_insert',
    text: `
      INSERT INTO payment_scorings (${SCORING_INSERT_COLUMNS.join(', ')}, outcome_fraud)
      SELECT ${SCORING_INSERT_COLUMNS.map(placeholder).join(', ')}, ${outcomeFraudSql((name) => placeholder(FRAUD_PARAMS[name]), 'true', 'false')}
      WHERE NOT EXISTS (
        SELECT 1 FROM deleted_users d WHERE d.account_id = $1
          AND d.value_hash IN (${PERSON_FIELDS.map((f) => `${placeholder(IDENTITY_COLUMNS[f])}::text`).join(', ')})
          AND d.deleted_at >= ${placeholder('scored_at')})
      RETURNING id`,
  },
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

  async insert(scoring: NewScoring): Promise<StoredScoring> {
    const values = scoringValues(scoring);
    const { rows } = await this.pool.query<{ id: string }>({ ...Q.insert, values: scoringParams(values) });
    const id = rows[0]?.id;
    if (id === undefined) throw new UserDeletedError('the scoring\'s customer was deleted after it was scored');
    return storedScoring(values, bigintCount(id));
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
    // The account's history is a named statement (planned once per connection); a customer's, see amountSelect.
    const name = customer === undefined ? `vigil_scorings_amounts_${currency === null ? 'n' : 'c'}` : undefined;
    const { rows } = await this.pool.query<AmountAggregateRow>({ ...(name !== undefined && { name }), text, values });
    return toAmountStats(rows[0]);
  }

  async history(accountId: string, query: ScoringHistoryQuery): Promise<ScoringHistory> {
    const { fraud, amounts } = query;
    if (fraud === null) {
      return { fraud: 0, amounts: amounts === null ? null : await this.amountStats(accountId, amounts.currency, amounts.since, amounts.customer) };
    }
    if (amounts === null) return { fraud: await this.countFraudSince(accountId, fraud.by, fraud.hash, fraud.since), amounts: null };
    // One statement, one round trip: the fraud count and the customer's amounts (planned with its values, as amountSelect says).
    const values: unknown[] = [accountId, fraud.hash, isoTimestamp(fraud.since)];
    const amountText = amountSelect(values, accountId, amounts.currency, amounts.since, amounts.customer, AMOUNT_HISTORY_ROWS);
    const { rows } = await this.pool.query<AmountAggregateRow & { fraud: string }>({
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
 * ms of the database's CPU a scoring against 0.1). So there the currency test is wrapped in IS TRUE, which no index
 * matches, and the statement is planned with its values on each call (0.1 ms) rather than once per connection: a
 * plan cached while the table was empty or its statistics young (no ANALYZE yet, or autovacuum off) is a guess
 * between equal costs that would stay until the next ANALYZE.
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
