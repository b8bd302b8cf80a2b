import { stringOrNumberText } from '../intel/payment/parse.ts';
import type { DecisionLabel, DecisionLabeller } from '../policy/rules-service.ts';
import type { LabelType } from '../store/learning-ports.ts';
import type { DecisionRecord, Store } from '../store/ports.ts';
import { EVIDENCE_HALF_LIFE_DAYS } from './evidence.ts';
import { FRAUD_LABEL_THRESHOLD } from './label-lookups.ts';

/** Identities per evidence read (each a (type, hash) pair), and outcome reads in flight at a time. */
const CHUNK = 500;

/** `transaction_id` of a logged payment input as the scoring read it. */
function transactionIdOf(input: Readonly<Record<string, unknown>>): string | null {
  return stringOrNumberText(input.transaction_id) ?? null;
}

/**
 * Fraud and legit labels of logged live evaluations, as known now, for backtest precision and recall
 * (docs/policy.md):
 * - a payment evaluation takes its transaction's reported outcome: fraud when the outcome counts as fraud
 *   (chargeback, fraud_confirmed, declined with a fraud reason), legit for any other reported outcome;
 *   none when no outcome was reported;
 * - any other evaluation takes the labels of the identities it was about (the keyed hashes of its record):
 *   fraud when one of them has decayed evidence of at least FRAUD_LABEL_THRESHOLD (what makes the live
 *   checks treat it as fraud), else legit when one has legit evidence outweighing its fraud evidence by at
 *   least that much; else none.
 */
export class BacktestLabeller implements DecisionLabeller {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {}

  labels(accountId: string, group: string, records: readonly DecisionRecord[]): Promise<DecisionLabel[]> {
    return group === 'payment' ? this.byOutcome(accountId, records) : this.byEvidence(accountId, records);
  }

  private async byOutcome(accountId: string, records: readonly DecisionRecord[]): Promise<DecisionLabel[]> {
    const ids = records.map((r) => transactionIdOf(r.input));
    const distinct = [...new Set(ids.filter((id): id is string => id !== null))];
    const known = new Map<string, DecisionLabel>();
    // A few hundred reads in flight at a time: one round trip each on PostgreSQL, so not one after another.
    for (let i = 0; i < distinct.length; i += CHUNK) {
      const chunk = distinct.slice(i, i + CHUNK);
      const outcomes = await Promise.all(chunk.map((id) => this.store.outcomes.get(accountId, id)));
      chunk.forEach((id, k) => {
        const outcome = outcomes[k];
        if (outcome) known.set(id, outcome.fraud ? 'fraud' : 'legit');
      });
    }
    return ids.map((id) => (id === null ? null : (known.get(id) ?? null)));
  }

  private async byEvidence(accountId: string, records: readonly DecisionRecord[]): Promise<DecisionLabel[]> {
    const types = await this.store.evidence.labelledTypes(accountId);
    const hashes = new Set<string>();
    for (const r of records) for (const h of r.identities ?? []) hashes.add(h);
    if (types.length === 0 || hashes.size === 0) return records.map(() => null);
    // A record keeps its hashes without their types; a keyed hash covers its type (identity-hash.ts), so
    // asking for each labelled type finds the one it is.
    const pairs: Array<{ type: LabelType; valueHash: string }> = [];
    for (const valueHash of hashes) for (const type of types) pairs.push({ type, valueHash });
    const now = this.clock().toISOString();
    const score = new Map<string, number>();
    for (let i = 0; i < pairs.length; i += CHUNK) {
      for (const s of await this.store.evidence.scores(accountId, pairs.slice(i, i + CHUNK), now, EVIDENCE_HALF_LIFE_DAYS)) {
        score.set(s.valueHash, (score.get(s.valueHash) ?? 0) + s.score);
      }
    }
    return records.map((r) => {
      const scores = (r.identities ?? []).map((h) => score.get(h) ?? 0);
      if (scores.some((s) => s >= FRAUD_LABEL_THRESHOLD)) return 'fraud';
      if (scores.some((s) => s <= -FRAUD_LABEL_THRESHOLD)) return 'legit';
      return null;
    });
  }
}
