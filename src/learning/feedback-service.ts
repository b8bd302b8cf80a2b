import { ApiError } from '../http/errors.ts';
import type { Logger } from 'pino';
import type { IdentityHashes, LabelType, OutcomeRecord, PaymentOutcome } from '../store/learning-ports.ts';
import type { Store } from '../store/ports.ts';
import { FeedbackBatch } from './feedback-batch.ts';
import { kindOf, maskIdentity, parseEventFeedback, parsePaymentFeedback, type EventFeedback, type PaymentFeedback } from './feedback-input.ts';
import type { IdentityHasher } from './identity-hash.ts';
import { normaliseIdentity } from './identity-values.ts';
import { labelledIdentities } from './identity-labels.ts';
import { maskedHash, trainingLabel, type OutcomeApplier } from './outcome-applier.ts';
import { nextLabel, nextOutcome } from './outcome-state.ts';

export interface PaymentFeedbackResult {
  transaction_id: string;
  outcome: PaymentOutcome;
  status: 'applied' | 'pending';
  matched: number;
  label: 'created' | 'updated' | 'unchanged';
}

export interface LabelFeedbackResult {
  type?: LabelType;
  value?: string;
  event_id?: number;
  label: 'fraud' | 'legit';
  status: 'created' | 'updated' | 'unchanged';
}

export type BulkItemResult =
  | ({ index: number; kind: 'payment' } & PaymentFeedbackResult)
  | ({ index: number; kind: 'event' } & LabelFeedbackResult)
  | { index: number; kind: string | null; status: 'error'; code: number; description: string };

export interface BulkResult {
  received: number;
  created: number;
  updated: number;
  unchanged: number;
  pending: number;
  failed: number;
  results: BulkItemResult[];
}

export interface FeedbackCall {
  accountId: string;
  now: Date;
  /** Test mode: validate, store nothing, answer as a first feedback would. */
  test: boolean;
  /** The account setting autoBlacklistConfirmedFraud. */
  autoBlacklist: boolean;
}

/** Event kinds whose subject is one transaction: a label by event_id is also its payment outcome. */
const PAYMENT_EVENT = 'fraud_payment';

/**
 * The three feedback methods (spec "POST /feedback/payment", "/feedback/event", "/feedback/bulk"
 * and the two state tables). Each call's writes (a single item's, or a whole bulk's) are committed in
 * one transaction before the answer (FeedbackBatch): an acknowledged feedback is in the store with all
 * its effects, and a crash leaves either all of it or none. Feedback of one account is applied one
 * call at a time: in this process by a queue per account, across instances by the store's account
 * lock (a PostgreSQL advisory lock held from the first read to the commit), so concurrent retries of
 * the same item cannot both create it, a chargeback is never overwritten by an `approved` read before
 * it, and no training step reads weights another step is about to replace (docs/operations.md,
 * "Running several instances").
 */
export class FeedbackService {
  readonly #chains = new Map<string, Promise<unknown>>();
  /** Per call (a WeakMap: gone with the call), the keyed hashes of the account deleted since it was received. */
  readonly #deletedByCall = new WeakMap<FeedbackCall, Promise<Set<string>>>();

  constructor(
    private readonly store: Store,
    private readonly hasher: IdentityHasher,
    private readonly applier: OutcomeApplier,
    private readonly unlist: { add: (accountId: string, keys: string[]) => Promise<unknown> },
    private readonly logger: Logger,
    /** Told after each commit of an account's feedback (label lookups then read the store again). */
    private readonly onCommitted: (accountId: string) => void = () => undefined,
  ) {}

  payment(call: FeedbackCall, body: unknown): Promise<PaymentFeedbackResult> {
    const fb = parsePaymentFeedback(body, call.now);
    return this.inBatch(call, (batch) => this.applyPayment(call, batch, fb));
  }

  label(call: FeedbackCall, body: unknown): Promise<LabelFeedbackResult> {
    const fb = parseEventFeedback(body, call.now);
    return this.inBatch(call, (batch) => this.applyLabel(call, batch, fb));
  }

  /** Items in order, each on its own (a rejected item is reported and the next one goes on), committed together. */
  bulk(call: FeedbackCall, items: readonly unknown[]): Promise<BulkResult> {
    return this.inBatch(call, async (batch) => {
      const out: BulkResult = { received: items.length, created: 0, updated: 0, unchanged: 0, pending: 0, failed: 0, results: [] };
      for (const [index, item] of items.entries()) {
        let kind: string | null = null;
        try {
          kind = kindOf(item);
          if (kind === 'payment') {
            const r = await this.applyPayment(call, batch, parsePaymentFeedback(item, call.now));
            out.results.push({ index, kind, ...r });
            if (r.status === 'pending' && r.label === 'created') out.pending++;
            else out[r.label]++;
          } else {
            const r = await this.applyLabel(call, batch, parseEventFeedback(item, call.now));
            out.results.push({ index, kind: 'event', ...r });
            out[r.status]++;
          }
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          out.failed++;
          out.results.push({ index, kind, status: 'error', code: err.code, description: err.message });
        }
      }
      return out;
    });
  }

  /**
   * A payment outcome that arrived before its transaction was scored meets its first scoring (or an
   * applied one meets a new scoring of the same id): written on the scorings and learned from.
   */
  applyToScoring(call: FeedbackCall, transactionId: string): Promise<void> {
    return this.inBatch(call, (batch) => this.meetScorings(call, batch, transactionId));
  }

  /**
   * The stored outcome of a transaction meets its scorings that have none yet (a scoring stored while
   * the outcome was pending, or one that came after it was applied). A scoring whose outcome column is
   * filled has met it already, so each scoring is learned from once whichever instance gets here first.
   */
  private async meetScorings(call: FeedbackCall, batch: FeedbackBatch, transactionId: string): Promise<void> {
    const record = await batch.outcome(transactionId);
    if (!record) return;
    const scorings = await this.store.scorings.byTransaction(call.accountId, transactionId);
    const fresh = scorings.filter((s) => s.outcome === null);
    if (fresh.length === 0) return;
    batch.setScoringOutcome(transactionId, record.outcome, record.fraud);
    const applied: OutcomeRecord = { ...record, status: 'applied', updatedAt: call.now.toISOString() };
    if (record.status === 'pending') batch.putOutcome(applied);
    await this.applier.learn(batch, applied, fresh, scorings, null, call.now);
  }

  /** Runs `work` on a new batch in the account's queue and lock, commits it, then applies list additions. */
  private inBatch<T>(call: FeedbackCall, work: (batch: FeedbackBatch) => Promise<T>): Promise<T> {
    if (call.test) return work(new FeedbackBatch(this.store, call.accountId));
    return this.serial(call.accountId, () => this.store.locks.withAccountLock('learning', call.accountId, async () => {
      const batch = new FeedbackBatch(this.store, call.accountId);
      const result = await work(batch);
      await batch.commit();
      // A scoring stored on another instance after this batch read the transaction's scorings (none) found no
      // outcome then (it reads after its insert): read them again now the pending outcome is committed.
      for (const transactionId of batch.pendingWritten()) {
        const again = new FeedbackBatch(this.store, call.accountId);
        await this.meetScorings(call, again, transactionId);
        await again.commit();
        for (const key of again.blacklist) batch.blacklist.add(key);
      }
      this.onCommitted(call.accountId);
      if (call.autoBlacklist && batch.blacklist.size > 0) {
        // Idempotent: a retry after a crash between the commit and this adds them again.
        try {
          await this.unlist.add(call.accountId, [...batch.blacklist]);
        } catch (err) {
          this.logger.error({ err, accountId: call.accountId }, 'automatic confirmed_fraud blacklisting failed');
          throw err;
        }
      }
      return result;
    }));
  }

  /**
   * Runs `work` while no feedback of the account runs, in this process (its queue) or on another instance (the
   * account lock): a user deletion, so no feedback reads the user's records before it and writes after it.
   */
  exclusive<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    return this.serial(accountId, () => this.store.locks.withAccountLock('learning', accountId, work));
  }

  /**
   * Whether one of these keyed hashes (a customer or user id, an email, a phone) was deleted after the call was
   * received: the call waited behind the deletion, and writes nothing of the user, as if it had come first and
   * been deleted with the rest.
   */
  private async deletedSince(call: FeedbackCall, hashes: ReadonlyArray<string | null>): Promise<boolean> {
    // The account's deletions since the call, read once per call: under the account's lock, which deletions
    // take too, none can be added meanwhile.
    let deleted = this.#deletedByCall.get(call);
    if (!deleted) {
      deleted = this.store.deletedUsers.find(call.accountId, null, call.now.toISOString()).then((rows) => new Set(rows.map((r) => r.valueHash)));
      this.#deletedByCall.set(call, deleted);
    }
    const found = await deleted;
    return found.size > 0 && hashes.some((h) => h !== null && found.has(h));
  }

  private serial<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(accountId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.#chains.set(accountId, next);
    void next.finally(() => {
      if (this.#chains.get(accountId) === next) this.#chains.delete(accountId);
    }).catch(() => undefined);
    return next;
  }

  private feedbackIdentities(fb: PaymentFeedback): IdentityHashes {
    const h = (type: LabelType, v: string | undefined) => {
      const n = v === undefined ? null : normaliseIdentity(type, v);
      return n === null ? null : this.hasher.hash(type, n);
    };
    const email = fb.customerEmail === undefined ? null : normaliseIdentity('email', fb.customerEmail);
    return {
      customer: h('customer_id', fb.customerId),
      user: null,
      email: email === null ? null : this.hasher.hash('email', email),
      emailDomain: email === null ? null : h('email_domain', email),
      phone: h('phone', fb.customerPhone),
      ip: h('ip', fb.customerIp),
      device: h('device_id', fb.customerDeviceId),
      card: null,
    };
  }

  private async applyPayment(call: FeedbackCall, batch: FeedbackBatch, fb: PaymentFeedback): Promise<PaymentFeedbackResult> {
    const { accountId, now } = call;
    const occurredAt = fb.occurredAt ?? now.toISOString();
    if (call.test) {
      return { transaction_id: fb.transactionId, outcome: fb.outcome, status: 'pending', matched: 0, label: 'created' };
    }
    const [current, scorings] = await Promise.all([
      batch.outcome(fb.transactionId),
      this.store.scorings.byTransaction(accountId, fb.transactionId),
    ]);
    const decision = nextOutcome(current, { outcome: fb.outcome, reason: fb.reason ?? null, occurredAt }, scorings.length);
    const sent = this.feedbackIdentities(fb);
    const record: OutcomeRecord = {
      accountId,
      transactionId: fb.transactionId,
      outcome: decision.outcome,
      fraud: decision.fraud,
      reason: decision.reason,
      occurredAt: decision.occurredAt,
      status: decision.status,
      // Identities sent now join those sent before (a retry may carry more of them).
      identities: mergeIdentities(current?.identities, sent),
      updatedAt: now.toISOString(),
    };
    const result: PaymentFeedbackResult = { transaction_id: fb.transactionId, outcome: record.outcome, status: record.status, matched: record.status === 'applied' ? scorings.length : 0, label: decision.label };
    const people = [record.identities, ...scorings.map((s) => s.identities)].flatMap((i) => [i.customer, i.user, i.email, i.phone]);
    if (await this.deletedSince(call, people)) return result;
    if (decision.write) {
      batch.putOutcome(record);
      const meets = decision.outcomeChanged || (current?.status === 'pending' && decision.status === 'applied');
      if (meets && scorings.length > 0) batch.setScoringOutcome(fb.transactionId, record.outcome, record.fraud);
      if (meets) {
        const previousClass = current && current.status === 'applied' ? trainingLabel(current.outcome, current.fraud) : null;
        await this.applier.learn(batch, record, scorings, scorings, previousClass, now);
      }
    } else if (record.fraud) {
      // A retry of a fraud outcome re-queues its list entries (idempotent), in case a crash came between commit and listing.
      for (const s of scorings) for (const { type, hash } of labelledIdentities(s.identities)) batch.blacklist.add(`${type}:${hash}`);
    }
    return result;
  }

  private async applyLabel(call: FeedbackCall, batch: FeedbackBatch, fb: EventFeedback): Promise<LabelFeedbackResult> {
    if ('eventId' in fb) return this.applyEventLabel(call, batch, fb.eventId, fb);
    const normal = normaliseIdentity(fb.type, fb.value);
    if (normal === null) throw new ApiError(131, `The value is not a valid ${fb.type}.`);
    const shown = maskIdentity(fb.type, normal);
    if (call.test) return { type: fb.type, value: shown, label: fb.label, status: 'created' };
    const hash = this.hasher.hash(fb.type, normal);
    const status = await this.putLabel(call, batch, fb.type, hash, 'label', fb, shown);
    return { type: fb.type, value: shown, label: fb.label, status };
  }

  /** Writes the label of one identity under one origin; returns the state table's status. */
  private async putLabel(call: FeedbackCall, batch: FeedbackBatch, type: LabelType, hash: string, origin: string, fb: Pick<EventFeedback, 'label' | 'reason' | 'source' | 'occurredAt'>, masked: string) {
    const current = await batch.evidence(type, hash, origin);
    const next = nextLabel(current?.label ?? null, fb.label);
    if (await this.deletedSince(call, [hash])) return next.status;
    if (next.status !== 'unchanged') {
      batch.putEvidence({
        accountId: call.accountId, type, valueHash: hash, origin, label: next.label, masked,
        reason: fb.reason ?? null, source: fb.source ?? null, occurredAt: fb.occurredAt ?? call.now.toISOString(), updatedAt: call.now.toISOString(),
      });
    }
    // Also on a retry: listing is idempotent, and repairs a crash between commit and listing.
    if (next.label === 'fraud') batch.blacklist.add(`${type}:${hash}`);
    return next.status;
  }

  /**
   * A label on an event: fraud marks a true positive, legit a false positive. The event's identity
   * gets the label (origin `event:<id>`); for a payment alert the transaction also gets the outcome
   * fraud_confirmed or legit_confirmed, as a payment feedback would.
   */
  private async applyEventLabel(call: FeedbackCall, batch: FeedbackBatch, eventId: number, fb: EventFeedback): Promise<LabelFeedbackResult> {
    const event = await this.store.events.getEvent(call.accountId, eventId);
    if (!event) throw new ApiError(131, `No event ${eventId} exists for this account: send the event_id of an event from the event log or a webhook.`);
    if (call.test) return { event_id: eventId, label: fb.label, status: 'created' };
    let status: LabelFeedbackResult['status'] = 'unchanged';
    if (event.identity) {
      status = await this.putLabel(call, batch, event.identity.type, event.identity.hash, `event:${eventId}`, fb, maskedHash(event.identity.hash));
    }
    const transactionId = event.kind === PAYMENT_EVENT ? event.summary.transaction_id : undefined;
    if (typeof transactionId === 'string' && transactionId !== '') {
      const r = await this.applyPayment(call, batch, {
        transactionId,
        outcome: fb.label === 'fraud' ? 'fraud_confirmed' : 'legit_confirmed',
        reason: fb.reason,
        occurredAt: fb.occurredAt,
        customerId: undefined, customerEmail: undefined, customerPhone: undefined, customerIp: undefined, customerDeviceId: undefined,
      });
      if (status === 'unchanged') status = r.label;
    }
    return { event_id: eventId, label: fb.label, status };
  }
}

function mergeIdentities(before: IdentityHashes | undefined, now: IdentityHashes): IdentityHashes {
  if (!before) return now;
  const out = { ...before };
  for (const [k, v] of Object.entries(now) as Array<[keyof IdentityHashes, string | null]>) if (v !== null) out[k] = v;
  return out;
}
