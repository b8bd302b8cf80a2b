/**
 * Store ports of payment scoring and learning (spec "Payment result", "States and transitions"):
 * scored transactions, payment outcomes, identity evidence (labels) and the per-account model.
 *
 * Privacy: every identity crosses these ports as a keyed hash (HMAC-SHA256 under SECRET_KEY, hex),
 * never as the value. A card is kept as BIN + last four + keyed hash of the full number only.
 * Dates are ISO-8601 strings (UTC), as in ports.ts.
 */

/** The identities of a transaction, each a keyed hash (null when the transaction did not carry it). */
export interface IdentityHashes {
  /** `customer_id` of the payment data. */
  customer: string | null;
  /** The `userID` option of the call (deletion by userID finds the transaction through it). */
  user: string | null;
  email: string | null;
  emailDomain: string | null;
  phone: string | null;
  ip: string | null;
  device: string | null;
  /** Keyed hash of the full card number (or of the digits sent, when only a BIN was sent). */
  card: string | null;
}

export const IDENTITY_FIELDS = ['customer', 'user', 'email', 'emailDomain', 'phone', 'ip', 'device', 'card'] as const satisfies ReadonlyArray<keyof IdentityHashes>;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export const PAYMENT_OUTCOMES = ['approved', 'declined', 'chargeback', 'refunded', 'fraud_confirmed', 'legit_confirmed'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** One scored payment, as stored (live calls only). */
export interface NewScoring {
  accountId: string;
  /** `transaction_id` as sent, as text; null when the call had none. */
  transactionId: string | null;
  scoredAt: string;
  identities: IdentityHashes;
  cardBin: string | null;
  cardLast4: string | null;
  /** Keyed hash of the coarse location (country, region, city or rounded coordinates) for PF10011; null when none. */
  location: string | null;
  amount: number | null;
  currency: string | null;
  score: number;
  /** Ids of the rules that fired (PF..., SVC...). */
  rules: string[];
  /** Hashed model features of the transaction (what the model saw), for learning from a later outcome. */
  features: string[];
  /** Version of the rule set and weights that produced the score. */
  ruleSet: string;
  /** Name → version of every dataset used. */
  dataVersions: Record<string, string>;
  /** The outcome already known (a pending payment feedback applied at scoring time); null otherwise. */
  outcome: PaymentOutcome | null;
}

export interface StoredScoring extends NewScoring {
  id: number;
}

/**
 * What a velocity window is keyed by: an identity hash, or the card's 6-digit BIN (not personal, kept in
 * clear). A `bin` window holds only the scorings of an amount below BIN_WINDOW_AMOUNT_BELOW (card testing
 * with test charges, PF10027); a `binAny` window holds every scoring of the BIN whatever its amount (a BIN
 * attack with ordinary amounts, PF10033, measured against the BIN's own usual rate at this account).
 */
export type VelocityBy = IdentityField | 'bin' | 'binAny';

/** The amounts a `bin` window holds: below this (any currency), the test charges of card testing. */
export const BIN_WINDOW_AMOUNT_BELOW = 5;

/** A sliding-window question about one account's scorings since `since` (inclusive). */
export interface VelocityQuery {
  /** Count scorings whose identity `by` equals `hash` (for `bin`, the BIN itself)... */
  by: VelocityBy;
  hash: string;
  since: string;
  /** ...or, when set, count the distinct non-null values of this other field among them (cards per customer, customers per card, locations per customer). */
  distinct?: IdentityField | 'location';
}

/** The question of ScoringsPort.history. */
export interface ScoringHistoryQuery {
  fraud: { by: IdentityField; hash: string; since: string } | null;
  amounts: { currency: string | null; since: string; customer: string } | null;
}

export interface ScoringHistory {
  fraud: number;
  amounts: AmountStats | null;
}

/** History of amounts (same currency) for PF10016/PF10019: count, mean and standard deviation of ln(1 + amount). */
export interface AmountStats {
  count: number;
  meanLog: number;
  sdLog: number;
  /** Largest amount seen. */
  max: number;
}

/**
 * How many of the most recent scorings make an amount history (PF10016). An account's whole 90 days
 * would be a scan of every scoring in the currency (about 0.4 µs a row on SQLite: 0.4 s at a million);
 * the latest 10,000 estimate its distribution as well, in a few milliseconds.
 */
export const AMOUNT_HISTORY_ROWS = 10_000;

export interface ScoringsPort {
  insert(scoring: NewScoring): Promise<StoredScoring>;
  /**
   * Stores a scoring without its id. The values are checked at once (a bad one rejects); the row may be
   * written a few milliseconds later in a group with others (SQLite: sqlite/scoring-buffer.ts), but every
   * read and change of this port, and of the store, sees it at once.
   */
  add(scoring: NewScoring): Promise<void>;
  /** Writes what `add` holds back (shutdown, a user deletion, tests reading the files). */
  flush(): Promise<void>;
  /** Scorings of one transaction id, oldest first. */
  byTransaction(accountId: string, transactionId: string): Promise<StoredScoring[]>;
  /** Answers each query (same order); exact counts over the stored rows. */
  velocity(accountId: string, queries: readonly VelocityQuery[]): Promise<number[]>;
  /** Transactions (distinct transaction ids; a scoring without one counts alone) with identity `by` = `hash` scored since `since` whose outcome counts as fraud (chargeback, fraud_confirmed, or declined flagged fraud). */
  countFraudSince(accountId: string, by: IdentityField, hash: string, since: string): Promise<number>;
  /**
   * Amount statistics of the account's scorings in `currency` since `since`; with `customer`, of that
   * customer only. Only the `limit` most recent scorings with an amount count (default
   * AMOUNT_HISTORY_ROWS): the read stays bounded however busy the account is.
   */
  amountStats(accountId: string, currency: string | null, since: string, customer?: string, limit?: number): Promise<AmountStats>;
  /**
   * What a payment scoring reads of its customer's past besides the velocity windows, in one call (one statement on
   * PostgreSQL, one snapshot on SQLite): `fraud` as countFraudSince, `amounts` as amountStats of one customer. A part
   * asked as null is answered 0 or null without a read.
   */
  history(accountId: string, query: ScoringHistoryQuery): Promise<ScoringHistory>;
  /** Writes the outcome on every scoring of the transaction id; returns how many scorings were updated. */
  setOutcome(accountId: string, transactionId: string, outcome: PaymentOutcome, fraud: boolean): Promise<number>;
  /** Scorings where any of the given identity fields equals its hash (deletion and replay). */
  findByIdentity(accountId: string, field: IdentityField, hash: string): Promise<StoredScoring[]>;
  /** Removes scorings where `field` = `hash`; returns how many. */
  deleteByIdentity(accountId: string, field: IdentityField, hash: string): Promise<number>;
}

/** Payment feedback per transaction id (spec "Payment outcome record"). */
export interface OutcomeRecord {
  accountId: string;
  transactionId: string;
  outcome: PaymentOutcome;
  /** Counts as fraud for learning (chargeback, fraud_confirmed, or declined with a fraud reason). */
  fraud: boolean;
  reason: string | null;
  occurredAt: string;
  /** applied: at least one scoring of the id exists; pending: none yet. */
  status: 'applied' | 'pending';
  /** Identities sent with the feedback (for never-scored transactions), keyed hashes. */
  identities: IdentityHashes;
  updatedAt: string;
}

export interface OutcomesPort {
  get(accountId: string, transactionId: string): Promise<OutcomeRecord | null>;
  /** Inserts or replaces the record of (accountId, transactionId). */
  put(record: OutcomeRecord): Promise<void>;
  /** Outcomes whose identities include `field` = `hash`. */
  findByIdentity(accountId: string, field: IdentityField, hash: string): Promise<OutcomeRecord[]>;
  deleteByIdentity(accountId: string, field: IdentityField, hash: string): Promise<number>;
  delete(accountId: string, transactionId: string): Promise<boolean>;
}

/** Identity types labels and evidence are kept for (feedback/event `type`, plus the card hash of payments). */
export const LABEL_TYPES = ['ip', 'email', 'email_domain', 'phone', 'card_bin', 'customer_id', 'device_id', 'text', 'card'] as const;
export type LabelType = (typeof LABEL_TYPES)[number];

/**
 * One piece of evidence about one identity. `origin` names where it came from and makes writes
 * idempotent: `label` for the identity's own label (feedback/event), `payment:<transaction_id>` for a
 * payment outcome, `event:<event_id>` for a label given by event id. One row per (account, type, hash, origin).
 */
export interface Evidence {
  accountId: string;
  type: LabelType;
  valueHash: string;
  origin: string;
  label: 'fraud' | 'legit';
  /** Masked value for display (`j***@example.com`); never the value itself. */
  masked: string;
  reason: string | null;
  source: string | null;
  occurredAt: string;
  updatedAt: string;
}

export interface EvidencePort {
  get(accountId: string, type: LabelType, valueHash: string, origin: string): Promise<Evidence | null>;
  /** Inserts or replaces the row of (account, type, hash, origin). */
  put(evidence: Evidence): Promise<void>;
  /** Every row about any of the given identities (decay is applied by the caller). */
  forIdentities(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>): Promise<Evidence[]>;
  /**
   * The decayed evidence of each identity that has any: Σ over its rows of ±0.5^(age in days / halfLifeDays)
   * (+ fraud, − legit; a row dated after `now` counts as age 0), summed in the database so an identity
   * with thousands of rows (a busy shared IP) costs one aggregate, not thousands of objects.
   */
  scores(accountId: string, identities: ReadonlyArray<{ type: LabelType; valueHash: string }>, now: string, halfLifeDays: number): Promise<IdentityScore[]>;
  /** The identity types of which the account has any evidence row (one primary-key probe per type). */
  labelledTypes(accountId: string): Promise<LabelType[]>;
  deleteByOrigin(accountId: string, origin: string): Promise<number>;
  deleteByIdentity(accountId: string, type: LabelType, valueHash: string): Promise<number>;
}

export interface IdentityScore {
  type: LabelType;
  valueHash: string;
  /** Fraud minus legit, decayed; may be negative (floored by the caller). */
  score: number;
}

/** One FTRL-proximal coordinate of an account's model. */
export interface ModelWeight {
  feature: string;
  z: number;
  n: number;
}

/** One update of an account's model, for the admin history. */
export interface ModelUpdate {
  accountId: string;
  at: string;
  /** What taught it: `payment:<transaction_id>` or `event:<event_id>`. */
  origin: string;
  label: 0 | 1;
  /** Prediction before the update. */
  before: number;
  /** Weights of the touched features after the update. */
  weights: Record<string, number>;
}

export interface ModelPort {
  /** Stored coordinates of the given features (absent ones are at their prior, z = n = 0). */
  weights(accountId: string, features: readonly string[]): Promise<ModelWeight[]>;
  /** Writes the coordinates and appends the history entry in one transaction. */
  update(accountId: string, weights: readonly ModelWeight[], history: ModelUpdate): Promise<void>;
  /** All stored coordinates of the account (admin). */
  allWeights(accountId: string): Promise<ModelWeight[]>;
  /** History, newest first. */
  history(accountId: string, limit: number): Promise<ModelUpdate[]>;
  /** User deletion: removes the history entries taught by `origin` (the weights stay); returns how many. */
  deleteHistoryByOrigin(accountId: string, origin: string): Promise<number>;
  /** User deletion: removes the coordinates of features that name one identity (`device:<hash prefix>`); returns how many. */
  deleteWeights(accountId: string, features: readonly string[]): Promise<number>;
}

/** Everything of scoring and learning in one place, as Store exposes it. */
export interface LearningStore {
  /** Atomic batches of feedback writes (see LearningWrite). */
  readonly learning: LearningWriter;
  readonly scorings: ScoringsPort;
  readonly outcomes: OutcomesPort;
  readonly evidence: EvidencePort;
  readonly model: ModelPort;
}

/**
 * One write of a feedback batch. A batch is applied in order in ONE transaction (all or nothing), so a
 * payment outcome and its effects (outcome on the scorings, evidence, model) are never split by a crash,
 * and a bulk feedback of 1000 items costs one commit.
 */
export type LearningWrite =
  | { kind: 'outcome'; record: OutcomeRecord }
  | { kind: 'scoringOutcome'; accountId: string; transactionId: string; outcome: PaymentOutcome; fraud: boolean }
  | { kind: 'evidence'; evidence: Evidence }
  | { kind: 'dropEvidenceOrigin'; accountId: string; origin: string }
  | { kind: 'model'; accountId: string; weights: readonly ModelWeight[]; history: ModelUpdate };

export interface LearningWriter {
  /** Applies the writes in order in one transaction; nothing is written when one fails (checked before writing where possible). */
  apply(writes: readonly LearningWrite[]): Promise<void>;
}
