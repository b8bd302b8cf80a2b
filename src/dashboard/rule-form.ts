import { z } from 'zod';
import { fieldType } from '../policy/rules/fields.ts';
import { RULE_GROUPS, RULE_OPS, type Condition, type ConditionGroup, type CustomRule, type RuleGroup } from '../policy/types.ts';
import { UserError } from './context.ts';
import { plainText } from './html.ts';

/** Condition rows a rule form shows (empty rows are ignored; nested groups are written as JSON instead). */
export const CONDITION_ROWS = 5;

export interface RuleFormValues {
  title: string;
  group: RuleGroup;
  enabled: boolean;
  mode: 'all' | 'any';
  rows: Array<{ field: string; op: string; value: string }>;
  /** Conditions as JSON (a nested group); when not empty it replaces the rows. */
  json: string;
  action: string;
  score: string;
  sampleInput: string;
  sampleResult: string;
  from: string;
  to: string;
}

const Group = z.enum(RULE_GROUPS);

export function emptyRuleForm(group: RuleGroup, now: Date): RuleFormValues {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    title: '', group, enabled: true, mode: 'all', rows: [], json: '', action: group === 'payment' || group === 'email' ? 'overwrite_score' : group === 'ip' ? 'blacklist' : 'mark_invalid',
    score: group === 'payment' ? '90' : group === 'email' ? '3' : '', sampleInput: '{}', sampleResult: '{}', from: day(new Date(now.getTime() - 7 * 86_400_000)), to: day(now),
  };
}

const isFlat = (g: ConditionGroup): g is { all: Condition[] } | { any: Condition[] } => {
  const items = 'all' in g ? g.all : g.any;
  return items.length <= CONDITION_ROWS && items.every((c) => 'field' in c);
};

const shown = (v: unknown): string => (Array.isArray(v) ? v.map(plainText).join(', ') : plainText(v));

/** A saved rule in the form: flat conditions as rows, anything nested as JSON. */
export function ruleToForm(rule: CustomRule, now: Date): RuleFormValues {
  const base = emptyRuleForm(rule.group, now);
  const c = rule.conditions;
  const flat = isFlat(c);
  const items = 'all' in c ? c.all : c.any;
  return {
    ...base, title: rule.title, group: rule.group, enabled: rule.enabled, mode: 'all' in c ? 'all' : 'any',
    rows: flat ? (items as Condition[]).map((x) => ({ field: x.field, op: x.op, value: shown(x.value) })) : [],
    json: flat ? '' : JSON.stringify(c, null, 2), action: rule.action.type, score: rule.action.score === undefined ? '' : String(rule.action.score),
  };
}

/** The posted fields as form values (to show them again with an error or a preview). */
export function readRuleForm(form: Record<string, string>, now: Date): RuleFormValues {
  const group = Group.safeParse(form.group);
  if (!group.success) throw new UserError(`group must be one of ${RULE_GROUPS.join(', ')}`);
  const base = emptyRuleForm(group.data, now);
  const rows = Array.from({ length: CONDITION_ROWS }, (_, i) => ({ field: (form[`field${i}`] ?? '').trim(), op: form[`op${i}`] ?? 'eq', value: form[`value${i}`] ?? '' }))
    .filter((r) => r.field !== '');
  return {
    title: (form.title ?? '').trim(), group: group.data, enabled: form.enabled === 'on', mode: form.mode === 'any' ? 'any' : 'all', rows,
    json: (form.json ?? '').trim(), action: form.action ?? base.action, score: (form.score ?? '').trim(),
    sampleInput: form.sampleInput ?? '{}', sampleResult: form.sampleResult ?? '{}', from: form.from ?? base.from, to: form.to ?? base.to,
  };
}

/** A typed value from the text box: numbers and booleans for such fields, lists for in/not_in. */
function typedValue(group: RuleGroup, field: string, op: string, text: string): unknown {
  const type = fieldType(group, field);
  const one = (s: string): unknown => {
    const t = s.trim();
    if (type === 'number' && t !== '' && Number.isFinite(Number(t))) return Number(t);
    if (type === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
    return t;
  };
  if (op === 'in' || op === 'not_in') return text.split(',').map(one).filter((v) => v !== '');
  if (op === 'exists') return text.trim() === 'false' ? false : true;
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text.trim();
  return one(text);
}

/** The rule draft the services validate (parseRuleDraft): its errors come back as RuleError, shown on the form. */
export function draftOf(v: RuleFormValues): Record<string, unknown> {
  let conditions: unknown;
  if (v.json !== '') {
    try {
      conditions = JSON.parse(v.json);
    } catch {
      throw new UserError('The conditions JSON is not valid JSON.');
    }
  } else {
    if (v.rows.length === 0) throw new UserError('Add at least one condition: a field, an operator and a value.');
    for (const r of v.rows) if (!(RULE_OPS as readonly string[]).includes(r.op)) throw new UserError(`unknown operator ${r.op}`);
    conditions = { [v.mode]: v.rows.map((r) => ({ field: r.field, op: r.op, value: typedValue(v.group, r.field, r.op, r.value) })) };
  }
  const action: Record<string, unknown> = { type: v.action };
  if (v.score !== '') action.score = Number(v.score);
  return { title: v.title, group: v.group, enabled: v.enabled, conditions, action };
}

/** A JSON object from a sample text box. */
export function sampleObject(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    throw new UserError(`The ${name} is not valid JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UserError(`The ${name} must be a JSON object.`);
  return value as Record<string, unknown>;
}

/** Backtest period from two dates (whole UTC days, `to` included). */
export function period(v: RuleFormValues): { from: string; to: string } {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(v.from) || !day.test(v.to) || Number.isNaN(Date.parse(v.from)) || Number.isNaN(Date.parse(v.to))) throw new UserError('The backtest period needs two dates as YYYY-MM-DD.');
  if (v.from > v.to) throw new UserError('The backtest period starts after it ends.');
  return { from: `${v.from}T00:00:00.000Z`, to: new Date(Date.parse(`${v.to}T00:00:00Z`) + 86_400_000).toISOString() };
}
