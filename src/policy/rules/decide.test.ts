import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomRule, ListProbe, RuleAction } from '../types.ts';
import { decide, ruleOrder } from './decide.ts';
import { compileRule, type CompiledRule } from './evaluate.ts';

/** A rule that matches when `hit` is in the subject's `tags`. */
function rule(n: number, action: RuleAction, hit = true): CompiledRule {
  const r: CustomRule = {
    id: `CR${n}`, title: `rule ${n}`, group: 'payment', enabled: true, action, createdAt: '', updatedAt: '',
    conditions: { all: [{ field: 'tags', op: 'contains', value: hit ? 'yes' : 'no' }] },
  };
  return compileRule(r);
}

const subject = { tags: ['yes'] };
const hits: ListProbe[] = [{ type: 'ip', value: '1.2.3.4' }, { type: 'email', value: 'a@b.c' }];
const black: RuleAction = { type: 'blacklist' };
const white: RuleAction = { type: 'whitelist' };
const valid: RuleAction = { type: 'mark_valid' };
const invalid: RuleAction = { type: 'mark_invalid' };
const score = (s: number): RuleAction => ({ type: 'overwrite_score', score: s });

describe('decide', () => {
  const cases: Array<[string, CompiledRule[], ListProbe[], { blacklisted: boolean; whitelisted: boolean; valid?: boolean; score?: number; applied: string[] }]> = [
    ['no rules, no hits', [], [], { blacklisted: false, whitelisted: false, applied: [] }],
    ['no rules, list hits', [], hits, { blacklisted: true, whitelisted: false, applied: [] }],
    ['a blacklist rule', [rule(101, black)], [], { blacklisted: true, whitelisted: false, applied: ['CR101'] }],
    ['a whitelist rule clears list hits', [rule(101, white)], hits, { blacklisted: false, whitelisted: true, applied: ['CR101'] }],
    ['blacklist after whitelist wins', [rule(101, white), rule(102, black)], hits, { blacklisted: true, whitelisted: false, applied: ['CR101', 'CR102'] }],
    ['whitelist after blacklist wins', [rule(101, black), rule(102, white)], [], { blacklisted: false, whitelisted: true, applied: ['CR101', 'CR102'] }],
    ['a rule that does not match does nothing', [rule(101, white, false)], hits, { blacklisted: true, whitelisted: false, applied: [] }],
    ['last validity wins', [rule(101, valid), rule(102, invalid)], [], { blacklisted: false, whitelisted: false, valid: false, applied: ['CR101', 'CR102'] }],
    ['last validity wins, other order', [rule(101, invalid), rule(102, valid)], [], { blacklisted: false, whitelisted: false, valid: true, applied: ['CR101', 'CR102'] }],
    ['last score wins', [rule(101, score(90)), rule(102, score(10)), rule(103, score(50), false)], [], { blacklisted: false, whitelisted: false, score: 10, applied: ['CR101', 'CR102'] }],
    [
      'dimensions are independent',
      [rule(101, black), rule(102, score(80)), rule(103, valid), rule(104, white), rule(105, invalid, false)],
      [],
      { blacklisted: false, whitelisted: true, valid: true, score: 80, applied: ['CR101', 'CR102', 'CR103', 'CR104'] },
    ],
  ];
  for (const [name, rules, listHits, want] of cases) {
    it(name, () => {
      const v = decide(rules, subject, listHits);
      assert.equal(v.blacklisted, want.blacklisted);
      assert.equal(v.whitelisted, want.whitelisted);
      assert.equal(v.valid, want.valid);
      assert.equal(v.score, want.score);
      assert.deepEqual(v.listHits, listHits);
      assert.deepEqual(v.rulesApplied, { total: want.applied.length, rules: want.applied.map((id) => ({ id, title: `rule ${id.slice(2)}` })) });
    });
  }

  it('lists rules in the order given and copies the hits', () => {
    const v = decide([rule(105, black), rule(101, black)], subject, hits);
    assert.deepEqual(v.rulesApplied.rules.map((r) => r.id), ['CR105', 'CR101']);
    assert.notEqual(v.listHits, hits);
  });
});

describe('ruleOrder', () => {
  it('orders ids numerically', () => {
    assert.deepEqual(['CR1000', 'CR102', 'CR101', 'CR99999', 'CR110'].sort(ruleOrder), ['CR101', 'CR102', 'CR110', 'CR1000', 'CR99999']);
  });

  it('puts ids of another shape last, as text', () => {
    assert.deepEqual(['draft', 'CR101', 'abc'].sort(ruleOrder), ['CR101', 'abc', 'draft']);
    assert.equal(ruleOrder('CR101', 'CR101'), 0);
    assert.ok(ruleOrder('CR101', 'CR102') < 0);
    assert.ok(ruleOrder('CR1000', 'CR999') > 0);
  });
});
