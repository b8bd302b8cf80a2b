/**
 * Value tests behind each operator (semantics in evaluate.ts). A test is built once per condition
 * with everything derivable from the rule's value precomputed (lower-cased strings, sets, numbers,
 * regexes, CIDR ranges), and is then called with a field value that is present (not null/undefined).
 */
import { RE2JS } from 're2js';
import type { RuleOp } from '../types.ts';
import { parseNetwork } from '../blacklists/ip-parse.ts';
import { IpSet } from '../blacklists/ip-set.ts';

/** Tests a present field value. */
export type ValueTest = (actual: unknown) => boolean;

export type Primitive = string | number | boolean;

// Fixed, unambiguous pattern (no nested quantifiers), so JS RegExp is safe here.
const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A finite number, or a numeric string read as one; NaN for anything else (hex, "", booleans...). */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'string' && v.length <= 64 && NUMERIC.test(v)) return Number(v);
  return NaN;
}

/** The text string operators and `matches` read: strings as they are, finite numbers in decimal. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function isPrimitive(v: unknown): v is Primitive {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/*
 * Case-insensitive text tests against a value lower-cased once at compile time. ASCII text is folded
 * char by char (no allocation: these run on every request); text with other characters falls back
 * to toLowerCase, whose result can differ in length.
 */

function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return true;
  return false;
}

/** Compares text[from, from + lower.length) with `lower`; null when a non-ASCII char needs the slow path. */
function asciiSameAt(text: string, from: number, lower: string): boolean | null {
  for (let i = 0; i < lower.length; i++) {
    let c = text.charCodeAt(from + i);
    if (c >= 128) return null;
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}

function sameText(text: string, lower: string): boolean {
  if (text.length !== lower.length) return hasNonAscii(text) && text.toLowerCase() === lower;
  return asciiSameAt(text, 0, lower) ?? text.toLowerCase() === lower;
}

function startsText(text: string, lower: string): boolean {
  if (text.length < lower.length) return hasNonAscii(text) && text.toLowerCase().startsWith(lower);
  return asciiSameAt(text, 0, lower) ?? text.toLowerCase().startsWith(lower);
}

function endsText(text: string, lower: string): boolean {
  if (text.length < lower.length) return hasNonAscii(text) && text.toLowerCase().endsWith(lower);
  return asciiSameAt(text, text.length - lower.length, lower) ?? text.toLowerCase().endsWith(lower);
}

function containsText(text: string, lower: string): boolean {
  return text.toLowerCase().includes(lower);
}

/** True when `text` has no upper-case ASCII letter and no non-ASCII char, so it is its own lower case. */
function isAsciiLower(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (c >= 65 && c <= 90)) return false;
  }
  return true;
}

/** The boolean a rule value stands for: true/false, or the strings "true"/"false" in any case. */
function boolOf(v: Primitive): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const lower = v.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** Equality with one rule value: strings case-insensitively, numbers numerically, booleans strictly. */
function equalsTest(expected: Primitive): ValueTest {
  if (typeof expected === 'number') {
    return (a) => (typeof a === 'number' ? a === expected : typeof a === 'string' && toNumber(a) === expected);
  }
  if (typeof expected === 'boolean') return (a) => a === expected;
  const lower = expected.toLowerCase();
  const num = toNumber(expected);
  const bool = boolOf(expected);
  return (a) => {
    if (typeof a === 'string') return sameText(a, lower);
    if (typeof a === 'number') return a === num;
    if (typeof a === 'boolean') return a === bool;
    return false;
  };
}

/** Membership in a list of rule values, with the same equality as equalsTest, in O(1). */
function inSetTest(values: readonly Primitive[]): ValueTest {
  const strings = new Set<string>();
  const numbers = new Set<number>(); // rule numbers: matched by numeric-string fields
  const numeric = new Set<number>(); // rule numbers and numeric strings: matched by number fields
  const bools = new Set<boolean>();
  for (const v of values) {
    if (typeof v === 'string') strings.add(v.toLowerCase());
    if (typeof v === 'number') numbers.add(v);
    const n = toNumber(v);
    if (!Number.isNaN(n)) numeric.add(n);
    const b = boolOf(v);
    if (b !== undefined) bools.add(b);
  }
  return (a) => {
    if (typeof a === 'string') {
      if (strings.has(a) || (!isAsciiLower(a) && strings.has(a.toLowerCase()))) return true;
      return numbers.size > 0 && numbers.has(toNumber(a));
    }
    if (typeof a === 'number') return numeric.has(a);
    if (typeof a === 'boolean') return bools.has(a);
    return false;
  };
}

/** True when a list element equals the value; object elements are compared by their `id` (fired payment rules). */
function listHas(list: readonly unknown[], eq: ValueTest): boolean {
  for (const el of list) {
    if (el === null || el === undefined) continue;
    if (typeof el === 'object' && !Array.isArray(el)) {
      const id = (el as Record<string, unknown>)['id'];
      if (id !== undefined && id !== null && eq(id)) return true;
    } else if (eq(el)) {
      return true;
    }
  }
  return false;
}

/** `contains`: membership on a list, substring (case-insensitive) on text. */
function containsTest(expected: Primitive): ValueTest {
  const eq = equalsTest(expected);
  const needle = typeof expected === 'boolean' ? undefined : String(expected).toLowerCase();
  return (a) => {
    if (Array.isArray(a)) return listHas(a, eq);
    const text = textOf(a);
    return needle !== undefined && text !== undefined && containsText(text, needle);
  };
}

/** Applies a scalar test to a list field element by element: true when any element passes. */
function anyElement(test: ValueTest): ValueTest {
  return (a) => {
    if (!Array.isArray(a)) return test(a);
    for (const el of a) if (el !== null && el !== undefined && test(el)) return true;
    return false;
  };
}

function not(test: ValueTest): ValueTest {
  return (a) => !test(a);
}

function compareTest(op: 'gt' | 'gte' | 'lt' | 'lte', bound: number): ValueTest {
  switch (op) {
    case 'gt':
      return (a) => toNumber(a) > bound;
    case 'gte':
      return (a) => toNumber(a) >= bound;
    case 'lt':
      return (a) => toNumber(a) < bound;
    case 'lte':
      return (a) => toNumber(a) <= bound;
  }
}

function textTest(value: string, pick: (text: string, lower: string) => boolean): ValueTest {
  const needle = value.toLowerCase();
  return (a) => {
    const text = textOf(a);
    return text !== undefined && pick(text, needle);
  };
}

/** Thrown when a stored condition's value does not fit its operator (parseRuleDraft prevents it). */
export class BadValue extends Error {}

function primitive(value: unknown): Primitive {
  if (!isPrimitive(value)) throw new BadValue('value must be a string, number or boolean');
  return value;
}

function primitives(value: unknown): Primitive[] {
  if (!Array.isArray(value)) throw new BadValue('value must be a list');
  return value.map(primitive);
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new BadValue('value must be a string');
  return value;
}

/** Compiles a regex for `matches`: RE2 only, never a backtracking engine. */
export function compilePattern(pattern: string): RE2JS {
  return RE2JS.compile(pattern);
}

/** The ranges of an `in_cidr` value, on the blacklists' IP set (one parser and one matcher for both). */
export function cidrSet(value: unknown): IpSet {
  const entries = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  if (!entries) throw new BadValue('value must be a CIDR or a list of them');
  const invalid = entries.filter((e) => parseNetwork(e) === null);
  if (invalid.length > 0) throw new BadValue(`not a CIDR or IP: ${invalid.join(', ')}`);
  return IpSet.build(entries);
}

/**
 * The test of a present field for one operator and rule value. `exists` is not handled here (it
 * only looks at presence). Throws BadValue when the rule value cannot serve the operator.
 */
export function valueTest(op: Exclude<RuleOp, 'exists'>, value: unknown): ValueTest {
  switch (op) {
    case 'eq':
      return anyElement(equalsTest(primitive(value)));
    case 'neq':
      return not(anyElement(equalsTest(primitive(value))));
    case 'in':
      return anyElement(inSetTest(primitives(value)));
    case 'not_in':
      return not(anyElement(inSetTest(primitives(value))));
    case 'contains':
      return containsTest(primitive(value));
    case 'starts_with':
      return anyElement(textTest(text(value), startsText));
    case 'ends_with':
      return anyElement(textTest(text(value), endsText));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const bound = toNumber(value);
      if (Number.isNaN(bound)) throw new BadValue('value must be a number');
      return anyElement(compareTest(op, bound));
    }
    case 'in_cidr': {
      const set = cidrSet(value);
      return anyElement((a) => typeof a === 'string' && set.has(a));
    }
    case 'matches': {
      const re = compilePattern(text(value));
      return anyElement((a) => {
        const t = textOf(a);
        return t !== undefined && re.test(t);
      });
    }
  }
}
