/**
 * Validation of a custom rule as sent by the admin API, the CLI or a seed file. Every problem is
 * reported with its path (`conditions.all.2.op: unknown operator "like"; ...`) so the author can
 * fix them all at once. The rule that comes out is rebuilt from the checked parts only.
 */
import { RE2JSException } from 're2js';
import { z } from 'zod';
import {
  ACTION_TYPES, ACTIONS_BY_GROUP, RULE_GROUPS, RULE_OPS,
  type ActionType, type Condition, type ConditionGroup, type ConditionNode, type CustomRule, type RuleAction, type RuleGroup, type RuleOp,
} from '../types.ts';
import { compilePattern, isPrimitive, toNumber } from './compare.ts';
import { fieldType, listFields } from './fields.ts';
import { parseNetwork } from '../blacklists/ip-parse.ts';

export type RuleDraft = Omit<CustomRule, 'createdAt' | 'updatedAt' | 'id'> & { id?: string };

export const RULE_LIMITS = {
  /** Groups nest at most this deep, the root group being depth 1. */
  depth: 8,
  /** Conditions and nested groups under the root, in total. */
  conditions: 200,
  /** Values of one `in`, `not_in` or `in_cidr` list. */
  listItems: 10_000,
  patternLength: 1000,
  titleLength: 200,
} as const;

export interface RuleIssue {
  path: string;
  message: string;
}

/** A rule that cannot be saved; `message` lists every issue, one per line. */
export class RuleError extends Error {
  readonly issues: readonly RuleIssue[];

  constructor(issues: readonly RuleIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    this.name = 'RuleError';
    this.issues = issues;
  }
}

/** A value quoted for an error message, cut short so a huge bad value cannot bloat the answer. */
function show(v: unknown): string {
  const text = v === undefined ? 'nothing' : (JSON.stringify(v) ?? typeof v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const Envelope = z.strictObject({
  id: z
    .string({ error: 'expected a string such as "CR101"' })
    .regex(/^CR[1-9]\d{0,8}$/, 'expected "CR" followed by a number from 101 up')
    .refine((id) => Number(id.slice(2)) >= 101, 'rule ids start at CR101')
    .optional(),
  title: z
    .string({ error: (i) => (i.input === undefined ? 'required' : 'expected a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(RULE_LIMITS.titleLength, `at most ${RULE_LIMITS.titleLength} characters`),
  group: z.enum(RULE_GROUPS, {
    error: (i) => (i.input === undefined ? `required; one of ${RULE_GROUPS.join(', ')}` : `unknown group ${show(i.input)}; allowed: ${RULE_GROUPS.join(', ')}`),
  }),
  enabled: z.boolean({ error: 'expected true or false' }).default(true),
  conditions: z.unknown(),
  action: z.unknown(),
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Collects issues while walking the conditions tree. */
class Checker {
  readonly issues: RuleIssue[] = [];
  private count = 0;
  private tooMany = false;

  constructor(private readonly group: RuleGroup | undefined) {}

  add(path: string, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  root(raw: unknown): ConditionGroup | undefined {
    if (raw === undefined) return this.add('conditions', 'required: {all: [...]} or {any: [...]}');
    if (!isObject(raw) || !('all' in raw || 'any' in raw)) return this.add('conditions', 'the root must be a group: {all: [...]} or {any: [...]}');
    return this.groupNode(raw, 'conditions', 1);
  }

  private node(raw: unknown, path: string, depth: number): ConditionNode | undefined {
    if (!isObject(raw)) return this.add(path, 'expected a condition {field, op, value} or a group {all: [...]} or {any: [...]}');
    return 'all' in raw || 'any' in raw ? this.groupNode(raw, path, depth) : this.leaf(raw, path);
  }

  private groupNode(raw: Record<string, unknown>, path: string, depth: number): ConditionGroup | undefined {
    const key = 'all' in raw ? 'all' : 'any';
    const extra = Object.keys(raw).filter((k) => k !== key);
    if (extra.length > 0) this.add(path, `a group has one key, "all" or "any"; also found: ${extra.join(', ')}`);
    const list = raw[key];
    if (!Array.isArray(list)) return this.add(`${path}.${key}`, 'expected a list of conditions');
    if (depth > RULE_LIMITS.depth) return this.add(path, `groups nest at most ${RULE_LIMITS.depth} deep`);
    const children: ConditionNode[] = [];
    for (let i = 0; i < list.length; i++) {
      if (++this.count > RULE_LIMITS.conditions) {
        if (!this.tooMany) this.add('conditions', `at most ${RULE_LIMITS.conditions} conditions (nested groups included)`);
        this.tooMany = true;
        return undefined;
      }
      const child = this.node(list[i], `${path}.${key}.${i}`, depth + 1);
      if (child) children.push(child);
    }
    return key === 'all' ? { all: children } : { any: children };
  }

  private leaf(raw: Record<string, unknown>, path: string): Condition | undefined {
    for (const k of Object.keys(raw)) {
      if (k !== 'field' && k !== 'op' && k !== 'value') this.add(`${path}.${k}`, 'unknown key; a condition has field, op and value');
    }
    const field = this.field(raw['field'], `${path}.field`);
    const op = raw['op'];
    if (typeof op !== 'string' || !(RULE_OPS as readonly string[]).includes(op)) {
      return this.add(`${path}.op`, `${op === undefined ? 'required' : `unknown operator ${show(op)}`}; allowed: ${RULE_OPS.join(', ')}`);
    }
    const ok = this.value(op as RuleOp, raw['value'], `${path}.value`, field);
    if (field === undefined || !ok) return undefined;
    return raw['value'] === undefined ? { field, op: op as RuleOp } : { field, op: op as RuleOp, value: raw['value'] };
  }

  private field(raw: unknown, path: string): string | undefined {
    if (typeof raw !== 'string' || raw === '') return this.add(path, raw === undefined ? 'required' : 'expected a field path such as "countryCode"');
    if (this.group && fieldType(this.group, raw) === undefined) {
      const last = raw.slice(raw.lastIndexOf('.') + 1);
      const near = listFields(this.group).filter((f) => f.path.endsWith(`.${last}`) || f.path === last).map((f) => f.path);
      const hint = near.length > 0 && near.length <= 3 ? `; did you mean ${near.join(' or ')}?` : '';
      return this.add(path, `unknown field ${show(raw)} for group ${this.group}${hint}`);
    }
    return raw;
  }

  /** Checks the value for the operator; true when it fits. */
  private value(op: RuleOp, value: unknown, path: string, field: string | undefined): boolean {
    const fail = (message: string): false => (this.add(path, message), false);
    switch (op) {
      case 'eq':
      case 'neq':
        if (value === null) return fail('null is not a value; to test a missing field use op "exists" with value false');
        return isPrimitive(value) || fail(`${value === undefined ? 'required' : 'expected'}: a string, number or boolean`);
      case 'in':
      case 'not_in':
        return this.list(value, path, isPrimitive, 'expected a string, number or boolean');
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return !Number.isNaN(toNumber(value)) || fail(`${value === undefined ? 'required' : 'expected'}: a number`);
      case 'exists':
        return value === undefined || typeof value === 'boolean' || fail('expected true or false (or no value, meaning true)');
      case 'in_cidr': {
        const isCidr = (v: unknown): boolean => typeof v === 'string' && parseNetwork(v) !== null;
        if (!Array.isArray(value)) return isCidr(value) || fail(`expected an IP address or CIDR (or a list of them), got ${show(value)}`);
        return this.list(value, path, isCidr, 'not an IP address or CIDR');
      }
      case 'matches':
        return this.pattern(value, path);
      case 'contains': {
        if (typeof value === 'string') return value !== '' || fail('must not be empty');
        // Numbers and booleans make sense as list members only; an unknown field is reported already.
        const type = this.group && field !== undefined ? fieldType(this.group, field) : undefined;
        if (type === 'list' || type === undefined) return isPrimitive(value) || fail(`${value === undefined ? 'required' : 'expected'}: a string, number or boolean`);
        return fail(value === undefined ? 'required: a string' : 'expected a string (numbers and booleans only on list fields)');
      }
      case 'starts_with':
      case 'ends_with':
        if (typeof value !== 'string') return fail(value === undefined ? 'required: a string' : 'expected a string');
        return value !== '' || fail('must not be empty');
    }
  }

  private list(value: unknown, path: string, ok: (v: unknown) => boolean, message: string): boolean {
    if (!Array.isArray(value) || value.length === 0) return (this.add(path, value === undefined ? 'required: a non-empty list' : 'expected a non-empty list'), false);
    if (value.length > RULE_LIMITS.listItems) return (this.add(path, `at most ${RULE_LIMITS.listItems} values`), false);
    let good = true;
    for (let i = 0; i < value.length; i++) {
      if (!ok(value[i])) {
        this.add(`${path}.${i}`, `${message}: ${show(value[i])}`);
        good = false;
      }
    }
    return good;
  }

  private pattern(value: unknown, path: string): boolean {
    if (typeof value !== 'string') return (this.add(path, value === undefined ? 'required: a pattern' : 'expected a pattern string'), false);
    if (value === '') return (this.add(path, 'must not be empty'), false);
    if (value.length > RULE_LIMITS.patternLength) return (this.add(path, `at most ${RULE_LIMITS.patternLength} characters`), false);
    try {
      compilePattern(value);
      return true;
    } catch (err) {
      if (!(err instanceof RE2JSException)) throw err;
      this.add(path, `not a valid RE2 pattern: ${err.message}`);
      return false;
    }
  }
}

function checkAction(raw: unknown, group: RuleGroup | undefined, issues: RuleIssue[]): RuleAction | undefined {
  const add = (path: string, message: string): undefined => (issues.push({ path, message }), undefined);
  if (raw === undefined) return add('action', 'required: {type, score?}');
  if (!isObject(raw)) return add('action', 'expected an object {type, score?}');
  for (const k of Object.keys(raw)) if (k !== 'type' && k !== 'score') add(`action.${k}`, 'unknown key; an action has type and score');
  const allowed = group ? ACTIONS_BY_GROUP[group] : ACTION_TYPES;
  const type = raw['type'];
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) {
    return add('action.type', `${type === undefined ? 'required' : `unknown action ${show(type)}`}; allowed: ${allowed.join(', ')}`);
  }
  if (!allowed.includes(type as ActionType)) {
    return add('action.type', `action "${type}" is not allowed for group ${group ?? ''}; allowed: ${allowed.join(', ')}`);
  }
  const score = raw['score'];
  if (type !== 'overwrite_score') {
    return score === undefined ? { type: type as ActionType } : add('action.score', 'only overwrite_score takes a score');
  }
  // Email scores are the 0-3 bands; payment scores are 0-100 and may carry decimals.
  const [max, integer] = group === 'email' ? [3, true] : [100, false];
  const range = `${integer ? 'an integer' : 'a number'} from 0 to ${max} for group ${group ?? ''}`;
  if (score === undefined) return add('action.score', `required with overwrite_score: ${range}`);
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > max || (integer && !Number.isInteger(score))) {
    return add('action.score', `expected ${range}, got ${show(score)}`);
  }
  return { type: 'overwrite_score', score };
}

function zodIssues(error: z.ZodError): RuleIssue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: key, message: 'unknown key; a rule has id, title, group, enabled, conditions and action' }));
    }
    return [{ path: issue.path.join('.') || 'rule', message: issue.message }];
  });
}

/** Validates a rule sent by a user; throws RuleError listing every problem. */
export function parseRuleDraft(raw: unknown): RuleDraft {
  if (!isObject(raw)) throw new RuleError([{ path: 'rule', message: 'expected an object {title, group, conditions, action}' }]);
  const envelope = Envelope.safeParse(raw);
  const issues = envelope.success ? [] : zodIssues(envelope.error);
  const group = typeof raw['group'] === 'string' && (RULE_GROUPS as readonly string[]).includes(raw['group']) ? (raw['group'] as RuleGroup) : undefined;
  const checker = new Checker(group);
  const conditions = checker.root(raw['conditions']);
  issues.push(...checker.issues);
  const action = checkAction(raw['action'], group, issues);
  if (!envelope.success || issues.length > 0 || !conditions || !action) throw new RuleError(issues);
  const { id, title, enabled } = envelope.data;
  const draft: RuleDraft = { title, group: envelope.data.group, enabled, conditions, action };
  if (id !== undefined) draft.id = id;
  return draft;
}
