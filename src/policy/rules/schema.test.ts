import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RULE_OPS } from '../types.ts';
import { parseRuleDraft, RuleError, RULE_LIMITS } from './schema.ts';

const base = {
  title: 'VPN users',
  group: 'ip',
  conditions: { all: [{ field: 'security.isProxy', op: 'eq', value: true }] },
  action: { type: 'blacklist' },
};

/** The issues parseRuleDraft reports for `raw`, as "path: message" lines. */
function problems(raw: unknown): string[] {
  try {
    parseRuleDraft(raw);
  } catch (err) {
    assert.ok(err instanceof RuleError, 'expected a RuleError');
    assert.equal(err.message, err.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    return err.issues.map((i) => `${i.path}: ${i.message}`);
  }
  assert.fail('expected the rule to be refused');
}

function withConditions(group: string, ...conditions: unknown[]): unknown {
  return { ...base, group, conditions: { all: conditions }, action: { type: 'blacklist' } };
}

function nest(depth: number): unknown {
  let node: unknown = { field: 'countryCode', op: 'eq', value: 'GB' };
  for (let i = 0; i < depth; i++) node = { all: [node] };
  return node;
}

describe('parseRuleDraft accepts', () => {
  it('a minimal rule, defaulting enabled and trimming the title', () => {
    assert.deepEqual(parseRuleDraft({ ...base, title: '  VPN users ' }), { ...base, enabled: true });
  });

  it('an id and enabled false', () => {
    const draft = parseRuleDraft({ ...base, id: 'CR101', enabled: false });
    assert.equal(draft.id, 'CR101');
    assert.equal(draft.enabled, false);
    assert.equal(parseRuleDraft({ ...base, id: 'CR1000' }).id, 'CR1000');
  });

  it('every operator with a fitting value', () => {
    const conditions = [
      { field: 'countryCode', op: 'eq', value: 'GB' },
      { field: 'security.isTor', op: 'neq', value: 'true' },
      { field: 'asn.asn', op: 'in', value: ['AS1', 2, true] },
      { field: 'continentCode', op: 'not_in', value: ['EU'] },
      { field: 'asn.name', op: 'contains', value: 'cloud' },
      { field: 'asn.org', op: 'starts_with', value: 'Amazon' },
      { field: 'asn.domain', op: 'ends_with', value: '.ru' },
      { field: 'location.population', op: 'gt', value: 10 },
      { field: 'location.population', op: 'gte', value: '10.5' },
      { field: 'timezone.offset', op: 'lt', value: -3600 },
      { field: 'timezone.offset', op: 'lte', value: 0 },
      { field: 'zipCode', op: 'exists' },
      { field: 'zipCode', op: 'exists', value: false },
      { field: 'input.ip', op: 'in_cidr', value: '10.0.0.0/8' },
      { field: 'input.ip', op: 'in_cidr', value: ['2001:db8::/32', '1.2.3.4', '::ffff:10.0.0.0/104'] },
      { field: 'asn.name', op: 'matches', value: '(?i)^hetzner' },
    ];
    assert.deepEqual(RULE_OPS.filter((op) => !conditions.some((c) => c.op === op)), []);
    assert.deepEqual(parseRuleDraft(withConditions('ip', ...conditions)).conditions, { all: conditions });
  });

  it('numbers and booleans in contains on list fields', () => {
    const draft = parseRuleDraft(withConditions('bin', { field: 'info.syntax.lengths', op: 'contains', value: 16 }));
    assert.deepEqual(draft.conditions, { all: [{ field: 'info.syntax.lengths', op: 'contains', value: 16 }] });
  });

  it('overwrite_score within range for email and payment', () => {
    const email = { ...base, group: 'email', conditions: { any: [{ field: 'domain.name', op: 'eq', value: 'x.io' }] }, action: { type: 'overwrite_score', score: 3 } };
    assert.deepEqual(parseRuleDraft(email).action, { type: 'overwrite_score', score: 3 });
    const payment = { ...base, group: 'payment', conditions: { any: [{ field: 'rules', op: 'contains', value: 'PF10003' }] }, action: { type: 'overwrite_score', score: 55.5 } };
    assert.deepEqual(parseRuleDraft(payment).action, { type: 'overwrite_score', score: 55.5 });
  });

  it(`groups ${RULE_LIMITS.depth} deep and ${RULE_LIMITS.conditions} conditions`, () => {
    assert.doesNotThrow(() => parseRuleDraft({ ...base, conditions: nest(RULE_LIMITS.depth) }));
    const many = Array.from({ length: RULE_LIMITS.conditions }, () => ({ field: 'countryCode', op: 'eq', value: 'GB' }));
    assert.doesNotThrow(() => parseRuleDraft({ ...base, conditions: { any: many } }));
  });

  it('empty groups', () => {
    assert.deepEqual(parseRuleDraft({ ...base, conditions: { all: [{ any: [] }] } }).conditions, { all: [{ any: [] }] });
  });

  it('a rule rebuilt from checked parts only', () => {
    const draft = parseRuleDraft(JSON.parse(JSON.stringify(base)));
    assert.notEqual(draft.conditions, base.conditions);
  });
});

describe('parseRuleDraft refuses', () => {
  const cases: Array<[string, unknown, Array<string | RegExp>]> = [
    ['null', null, ['rule: expected an object {title, group, conditions, action}']],
    ['an array', [base], [/^rule: expected an object/]],
    ['a number', 5, [/^rule: expected an object/]],
    ['an unknown group', { ...base, group: 'web' }, ['group: unknown group "web"; allowed: ip, email, phone, bin, iban, payment']],
    ['a missing group', { ...base, group: undefined }, [/^group: required; one of ip, email/]],
    ['a missing title', { ...base, title: undefined }, ['title: required']],
    ['an empty title', { ...base, title: '  ' }, ['title: must not be empty']],
    ['a long title', { ...base, title: 'x'.repeat(201) }, ['title: at most 200 characters']],
    ['a numeric title', { ...base, title: 5 }, ['title: expected a string']],
    ['enabled as a string', { ...base, enabled: 'yes' }, ['enabled: expected true or false']],
    ['id CR100', { ...base, id: 'CR100' }, ['id: rule ids start at CR101']],
    ['id CR0101', { ...base, id: 'CR0101' }, [/^id: expected "CR" followed by a number/]],
    ['id cr101', { ...base, id: 'cr101' }, [/^id: expected "CR"/]],
    ['a numeric id', { ...base, id: 101 }, [/^id: expected a string/]],
    ['unknown top-level keys', { ...base, createdAt: 'x', owner: 1 }, [/^createdAt: unknown key/, /^owner: unknown key/]],
    ['missing conditions', { ...base, conditions: undefined }, ['conditions: required: {all: [...]} or {any: [...]}']],
    ['conditions as a list', { ...base, conditions: [] }, [/^conditions: the root must be a group/]],
    ['conditions as null', { ...base, conditions: null }, [/^conditions: the root must be a group/]],
    ['a leaf at the root', { ...base, conditions: { field: 'countryCode', op: 'eq', value: 'GB' } }, [/^conditions: the root must be a group/]],
    ['a group that is not a list', { ...base, conditions: { all: { field: 'countryCode' } } }, ['conditions.all: expected a list of conditions']],
    ['a group with two keys', { ...base, conditions: { all: [], any: [] } }, ['conditions: a group has one key, "all" or "any"; also found: any']],
    ['a null child', { ...base, conditions: { all: [null] } }, [/^conditions\.all\.0: expected a condition/]],
    ['a list child', { ...base, conditions: { all: [[]] } }, [/^conditions\.all\.0: expected a condition/]],
    ['a number child', { ...base, conditions: { any: [{ all: [7] }] } }, [/^conditions\.any\.0\.all\.0: expected a condition/]],
    ['extra keys in a condition', withConditions('ip', { field: 'countryCode', op: 'eq', value: 'GB', negate: true }), ['conditions.all.0.negate: unknown key; a condition has field, op and value']],
    ['an unknown field', withConditions('ip', { field: 'isTor', op: 'eq', value: true }), ['conditions.all.0.field: unknown field "isTor" for group ip; did you mean security.isTor?']],
    ['a field of another group', withConditions('phone', { field: 'domain.name', op: 'eq', value: 'x' }), [/^conditions\.all\.0\.field: unknown field "domain\.name" for group phone/]],
    ['a missing field', withConditions('ip', { op: 'eq', value: 'x' }), ['conditions.all.0.field: required']],
    [
      'an unknown operator',
      withConditions('ip', { field: 'countryCode', op: 'eq', value: 'GB' }, { field: 'countryCode', op: 'eq', value: 'FR' }, { field: 'countryCode', op: 'like', value: 'G%' }),
      [`conditions.all.2.op: unknown operator "like"; allowed: ${RULE_OPS.join(', ')}`],
    ],
    ['a missing operator', withConditions('ip', { field: 'countryCode', value: 'GB' }), [/^conditions\.all\.0\.op: required; allowed: eq, neq/]],
    ['eq without value', withConditions('ip', { field: 'countryCode', op: 'eq' }), ['conditions.all.0.value: required: a string, number or boolean']],
    ['eq null', withConditions('ip', { field: 'countryCode', op: 'eq', value: null }), [/^conditions\.all\.0\.value: null is not a value; .*"exists" with value false/]],
    ['eq with an object', withConditions('ip', { field: 'countryCode', op: 'eq', value: { a: 1 } }), ['conditions.all.0.value: expected: a string, number or boolean']],
    ['in with a string', withConditions('ip', { field: 'countryCode', op: 'in', value: 'GB' }), ['conditions.all.0.value: expected a non-empty list']],
    ['in with an empty list', withConditions('ip', { field: 'countryCode', op: 'in', value: [] }), ['conditions.all.0.value: expected a non-empty list']],
    ['in with a null item', withConditions('ip', { field: 'countryCode', op: 'not_in', value: ['GB', null] }), ['conditions.all.0.value.1: expected a string, number or boolean: null']],
    ['in with too many items', withConditions('ip', { field: 'countryCode', op: 'in', value: Array.from({ length: 10_001 }, (_, i) => `c${i}`) }), ['conditions.all.0.value: at most 10000 values']],
    ['gt with text', withConditions('ip', { field: 'location.population', op: 'gt', value: 'many' }), ['conditions.all.0.value: expected: a number']],
    ['gt with a boolean', withConditions('ip', { field: 'location.population', op: 'lte', value: true }), ['conditions.all.0.value: expected: a number']],
    ['exists with a string', withConditions('ip', { field: 'zipCode', op: 'exists', value: 'yes' }), [/^conditions\.all\.0\.value: expected true or false/]],
    ['a bad CIDR', withConditions('ip', { field: 'input.ip', op: 'in_cidr', value: '10.0.0.0/33' }), [/^conditions\.all\.0\.value: expected an IP address or CIDR .*"10\.0\.0\.0\/33"/]],
    ['a bad CIDR in a list', withConditions('ip', { field: 'input.ip', op: 'in_cidr', value: ['10.0.0.0/8', '2001:db8::/129', 'x'] }), ['conditions.all.0.value.1: not an IP address or CIDR: "2001:db8::/129"', 'conditions.all.0.value.2: not an IP address or CIDR: "x"']],
    ['in_cidr with a number', withConditions('ip', { field: 'input.ip', op: 'in_cidr', value: 10 }), [/^conditions\.all\.0\.value: expected an IP address or CIDR/]],
    ['a bad regex', withConditions('ip', { field: 'asn.name', op: 'matches', value: '(a' }), [/^conditions\.all\.0\.value: not a valid RE2 pattern: .*missing closing \)/]],
    ['a backreference', withConditions('ip', { field: 'asn.name', op: 'matches', value: '(a)\\1' }), [/^conditions\.all\.0\.value: not a valid RE2 pattern: .*invalid escape/]],
    ['a lookahead', withConditions('ip', { field: 'asn.name', op: 'matches', value: 'a(?=b)' }), [/^conditions\.all\.0\.value: not a valid RE2 pattern/]],
    ['a long pattern', withConditions('ip', { field: 'asn.name', op: 'matches', value: 'a'.repeat(1001) }), ['conditions.all.0.value: at most 1000 characters']],
    ['an empty pattern', withConditions('ip', { field: 'asn.name', op: 'matches', value: '' }), ['conditions.all.0.value: must not be empty']],
    ['contains a number on a text field', withConditions('ip', { field: 'asn.name', op: 'contains', value: 5 }), [/^conditions\.all\.0\.value: expected a string \(numbers and booleans only on list fields\)/]],
    ['contains an empty string', withConditions('ip', { field: 'asn.name', op: 'contains', value: '' }), ['conditions.all.0.value: must not be empty']],
    ['starts_with a number', withConditions('ip', { field: 'asn.name', op: 'starts_with', value: 4 }), ['conditions.all.0.value: expected a string']],
    ['ends_with nothing', withConditions('ip', { field: 'asn.name', op: 'ends_with' }), ['conditions.all.0.value: required: a string']],
    ['groups nested too deep', { ...base, conditions: nest(RULE_LIMITS.depth + 1) }, [`conditions${'.all.0'.repeat(RULE_LIMITS.depth)}: groups nest at most 8 deep`]],
    ['too many conditions', { ...base, conditions: { all: [{ any: Array.from({ length: 200 }, () => ({ field: 'countryCode', op: 'eq', value: 'GB' })) }] } }, ['conditions: at most 200 conditions (nested groups included)']],
    ['a missing action', { ...base, action: undefined }, ['action: required: {type, score?}']],
    ['an action list', { ...base, action: ['blacklist'] }, ['action: expected an object {type, score?}']],
    ['a null action', { ...base, action: null }, ['action: expected an object {type, score?}']],
    ['an unknown action', { ...base, action: { type: 'ban' } }, ['action.type: unknown action "ban"; allowed: blacklist, whitelist']],
    ['an action not allowed for the group', { ...base, action: { type: 'overwrite_score', score: 1 } }, ['action.type: action "overwrite_score" is not allowed for group ip; allowed: blacklist, whitelist']],
    ['whitelist on email', { ...base, group: 'email', conditions: { all: [] }, action: { type: 'whitelist' } }, ['action.type: action "whitelist" is not allowed for group email; allowed: blacklist, overwrite_score, mark_valid, mark_invalid']],
    ['extra keys in the action', { ...base, action: { type: 'blacklist', reason: 'x' } }, ['action.reason: unknown key; an action has type and score']],
    ['a score on blacklist', { ...base, action: { type: 'blacklist', score: 5 } }, ['action.score: only overwrite_score takes a score']],
    ['a missing score', { ...base, group: 'email', conditions: { all: [] }, action: { type: 'overwrite_score' } }, ['action.score: required with overwrite_score: an integer from 0 to 3 for group email']],
    ['an email score of 4', { ...base, group: 'email', conditions: { all: [] }, action: { type: 'overwrite_score', score: 4 } }, ['action.score: expected an integer from 0 to 3 for group email, got 4']],
    ['a fractional email score', { ...base, group: 'email', conditions: { all: [] }, action: { type: 'overwrite_score', score: 1.5 } }, [/^action\.score: expected an integer from 0 to 3/]],
    ['a payment score of 100.5', { ...base, group: 'payment', conditions: { all: [] }, action: { type: 'overwrite_score', score: 100.5 } }, ['action.score: expected a number from 0 to 100 for group payment, got 100.5']],
    ['a negative payment score', { ...base, group: 'payment', conditions: { all: [] }, action: { type: 'overwrite_score', score: -1 } }, [/^action\.score: expected a number from 0 to 100/]],
    ['a score as text', { ...base, group: 'payment', conditions: { all: [] }, action: { type: 'overwrite_score', score: '50' } }, [/^action\.score: expected a number from 0 to 100 for group payment, got "50"/]],
  ];
  for (const [name, raw, expected] of cases) {
    it(name, () => {
      const got = problems(raw);
      assert.equal(got.length, expected.length, `issues: ${got.join(' | ')}`);
      expected.forEach((want, i) => (typeof want === 'string' ? assert.equal(got[i], want) : assert.match(got[i] ?? '', want)));
    });
  }

  it('reports every problem at once', () => {
    const got = problems({
      title: '',
      group: 'ip',
      extra: 1,
      conditions: { any: [{ field: 'nope', op: 'like' }, { field: 'countryCode', op: 'in', value: [] }] },
      action: { type: 'mark_valid' },
    });
    assert.deepEqual(got.map((line) => line.slice(0, line.indexOf(':'))), [
      'title', 'extra', 'conditions.any.0.field', 'conditions.any.0.op', 'conditions.any.1.value', 'action.type',
    ]);
  });

  it('skips group-dependent checks when the group itself is wrong', () => {
    const got = problems({ ...base, group: 'web', conditions: { all: [{ field: 'anything', op: 'eq', value: 1 }] }, action: { type: 'mark_valid' } });
    assert.deepEqual(got, ['group: unknown group "web"; allowed: ip, email, phone, bin, iban, payment']);
  });

  it('RuleError is an Error with a name', () => {
    const err = new RuleError([{ path: 'title', message: 'required' }]);
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'RuleError');
    assert.equal(err.message, 'title: required');
  });
});

describe('error messages', () => {
  it('cut long values short', () => {
    const [line] = problems(withConditions('ip', { field: 'input.ip', op: 'in_cidr', value: 'x'.repeat(5000) }));
    assert.ok(line !== undefined && line.length < 200, line);
    assert.match(line, /\.\.\.$/);
  });
});
