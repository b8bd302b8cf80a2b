import type { AnswerNotes } from '../http/answer-notes.ts';
import type { PendingDecision } from '../store/ports.ts';
import type { EventRaiser } from './events/raise.ts';
import { decide } from './rules/decide.ts';
import type { PolicySnapshots } from './snapshots.ts';
import type { EndpointPolicy, PolicyContribution, PolicySubject } from './types.ts';

export interface PolicyCall {
  accountId: string;
  operation: string;
  /** Live key and live mode: only then are events raised and decisions logged. */
  live: boolean;
  userId: string | null;
  now: Date;
  /** `explain=yes`: collect what took part (otherwise nothing is collected on the hot path). */
  explain: boolean;
  /** The endpoint's own request parameters, as rules see them under `input.`. */
  input: Readonly<Record<string, unknown>>;
  /** What the endpoint kept beside its answer for this request (answer-notes.ts). */
  notes: AnswerNotes;
  /**
   * Tasks the caller runs once the answer is written (the pipeline does, in the same turn as the
   * write). Events are stored through it: the answer does not depend on them (a failed store is only
   * logged), so the caller need not wait for their transaction. Absent: events are stored before
   * `apply` resolves.
   */
  afterAnswer?: Array<() => void>;
}

/**
 * The policy stage of the pipeline, run after the engine built its answer: the account's lists and
 * rules of the endpoint's group are applied to every subject of the answer, then events are raised
 * for live calls (stored once the answer is written, when the caller gives `afterAnswer`). Endpoints
 * only declare an EndpointPolicy; this is the one place that applies it.
 */
export class PolicyStage {
  constructor(
    private readonly snapshots: PolicySnapshots,
    private readonly events: EventRaiser,
    private readonly logDecision: ((record: PendingDecision) => void) | undefined,
  ) {}

  /** Applies the policy to every subject of `data`; returns what took part when `call.explain`. */
  async apply(policy: EndpointPolicy, data: unknown, call: PolicyCall): Promise<PolicyContribution[]> {
    const snapshot = await this.snapshots.get(call.accountId);
    const rules = policy.group ? snapshot.rules.get(policy.group) : undefined;
    // Subjects of a live call: each is asked for its event once the verdicts are written.
    const live: PolicySubject[] = [];
    const contributions: PolicyContribution[] = [];
    for (const subject of policy.subjects(data, call.input, call.notes)) {
      const hits = snapshot.lists.hits(subject.lists);
      // Rules see the engine's result before the verdict is written into it.
      const seen = { input: subject.input, ...subject.result };
      const candidates = rules ? rules.candidates(seen) : [];
      const verdict = decide(candidates, seen, hits);
      subject.apply(verdict);
      if (call.explain) {
        for (const hit of hits) contributions.push({ source: 'blacklist', type: hit.type, value: hit.value, effect: 'blacklisted' });
        for (const applied of verdict.rulesApplied.rules) {
          const rule = candidates.find((c) => c.id === applied.id);
          if (rule) contributions.push({ source: 'custom_rule', id: rule.id, title: rule.title, action: rule.action });
        }
      }
      if (!call.live) continue;
      if (policy.group && this.logDecision) {
        this.logDecision({
          accountId: call.accountId,
          group: policy.group,
          operation: call.operation,
          userId: call.userId,
          at: call.now.toISOString(),
          input: { ...subject.input },
          result: subject.logged ? subject.logged() : { ...subject.result },
          // Hashed when the log batch is written, off the caller's wait.
          ...(subject.identities && { identities: subject.identities }),
        });
      }
      if (subject.settle) await subject.settle();
      live.push(subject);
    }
    if (live.length > 0) {
      const origin = { accountId: call.accountId, operation: call.operation, userId: call.userId, at: call.now };
      // Events are built from the final results, which nothing changes once the verdicts are written.
      if (call.afterAnswer) call.afterAnswer.push(() => void this.events.raise(origin, live));
      else await this.events.raise(origin, live);
    }
    return contributions;
  }
}
