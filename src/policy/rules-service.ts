import type { Store } from '../store/ports.ts';
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
  /** Precision and recall against fraud/legit feedback labels; null until the learning feature stores labels. */
  labels: null;
}

const MAX_BACKTEST = 100_000;

/** Custom rules of an account: CRUD for the admin API, CLI and seed, rule testing and backtests. */
export class RulesService {
  constructor(
    private readonly store: Store,
    private readonly snapshots: PolicySnapshots,
    private readonly clock: () => Date = () => new Date(),
  ) {}

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
    const compiled = compileRule(rule);
    const examples: BacktestResult['examples'] = [];
    let matched = 0;
    for (const record of records.slice(0, limit)) {
      if (!compiled.matches({ input: record.input, ...record.result })) continue;
      matched++;
      if (examples.length < (body.examples ?? 10)) {
        examples.push({ at: record.at, operation: record.operation, userId: record.userId, input: record.input, result: record.result });
      }
    }
    return { group: rule.group, from: body.from, to: body.to, evaluated: Math.min(records.length, limit), matched, truncated, examples, labels: null };
  }

  private async ruleFor(accountId: string, body: { ruleId?: string; rule?: unknown }): Promise<CustomRule> {
    if (body.ruleId !== undefined) return this.get(accountId, body.ruleId);
    if (body.rule === undefined) throw new PolicyError('invalid', 'send either "ruleId" (a saved rule) or "rule" (a draft)');
    const draft: RuleDraft = parseRuleDraft(body.rule);
    const now = this.clock().toISOString();
    return { ...draft, id: draft.id ?? 'draft', createdAt: now, updatedAt: now };
  }
}
