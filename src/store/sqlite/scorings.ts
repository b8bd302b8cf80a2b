import type { Database } from 'better-sqlite3';
import { UserDeletedError } from '../ports.ts';
import { AMOUNT_HISTORY_ROWS, type AmountStats, type IdentityField, type NewScoring, type PaymentOutcome, type ScoringHistory, type ScoringHistoryQuery, type ScoringsPort, type StoredScoring, type VelocityQuery } from '../learning-ports.ts';
import {
  type AmountAggregateRow,
  type VelocityGroup,
  type ScoringRow,
  type ScoringValues,
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
  velocityGroups,
  velocityGroupSelect,
  velocityQueries,
  VELOCITY_ROWS,
  velocityColumns,
} from '../learning-rows.ts';
import { type ReadQuery, type SnapshotReader, StatementCache } from './read-worker.ts';
import { ScoringBuffer, type ScoringBufferOptions, scoringKey } from './scoring-buffer.ts';
import { isoTimestamp, settle } from './values.ts';

export const SCORING_COLUMNS =
  `id, account_id, transaction_id, scored_at, ${IDENTITY_COLUMN_LIST}, card_bin, card_last4, location_hash, ` +
  'amount, currency, score, rules, features, rule_set, data_versions, outcome';

/** setOutcome (also run by the batch writer, learning-writer.ts): outcome, fraud 0/1, account, transaction id. */
export const SET_OUTCOME_SQL = 'UPDATE payment_scorings SET outcome = ?, outcome_fraud = ? WHERE account_id = ? AND transaction_id = ?';

/** Named parameters of the insert, one per column (`@account_id`...). */
function insertBindings(values: ScoringValues): Record<string, unknown> {
  const params = scoringParams(values);
  return Object.fromEntries(SCORING_INSERT_COLUMNS.map((column, i) => [column, params[i]]));
}

const OUTCOME_NAMES = { account: '@account_id', transaction: '@transaction_id', outcome: '@outcome' } as const;

/** The insert of one scoring row, named parameters (insertBindings); the buffer's writes run it on either connection. */
const INSERT_ROW_SQL = `
        INSERT INTO payment_scorings (${SCORING_INSERT_COLUMNS.join(', ')}, outcome_fraud)
        VALUES (${SCORING_INSERT_COLUMNS.map((c) => `@${c}`).join(', ')}, ${outcomeFraudSql((name) => OUTCOME_NAMES[name], '1', '0')})`;

function prepare(db: Database) {
  return {
    insert: db.prepare<Record<string, unknown>, number>(`${INSERT_ROW_SQL}\n        RETURNING id`).pluck(),
    // The buffer's writes (scoring-buffer.ts): no id read back, so SQLite runs the statement to its end.
    insertRow: db.prepare<Record<string, unknown>>(INSERT_ROW_SQL),
    byTransaction: db.prepare<[string, string], ScoringRow>(
      `SELECT ${SCORING_COLUMNS} FROM payment_scorings WHERE account_id = ? AND transaction_id = ? ORDER BY id`,
    ),
    setOutcome: db.prepare<[string, number, string, string]>(SET_OUTCOME_SQL),
  };
}

type Statements = ReturnType<typeof prepare>;

/** The SQL of a group's read by its shape (column, then each member's distinct column): a few dozen shapes. */
const velocityTexts = new Map<string, string>();

/** The read of one identity's windows (`this` is the account id: a module function, no closure per scoring). */
function velocityRead(this: string, group: VelocityGroup): ReadQuery {
  let shape = `${group.byColumn}|${group.filter}`;
  for (const m of group.members) shape += `|${m.query.distinctColumn ?? ''}`;
  let sql = velocityTexts.get(shape);
  if (sql === undefined) {
    // The newest VELOCITY_ROWS rows of the identity's range, read backwards along its (account, identity, scored_at) index.
    const rows =
      `SELECT ${velocityColumns(group.members.map((m) => m.query))} FROM payment_scorings ` +
      `WHERE account_id = ? AND ${group.byColumn} = ? AND scored_at >= ?${group.filter} ORDER BY scored_at DESC LIMIT ${VELOCITY_ROWS}`;
    sql = `SELECT ${velocityGroupSelect(group)} FROM (${rows})`;
    if (velocityTexts.size >= 1000) velocityTexts.clear();
    velocityTexts.set(shape, sql);
  }
  return { sql, params: [...group.members.map(sinceOf), this, group.hash, group.since] };
}

function sinceOf(member: VelocityGroup['members'][number]): string {
  return member.query.since;
}

/**
 * Scored payments on SQLite. Statements whose column depends on the question (velocity, identity lookups,
 * amount statistics) are built from the closed column maps of learning-rows.ts and cached per shape.
 */
export class SqliteScorings implements ScoringsPort {
  #statements: Statements | undefined;

  /** Statements of SQL texts built from closed maps only (identity lookups and deletions). */
  readonly #cached: StatementCache;

  /** Scorings added and not written yet (`add`); every read here writes them first when it could see them. */
  readonly #buffer: ScoringBuffer;

  /** Inserts rows given as their named parameters (insertBindings), in one IMMEDIATE transaction. */
  readonly #insertBound: (bound: ReadonlyArray<Record<string, unknown>>) => void;

  /**
   * `reader` runs the reads of a scoring's history (velocity, amount statistics, fraud counts): for a file
   * store this connection, or a worker thread's while the event loop is saturated (read-worker.ts).
   */
  constructor(
    private readonly db: Database,
    private readonly reader: SnapshotReader,
    /** Whether one of these keyed hashes of the account was deleted at or after `since` (this process's deletions). */
    private readonly deletedSince: (accountId: string, hashes: ReadonlyArray<string | null>, since: string) => boolean = () => false,
    failures: Pick<ScoringBufferOptions, 'onError' | 'onDropped'> = { onError: reportWriteError, onDropped: reportDropped },
  ) {
    this.#cached = new StatementCache(db);
    const rows = db.transaction((bound: ReadonlyArray<Record<string, unknown>>) => {
      const insert = this.statements.insertRow;
      for (const values of bound) insert.run(values);
    });
    this.#insertBound = (bound) => rows.immediate(bound);
    this.#buffer = new ScoringBuffer({ write: (batch, here) => this.#write(batch, here), ...failures });
  }

  /**
   * A group of buffered rows: handed to the reader's connection when it takes them (the read worker while this
   * thread is saturated: the reads after them run there too), else written here once the rows it was given before
   * are settled (so ids and commits keep their order).
   */
  #write(batch: readonly ScoringValues[], here: boolean): void {
    // Bound once, whichever connection writes them.
    const bound = batch.map(insertBindings);
    if (!here && this.reader.offerWrite?.({
      sql: INSERT_ROW_SQL,
      rows: bound,
      settled: (unwritten, err) => this.#buffer.giveBack(batch.slice(unwritten), err),
      refused: (index, err) => this.#buffer.refused(batch[index]!, err),
    })) return;
    this.reader.settleWrites?.();
    this.#insertBound(bound);
  }

  /** Every scoring stored so far is in this connection's view: the reader's writes settled, the buffer written here. */
  #commitAll(): void {
    this.reader.settleWrites?.();
    this.#buffer.flush(true);
  }

  /**
   * Writes the buffered scorings now. Everything else on this connection that reads or changes the scorings
   * table and does not go through this port (the console's payment pages, feedback batches, card re-keying)
   * calls it first.
   */
  flushSync(): void {
    this.#commitAll();
  }

  /** Writes the buffered scorings (on the worker while it takes them), and resolves once all are written. */
  async flush(): Promise<void> {
    this.#buffer.flush();
    await this.reader.writesSettled?.();
    // Rows the worker handed back (a failure that may pass): here, now, or the failure.
    this.#buffer.flush(true);
  }

  /** Stops the buffer's timer and writes what it holds (the store is closing). */
  close(): void {
    this.#buffer.stop();
    this.#commitAll();
  }

  /** Writes the buffer first when it holds a row of (column, value) of the account. */
  #flushFor(accountId: string, column: string, value: string): void {
    if (this.#buffer.holds(scoringKey(accountId, column, value))) this.#buffer.flush();
  }

  /** Checked now (a bad value throws here); written with others within a few milliseconds (scoring-buffer.ts). */
  add(scoring: NewScoring): Promise<void> {
    return settle(() => {
      this.#refuseDeleted(scoring);
      const values = scoringValues(scoring);
      // A scoring with its outcome already known is written at once: fraud counts read only written rows.
      if (values.outcome !== null) {
        this.#commitAll();
        this.#insertBound([insertBindings(values)]);
      } else this.#buffer.add(values);
    });
  }

  /**
   * A scoring made before its customer's deletion and stored after it (the deletion ran meanwhile) is dropped. A
   * scoring held in the buffer when a deletion starts is written by the deletion's flush and then deleted with the rest.
   */
  #refuseDeleted(scoring: NewScoring): void {
    const { customer, user, email, phone } = scoring.identities;
    if (this.deletedSince(scoring.accountId, [customer, user, email, phone], scoring.scoredAt)) throw new UserDeletedError('the scoring\'s customer was deleted after it was scored');
  }

  private get statements(): Statements {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  insert(scoring: NewScoring): Promise<StoredScoring> {
    return settle(() => {
      this.#refuseDeleted(scoring);
      const values = scoringValues(scoring);
      // Ids follow the order scorings were stored in.
      this.#commitAll();
      const id = this.statements.insert.get(insertBindings(values));
      if (id === undefined) throw new Error('scoring insert did not return an id');
      return storedScoring(values, id);
    });
  }

  byTransaction(accountId: string, transactionId: string): Promise<StoredScoring[]> {
    return settle(() => {
      this.#commitAll();
      return this.statements.byTransaction.all(accountId, transactionId).map(toScoring);
    });
  }

  async velocity(accountId: string, queries: readonly VelocityQuery[]): Promise<number[]> {
    const checked = velocityQueries(queries);
    if (checked.length === 0) return [];
    // Exact windows: a buffered scoring of any identity asked for is written before the read.
    if (this.#buffer.size > 0) for (const q of checked) this.#flushFor(accountId, q.byColumn, q.hash);
    // One statement per identity: its 1-hour, 1-day, 7-day and 30-day windows in one index range scan,
    // all of them from one snapshot.
    const groups = velocityGroups(checked);
    const rows = await this.reader.firstRows<Record<string, number>>(groups.map(velocityRead, accountId));
    const out = new Array<number>(checked.length).fill(0);
    groups.forEach((group, g) => {
      const row = rows[g];
      if (row === undefined) throw new Error('velocity query returned no row');
      group.members.forEach((m, k) => {
        out[m.index] = Number(row[`n${k}`] ?? 0);
      });
    });
    return out;
  }

  async countFraudSince(accountId: string, by: IdentityField, hash: string, since: string): Promise<number> {
    this.#flushFor(accountId, identityColumn(by), hash);
    const [row] = await this.reader.firstRows<{ n: number }>([fraudRead(accountId, by, hash, since)]);
    if (row === undefined) throw new Error('count query returned no row');
    return row.n;
  }

  async amountStats(accountId: string, currency: string | null, since: string, customer?: string, limit = AMOUNT_HISTORY_ROWS): Promise<AmountStats> {
    // A customer's history: written first when the buffer holds one of theirs; the account's: whenever it holds any.
    if (customer === undefined) this.#buffer.flush();
    else this.#flushFor(accountId, 'customer_hash', customer);
    const [row] = await this.reader.firstRows<AmountAggregateRow>([amountRead(accountId, currency, since, customer, limit)]);
    return toAmountStats(row);
  }

  async history(accountId: string, query: ScoringHistoryQuery): Promise<ScoringHistory> {
    const { fraud, amounts } = query;
    const reads: ReadQuery[] = [];
    if (fraud !== null) {
      this.#flushFor(accountId, identityColumn(fraud.by), fraud.hash);
      reads.push(fraudRead(accountId, fraud.by, fraud.hash, fraud.since));
    }
    if (amounts !== null) {
      this.#flushFor(accountId, 'customer_hash', amounts.customer);
      reads.push(amountRead(accountId, amounts.currency, amounts.since, amounts.customer, AMOUNT_HISTORY_ROWS));
    }
    if (reads.length === 0) return { fraud: 0, amounts: null };
    // One call: one snapshot, and one message when the reads run on the worker.
    const rows = await this.reader.firstRows<Record<string, unknown>>(reads);
    const fraudRow = fraud === null ? undefined : rows[0];
    if (fraud !== null && fraudRow === undefined) throw new Error('count query returned no row');
    return {
      fraud: fraudRow === undefined ? 0 : Number(fraudRow.n),
      amounts: amounts === null ? null : toAmountStats(rows[reads.length - 1] as AmountAggregateRow | undefined),
    };
  }

  setOutcome(accountId: string, transactionId: string, outcome: PaymentOutcome, fraud: boolean): Promise<number> {
    return settle(() => {
      const checked = paymentOutcome(outcome);
      if (typeof fraud !== 'boolean') throw new RangeError('fraud must be a boolean');
      this.#commitAll();
      return this.statements.setOutcome.run(checked, fraud ? 1 : 0, accountId, transactionId).changes;
    });
  }

  findByIdentity(accountId: string, field: IdentityField, hash: string): Promise<StoredScoring[]> {
    return settle(() => {
      this.#commitAll();
      const sql = `SELECT ${SCORING_COLUMNS} FROM payment_scorings WHERE account_id = ? AND ${identityColumn(field)} = ? ORDER BY id`;
      return this.#cached.get<ScoringRow>(sql).all(accountId, hash).map(toScoring);
    });
  }

  deleteByIdentity(accountId: string, field: IdentityField, hash: string): Promise<number> {
    return settle(() => {
      this.#commitAll();
      return this.#cached.get(`DELETE FROM payment_scorings WHERE account_id = ? AND ${identityColumn(field)} = ?`).run(accountId, hash).changes;
    });
  }
}

/** countFraudSince's read. */
function fraudRead(accountId: string, by: IdentityField, hash: string, since: string): ReadQuery {
  const sql = `SELECT count(DISTINCT coalesce(transaction_id, 'scoring:' || id)) AS n FROM payment_scorings WHERE account_id = ? AND ${identityColumn(by)} = ? AND scored_at >= ? AND outcome_fraud = 1`;
  return { sql, params: [accountId, hash, isoTimestamp(since)] };
}

/** amountStats's read: the newest `limit` amounts of the account, or of one customer of it, in `currency` since `since`. */
function amountRead(accountId: string, currency: string | null, since: string, customer: string | undefined, limit: number): ReadQuery {
  const params: unknown[] = [accountId];
  const where = ['account_id = ?', 'amount IS NOT NULL'];
  // One customer's history is a few rows of the customer index; the unary + keeps SQLite from
  // choosing the (account, currency) index instead, which would scan the whole account.
  const currencyColumn = customer === undefined ? 'currency' : '+currency';
  if (currency === null) where.push(`${currencyColumn} IS NULL`);
  else {
    where.push(`${currencyColumn} = ?`);
    params.push(currency);
  }
  where.push('scored_at >= ?');
  params.push(isoTimestamp(since));
  if (customer !== undefined) {
    where.push('customer_hash = ?');
    params.push(customer);
  }
  // The newest rows first along the (account, currency or customer, scored_at) index, at most `limit` of them. The
  // limit (a checked integer) is part of the text: SQLite 3.53 prepares a statement with a bound LIMIT again at every
  // run (6 µs for the read, 25-40 µs for the preparing), and this one runs in every payment scoring.
  const sql = `
    SELECT count(*) AS n, avg(amount_log) AS mean, avg(amount_log * amount_log) AS mean_sq, max(amount) AS max
    FROM (SELECT amount, amount_log FROM payment_scorings WHERE ${where.join(' AND ')} ORDER BY scored_at DESC LIMIT ${historyRows(limit)})`;
  return { sql, params };
}

function reportWriteError(err: unknown, rows: number): void {
  process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), msg: `${rows} buffered payment scorings could not be written; will retry`, err: String(err) })}\n`);
}

function reportDropped(err: unknown, row: ScoringValues): void {
  process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), msg: 'a payment scoring cannot be written; dropped', accountId: row.accountId, transactionId: row.transactionId, err: String(err) })}\n`);
}
