import type { LabelType, OutcomeRecord, PaymentOutcome, StoredScoring } from '../store/learning-ports.ts';
import { labelledIdentities } from './identity-labels.ts';
import type { FeedbackBatch } from './feedback-batch.ts';
import type { ModelService } from './model-service.ts';

/** What the model learns from an outcome: 1 fraud, 0 legit, null nothing (refunded, declined without a fraud reason). */
export function trainingLabel(outcome: PaymentOutcome, fraud: boolean): 0 | 1 | null {
  if (fraud) return 1;
  if (outcome === 'legit_confirmed' || outcome === 'approved') return 0;
  return null;
}

/** The label identities get from an outcome: fraud, legit (only a confirmed legit offsets fraud), or none. */
function evidenceLabel(outcome: PaymentOutcome, fraud: boolean): 'fraud' | 'legit' | null {
  if (fraud) return 'fraud';
  return outcome === 'legit_confirmed' ? 'legit' : null;
}

/** A hashed identity shown in place of the value it stands for (the value itself is never kept). */
export function maskedHash(hash: string): string {
  return `#${hash.slice(0, 8)}`;
}

/**
 * The effects of a payment outcome on learning, written into the feedback batch: identities of the
 * transaction (of every scoring of it, and those sent with the feedback for a never-scored one) get
 * evidence under the origin `payment:<transaction_id>` (replaced when the outcome changes, so retries
 * never add weight), the account's model trains on each scoring once per change of class, and fraud
 * identities are queued for the `confirmed_fraud` list (added when the account setting is on).
 */
export class OutcomeApplier {
  constructor(private readonly model: ModelService) {}

  /**
   * `trainOn`: scorings the model trains on; `all`: scorings whose identities get evidence;
   * `previousClass`: the training label of the outcome this one replaced.
   */
  async learn(batch: FeedbackBatch, record: OutcomeRecord, trainOn: readonly StoredScoring[], all: readonly StoredScoring[], previousClass: 0 | 1 | null, now: Date): Promise<void> {
    const origin = `payment:${record.transactionId}`;
    const label = evidenceLabel(record.outcome, record.fraud);
    batch.dropEvidenceOrigin(origin);
    const identities = new Map<string, { type: LabelType; hash: string }>();
    for (const h of [...all.map((s) => s.identities), record.identities]) {
      for (const id of labelledIdentities(h)) identities.set(`${id.type}:${id.hash}`, id);
    }
    if (label) {
      for (const { type, hash } of identities.values()) {
        batch.putEvidence({
          accountId: batch.accountId, type, valueHash: hash, origin, label, masked: maskedHash(hash),
          reason: record.reason, source: 'payment feedback', occurredAt: record.occurredAt, updatedAt: now.toISOString(),
        });
      }
    }
    const cls = trainingLabel(record.outcome, record.fraud);
    if (cls !== null && cls !== previousClass) {
      for (const s of trainOn) await this.model.train(batch, s.features, cls, origin, now);
    }
    if (label === 'fraud') for (const key of identities.keys()) batch.blacklist.add(key);
  }
}
