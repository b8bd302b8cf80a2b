import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConditionGroup, CustomRule } from '../types.ts';
import { decide } from './decide.ts';
import { compileRule, type CompiledRule } from './evaluate.ts';
import { RuleIndex } from './rule-index.ts';

function rule(n: number, conditions: ConditionGroup): CompiledRule {
  const r: CustomRule = { id: `CR${101 + n}`, title: `r${n}`, group: 'ip', enabled: true, conditions, action: { type: n % 2 ? 'blacklist' : 'whitelist' }, createdAt: '', updatedAt: '' };
  return compileRule(r);
}

/** Values chosen to hit every corner of eq/in semantics: case, non-ASCII, numeric strings, booleans, lists. */
const VALUES: unknown[] = ['FR', 'fr', 'Fr', 'DE', 'Straße', 'STRASSE', 'straße', '42', 42, '4.2e1', true, 'true', 'TRUE', '', ['fr', 'x'], ['DE'], [42], null, undefined, { id: 'fr' }];
const RULE_VALUES = ['FR', 'de', 'straße', '42', 'true', 'x', 'ÉTÉ'];

function rules(): CompiledRule[] {
  const out: CompiledRule[] = [];
  let n = 0;
  for (const v of RULE_VALUES) {
    out.push(rule(n++, { all: [{ field: 'countryCode', op: 'eq', value: v }] }));
    out.push(rule(n++, { all: [{ field: 'countryCode', op: 'in', value: [v, 'zz'] }, { field: 'asn.asn', op: 'neq', value: 'x' }] }));
    out.push(rule(n++, { any: [{ field: 'countryCode', op: 'eq', value: v }] }));
    out.push(rule(n++, { any: [{ field: 'countryCode', op: 'eq', value: v }, { field: 'ip', op: 'exists' }] }));
    out.push(rule(n++, { all: [{ field: 'continentCode', op: 'eq', value: 'EU' }, { field: 'countryCode', op: 'in', value: [v] }] }));
    out.push(rule(n++, { all: [{ all: [{ field: 'countryCode', op: 'eq', value: v }] }] }));
    out.push(rule(n++, { all: [{ field: 'countryCode', op: 'neq', value: v }] }));
    out.push(rule(n++, { all: [{ field: 'countryCode', op: 'eq', value: 42 }] }));
    out.push(rule(n++, { all: [{ field: 'countryCode', op: 'eq', value: true }] }));
  }
  return out;
}

describe('RuleIndex', () => {
  const all = rules();
  const index = RuleIndex.build(all);

  it('gives exactly the same verdict as running every rule, for every kind of field value', () => {
    let checked = 0;
    for (const cc of VALUES) {
      for (const cont of ['EU', 'eu', 'AS', undefined]) {
        const subject = { input: {}, countryCode: cc, continentCode: cont, asn: { asn: 'AS1' }, ip: cc === '42' ? '1.2.3.4' : undefined };
        assert.deepEqual(decide(index.candidates(subject), subject, []), decide(all, subject, []), JSON.stringify(subject));
        checked++;
      }
    }
    assert.equal(checked, VALUES.length * 4);
  });

  it('keeps id order and lists each candidate once', () => {
    const subject = { input: {}, countryCode: ['FR', 'fr', 'de'], continentCode: 'EU' };
    const ids = index.candidates(subject).map((r) => Number(r.id.slice(2)));
    assert.deepEqual(ids, [...new Set(ids)].sort((a, b) => a - b));
  });

  it('runs far fewer rules than all of them when most rules name a value', () => {
    const many = Array.from({ length: 1000 }, (_, i) => rule(i, { all: [{ field: 'countryCode', op: 'eq', value: `c${i % 200}x` }] }));
    const idx = RuleIndex.build(many);
    assert.equal(idx.candidates({ countryCode: 'C7X' }).length, 5);
    assert.equal(idx.candidates({ countryCode: 'none' }).length, 0);
    assert.equal(idx.size, 1000);
  });

  it('a subject whose field getter throws is not a candidate through that field', () => {
    const hostile = { get countryCode(): string { throw new Error('boom'); } };
    const only = RuleIndex.build([rule(0, { all: [{ field: 'countryCode', op: 'eq', value: 'FR' }] }), rule(1, { any: [{ field: 'ip', op: 'exists' }] })]);
    assert.deepEqual(only.candidates(hostile).map((r) => r.id), ['CR102']);
  });
});
