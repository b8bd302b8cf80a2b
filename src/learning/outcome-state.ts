/**
 * The two state machines of feedback (spec "States and transitions"). Pure: the caller reads the current
 * record, asks here what to do, and writes the answer.
 *
 * Payment outcome record (per transaction_id), spec table row by row:
 *
 * | Current | Incoming | Result |
 * |---|---|---|
 * | none | any, scored | write; status applied; label created |
 * | none | any, not scored | write; status pending; label created |
 * | X | X (same outcome) | label unchanged, no-op (retries are safe) |
 * | chargeback / fraud_confirmed | approved, declined, refunded | label unchanged, not replaced |
 * | chargeback / fraud_confirmed | legit_confirmed | write legit_confirmed; label updated |
 * | X | Y, otherwise | write Y; label updated (chargeback ↔ fraud_confirmed too; legit_confirmed → anything too) |
 *
 * Decisions beyond the table:
 * - "Same outcome" means the same outcome value and the same fraud verdict. A declined outcome resent
 *   with a reason that changes whether it counts as fraud (`insufficient funds` → `stolen card`) is an
 *   update, as it changes what learning sees; a reason that only rewords keeps the stored record as is.
 * - When the label is unchanged the stored outcome, reason and occurredAt stay. But a pending record whose
 *   transaction has been scored since (scoredCount > 0) is written again with status applied: the
 *   feedback is now matched, and the retry is the natural moment to notice. Nothing else changes.
 * - A write's status is applied when at least one scoring of the id exists, pending otherwise.
 * - Feedback is taken in arrival order; `occurred_at` is recorded, it does not reorder outcomes.
 *
 * Identity label (per identity): none → created; same label → unchanged; the other label → updated.
 */
import type { OutcomeRecord, PaymentOutcome } from '../store/learning-ports.ts';

export interface IncomingOutcome {
  outcome: PaymentOutcome;
  reason: string | null;
  /** ISO-8601 (UTC); the caller puts `now` when feedback carried no occurred_at. */
  occurredAt: string;
}

export interface OutcomeDecision {
  /** true: store the record fields below (with the caller's account, id, identities, updatedAt). */
  write: boolean;
  label: 'created' | 'updated' | 'unchanged';
  status: 'applied' | 'pending';
  /** The outcome in force after this feedback (the stored one when not replaced). */
  outcome: PaymentOutcome;
  fraud: boolean;
  reason: string | null;
  occurredAt: string;
  /** true when the outcome in force changed (created or updated): write it on every scoring and teach the model. */
  outcomeChanged: boolean;
}

/** Outcomes that only legit_confirmed may replace. */
const STICKY: ReadonlySet<PaymentOutcome> = new Set(['chargeback', 'fraud_confirmed']);
/** Outcomes that never replace a sticky one. */
const WEAK: ReadonlySet<PaymentOutcome> = new Set(['approved', 'declined', 'refunded']);

/**
 * Wording of a decline reason that makes it count as fraud: case-insensitive, whole words (a trailing
 * letter run is allowed on stems: fraud → fraudulent, fraudster; suspect → suspected). The list covers the
 * issuer decline reasons of card schemes (lost card, stolen card, pick up card, suspected fraud, security
 * violation) and merchants' own wording:
 * fraud*, stolen, lost card, lost or stolen, suspect*, suspicious, unauthorized / unauthorised,
 * chargeback risk, identity theft, compromised, counterfeit, pick up card / pickup card,
 * security violation, card testing, account takeover, scam*, phishing.
 * A match right after `not`, `no` or `non` (`not fraud`, `non-fraudulent`) does not count.
 */
export const FRAUD_REASON_TERMS = [
  'fraud\\w*',
  'stolen',
  'lost card',
  'lost or stolen',
  'suspect\\w*',
  'suspicious',
  'unauthori[sz]ed',
  'chargeback risk',
  'identity theft',
  'compromised',
  'counterfeit',
  'pick-?up card',
  'security violation',
  'card testing',
  'account takeover',
  'scam\\w*',
  'phishing',
] as const;

const WORD = '[\\p{L}\\p{N}]';
/** A term, not inside a longer word, not right after a negation word. */
const FRAUD_REASON = new RegExp(
  `(?<!${WORD})(?<!(?<!${WORD})(?:not|no|non)[\\s_-]+)(?:${FRAUD_REASON_TERMS.map((t) => t.replaceAll(' ', '[\\s_-]+').replaceAll('-?', '[\\s_-]?')).join('|')})(?!${WORD})`,
  'iu',
);
/** Reasons are bounded upstream (1000 characters); this bounds the scan for any other caller. */
const MAX_REASON_SCAN = 4000;

/** Whether a free-text reason says fraud (see FRAUD_REASON_TERMS). */
export function reasonMentionsFraud(reason: string | null | undefined): boolean {
  if (typeof reason !== 'string' || reason === '') return false;
  return FRAUD_REASON.test(reason.slice(0, MAX_REASON_SCAN));
}

/** chargeback and fraud_confirmed always; declined when the reason mentions fraud; others never. */
export function countsAsFraud(outcome: PaymentOutcome, reason: string | null | undefined): boolean {
  switch (outcome) {
    case 'chargeback':
    case 'fraud_confirmed':
      return true;
    case 'declined':
      return reasonMentionsFraud(reason);
    case 'approved':
    case 'refunded':
    case 'legit_confirmed':
      return false;
  }
}

/** What a payment feedback does to the outcome record of its transaction id. */
export function nextOutcome(current: OutcomeRecord | null, incoming: IncomingOutcome, scoredCount: number): OutcomeDecision {
  const scored = scoredCount > 0;
  const fraud = countsAsFraud(incoming.outcome, incoming.reason);
  const replace = (label: 'created' | 'updated'): OutcomeDecision => ({
    write: true,
    label,
    status: scored ? 'applied' : 'pending',
    outcome: incoming.outcome,
    fraud,
    reason: incoming.reason,
    occurredAt: incoming.occurredAt,
    outcomeChanged: true,
  });
  if (current === null) return replace('created');

  const keep = (): OutcomeDecision => {
    const promote = current.status === 'pending' && scored;
    return {
      write: promote,
      label: 'unchanged',
      status: promote ? 'applied' : current.status,
      outcome: current.outcome,
      fraud: current.fraud,
      reason: current.reason,
      occurredAt: current.occurredAt,
      outcomeChanged: false,
    };
  };

  if (incoming.outcome === current.outcome && fraud === current.fraud) return keep();
  if (STICKY.has(current.outcome) && WEAK.has(incoming.outcome)) return keep();
  return replace('updated');
}

export type IdentityLabel = 'fraud' | 'legit';

/** What a label feedback does to the label of its identity. */
export function nextLabel(current: IdentityLabel | null, incoming: IdentityLabel): { label: IdentityLabel; status: 'created' | 'updated' | 'unchanged' } {
  if (current === null) return { label: incoming, status: 'created' };
  return { label: incoming, status: current === incoming ? 'unchanged' : 'updated' };
}
