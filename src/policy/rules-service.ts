import type { DecisionRecord, Store } from '../store/ports.ts';
import { PolicyError } from './errors.ts';
import { compileRule, traceRule, type RuleTrace } from './rules/evaluate.ts';
import { parseRuleDraft, type RuleDraft } from './rules/schema.ts';
import type { PolicySnapshots } from './snapshots.ts';
import type { CustomRule, RuleAction } from './types.ts';

export interface RuleTestResult extends RuleTrace {
  /** The action the rule would take on this input: its action when it matched, else null. */
  wouldApply: RuleAction | null;
}

export interface BacktestResult {
  group: string;
  from: string;
  to: string;
  /** Logged live evaluations of the group in the period that the rule was run over. */
  evaluated: number;
  matched: number;
  /** True when the period held more evaluations than `limit`: only the oldest `limit` were run. */
  truncated: boolean;
  examples: Array<{ at: string; operation: string; userId: string | null; input: Record<string, unknown>; result: Record<string, unknown> }>;
  /** Precision and recall against fraud/legit feedback labels; null on a server without the learning services. */
  labels: BacktestLabels | null;
}

/** What is known now of one logged evaluation: labelled fraud, labelled legit, or neither. */
export type DecisionLabel = 'fraud' | 'legit' | null;

/** Labels of logged evaluations for backtests (src/learning/backtest-labels.ts). */
export interface DecisionLabeller {
  /** One label per record, in the records' order. */
  labels(accountId: string, group: string, records: readonly DecisionRecord[]): Promise<DecisionLabel[]>;
}

/** A backtest's matches against the labelled evaluations among those it ran over. */
export interface BacktestLabels {
  /** Evaluations labelled fraud or legit (the others count in neither figure). */
  labelled: number;
  fraud: number;
  legit: number;
  /** Matched and labelled fraud. */
  truePositives: number;
  /** Matched and labelled legit. */
  falsePositives: number;
  /** Not matched, labelled fraud. */
  falseNegatives: number;
  /** Not matched, labelled legit. */
  trueNegatives: number;
  /** truePositives / (truePositives + falsePositives); null when the rule matched no labelled evaluation. */
  precision: number | null;
  /** truePositives / fraud; null when no evaluation is labelled fraud. */
  recall: number | null;
}

/** Counts of the matches (one flag per evaluation) against their labels (same order). */
export function backtestLabels(matched: readonly boolean[], labels: readonly DecisionLabel[]): BacktestLabels {
  let [tp, fp, fn, tn] = [0, 0, 0, 0];
  matched.forEach((hit, i) => {
    const label = labels[i];
    if (label === 'fraud') {
      if (hit) tp++;
      else fn++;
    } else if (label === 'legit') {
      if (hit) fp++;
      else tn++;
    }
  });
  return {
    labelled: tp + fp + fn + tn,
    fraud: tp + fn,
    legit: fp + tn,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
  };
}

const MAX_BACKTEST = 100_000;

/** Custom rules of an account: CRUD for the admin API, CLI and seed, rule testing and backtests. */
export class RulesService {
  #labeller: DecisionLabeller | undefined;

  constructor(
    private readonly store: Store,
    private readonly snapshots: PolicySnapshots,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Backtests report precision and recall from these labels (set once the learning services exist). */
  useLabels(labeller: DecisionLabeller): void {
    this.#labeller = labeller;
  }

  list(accountId: string): Promise<CustomRule[]> {
    return this.store.policy.listRules(accountId);
  }

  async get(accountId: string, id: string): Promise<CustomRule> {
    const rule = await this.store.policy.getRule(accountId, id);
    if (!rule) throw new PolicyError('not_found', `account "${accountId}" has no rule "${id}"`);
    return rule;
  }

  /** Validates and saves a new rule; the id is assigned unless the draft brings one. */
  async create(accountId: string, raw: unknown): Promise<CustomRule> {
    const draft = parseRuleDraft(raw);
    const now = this.clock().toISOString();
    const saved = await this.store.policy.insertRule(accountId, { ...draft, id: draft.id ?? '', createdAt: now, updatedAt: now });
    this.snapshots.invalidate(accountId);
    return saved;
  }

  /** Replaces the whole rule (the id in the path wins over one in the body). */
  async replace(accountId: string, id: string, raw: unknown): Promise<CustomRule> {
    const current = await this.get(accountId, id);
    const draft = parseRuleDraft(raw);
    if (draft.id !== undefined && draft.id !== id) throw new PolicyError('invalid', `the body names rule "${draft.id}" but the path names "${id}"`);
    const next: CustomRule = { ...draft, id, createdAt: current.createdAt, updatedAt: this.clock().toISOString() };
    await this.store.policy.replaceRule(accountId, next);
    this.snapshots.invalidate(accountId);
    return next;
  }

  async setEnabled(accountId: string, id: string, enabled: boolean): Promise<CustomRule> {
    const current = await this.get(accountId, id);
    const next: CustomRule = { ...current, enabled, updatedAt: this.clock().toISOString() };
    await this.store.policy.replaceRule(accountId, next);
    this.snapshots.invalidate(accountId);
    return next;
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!(await this.store.policy.deleteRule(accountId, id))) throw new PolicyError('not_found', `account "${accountId}" has no rule "${id}"`);
    this.snapshots.invalidate(accountId);
  }

  /** Seed: a rule with an id is created or replaced; one without an id replaces the rule of the same group and title. */
  async upsertFromSeed(accountId: string, raw: unknown): Promise<CustomRule> {
    const draft = parseRuleDraft(raw);
    const existing = await this.list(accountId);
    const same = draft.id !== undefined ? existing.find((r) => r.id === draft.id) : existing.find((r) => r.group === draft.group && r.title === draft.title);
    if (same) return this.replace(accountId, same.id, { ...(raw as object), id: same.id });
    return this.create(accountId, raw);
  }

  /** Runs a saved or draft rule on a sample, condition by condition; saves nothing. */
  async test(accountId: string, body: { ruleId?: string; rule?: unknown; input?: Record<string, unknown>; result?: Record<string, unknown> }): Promise<RuleTestResult> {
    const rule = await this.ruleFor(accountId, body);
    const trace = traceRule(rule, { input: body.input ?? {}, ...(body.result ?? {}) });
    return { ...trace, wouldApply: trace.matched ? rule.action : null };
  }

  /** Runs a saved or draft rule over the account's logged live evaluations of its group in [from, to). */
  async backtest(accountId: string, body: { ruleId?: string; rule?: unknown; from: string; to: string; limit?: number; examples?: number }): Promise<BacktestResult> {
    const rule = await this.ruleFor(accountId, body);
    const limit = Math.min(body.limit ?? MAX_BACKTEST, MAX_BACKTEST);
    const records = await this.store.decisions.list(accountId, rule.group, body.from, body.to, limit + 1);
    const truncated = records.length > limit;
    const evaluated = records.slice(0, limit);
    const compiled = compileRule(rule);
    const examples: BacktestResult['examples'] = [];
    const hits = evaluated.map((record) => compiled.matches({ input: record.input, ...record.result }));
    let matched = 0;
    evaluated.forEach((record, i) => {
      if (!hits[i]) return;
      matched++;
      if (examples.length < (body.examples ?? 10)) {
        examples.push({ at: record.at, operation: record.operation, userId: record.userId, input: record.input, result: record.result });
      }
    });
    const labels = this.#labeller ? backtestLabels(hits, await this.#labeller.labels(accountId, rule.group, evaluated)) : null;
    return { group: rule.group, from: body.from, to: body.to, evaluated: evaluated.length, matched, truncated, examples, labels };
  }

  private async ruleFor(accountId: string, body: { ruleId?: string; rule?: unknown }): Promise<CustomRule> {
    if (body.ruleId !== undefined) return this.get(accountId, body.ruleId);
    if (body.rule === undefined) throw new PolicyError('invalid', 'send either "ruleId" (a saved rule) or "rule" (a draft)');
    const draft: RuleDraft = parseRuleDraft(body.rule);
    const now = this.clock().toISOString();
    return { ...draft, id: draft.id ?? 'draft', createdAt: now, updatedAt: now };
  }
}
