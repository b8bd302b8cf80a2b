import type { Database } from 'better-sqlite3';
import type { LearningWrite, LearningWriter } from '../learning-ports.ts';
import { type CheckedLearningWrite, learningWrites, outcomeParams } from '../learning-rows.ts';
import { prepareEvidence, prepareModel, prepareOutcomes } from './learning.ts';
import { SET_OUTCOME_SQL } from './scorings.ts';
import { settle } from './values.ts';

function prepare(db: Database) {
  const evidence = prepareEvidence(db);
  const model = prepareModel(db);
  return {
    putOutcome: prepareOutcomes(db).put,
    setScoringOutcome: db.prepare<[string, number, string, string]>(SET_OUTCOME_SQL),
    putEvidence: evidence.put,
    dropEvidenceOrigin: evidence.deleteByOrigin,
    upsertWeight: model.upsertWeight,
    appendHistory: model.appendHistory,
  };
}

/**
 * Feedback batches on SQLite: every write is checked first, then all run in order, synchronously, in one
 * IMMEDIATE transaction on the ports' own statements (SQL shared with learning.ts and scorings.ts). A failure
 * rolls the whole batch back and comes out as a rejection.
 */
export class SqliteLearningWriter implements LearningWriter {
  #statements: ReturnType<typeof prepare> | undefined;
  readonly #run: (writes: CheckedLearningWrite[]) => void;

  /** `flushScorings` writes the payment scorings buffered by the scorings port first (a batch may set their outcome). */
  constructor(
    private readonly db: Database,
    private readonly flushScorings: () => void = () => undefined,
  ) {
    const run = db.transaction((writes: CheckedLearningWrite[]) => {
      const s = this.statements;
      for (const write of writes) {
        switch (write.kind) {
          case 'outcome':
            s.putOutcome.run(...outcomeParams(write.values, (fraud) => (fraud ? 1 : 0)));
            break;
          case 'scoringOutcome':
            s.setScoringOutcome.run(write.outcome, write.fraud ? 1 : 0, write.accountId, write.transactionId);
            break;
          case 'evidence':
            s.putEvidence.run(...write.params);
            break;
          case 'dropEvidenceOrigin':
            s.dropEvidenceOrigin.run(write.accountId, write.origin);
            break;
          case 'model':
            for (const weight of write.weights) s.upsertWeight.run(write.accountId, weight.feature, weight.z, weight.n);
            s.appendHistory.run(write.history);
            break;
        }
      }
    });
    this.#run = (writes) => run.immediate(writes);
  }

  /** Prepared on first use (the tables exist once the store is migrated). */
  private get statements(): ReturnType<typeof prepare> {
    this.#statements ??= prepare(this.db);
    return this.#statements;
  }

  apply(writes: readonly LearningWrite[]): Promise<void> {
    return settle(() => {
      // Everything is checked before the transaction starts: a bad last write leaves the database untouched.
      const checked = learningWrites(writes);
      if (checked.length === 0) return;
      this.flushScorings();
      this.#run(checked);
    });
  }
}
