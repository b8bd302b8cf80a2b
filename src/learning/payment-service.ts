import type { Logger } from 'pino';
import type { BlacklistIndex } from '../policy/blacklists/index.ts';
import type { ListProbe } from '../policy/types.ts';
import type { IdentityHashes, IdentityScore, LabelType, NewScoring, VelocityQuery } from '../store/learning-ports.ts';
import { UserDeletedError, type Store } from '../store/ports.ts';
import { VELOCITY_ROWS } from '../store/learning-rows.ts';
import { ruleKey } from '../intel/payment/prior.ts';
import { binUsualPer10Minutes, LIMITS } from '../intel/payment/rules.ts';
import { combine, NO_LEARNING, ruleContext, runRules } from '../intel/payment/score.ts';
import type { AmountHistory, ListSignal, PaymentInput, PaymentScore, PaymentSignals, VelocitySignal } from '../intel/payment/types.ts';
import { engineSignals, paymentDatasets, reshipperSignal, type PaymentEngines } from './engine-signals.ts';
import { identitiesEvidence } from './evidence.ts';
import { FRAUD_LABEL_THRESHOLD, type LabelLookups } from './label-lookups.ts';
import { paymentFeatures } from './features.ts';
import type { IdentityHasher } from './identity-hash.ts';
import { normaliseIdentity } from './identity-values.ts';
import type { ModelService } from './model-service.ts';
import type { FeedbackService } from './feedback-service.ts';
import type { VelocitySource } from './velocity.ts';

/** Version of the rule set and weights (docs/payment.md); stored with every scoring. */
export const PAYMENT_RULE_SET = 'payment-rules/2';


const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Histories PF10016/PF10019 compare an amount with. */
const CUSTOMER_HISTORY_DAYS = 365;
const ACCOUNT_HISTORY_DAYS = 90;
/** Account-wide amount statistics are cached this long per account and currency (they move slowly). */
const ACCOUNT_STATS_TTL_MS = 60_000;
/**
 * A BIN's usual rate at an account (PF10033) is read again after this long: it counts the scorings before the last ten
 * minutes, which a minute changes little, and reading it is the one velocity read that grows with a popular BIN (up to
 * VELOCITY_ROWS rows) where the attack's own windows (one and ten minutes) stay small. At most BIN_USUAL_ENTRIES are kept.
 */
const BIN_USUAL_TTL_MS = 60_000;
const BIN_USUAL_ENTRIES = 50_000;

/** The velocity counts a scoring asks for: the signal's, and the BIN's raw counts its usual rate is made of. */
type VelocityName = keyof VelocitySignal | 'binAnyLast10Minutes' | 'binAnyLastHour' | 'binAnyLastDay';

/** The identity hashes and probes of one transaction. */
export interface TransactionIdentities {
  hashes: IdentityHashes;
  location: string | null;
  cardBin: string | null;
  cardLast4: string | null;
  /** Normalised values for the account's lists (never stored). */
  values: { ip?: string; email?: string; phone?: string; customer?: string; bin?: string };
  /** (type, hash) pairs whose evidence is read, with their SVC group. */
  evidence: Array<{ type: LabelType; valueHash: string; group: 'customer' | 'shared' }>;
}

export interface ScoreCall {
  accountId: string;
  live: boolean;
  userId: string | null;
  now: Date;
  /** The account setting autoBlacklistConfirmedFraud (for an outcome applied at scoring time). */
  autoBlacklist: boolean;
}

export interface ScoredPayment {
  score: PaymentScore;
  identities: TransactionIdentities;
  features: string[];
  dataVersions: Record<string, string>;
}

export interface PaymentServiceDeps {
  store: Store;
  engines: PaymentEngines;
  hasher: IdentityHasher;
  velocity: VelocitySource;
  model: ModelService;
  /** Decayed evidence of the transaction's identities (skips types the account never labelled). */
  labels: Pick<LabelLookups, 'scores'>;
  /** Applies a payment outcome that was waiting for this transaction's scoring. */
  feedback: Pick<FeedbackService, 'applyToScoring'>;
  logger: Logger;
}

/** The plain values the account's lists are probed with; absent ones are left out. */
function listValues(ip: string | null, email: string | null, phone: string | null, customer: string | null, bin: string | null): TransactionIdentities['values'] {
  const values: TransactionIdentities['values'] = {};
  if (ip !== null) values.ip = ip;
  if (email !== null) values.email = email;
  if (phone !== null) values.phone = phone;
  if (customer !== null) values.customer = customer;
  if (bin !== null) values.bin = bin;
  return values;
}

/** The normal form of an identity value, null when it was not sent or is not a value of its type. */
function normalised(type: LabelType, v: string | undefined): string | null {
  return v === undefined ? null : normaliseIdentity(type, v);
}

/** Adds one identity to the evidence to read, once. */
function addEvidence(evidence: TransactionIdentities['evidence'], type: LabelType, valueHash: string | null, group: 'customer' | 'shared'): void {
  if (valueHash !== null && !evidence.some((e) => e.type === type && e.valueHash === valueHash)) evidence.push({ type, valueHash, group });
}

/** Decayed evidence of the transaction's identities of one group (the customer's own, or shared ones). */
function groupEvidence(scores: readonly IdentityScore[], ids: TransactionIdentities, group: 'customer' | 'shared'): number {
  return identitiesEvidence(scores, ids.evidence.filter((e) => e.group === group));
}

function ignore(): void {}

/** The ISO time `ms` before `now`. */
function isoBefore(now: Date, ms: number): string {
  return new Date(now.getTime() - ms).toISOString();
}

/** Whether any of the probes is on the account's lists. */
function listed(index: BlacklistIndex, probes: ListProbe[]): boolean {
  return probes.length > 0 && index.hits(probes).length > 0;
}

/** Decayed evidence of the transaction's identities of one type. */
function typeEvidence(scores: readonly IdentityScore[], ids: TransactionIdentities, type: LabelType): number {
  return identitiesEvidence(scores, ids.evidence.filter((e) => e.type === type));
}

function placeKey(input: PaymentInput): string | null {
  for (const p of [input.customer, input.billing]) {
    if (p.country !== undefined && (p.city !== undefined || p.region !== undefined)) {
      return `${p.country}|${(p.region ?? '').toLowerCase()}|${(p.city ?? '').toLowerCase()}`;
    }
  }
  const c = input.customer;
  // About 11 km cells: two purchases in one town are one location.
  if (c.latitude !== undefined && c.longitude !== undefined) return `geo|${c.latitude.toFixed(1)}|${c.longitude.toFixed(1)}`;
  return null;
}

/**
 * Payment scoring (spec "POST /scoring/payment"): gathers every signal the rules need (the other
 * engines, the account's lists, exact velocity windows, decayed labels, amount history, the
 * account's model), scores with the pure engine, and for live calls stores the scoring (card as
 * BIN + last four + keyed hash) and applies a payment outcome that arrived before the scoring.
 */
export class PaymentService {
  readonly #accountStats = new Map<string, { at: number; stats: Promise<AmountHistory | null> }>();
  /**
   * Keyed hashes of values many payments share and that name no one: BINs and coarse places (a few thousand
   * of each at a busy shop). Each HMAC is worked out once. Nothing personal is kept here (an email domain can
   * be one person's own).
   */
  readonly #sharedHashes = new Map<string, string>();

  /** The usual rate of a BIN at an account (PF10033), by account and BIN, with the time it was read. */
  readonly #binUsual = new Map<string, { at: number; usual: number }>();

  constructor(private readonly deps: PaymentServiceDeps) {}

  get engines(): PaymentEngines {
    return this.deps.engines;
  }

  /** The package-forwarder list's verdict on a shipping address (null when it is not on it, or no list is loaded). */
  reshipper(shipping: PaymentInput['shipping']): PaymentSignals['reshipper'] {
    return reshipperSignal(this.deps.engines, shipping);
  }

  get datasets() {
    return paymentDatasets(this.deps.engines);
  }

  /** The keyed hashes of the transaction's identities (and the few plain values the lists need). */
  identities(input: PaymentInput, userId: string | null): TransactionIdentities {
    const h = this.deps.hasher;
    const customer = normalised('customer_id', input.customerId);
    const user = userId === null ? null : normaliseIdentity('customer_id', userId);
    const email = normalised('email', input.email);
    const domain = email === null ? null : normaliseIdentity('email_domain', email);
    const phone = normalised('phone', input.phone);
    const ip = normalised('ip', input.ip);
    const device = normalised('device_id', input.deviceId);
    const card = normalised('card', input.cardNumber);
    const bin = card === null ? null : card.slice(0, 6);
    const location = placeKey(input);
    const hashes: IdentityHashes = {
      customer: customer === null ? null : h.hash('customer_id', customer),
      user: user === null ? null : h.hash('customer_id', user),
      email: email === null ? null : h.hash('email', email),
      emailDomain: domain === null ? null : h.hash('email_domain', domain),
      phone: phone === null ? null : h.hash('phone', phone),
      ip: ip === null ? null : h.hash('ip', ip),
      device: device === null ? null : h.hash('device_id', device),
      card: card === null ? null : h.hash('card', card),
    };
    const evidence: TransactionIdentities['evidence'] = [];
    addEvidence(evidence, 'customer_id', hashes.customer, 'customer');
    addEvidence(evidence, 'customer_id', hashes.user, 'customer');
    addEvidence(evidence, 'email', hashes.email, 'customer');
    addEvidence(evidence, 'phone', hashes.phone, 'customer');
    addEvidence(evidence, 'device_id', hashes.device, 'shared');
    addEvidence(evidence, 'card', hashes.card, 'shared');
    addEvidence(evidence, 'ip', hashes.ip, 'shared');
    if (card !== null) {
      addEvidence(evidence, 'card_bin', this.sharedHash('card_bin', card.slice(0, 6)), 'shared');
      if (card.length >= 8) addEvidence(evidence, 'card_bin', this.sharedHash('card_bin', card.slice(0, 8)), 'shared');
    }
    return {
      hashes,
      location: location === null ? null : this.sharedHash('text', `location\u0000${location}`),
      cardBin: bin,
      // Kept for the console's card search, as the decision log's masked card keeps it: the hash beside it is keyed
      // with the card key, which a copy of the data does not hold, so BIN + last four no longer lead to the number.
      cardLast4: card !== null && card.length >= 10 ? card.slice(-4) : null,
      values: listValues(ip, email, phone, customer, bin === null ? null : card!.slice(0, 8)),
      evidence,
    };
  }

  /** The keyed hash of a value that names no one (a BIN, a coarse place), remembered (`#sharedHashes`). */
  private sharedHash(type: 'card_bin' | 'text', value: string): string {
    const key = `${type}\u0000${value}`;
    let hash = this.#sharedHashes.get(key);
    if (hash === undefined) {
      hash = this.deps.hasher.hash(type, value);
      if (this.#sharedHashes.size >= 20_000) this.#sharedHashes.clear();
      this.#sharedHashes.set(key, hash);
    }
    return hash;
  }

  /** Scores one transaction; nothing is stored (see `record`). */
  async score(call: ScoreCall, input: PaymentInput, lists: BlacklistIndex): Promise<ScoredPayment> {
    const { store } = this.deps;
    const ids = this.identities(input, call.userId);

    // The history reads go out first: on a busy SQLite server they run on another thread
    // (sqlite/read-worker.ts), on PostgreSQL in its server, while this one reads the labels and runs the engines.
    const fraudBy = ids.hashes.customer !== null ? 'customer' : ids.hashes.email !== null ? 'email' : null;
    const customerAmounts = input.amount !== undefined && ids.hashes.customer !== null;
    const history = Promise.all([
      this.velocity(call.accountId, ids, call.now, input.amount),
      // The customer's fraud count and amounts in one read (one statement on PostgreSQL).
      store.scorings.history(call.accountId, {
        fraud: fraudBy === null ? null : { by: fraudBy, hash: ids.hashes[fraudBy]!, since: isoBefore(call.now, 30 * DAY) },
        amounts: customerAmounts ? { currency: input.currency ?? null, since: isoBefore(call.now, CUSTOMER_HISTORY_DAYS * DAY), customer: ids.hashes.customer! } : null,
      }),
      input.amount === undefined ? Promise.resolve(null) : this.accountStats(call, input.currency ?? null, isoBefore(call.now, ACCOUNT_HISTORY_DAYS * DAY)),
    ]);
    // Awaited below; if the label read fails first, this failure must not go unhandled meanwhile.
    history.catch(ignore);
    const scores = await this.deps.labels.scores(call.accountId, ids.evidence, call.now);
    const engines = engineSignals(this.deps.engines, input, call.now, {
      ipFraud: typeEvidence(scores, ids, 'ip') >= FRAUD_LABEL_THRESHOLD,
      emailFraud: typeEvidence(scores, ids, 'email') >= FRAUD_LABEL_THRESHOLD,
      phoneFraud: typeEvidence(scores, ids, 'phone') >= FRAUD_LABEL_THRESHOLD,
    });
    const [velocity, past, accountAmounts] = await history;
    const fraud30d = past.fraud;
    const amounts: PaymentSignals['amounts'] = input.amount === undefined
      ? { customer: null, account: null }
      : { customer: past.amounts !== null && past.amounts.count > 0 ? past.amounts : null, account: accountAmounts };
    const labels = { customer: groupEvidence(scores, ids, 'customer'), shared: groupEvidence(scores, ids, 'shared'), customerFraud30d: fraud30d };
    const signals: PaymentSignals = {
      now: call.now,
      ...engines,
      velocity,
      lists: this.lists(lists, ids, engines.bin?.country ?? null),
      labels,
      model: { learned: NO_LEARNING },
      amounts,
      reshipper: this.reshipper(input.shipping),
    };
    // The rules fire first; the model's features include them (with their grades), and the account's
    // learned weights of those features join the rules' priors in one logit (score.ts).
    const hits = runRules(input, signals, ruleContext(input));
    const features = paymentFeatures(
      input,
      {
        ruleIds: hits.map((h) => ruleKey(h.id, h.grade)),
        ipCountry: engines.ip?.country ?? null,
        binCountry: engines.bin?.country ?? null,
        emailDomainHash: ids.hashes.emailDomain,
        deviceHash: ids.hashes.device,
        now: call.now,
        velocity,
        accountAmounts: amounts.account,
        phoneLineType: engines.phone?.lineType ?? null,
      },
      (s) => this.deps.hasher.hash('text', `feature\u0000${s}`),
    );
    const learned = await this.deps.model.learned(call.accountId, features);
    const score = combine(hits, learned, input.isDigitalProducts);
    const dataVersions = Object.fromEntries(this.datasets.map((d) => [d.name, d.version]));
    return { score, identities: ids, features, dataVersions };
  }

  /**
   * Stores a live scoring with its final score, then applies an outcome that was waiting for it. Nothing is stored
   * when its customer was deleted (on any instance) after it was scored.
   */
  async record(call: ScoreCall, input: PaymentInput, scored: ScoredPayment, finalScore: number, ruleIds: string[]): Promise<void> {
    const ids = scored.identities;
    const scoring: NewScoring = {
      accountId: call.accountId,
      transactionId: input.transactionId ?? null,
      scoredAt: call.now.toISOString(),
      identities: ids.hashes,
      cardBin: ids.cardBin,
      cardLast4: ids.cardLast4,
      location: ids.location,
      amount: input.amount ?? null,
      currency: input.currency ?? null,
      score: finalScore,
      rules: ruleIds,
      features: scored.features,
      ruleSet: PAYMENT_RULE_SET,
      dataVersions: scored.dataVersions,
      outcome: null,
    };
    try {
      if (this.deps.velocity.kind === 'store') {
        // The windows are the rows themselves: the store may write this one in a group with the next few, and every
        // read of the scorings (velocity included) sees it at once (sqlite/scoring-buffer.ts).
        await this.deps.store.scorings.add(scoring);
      } else {
        const stored = await this.deps.store.scorings.insert(scoring);
        await this.deps.velocity.record(stored).catch((err: unknown) => this.deps.logger.error({ err }, 'velocity record failed'));
      }
    } catch (err) {
      if (err instanceof UserDeletedError) return;
      throw err;
    }
    // Feedback that came first (spec: "applied automatically when the transaction is scored"). Read after the
    // insert: feedback committing meanwhile on another instance either finds this scoring or is found here
    // (FeedbackService reads the scorings of a pending outcome again after its commit).
    const pending = input.transactionId === undefined ? null : await this.deps.store.outcomes.get(call.accountId, input.transactionId);
    if (pending) await this.deps.feedback.applyToScoring({ accountId: call.accountId, now: call.now, test: false, autoBlacklist: call.autoBlacklist }, pending.transactionId);
  }

  private lists(index: BlacklistIndex, ids: TransactionIdentities, binCountry: string | null): ListSignal {
    const v = ids.values;
    const confirmed: ListProbe[] = [];
    for (const e of ids.evidence) confirmed.push({ type: 'confirmed_fraud', value: `${e.type}:${e.valueHash}` });
    const domain = v.email?.slice(v.email.lastIndexOf('@') + 1);
    return {
      ip: v.ip !== undefined && listed(index, [{ type: 'ip', value: v.ip }]),
      email: v.email !== undefined && listed(index, [{ type: 'email', value: v.email }, { type: 'email_domain', value: domain! }]),
      phone: v.phone !== undefined && listed(index, [{ type: 'phone', value: v.phone }]),
      card: listed(index, [...(v.bin !== undefined ? [{ type: 'card_bin' as const, value: v.bin }] : []), ...(binCountry !== null ? [{ type: 'card_country' as const, value: binCountry }] : [])]),
      customer: v.customer !== undefined && listed(index, [{ type: 'customer_id', value: v.customer }]),
      confirmedFraud: listed(index, confirmed),
    };
  }

  private async velocity(accountId: string, ids: TransactionIdentities, now: Date, amount: number | undefined): Promise<VelocitySignal> {
    const h = ids.hashes;
    // Each window's start once (an ISO string per window, not per question).
    const [m1, m10, h1, d1, d7, d30] = [MINUTE, 10 * MINUTE, HOUR, DAY, 7 * DAY, 30 * DAY].map((ms) => isoBefore(now, ms)) as [string, string, string, string, string, string];
    const small = amount !== undefined && amount < LIMITS.smallAmount;
    const bin = ids.cardBin;
    const binKey = bin === null ? null : `${accountId}\u0000${bin}`;
    const cached = binKey === null ? undefined : this.#binUsual.get(binKey);
    const at = now.getTime();
    const usual = cached && at - cached.at < BIN_USUAL_TTL_MS && at >= cached.at ? cached.usual : undefined;
    const wanted: Array<[VelocityName, VelocityQuery | null]> = [
      ['ipLastHour', h.ip ? { by: 'ip', hash: h.ip, since: h1 } : null],
      ['ipLastDay', h.ip ? { by: 'ip', hash: h.ip, since: d1 } : null],
      ['customerLastHour', h.customer ? { by: 'customer', hash: h.customer, since: h1 } : null],
      ['customerLastDay', h.customer ? { by: 'customer', hash: h.customer, since: d1 } : null],
      ['cardLastDay', h.card ? { by: 'card', hash: h.card, since: d1 } : null],
      ['deviceLastDay', h.device ? { by: 'device', hash: h.device, since: d1 } : null],
      ['customerLocations30d', h.customer ? { by: 'customer', hash: h.customer, since: d30, distinct: 'location' } : null],
      ['cardCustomers30d', h.card ? { by: 'card', hash: h.card, since: d30, distinct: 'customer' } : null],
      ['customerCardsLastDay', h.customer ? { by: 'customer', hash: h.customer, since: d1, distinct: 'card' } : null],
      ['customerCards7d', h.customer ? { by: 'customer', hash: h.customer, since: d7, distinct: 'card' } : null],
      ['customerCardsLastHour', h.customer ? { by: 'customer', hash: h.customer, since: h1, distinct: 'card' } : null],
      ['customerHistory', h.customer ? { by: 'customer', hash: h.customer, since: d30 } : null],
      ['cardLastMinute', h.card ? { by: 'card', hash: h.card, since: m1 } : null],
      ['cardLast10Minutes', h.card ? { by: 'card', hash: h.card, since: m10 } : null],
      ['cardEmailsLastDay', h.card ? { by: 'card', hash: h.card, since: d1, distinct: 'email' } : null],
      ['cardIpsLastDay', h.card ? { by: 'card', hash: h.card, since: d1, distinct: 'ip' } : null],
      ['cardCustomersLastHour', h.card ? { by: 'card', hash: h.card, since: h1, distinct: 'customer' } : null],
      ['deviceLast10Minutes', h.device ? { by: 'device', hash: h.device, since: m10 } : null],
      // A popular BIN has thousands of scorings in ten minutes at a busy shop: its window is read only for the
      // small amounts of card testing (PF10027), so ordinary payments never pay for it.
      ['binCardsLast10Minutes', ids.cardBin !== null && small ? { by: 'bin', hash: ids.cardBin, since: m10, distinct: 'card' } : null],
      // A BIN attack with ordinary amounts (PF10033): the BIN's distinct cards at one and ten minutes, and, once a minute
      // per BIN, its scorings in ten minutes, an hour and a day for its usual rate (a popular BIN's day is a 200-row read).
      ['binAnyCardsLastMinute', bin !== null ? { by: 'binAny', hash: bin, since: m1, distinct: 'card' } : null],
      ['binAnyCardsLast10Minutes', bin !== null ? { by: 'binAny', hash: bin, since: m10, distinct: 'card' } : null],
      ['binAnyLast10Minutes', bin !== null && usual === undefined ? { by: 'binAny', hash: bin, since: m10 } : null],
      ['binAnyLastHour', bin !== null && usual === undefined ? { by: 'binAny', hash: bin, since: h1 } : null],
      ['binAnyLastDay', bin !== null && usual === undefined ? { by: 'binAny', hash: bin, since: d1 } : null],
      ['deviceCardsLastMinute', h.device ? { by: 'device', hash: h.device, since: m1, distinct: 'card' } : null],
      ['deviceCardsLast10Minutes', h.device ? { by: 'device', hash: h.device, since: m10, distinct: 'card' } : null],
      ['ipCardsLastMinute', h.ip ? { by: 'ip', hash: h.ip, since: m1, distinct: 'card' } : null],
      ['ipCardsLast10Minutes', h.ip ? { by: 'ip', hash: h.ip, since: m10, distinct: 'card' } : null],
      ['deviceCustomers30d', h.device ? { by: 'device', hash: h.device, since: d30, distinct: 'customer' } : null],
      ['ipCustomersLastDay', h.ip ? { by: 'ip', hash: h.ip, since: d1, distinct: 'customer' } : null],
    ];
    const asked = wanted.filter((w): w is [VelocityName, VelocityQuery] => w[1] !== null);
    if (asked.length === 0) return {};
    const counts = await this.deps.velocity.velocity(accountId, asked.map((w) => w[1]));
    const raw: Partial<Record<VelocityName, number>> = {};
    asked.forEach(([name, query], i) => {
      const n = counts[i] ?? 0;
      // The store reads at most VELOCITY_ROWS rows of one BIN, Redis counts them all: the BIN's counts are clamped
      // so both give PF10033 the same numbers (learning-rows.ts).
      raw[name] = query.by === 'binAny' ? Math.min(n, VELOCITY_ROWS) : n;
    });
    const { binAnyLast10Minutes: recent, binAnyLastHour: hour, binAnyLastDay: day, ...out } = raw;
    if (binKey !== null) {
      if (usual !== undefined) out.binUsualPer10Minutes = usual;
      else if (recent !== undefined && hour !== undefined && day !== undefined) {
        out.binUsualPer10Minutes = binUsualPer10Minutes(day, hour, recent);
        if (this.#binUsual.size >= BIN_USUAL_ENTRIES) this.#binUsual.clear();
        this.#binUsual.set(binKey, { at, usual: out.binUsualPer10Minutes });
      }
    }
    return out;
  }

  private accountStats(call: ScoreCall, currency: string | null, since: string): Promise<AmountHistory | null> {
    const key = `${call.accountId}\u0000${currency ?? ''}`;
    const now = call.now.getTime();
    const hit = this.#accountStats.get(key);
    if (hit && now - hit.at < ACCOUNT_STATS_TTL_MS && now >= hit.at) return hit.stats;
    const stats = this.deps.store.scorings.amountStats(call.accountId, currency, since).then((s) => (s.count > 0 ? s : null));
    // A failed read is not cached.
    stats.catch(() => this.#accountStats.delete(key));
    if (this.#accountStats.size > 10_000) this.#accountStats.clear();
    this.#accountStats.set(key, { at: now, stats });
    return stats;
  }
}
