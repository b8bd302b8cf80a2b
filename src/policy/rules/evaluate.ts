/**
 * Custom-rule evaluation. A rule tests the subject `{input: <request input>, ...<result>}`.
 *
 * Semantics:
 * - Fields are dot paths; a path that reaches an array reads the rest of the path in every element
 *   (`input.cart_items.item_price` is the list of item prices; elements without it are skipped).
 * - A missing, null or undefined field makes every condition false, except `exists` with value
 *   false, which is then true. `exists` (value true, the default) is true for any other value,
 *   including an empty string or an empty list. A path through an array with no element holding
 *   the field is missing.
 * - eq, neq, in, not_in, contains, starts_with, ends_with compare strings case-insensitively
 *   (lower-cased). `matches` is case-sensitive unless the pattern says `(?i)`.
 * - Numbers compare numerically. A numeric string ("42", " 4.2e1 ") on either side is read as a
 *   number for gt/gte/lt/lte, and for eq/in when the other side is a number (two strings compare
 *   as text: "1.0" does not eq "1"). Hex, empty and non-finite strings are not numeric.
 * - Booleans equal only booleans; as rule values, the strings "true"/"false" also stand for them.
 * - On a list field, every operator but `contains` and `exists` is true when any element passes;
 *   neq and not_in are true when no element equals / is in the values.
 * - neq and not_in are the negation of eq and in for a present field: a value of another type is
 *   "not equal". All other type mismatches (gt on "abc", in_cidr on a number) are false, never an error.
 * - `contains` on a list tests membership (strings case-insensitively; an object element is
 *   compared by its `id`, so `rules contains "PF10003"` works on fired payment rules); on a string
 *   or number, a case-insensitive substring of its text.
 * - starts_with, ends_with and `matches` read strings and the decimal text of numbers.
 * - `in_cidr` parses the field as an IPv4 or IPv6 address (an IPv4-mapped IPv6 address counts as
 *   its IPv4 address, and a mapped range of /96 or narrower as an IPv4 range); false when the field
 *   is not an IP. It uses the blacklists' parser and IP set, so a range means the same in a rule and
 *   in a list: an IPv6 range wider than /96 (`::/0`) holds IPv6 addresses only.
 * - `matches` is an unanchored RE2 search (linear time; no backreferences or lookarounds).
 * - `all` of an empty list is true, `any` of an empty list is false.
 */
import type { Condition, ConditionNode, CustomRule, RuleAction, RuleGroup, RuleOp } from '../types.ts';
import { isPrimitive, textOf, toNumber, valueTest, type Primitive, type ValueTest } from './compare.ts';
import { readAddress } from '../blacklists/ip-parse.ts';
import { readPath, splitPath } from './path.ts';

export interface CompiledRule {
  /** The rule as saved. */
  readonly rule: CustomRule;
  readonly id: string;
  readonly title: string;
  readonly group: RuleGroup;
  readonly action: RuleAction;
  /** True when the rule's conditions hold for `{input, ...result}`; never throws. */
  matches(subject: object): boolean;
}

export interface LeafTrace {
  field: string;
  op: RuleOp;
  expected: unknown;
  /** The field's value (null when missing). */
  actual: unknown;
  verdict: boolean;
  /** Why a condition did not simply compare: a missing field, a type mismatch, a list field. */
  note?: string;
}

export type GroupTrace = { all: TraceNode[]; verdict: boolean } | { any: TraceNode[]; verdict: boolean };
export type TraceNode = LeafTrace | GroupTrace;

export interface RuleTrace {
  matched: boolean;
  action: RuleAction;
  conditions: TraceNode;
  /** When not matched: the path of the condition that decided it (`conditions.all.2`). */
  failedAt?: string;
}

type Plan =
  | { kind: 'leaf'; cond: Condition; read: (subject: object) => unknown; test: ValueTest; whenMissing: boolean; error?: string }
  | { kind: 'all' | 'any'; children: Plan[] };

const never: ValueTest = () => false;
const always: ValueTest = () => true;

function planLeaf(cond: Condition): Plan {
  const read = readPath(splitPath(cond.field));
  if (cond.op === 'exists') {
    const wanted = cond.value !== false && cond.value !== 'false';
    return { kind: 'leaf', cond, read, test: wanted ? always : never, whenMissing: !wanted };
  }
  try {
    return { kind: 'leaf', cond, read, test: valueTest(cond.op, cond.value), whenMissing: false };
  } catch (err) {
    // A stored rule that no longer compiles must not take the account's whole policy down:
    // the condition is false, and rule testing shows why.
    const error = err instanceof Error ? err.message : String(err);
    return { kind: 'leaf', cond, read, test: never, whenMissing: false, error };
  }
}

function plan(node: ConditionNode): Plan {
  if ('all' in node) return { kind: 'all', children: node.all.map(plan) };
  if ('any' in node) return { kind: 'any', children: node.any.map(plan) };
  return planLeaf(node);
}

type Predicate = (subject: object) => boolean;

/** Rough relative cost of evaluating a plan, to order siblings (equality < text scans < CIDR < regex). */
function cost(p: Plan): number {
  if (p.kind !== 'leaf') return p.children.reduce((n, c) => n + cost(c), 0);
  switch (p.cond.op) {
    case 'matches':
      return 20;
    case 'in_cidr':
      return 6;
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      return 3;
    case 'eq':
    case 'neq':
    case 'in':
    case 'not_in':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
    case 'exists':
      return 1;
  }
}

function predicate(p: Plan): Predicate {
  if (p.kind === 'leaf') {
    const { read, test, whenMissing } = p;
    return (s) => {
      const v = read(s);
      return v === undefined || v === null ? whenMissing : test(v);
    };
  }
  // Pure tests commute, so cheap ones run first: an `all` fails (an `any` holds) before a regex runs.
  const children = [...p.children].sort((a, b) => cost(a) - cost(b)).map(predicate);
  if (children.length === 1) return children[0] ?? (() => p.kind === 'all');
  if (p.kind === 'all') {
    return (s) => {
      for (let i = 0; i < children.length; i++) if (!(children[i] as Predicate)(s)) return false;
      return true;
    };
  }
  return (s) => {
    for (let i = 0; i < children.length; i++) if ((children[i] as Predicate)(s)) return true;
    return false;
  };
}

/** Compiles a saved rule once, for evaluation on every request. */
export function compileRule(rule: CustomRule): CompiledRule {
  const matches = predicate(plan(rule.conditions));
  return {
    rule,
    id: rule.id,
    title: rule.title,
    group: rule.group,
    action: rule.action,
    matches(subject: object): boolean {
      try {
        return matches(subject);
      } catch {
        // Only a hostile subject (a throwing getter) gets here; a rule never fails a request.
        return false;
      }
    },
  };
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v;
}

/** Whether eq can ever hold between a field value of this type and the rule value. */
function comparable(actual: unknown, value: Primitive): boolean {
  if (typeof value === 'number') return typeof actual === 'number' || (typeof actual === 'string' && !Number.isNaN(toNumber(actual)));
  if (typeof value === 'boolean') return typeof actual === 'boolean';
  if (typeof actual === 'number') return !Number.isNaN(toNumber(value));
  if (typeof actual === 'boolean') return /^(true|false)$/i.test(value);
  return typeof actual === 'string';
}

/** Explains a leaf verdict that is not a plain comparison (for the rule-testing endpoint). */
function note(p: Extract<Plan, { kind: 'leaf' }>, actual: unknown): string | undefined {
  if (p.error !== undefined) return `condition cannot be evaluated: ${p.error}`;
  const { op, value } = p.cond;
  if (actual === undefined) return 'field is missing';
  if (actual === null) return 'field is null';
  if (op === 'exists') return undefined;
  if (Array.isArray(actual)) {
    if (op === 'contains') return 'list field: true when an element equals the value';
    return op === 'neq' || op === 'not_in' ? 'list field: true when no element matches' : 'list field: true when any element matches';
  }
  switch (op) {
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return Number.isNaN(toNumber(actual)) ? `field is ${kindOf(actual)}, not a number` : undefined;
    case 'in_cidr':
      if (typeof actual !== 'string') return `field is ${kindOf(actual)}, not an IP address`;
      return readAddress(actual, new Uint32Array(4)) !== 0 ? undefined : 'field is not an IP address';
    case 'contains':
    case 'starts_with':
    case 'ends_with':
    case 'matches':
      return textOf(actual) === undefined ? `field is ${kindOf(actual)}, not text` : undefined;
    case 'eq':
    case 'neq':
      return !isPrimitive(value) || comparable(actual, value) ? undefined : `field is ${kindOf(actual)}, value is ${typeof value}: never equal`;
    case 'in':
    case 'not_in':
      return undefined;
  }
}

function traceNode(p: Plan, subject: object): TraceNode {
  if (p.kind === 'leaf') {
    const actual = p.read(subject);
    const verdict = actual === undefined || actual === null ? p.whenMissing : p.test(actual);
    const trace: LeafTrace = { field: p.cond.field, op: p.cond.op, expected: p.cond.value, actual: actual ?? null, verdict };
    const why = note(p, actual);
    if (why !== undefined) trace.note = why;
    return trace;
  }
  // Every child is traced (no short-circuit) so the tester sees all of them.
  const children = p.children.map((c) => traceNode(c, subject));
  const verdict = p.kind === 'all' ? children.every((c) => c.verdict) : children.some((c) => c.verdict);
  return p.kind === 'all' ? { all: children, verdict } : { any: children, verdict };
}

/** The condition that made a failing group fail: the first false child of an `all`, or the `any` itself. */
function failure(t: TraceNode, path: string): string {
  if (!('all' in t)) return path;
  const index = t.all.findIndex((c) => !c.verdict);
  const child = t.all[index];
  return child ? failure(child, `${path}.all.${index}`) : path;
}

/** Runs a rule on one subject condition by condition, for the admin "test a rule" endpoint. */
export function traceRule(rule: CustomRule, subject: object): RuleTrace {
  const conditions = traceNode(plan(rule.conditions), subject);
  const trace: RuleTrace = { matched: conditions.verdict, action: rule.action, conditions };
  if (!conditions.verdict) trace.failedAt = failure(conditions, 'conditions');
  return trace;
}
