import { ApiError } from '../http/errors.ts';
import type { EventKind } from '../policy/types.ts';
import type { IdentityField, LabelType, StoredScoring } from '../store/learning-ports.ts';
import type { Counters, Store } from '../store/ports.ts';
import { counterKeys, DELETION_TTL_SECONDS } from '../store/counter-keys.ts';
import type { IdentityHasher } from './identity-hash.ts';
import { normaliseIdentity } from './identity-values.ts';
import type { VelocitySource } from './velocity.ts';
import { labelledIdentities } from './identity-labels.ts';
import { HASH_PREFIX_LENGTH as DEVICE_FEATURE_HEX } from './features.ts';

/** The spec's deletion result: counts of removed records per category. */
export interface DeletionCounts {
  transaction_data: number;
  ips: number;
  profanity_data: number;
  emails: number;
  phone_numbers: number;
  ibans: number;
}

export type Category = keyof DeletionCounts;
export const DELETION_TYPES = ['email', 'phone', 'user_id'] as const;
export type DeletionType = (typeof DELETION_TYPES)[number];

/** Longest value accepted (the userID option's own limit). */
const MAX_VALUE = 255;
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/** Which category a record of each operation, rule group, event kind or label type counts in (docs/payment.md "Deletion"). */
const BY_OPERATION: Readonly<Record<string, Category>> = {
  geoip: 'ips', 'lookup.ip': 'ips', 'lookup.ip.bulk': 'ips', 'lookup.ip.threats': 'ips', 'lookup.asn': 'ips', 'lookup.country': 'ips',
  'scoring.email': 'emails', 'lookup.domain': 'emails',
  'scoring.phone': 'phone_numbers',
  'scoring.profanity': 'profanity_data',
  'lookup.iban': 'ibans',
  'lookup.bin': 'transaction_data', 'scoring.payment': 'transaction_data',
  'feedback.payment': 'transaction_data', 'feedback.event': 'transaction_data', 'feedback.bulk': 'transaction_data',
};
const BY_GROUP: Readonly<Record<string, Category>> = { ip: 'ips', email: 'emails', phone: 'phone_numbers', iban: 'ibans', bin: 'transaction_data', payment: 'transaction_data' };
const BY_EVENT: Readonly<Record<EventKind, Category>> = {
  suspicious_ip: 'ips', spam_email: 'emails', spam_phone: 'phone_numbers', profanity: 'profanity_data',
  invalid_iban: 'ibans', invalid_bin: 'transaction_data', fraud_payment: 'transaction_data',
};
const BY_LABEL: Readonly<Record<LabelType, Category>> = {
  ip: 'ips', email: 'emails', email_domain: 'emails', phone: 'phone_numbers', text: 'profanity_data',
  card_bin: 'transaction_data', customer_id: 'transaction_data', device_id: 'transaction_data', card: 'transaction_data',
};

export interface DeletionTarget {
  type: DeletionType;
  /** The normalised value (lower-case email, phone digits, user id as sent). */
  value: string;
}

/** Reads `{value, type?}` (decisions.md "Deletion body"): 125 for an empty or malformed value, 124 for another type. */
export function readDeletionTarget(body: unknown): DeletionTarget {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(125, 'The body must be a JSON object such as {"value": "jane@example.com"}.');
  }
  const { value, type } = body as { value?: unknown; type?: unknown };
  if (type !== undefined && (typeof type !== 'string' || !(DELETION_TYPES as readonly string[]).includes(type))) {
    throw new ApiError(124, `The "type" must be email, phone or user_id${typeof type === 'string' ? `, not ${JSON.stringify(type.slice(0, 32))}` : ''}.`);
  }
  if (typeof value !== 'string') throw new ApiError(125, 'The "value" field is required and must be a string: an email address, a phone number or a userID.');
  const v = value.trim();
  if (v === '') throw new ApiError(125, 'The "value" field is empty: send an email address, a phone number or a userID.');
  if (v.length > MAX_VALUE) throw new ApiError(125, `The "value" is longer than ${MAX_VALUE} characters.`);
  if (CONTROL.test(v)) throw new ApiError(125, 'The "value" contains control characters.');
  const kind: DeletionType = (type as DeletionType | undefined) ?? (v.includes('@') ? 'email' : /^\+?\d{7,15}$/.test(v) ? 'phone' : 'user_id');
  switch (kind) {
    case 'email': {
      const email = normaliseIdentity('email', v);
      if (email === null || /\s/.test(email) || email.indexOf('@') !== email.lastIndexOf('@')) throw new ApiError(125, 'The value is not an email address: it needs one @ with text on both sides.');
      return { type: 'email', value: email };
    }
    case 'phone': {
      const phone = normaliseIdentity('phone', v);
      if (phone === null) throw new ApiError(125, 'The value is not a phone number: send 7 to 15 digits with the country code, such as +447911123456.');
      return { type: 'phone', value: phone };
    }
    case 'user_id':
      return { type: 'user_id', value: v };
  }
}

function zero(): DeletionCounts {
  return { transaction_data: 0, ips: 0, profanity_data: 0, emails: 0, phone_numbers: 0, ibans: 0 };
}

/** Deterministic fake counts for test mode (nothing is deleted). */
export function fakeDeletionCounts(target: DeletionTarget): DeletionCounts {
  let h = 0;
  for (const c of `${target.type}:${target.value}`) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return { transaction_data: h % 7, ips: (h >>> 3) % 5, profanity_data: (h >>> 6) % 3, emails: (h >>> 9) % 4, phone_numbers: (h >>> 12) % 3, ibans: (h >>> 15) % 2 };
}

export interface DeletionDeps {
  store: Store;
  counters: Counters;
  hasher: IdentityHasher;
  velocity: VelocitySource;
  /** Removes confirmed_fraud entries (through the lists service, so cached policy copies see it). */
  unlist: (accountId: string, keys: string[]) => Promise<number>;
  /** Writes this instance's buffered request-log and decision-log records first, so none lands after the deletion. */
  flushLogs: () => Promise<void>;
  /** Runs the deletion while no feedback of the account runs on any instance (FeedbackService.exclusive). */
  exclusive?: <T>(accountId: string, work: () => Promise<T>) => Promise<T>;
}

/**
 * DELETE /account/users/delete: removes every trace of one user (an email, a phone or a userID) from
 * the request log, the decision log, events (and with them their queued webhook deliveries),
 * scorings and their velocity windows, payment outcomes, labels and evidence, and the model history
 * entries of their transactions. The account's model weights stay: they are sums over many
 * transactions and hold no identity.
 */
export class DeletionService {
  constructor(private readonly deps: DeletionDeps) {}

  /** Counts one deletion against the account's daily limit; 126 past it (the refused call does not count). */
  async reserve(accountId: string, limit: number, now: Date): Promise<void> {
    const key = counterKeys.deletions(accountId, now.toISOString().slice(0, 10));
    const used = await this.deps.counters.incr(key, 1, DELETION_TTL_SECONDS);
    if (used > limit) {
      await this.deps.counters.incr(key, -1, DELETION_TTL_SECONDS);
      throw new ApiError(126, `This account may delete ${limit} users per day (UTC); the limit is reached. Retry tomorrow.`);
    }
  }

  /**
   * Nothing of the user received before the deletion answers is left, whichever instance received it. Feedback of
   * the account waits for the deletion (and the deletion for feedback in progress) on every instance, and feedback
   * received before the deletion's last tombstone writes nothing of the user (FeedbackService). The deletion runs
   * twice, each pass after a tombstone: a scoring, an event or a buffered log record received before the second
   * tombstone was either stored before it (PostgreSQL: the tombstone waits for transactions that began before
   * it), and the second pass removes it, or is stored after it and leaves the user out (the tombstone is checked
   * in the insert, and by the buffers' writes). The counts are those of both passes.
   */
  delete(accountId: string, target: DeletionTarget): Promise<DeletionCounts> {
    const exclusive = this.deps.exclusive ?? (<T>(_accountId: string, work: () => Promise<T>) => work());
    return exclusive(accountId, async () => {
      const scorings: StoredScoring[] = [];
      const first = await this.#delete(accountId, target, scorings);
      const second = await this.#delete(accountId, target, scorings);
      // A scoring stored just before a tombstone writes its velocity windows right after its insert, which may come
      // after the forget of its pass: by now it has (Redis windows hold only keyed hashes and scoring ids).
      await this.deps.velocity.forget(scorings);
      for (const k of Object.keys(first) as Category[]) first[k] += second[k];
      return first;
    });
  }

  /** One pass: a tombstone, then every record of the user found; the scorings found are added to `found`. */
  async #delete(accountId: string, target: DeletionTarget, found: StoredScoring[]): Promise<DeletionCounts> {
    const { store, hasher } = this.deps;
    const counts = zero();
    const add = (category: Category | undefined, n: number) => {
      counts[category ?? 'transaction_data'] += n;
    };

    const labelType: LabelType = target.type === 'user_id' ? 'customer_id' : target.type;
    const hash = hasher.hash(labelType, target.value);
    // This instance's buffers are written first (their records are then removed and counted below). Other
    // instances may hold records of this user in their buffers, or events on their way: the tombstone makes
    // them leave those out when they write (not counted here), and returns once every write that missed it ended.
    await this.deps.flushLogs();
    await store.deletedUsers.add(accountId, [hash], new Date().toISOString());
    const fields: IdentityField[] = target.type === 'user_id' ? ['customer', 'user'] : [target.type];

    // Scorings and outcomes (with what they put in the velocity windows, the evidence and the model history).
    const scorings: StoredScoring[] = [];
    for (const field of fields) scorings.push(...(await store.scorings.findByIdentity(accountId, field, hash)));
    const transactions = new Set<string>();
    for (const s of scorings) if (s.transactionId !== null) transactions.add(s.transactionId);
    for (const field of fields) {
      for (const o of await store.outcomes.findByIdentity(accountId, field, hash)) transactions.add(o.transactionId);
    }
    await this.deps.velocity.forget(scorings);
    // The model's per-device coordinates name a device of theirs (features.ts `device:<hash prefix>`).
    const devices = new Set(scorings.map((s) => s.identities.device).filter((d): d is string => d !== null));
    await store.model.deleteWeights(accountId, [...devices].map((d) => `device:${d.slice(0, DEVICE_FEATURE_HEX)}`));
    for (const field of fields) add('transaction_data', await store.scorings.deleteByIdentity(accountId, field, hash));
    for (const field of fields) add('transaction_data', await store.outcomes.deleteByIdentity(accountId, field, hash));
    for (const tx of transactions) {
      // Outcomes of their transactions that were keyed by another identity, and what those taught.
      if (await store.outcomes.delete(accountId, tx)) add('transaction_data', 1);
      add('transaction_data', await store.evidence.deleteByOrigin(accountId, `payment:${tx}`));
      await store.model.deleteHistoryByOrigin(accountId, `payment:${tx}`);
    }
    add(BY_LABEL[labelType], await store.evidence.deleteByIdentity(accountId, labelType, hash));
    // confirmed_fraud entries of the user and of the identities of their transactions.
    // One removal per category (each is a list change that bumps the account's policy version), not one per key.
    const listed = new Map<Category, Set<string>>();
    const list = (type: LabelType, h: string) => {
      const keys = listed.get(BY_LABEL[type]) ?? new Set<string>();
      keys.add(`${type}:${h}`);
      listed.set(BY_LABEL[type], keys);
    };
    list(labelType, hash);
    for (const s of scorings) for (const id of labelledIdentities(s.identities)) list(id.type, id.hash);
    for (const [category, keys] of listed) add(category, await this.deps.unlist(accountId, [...keys]));

    // Events (their webhook deliveries go with them), the decision log and the request log.
    const events = await store.events.deleteForUser(accountId, { userId: target.type === 'user_id' ? target.value : undefined, identityHashes: [hash] });
    for (const [kind, n] of Object.entries(events) as Array<[EventKind, number]>) add(BY_EVENT[kind], n);
    const decisions = await store.decisions.deleteForUser(accountId, {
      userId: target.type === 'user_id' ? target.value : undefined,
      needles: target.type === 'user_id' ? [] : [target.value],
      identityHashes: [hash],
    });
    for (const [group, n] of Object.entries(decisions)) add(BY_GROUP[group], n);
    if (target.type === 'user_id') {
      const entries = await store.requestLog.listByUser(accountId, target.value);
      await store.requestLog.deleteByUser(accountId, target.value);
      for (const e of entries) add(BY_OPERATION[e.operation], 1);
    }
    found.push(...scorings);
    return counts;
  }
}
