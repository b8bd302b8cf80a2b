import { rowInteger } from './event-rows.ts';
import {
  BIN_WINDOW_AMOUNT_BELOW,
  IDENTITY_FIELDS,
  LABEL_TYPES,
  PAYMENT_OUTCOMES,
  type AmountStats,
  type Evidence,
  type IdentityField,
  type IdentityHashes,
  type LabelType,
  type LearningWrite,
  type ModelUpdate,
  type ModelWeight,
  type NewScoring,
  type OutcomeRecord,
  type PaymentOutcome,
  type StoredScoring,
  type VelocityBy,
  type VelocityQuery,
} from './learning-ports.ts';
import { isoTimestamp } from './values.ts';

/*
 * Row shapes, row → record mappers and input checks of the scoring and learning store (payment scorings,
 * outcomes, identity evidence, model), shared by SQLite and PostgreSQL: same column names, same checks, so
 * both accept and return exactly the same values. JSON columns cross as text (PostgreSQL selects them
 * `::text`); PostgreSQL hands BIGINT columns over as text, hence `number | string`.
 */

// ---------------------------------------------------------------------------------------------------------------
// Identity columns: SQL names come from these closed maps only, never from a caller's string.

/** Column of each identity hash, in IDENTITY_FIELDS order (payment_scorings and payment_outcomes alike). */
export const IDENTITY_COLUMNS = {
  customer: 'customer_hash',
  user: 'user_hash',
  email: 'email_hash',
  emailDomain: 'email_domain_hash',
  phone: 'phone_hash',
  ip: 'ip_hash',
  device: 'device_hash',
  card: 'card_hash',
} as const satisfies Record<IdentityField, string>;

export type IdentityColumn = (typeof IDENTITY_COLUMNS)[IdentityField];
export type DistinctField = IdentityField | 'location';

const DISTINCT_COLUMNS = { ...IDENTITY_COLUMNS, location: 'location_hash' } as const satisfies Record<DistinctField, string>;

/** `a, b, ...` of the eight identity columns. */
export const IDENTITY_COLUMN_LIST = IDENTITY_FIELDS.map((field) => IDENTITY_COLUMNS[field]).join(', ');

/** The column of an identity field; anything else (a caller's typo or an injection attempt) is refused. */
export function identityColumn(field: IdentityField): IdentityColumn {
  if (typeof field === 'string' && Object.hasOwn(IDENTITY_COLUMNS, field)) return IDENTITY_COLUMNS[field];
  throw new RangeError(`unknown identity field: ${JSON.stringify(field)}`);
}

/** Columns a velocity window may be keyed by: the identities, and the card's BIN (card testing across one BIN). */
const VELOCITY_BY_COLUMNS = { ...IDENTITY_COLUMNS, bin: 'card_bin', binAny: 'card_bin' } as const satisfies Record<VelocityBy, string>;
export type VelocityByColumn = (typeof VELOCITY_BY_COLUMNS)[VelocityBy];

/**
 * The extra condition of a window's rows (` AND ...`), '' for identity windows and `binAny`: a `bin` window holds
 * small amounts only (BIN_WINDOW_AMOUNT_BELOW). Both BIN windows read the (account, card_bin, scored_at) index.
 */
const VELOCITY_BY_FILTERS: Partial<Record<VelocityBy, string>> = { bin: ` AND amount < ${BIN_WINDOW_AMOUNT_BELOW}` };

/** The extra condition of the rows of a window keyed by `by`. */
export function velocityFilter(by: VelocityBy): string {
  return VELOCITY_BY_FILTERS[by] ?? '';
}

/** The column a velocity query is keyed by; anything else is refused. */
export function velocityByColumn(by: VelocityBy): VelocityByColumn {
  if (typeof by === 'string' && Object.hasOwn(VELOCITY_BY_COLUMNS, by)) return VELOCITY_BY_COLUMNS[by];
  throw new RangeError(`unknown identity field: ${JSON.stringify(by)}`);
}

/** The column counted by a `distinct` velocity query (an identity field or `location`). */
export function distinctColumn(field: DistinctField): (typeof DISTINCT_COLUMNS)[DistinctField] {
  if (typeof field === 'string' && Object.hasOwn(DISTINCT_COLUMNS, field)) return DISTINCT_COLUMNS[field];
  throw new RangeError(`unknown distinct field: ${JSON.stringify(field)}`);
}

function stringOrNull(value: unknown, what: string): string | null {
  if (value === null || typeof value === 'string') return value;
  throw new RangeError(`${what} must be a string or null`);
}

function requiredString(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  throw new RangeError(`${what} must be a string`);
}

/** The eight hashes in IDENTITY_FIELDS order, each checked. */
export function identityValues(identities: IdentityHashes): Array<string | null> {
  if (typeof identities !== 'object' || identities === null) throw new RangeError('identities must be an object');
  return IDENTITY_FIELDS.map((field) => stringOrNull(identities[field], `identity ${field}`));
}

/** The identity columns of a row (payment_scorings or payment_outcomes). */
export interface IdentityRow {
  customer_hash: string | null;
  user_hash: string | null;
  email_hash: string | null;
  email_domain_hash: string | null;
  phone_hash: string | null;
  ip_hash: string | null;
  device_hash: string | null;
  card_hash: string | null;
}

export function toIdentities(row: IdentityRow): IdentityHashes {
  return {
    customer: row.customer_hash,
    user: row.user_hash,
    email: row.email_hash,
    emailDomain: row.email_domain_hash,
    phone: row.phone_hash,
    ip: row.ip_hash,
    device: row.device_hash,
    card: row.card_hash,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Enumerations

const OUTCOMES: ReadonlySet<string> = new Set(PAYMENT_OUTCOMES);
const LABELS: ReadonlySet<string> = new Set(LABEL_TYPES);

export function paymentOutcome(value: string): PaymentOutcome {
  if (typeof value === 'string' && OUTCOMES.has(value)) return value as PaymentOutcome;
  throw new RangeError(`unknown payment outcome: ${JSON.stringify(value)}`);
}

export function paymentOutcomeOrNull(value: string | null): PaymentOutcome | null {
  return value === null ? null : paymentOutcome(value);
}

/** Outcomes that count as fraud whatever the reason; `declined` counts only when flagged (see scoringValues). */
export function isFraudOutcome(outcome: PaymentOutcome): boolean {
  return outcome === 'chargeback' || outcome === 'fraud_confirmed';
}

export function labelType(value: string): LabelType {
  if (typeof value === 'string' && LABELS.has(value)) return value as LabelType;
  throw new RangeError(`unknown label type: ${JSON.stringify(value)}`);
}

export function evidenceLabel(value: string): 'fraud' | 'legit' {
  if (value === 'fraud' || value === 'legit') return value;
  throw new RangeError(`unknown evidence label: ${JSON.stringify(value)}`);
}

export function outcomeStatus(value: string): 'applied' | 'pending' {
  if (value === 'applied' || value === 'pending') return value;
  throw new RangeError(`unknown outcome status: ${JSON.stringify(value)}`);
}

function boolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new RangeError(`${what} must be a boolean`);
}

function finite(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new RangeError(`${what} must be a finite number, got ${String(value)}`);
}

/** A boolean column: 0/1 from SQLite, boolean from PostgreSQL. */
export function rowBoolean(value: number | boolean): boolean {
  return value === true || value === 1;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON columns

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown, what: string): string[] {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new RangeError(`${what} must be an array of strings`);
}

function stringMap(value: unknown, what: string): Record<string, string> {
  if (isRecord(value) && Object.values(value).every((item) => typeof item === 'string')) return value as Record<string, string>;
  throw new RangeError(`${what} must be an object of strings`);
}

function numberMap(value: unknown, what: string): Record<string, number> {
  if (isRecord(value) && Object.values(value).every((item) => typeof item === 'number' && Number.isFinite(item))) return value as Record<string, number>;
  throw new RangeError(`${what} must be an object of finite numbers`);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`stored ${what} is not JSON`, { cause: error });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Payment scorings

/** Checked values of a new scoring, ready to bind (timestamp normalised, JSON as text, ln(1 + amount) computed). */
export interface ScoringValues {
  accountId: string;
  transactionId: string | null;
  scoredAt: string;
  /** The eight identity hashes in IDENTITY_FIELDS order. */
  identities: Array<string | null>;
  cardBin: string | null;
  cardLast4: string | null;
  location: string | null;
  amount: number | null;
  amountLog: number | null;
  currency: string | null;
  score: number;
  rules: string;
  features: string;
  ruleSet: string;
  dataVersions: string;
  outcome: PaymentOutcome | null;
}

export function scoringValues(scoring: NewScoring): ScoringValues {
  const amount = scoring.amount === null ? null : finite(scoring.amount, 'amount');
  if (amount !== null && amount < 0) throw new RangeError(`amount must not be negative, got ${amount}`);
  return {
    accountId: requiredString(scoring.accountId, 'accountId'),
    transactionId: stringOrNull(scoring.transactionId, 'transactionId'),
    scoredAt: isoTimestamp(scoring.scoredAt),
    identities: identityValues(scoring.identities),
    cardBin: stringOrNull(scoring.cardBin, 'cardBin'),
    cardLast4: stringOrNull(scoring.cardLast4, 'cardLast4'),
    location: stringOrNull(scoring.location, 'location'),
    amount,
    amountLog: amount === null ? null : Math.log1p(amount),
    currency: stringOrNull(scoring.currency, 'currency'),
    score: finite(scoring.score, 'score'),
    rules: JSON.stringify(stringList(scoring.rules, 'rules')),
    features: JSON.stringify(stringList(scoring.features, 'features')),
    ruleSet: requiredString(scoring.ruleSet, 'ruleSet'),
    dataVersions: JSON.stringify(stringMap(scoring.dataVersions, 'dataVersions')),
    outcome: paymentOutcomeOrNull(scoring.outcome),
  };
}

/** The positional parameters of the scoring insert, in SCORING_INSERT_COLUMNS order. */
export function scoringParams(values: ScoringValues): unknown[] {
  return [
    values.accountId,
    values.transactionId,
    values.scoredAt,
    ...values.identities,
    values.cardBin,
    values.cardLast4,
    values.location,
    values.amount,
    values.amountLog,
    values.currency,
    values.score,
    values.rules,
    values.features,
    values.ruleSet,
    values.dataVersions,
    values.outcome,
  ];
}

/**
 * Columns bound by the insert (outcome_fraud is derived in SQL: see `outcomeFraudSql`).
 * Keep in step with scoringParams.
 */
export const SCORING_INSERT_COLUMNS = [
  'account_id',
  'transaction_id',
  'scored_at',
  ...IDENTITY_FIELDS.map((field) => IDENTITY_COLUMNS[field]),
  'card_bin',
  'card_last4',
  'location_hash',
  'amount',
  'amount_log',
  'currency',
  'score',
  'rules',
  'features',
  'rule_set',
  'data_versions',
  'outcome',
] as const;

/**
 * Whether an outcome already known at scoring time counts as fraud. The outcome comes from the pending
 * payment feedback of the transaction, whose record carries the fraud flag (a `declined` counts only when
 * flagged): when that record holds the same outcome its flag is used, otherwise chargeback and
 * fraud_confirmed count as fraud. `p(name)` renders the placeholder of a parameter; `yes`/`no` the booleans.
 */
export function outcomeFraudSql(p: (name: 'account' | 'transaction' | 'outcome') => string, yes: string, no: string): string {
  return `CASE
    WHEN ${p('outcome')} IS NULL THEN ${no}
    ELSE COALESCE(
      (SELECT o.fraud FROM payment_outcomes o
       WHERE o.account_id = ${p('account')} AND o.transaction_id = ${p('transaction')} AND o.outcome = ${p('outcome')}),
      CASE WHEN ${p('outcome')} IN ('chargeback', 'fraud_confirmed') THEN ${yes} ELSE ${no} END)
  END`;
}

/** The scoring as it reads back, from the values written and the id allocated. */
export function storedScoring(values: ScoringValues, id: number): StoredScoring {
  const [customer, user, email, emailDomain, phone, ip, device, card] = values.identities;
  return {
    id,
    accountId: values.accountId,
    transactionId: values.transactionId,
    scoredAt: values.scoredAt,
    identities: {
      customer: customer ?? null,
      user: user ?? null,
      email: email ?? null,
      emailDomain: emailDomain ?? null,
      phone: phone ?? null,
      ip: ip ?? null,
      device: device ?? null,
      card: card ?? null,
    },
    cardBin: values.cardBin,
    cardLast4: values.cardLast4,
    location: values.location,
    amount: values.amount,
    currency: values.currency,
    score: values.score,
    rules: decodeScoringList(values.rules, 'rules'),
    features: decodeScoringList(values.features, 'features'),
    ruleSet: values.ruleSet,
    dataVersions: stringMap(parseJson(values.dataVersions, 'dataVersions'), 'stored dataVersions'),
    outcome: values.outcome,
  };
}

function decodeScoringList(text: string, what: string): string[] {
  return stringList(parseJson(text, what), `stored ${what}`);
}

export interface ScoringRow extends IdentityRow {
  id: number | string;
  account_id: string;
  transaction_id: string | null;
  scored_at: string;
  card_bin: string | null;
  card_last4: string | null;
  location_hash: string | null;
  amount: number | null;
  currency: string | null;
  score: number;
  /** JSON text. */
  rules: string;
  features: string;
  rule_set: string;
  data_versions: string;
  outcome: string | null;
}

export function toScoring(row: ScoringRow): StoredScoring {
  return {
    id: rowInteger(row.id),
    accountId: row.account_id,
    transactionId: row.transaction_id,
    scoredAt: row.scored_at,
    identities: toIdentities(row),
    cardBin: row.card_bin,
    cardLast4: row.card_last4,
    location: row.location_hash,
    amount: row.amount,
    currency: row.currency,
    score: row.score,
    rules: decodeScoringList(row.rules, 'rules'),
    features: decodeScoringList(row.features, 'features'),
    ruleSet: row.rule_set,
    dataVersions: stringMap(parseJson(row.data_versions, 'dataVersions'), 'stored dataVersions'),
    outcome: paymentOutcomeOrNull(row.outcome),
  };
}

/** A velocity query with its columns resolved from the closed maps and its timestamp normalised. */
export interface CheckedVelocity {
  byColumn: VelocityByColumn;
  /** The extra condition of its rows (velocityFilter), '' for none. */
  filter: string;
  hash: string;
  since: string;
  distinctColumn: string | null;
}

export function velocityQueries(queries: readonly VelocityQuery[]): CheckedVelocity[] {
  // A scoring asks about 20 windows that start at 6 different times: each time is checked once.
  const times = new Map<string, string>();
  return queries.map((query) => {
    let since = times.get(query.since);
    if (since === undefined) {
      since = isoTimestamp(query.since);
      times.set(query.since, since);
    }
    return {
      byColumn: velocityByColumn(query.by),
      filter: velocityFilter(query.by),
      hash: requiredString(query.hash, 'velocity hash'),
      since,
      distinctColumn: query.distinct === undefined ? null : distinctColumn(query.distinct),
    };
  });
}

/**
 * The most rows of one identity a velocity read looks at, newest first. A scoring's cost must not grow with an
 * identity's history (a card with 5,000 earlier customers was scanned whole, distinct counts included); every
 * threshold and grade of the payment rules is below 50, so a window with at most this many rows is counted exactly,
 * and a longer one (a card used over 200 times in 30 days) answers from its newest rows: its counts are then lower bounds,
 * at least 200 for plain counts, far above every threshold.
 */
export const VELOCITY_ROWS = 200;

/** The columns a group's (or a query's) aggregates read from the bounded rows: scored_at and the distinct columns. */
export function velocityColumns(queries: ReadonlyArray<Pick<CheckedVelocity, 'distinctColumn'>>): string {
  return ['scored_at', ...new Set(queries.flatMap((q) => (q.distinctColumn === null ? [] : [q.distinctColumn])))].join(', ');
}

/** The SELECT expression of one velocity query over the rows it filters. */
export function velocityAggregate(query: CheckedVelocity): string {
  return query.distinctColumn === null ? 'count(*)' : `count(DISTINCT ${query.distinctColumn})`;
}

/** Velocity queries about the same identity (column and hash), answered by one scan of its index range. */
export interface VelocityGroup {
  byColumn: VelocityByColumn;
  /** The extra condition of its rows (velocityFilter): windows of one column with other filters are other groups. */
  filter: string;
  hash: string;
  /** The earliest `since` of the group: the range the statement reads. */
  since: string;
  /** Positions in the caller's list and the queries, in order. */
  members: Array<{ index: number; query: CheckedVelocity }>;
}

export function velocityGroups(queries: readonly CheckedVelocity[]): VelocityGroup[] {
  const groups = new Map<string, VelocityGroup>();
  queries.forEach((query, index) => {
    const key = `${query.byColumn}\u0000${query.filter}\u0000${query.hash}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { byColumn: query.byColumn, filter: query.filter, hash: query.hash, since: query.since, members: [{ index, query }] });
    else {
      group.members.push({ index, query });
      if (query.since < group.since) group.since = query.since;
    }
  });
  return [...groups.values()];
}

/**
 * The SELECT list of a group: one conditional aggregate per query (`?` placeholders, bound with each
 * query's since in order), so every window of one identity comes from one statement.
 */
export function velocityGroupSelect(group: VelocityGroup): string {
  return group.members
    .map(({ query }, k) =>
      query.distinctColumn === null
        ? `count(CASE WHEN scored_at >= ? THEN 1 END) AS n${k}`
        : `count(DISTINCT CASE WHEN scored_at >= ? THEN ${query.distinctColumn} END) AS n${k}`)
    .join(', ');
}

/** Raw aggregates of amountStats: count, avg(ln(1 + amount)), avg(ln(1 + amount)²), max(amount). */
export interface AmountAggregateRow {
  n: number | string;
  mean: number | null;
  mean_sq: number | null;
  max: number | null;
}

/** The row limit of an amount history: a positive integer (a bad value is a programming error). */
export function historyRows(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`amount history rows must be a positive integer, got ${String(limit)}`);
  return limit;
}

/**
 * Mean and population standard deviation from avg(x) and avg(x²). The difference of two close numbers
 * leaves rounding noise when every x is the same; a variance below that noise (relative to avg(x²)) is 0.
 */
export function toAmountStats(row: AmountAggregateRow | undefined): AmountStats {
  const count = row === undefined ? 0 : rowInteger(row.n);
  if (row === undefined || count === 0 || row.mean === null || row.mean_sq === null || row.max === null) return { count: 0, meanLog: 0, sdLog: 0, max: 0 };
  const mean = Number(row.mean);
  const meanSq = Number(row.mean_sq);
  const variance = meanSq - mean * mean;
  const sdLog = variance <= meanSq * 1e-12 ? 0 : Math.sqrt(variance);
  return { count, meanLog: mean, sdLog, max: Number(row.max) };
}

// ---------------------------------------------------------------------------------------------------------------
// Payment outcomes

/** A checked outcome record, its identity hashes in IDENTITY_FIELDS order (the columns' order). */
export interface OutcomeValues extends Omit<OutcomeRecord, 'identities'> {
  identities: Array<string | null>;
}

export function outcomeValues(record: OutcomeRecord): OutcomeValues {
  return {
    accountId: requiredString(record.accountId, 'accountId'),
    transactionId: requiredString(record.transactionId, 'transactionId'),
    outcome: paymentOutcome(record.outcome),
    fraud: boolean(record.fraud, 'fraud'),
    reason: stringOrNull(record.reason, 'reason'),
    occurredAt: isoTimestamp(record.occurredAt),
    status: outcomeStatus(record.status),
    identities: identityValues(record.identities),
    updatedAt: isoTimestamp(record.updatedAt),
  };
}

export const OUTCOME_COLUMNS = ['account_id', 'transaction_id', 'outcome', 'fraud', 'reason', 'occurred_at', 'status', ...IDENTITY_FIELDS.map((f) => IDENTITY_COLUMNS[f]), 'updated_at'] as const;

/** Positional parameters in OUTCOME_COLUMNS order; `bool` renders the fraud flag for the backend. */
export function outcomeParams(values: OutcomeValues, bool: (value: boolean) => unknown): unknown[] {
  return [
    values.accountId,
    values.transactionId,
    values.outcome,
    bool(values.fraud),
    values.reason,
    values.occurredAt,
    values.status,
    ...values.identities,
    values.updatedAt,
  ];
}

export interface OutcomeRow extends IdentityRow {
  account_id: string;
  transaction_id: string;
  outcome: string;
  fraud: number | boolean;
  reason: string | null;
  occurred_at: string;
  status: string;
  updated_at: string;
}

export function toOutcome(row: OutcomeRow): OutcomeRecord {
  return {
    accountId: row.account_id,
    transactionId: row.transaction_id,
    outcome: paymentOutcome(row.outcome),
    fraud: rowBoolean(row.fraud),
    reason: row.reason,
    occurredAt: row.occurred_at,
    status: outcomeStatus(row.status),
    identities: toIdentities(row),
    updatedAt: row.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Identity evidence

export const EVIDENCE_COLUMNS = ['account_id', 'type', 'value_hash', 'origin', 'label', 'masked', 'reason', 'source', 'occurred_at', 'updated_at'] as const;

export function evidenceParams(evidence: Evidence): unknown[] {
  return [
    requiredString(evidence.accountId, 'accountId'),
    labelType(evidence.type),
    requiredString(evidence.valueHash, 'valueHash'),
    requiredString(evidence.origin, 'origin'),
    evidenceLabel(evidence.label),
    requiredString(evidence.masked, 'masked'),
    stringOrNull(evidence.reason, 'reason'),
    stringOrNull(evidence.source, 'source'),
    isoTimestamp(evidence.occurredAt),
    isoTimestamp(evidence.updatedAt),
  ];
}

export interface EvidenceRow {
  account_id: string;
  type: string;
  value_hash: string;
  origin: string;
  label: string;
  masked: string;
  reason: string | null;
  source: string | null;
  occurred_at: string;
  updated_at: string;
}

export function toEvidence(row: EvidenceRow): Evidence {
  return {
    accountId: row.account_id,
    type: labelType(row.type),
    valueHash: row.value_hash,
    origin: row.origin,
    label: evidenceLabel(row.label),
    masked: row.masked,
    reason: row.reason,
    source: row.source,
    occurredAt: row.occurred_at,
    updatedAt: row.updated_at,
  };
}

/** The (type, hash) pairs asked for, checked and without repeats (a repeat would return its rows twice). */
export function identityPairs(identities: ReadonlyArray<{ type: LabelType; valueHash: string }>): { types: LabelType[]; hashes: string[] } {
  const seen = new Set<string>();
  const types: LabelType[] = [];
  const hashes: string[] = [];
  for (const identity of identities) {
    const type = labelType(identity.type);
    const hash = requiredString(identity.valueHash, 'valueHash');
    const key = JSON.stringify([type, hash]);
    if (seen.has(key)) continue;
    seen.add(key);
    types.push(type);
    hashes.push(hash);
  }
  return { types, hashes };
}

// ---------------------------------------------------------------------------------------------------------------
// Model

/** Checked weights, one per feature (a repeated feature keeps its last value, as sequential upserts would). */
export function modelWeights(weights: readonly ModelWeight[]): ModelWeight[] {
  const byFeature = new Map<string, ModelWeight>();
  for (const weight of weights) {
    const feature = requiredString(weight.feature, 'feature');
    byFeature.delete(feature);
    byFeature.set(feature, { feature, z: finite(weight.z, `z of ${feature}`), n: finite(weight.n, `n of ${feature}`) });
  }
  return [...byFeature.values()];
}

/** The features asked for, checked and without repeats. */
export function featureList(features: readonly string[]): string[] {
  return [...new Set(features.map((feature) => requiredString(feature, 'feature')))];
}

export interface ModelUpdateValues {
  accountId: string;
  at: string;
  origin: string;
  label: 0 | 1;
  before: number;
  /** JSON text of the weights object. */
  weights: string;
}

export function modelUpdateValues(accountId: string, history: ModelUpdate): ModelUpdateValues {
  if (history.accountId !== accountId) throw new RangeError(`history account ${JSON.stringify(history.accountId)} differs from ${JSON.stringify(accountId)}`);
  if (history.label !== 0 && history.label !== 1) throw new RangeError(`model label must be 0 or 1, got ${String(history.label)}`);
  return {
    accountId: requiredString(accountId, 'accountId'),
    at: isoTimestamp(history.at),
    origin: requiredString(history.origin, 'origin'),
    label: history.label,
    before: finite(history.before, 'before'),
    weights: JSON.stringify(numberMap(history.weights, 'history weights')),
  };
}

export interface ModelWeightRow {
  feature: string;
  z: number;
  n: number;
}

export function toModelWeight(row: ModelWeightRow): ModelWeight {
  return { feature: row.feature, z: row.z, n: row.n };
}

export interface ModelHistoryRow {
  account_id: string;
  at: string;
  origin: string;
  label: number;
  before: number;
  /** JSON text. */
  weights: string;
}

export function toModelUpdate(row: ModelHistoryRow): ModelUpdate {
  if (row.label !== 0 && row.label !== 1) throw new Error(`unexpected model label in database: ${row.label}`);
  return {
    accountId: row.account_id,
    at: row.at,
    origin: row.origin,
    label: row.label,
    before: row.before,
    weights: numberMap(parseJson(row.weights, 'model weights'), 'stored history weights'),
  };
}

export const MAX_HISTORY_LIMIT = 1000;

/** History page size: clamped to 1..1000; a non-number is refused. */
export function historyLimit(limit: number): number {
  if (typeof limit !== 'number' || Number.isNaN(limit)) throw new RangeError(`history limit must be a number, got ${String(limit)}`);
  return Math.min(MAX_HISTORY_LIMIT, Math.max(1, Math.trunc(limit)));
}

// ---------------------------------------------------------------------------------------------------------------
// Feedback batches (LearningWriter)

/** One write of a batch, checked and in the shape the backends bind (same checks as the single-operation methods). */
export type CheckedLearningWrite =
  | { kind: 'outcome'; values: OutcomeValues }
  | { kind: 'scoringOutcome'; accountId: string; transactionId: string; outcome: PaymentOutcome; fraud: boolean }
  /** Positional parameters in EVIDENCE_COLUMNS order. */
  | { kind: 'evidence'; params: unknown[] }
  | { kind: 'dropEvidenceOrigin'; accountId: string; origin: string }
  | { kind: 'model'; accountId: string; weights: ModelWeight[]; history: ModelUpdateValues };

function learningWrite(write: LearningWrite): CheckedLearningWrite {
  switch (write.kind) {
    case 'outcome':
      return { kind: 'outcome', values: outcomeValues(write.record) };
    case 'scoringOutcome':
      return {
        kind: 'scoringOutcome',
        accountId: requiredString(write.accountId, 'accountId'),
        transactionId: requiredString(write.transactionId, 'transactionId'),
        outcome: paymentOutcome(write.outcome),
        fraud: boolean(write.fraud, 'fraud'),
      };
    case 'evidence':
      return { kind: 'evidence', params: evidenceParams(write.evidence) };
    case 'dropEvidenceOrigin':
      return { kind: 'dropEvidenceOrigin', accountId: requiredString(write.accountId, 'accountId'), origin: requiredString(write.origin, 'origin') };
    case 'model':
      return { kind: 'model', accountId: requiredString(write.accountId, 'accountId'), weights: modelWeights(write.weights), history: modelUpdateValues(write.accountId, write.history) };
    default:
      throw new RangeError(`unknown learning write kind: ${JSON.stringify((write as { kind?: unknown }).kind)}`);
  }
}

/**
 * Checks every write of a batch before anything is written: the first bad one refuses the whole batch, its
 * message prefixed with its position (`learning write 3 (evidence): unknown label type: ...`).
 */
export function learningWrites(writes: readonly LearningWrite[]): CheckedLearningWrite[] {
  const list: unknown = writes;
  if (!Array.isArray(list)) throw new RangeError('learning writes must be an array');
  return writes.map((write, i) => {
    try {
      if (typeof write !== 'object' || write === null) throw new RangeError('a learning write must be an object');
      return learningWrite(write);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new RangeError(`learning write ${i} (${String((write as { kind?: unknown } | null)?.kind)}): ${message}`, { cause: error });
    }
  });
}
