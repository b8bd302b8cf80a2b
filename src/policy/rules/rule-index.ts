/**
 * A pre-filter over an account's rules of one group, so a request evaluates only the rules that can
 * match it. A rule whose conditions require a field to equal one of some plain strings (an `eq` or
 * `in` leaf directly under its root `all`) is filed under those strings; a request looks up the
 * field's value and runs only the rules filed under it, plus every rule that could not be filed.
 * The filter is exact with respect to compare.ts: such a condition can only hold for a string
 * field (or a list with a string element) equal to one of the values ignoring case, since the
 * values are neither numeric nor "true"/"false".
 */
import type { ConditionNode } from '../types.ts';
import { toNumber } from './compare.ts';
import type { CompiledRule } from './evaluate.ts';
import { readPath, splitPath } from './path.ts';

interface Key {
  field: string;
  values: string[];
}

function indexable(v: unknown): v is string {
  if (typeof v !== 'string' || !Number.isNaN(toNumber(v))) return false;
  const lower = v.toLowerCase();
  return lower !== 'true' && lower !== 'false';
}

/** The keys a rule could be filed under: required `eq`/`in` leaves with plain string values. */
function keysOf(rule: CompiledRule): Key[] {
  const root = rule.rule.conditions;
  const required: ConditionNode[] = 'all' in root ? root.all : root.any.length === 1 ? root.any : [];
  const keys: Key[] = [];
  for (const node of required) {
    if ('all' in node || 'any' in node) continue;
    if (node.op === 'eq' && indexable(node.value)) keys.push({ field: node.field, values: [node.value.toLowerCase()] });
    if (node.op === 'in' && Array.isArray(node.value) && node.value.length > 0 && node.value.every(indexable)) {
      keys.push({ field: node.field, values: node.value.map((v) => v.toLowerCase()) });
    }
  }
  return keys;
}

interface FieldIndex {
  read: (subject: object) => unknown;
  buckets: Map<string, number[]>;
}

export class RuleIndex {
  readonly #rules: readonly CompiledRule[];
  /** Positions (in id order) of rules that run on every request. */
  readonly #always: readonly number[];
  readonly #fields: readonly FieldIndex[];

  private constructor(rules: readonly CompiledRule[], always: number[], fields: FieldIndex[]) {
    this.#rules = rules;
    this.#always = always;
    this.#fields = fields;
  }

  /** `rules` must be in id order; candidates() keeps that order. */
  static build(rules: readonly CompiledRule[]): RuleIndex {
    const perRule = rules.map(keysOf);
    // How many rules each (field, value) would hold: a rule is filed under its most selective key.
    const load = new Map<string, number>();
    const slot = (field: string, value: string) => `${field}\u0000${value}`;
    for (const keys of perRule) for (const k of keys) for (const v of k.values) load.set(slot(k.field, v), (load.get(slot(k.field, v)) ?? 0) + 1);
    const fields = new Map<string, FieldIndex>();
    const always: number[] = [];
    perRule.forEach((keys, position) => {
      let best: Key | undefined;
      let bestCost = Infinity;
      for (const k of keys) {
        // A request looks up one value: the expected number of rules it runs is the mean bucket size.
        const cost = k.values.reduce((n, v) => n + (load.get(slot(k.field, v)) ?? 0), 0) / k.values.length;
        if (cost < bestCost) [best, bestCost] = [k, cost];
      }
      if (!best) {
        always.push(position);
        return;
      }
      let index = fields.get(best.field);
      if (!index) {
        index = { read: readPath(splitPath(best.field)), buckets: new Map() };
        fields.set(best.field, index);
      }
      for (const v of new Set(best.values)) {
        const bucket = index.buckets.get(v);
        if (bucket) bucket.push(position);
        else index.buckets.set(v, [position]);
      }
    });
    return new RuleIndex(rules, always, [...fields.values()]);
  }

  get size(): number {
    return this.#rules.length;
  }

  /** The rules that can match `subject`, in id order. */
  candidates(subject: object): CompiledRule[] {
    if (this.#fields.length === 0) return this.#always.map((p) => this.#rules[p] as CompiledRule);
    const positions = [...this.#always];
    for (const field of this.#fields) {
      let value: unknown;
      try {
        value = field.read(subject);
      } catch {
        continue;
      }
      if (typeof value === 'string') this.#collect(field, value, positions);
      else if (Array.isArray(value)) for (const el of new Set(value)) if (typeof el === 'string') this.#collect(field, el, positions);
    }
    positions.sort((a, b) => a - b);
    const out: CompiledRule[] = [];
    let last = -1;
    for (const p of positions) {
      if (p === last) continue;
      out.push(this.#rules[p] as CompiledRule);
      last = p;
    }
    return out;
  }

  #collect(field: FieldIndex, value: string, into: number[]): void {
    const bucket = field.buckets.get(value.toLowerCase());
    if (bucket) for (const p of bucket) into.push(p);
  }
}
