import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConditionGroup, ConditionNode, CustomRule, RuleOp } from '../types.ts';
import { compileRule, traceRule, type GroupTrace, type LeafTrace } from './evaluate.ts';

function rule(conditions: ConditionGroup): CustomRule {
  return { id: 'CR101', title: 'test', group: 'payment', enabled: true, conditions, action: { type: 'blacklist' }, createdAt: '', updatedAt: '' };
}

/** Compiled verdict, checked against the trace so both paths always agree. */
function run(conditions: ConditionGroup, subject: object): boolean {
  const r = rule(conditions);
  const verdict = compileRule(r).matches(subject);
  assert.equal(traceRule(r, subject).matched, verdict, 'traceRule and matches disagree');
  return verdict;
}

function leaf(op: RuleOp, value: unknown, actual: unknown): boolean {
  const cond = value === undefined ? { field: 'x', op } : { field: 'x', op, value };
  return run({ all: [cond] }, actual === undefined ? {} : { x: actual });
}

type Row = [op: RuleOp, value: unknown, actual: unknown, expected: boolean, why?: string];

const ROWS: Row[] = [
  ['eq', 'GB', 'GB', true],
  ['eq', 'gb', 'GB', true, 'case-insensitive'],
  ['eq', 'GB', 'FR', false],
  ['eq', 'ÉCOLE', 'école', true, 'non-ASCII case'],
  ['eq', 5, 5, true],
  ['eq', 5, '5', true, 'numeric string field'],
  ['eq', '5', 5, true, 'numeric string value'],
  ['eq', '5.0', 5, true],
  ['eq', '1.0', '1', false, 'two strings compare as text'],
  ['eq', 5, '0x5', false, 'hex is not numeric'],
  ['eq', 0, '', false, 'empty string is not 0'],
  ['eq', 'abc', 5, false],
  ['eq', 5, 'abc', false],
  ['eq', true, true, true],
  ['eq', false, true, false],
  ['eq', true, 'true', false, 'booleans equal only booleans'],
  ['eq', 'true', true, true, '"true" as a rule value'],
  ['eq', 'FALSE', false, true],
  ['eq', 1, true, false],
  ['eq', true, 1, false],
  ['eq', 'a', { a: 1 }, false, 'object field'],
  ['eq', 'x', ['y', 'X'], true, 'any list element'],
  ['eq', 'x', ['y', 'z'], false],
  ['neq', 'GB', 'FR', true],
  ['neq', 'gb', 'GB', false],
  ['neq', 5, '5', false],
  ['neq', true, 'true', true, 'another type is not equal'],
  ['neq', 'x', ['y', 'x'], false, 'no list element may equal'],
  ['neq', 'x', ['y', 'z'], true],
  ['neq', 'x', [], true],
  ['in', ['US', 'CA'], 'us', true],
  ['in', ['US', 'CA'], 'GB', false],
  ['in', [1, 2], '2', true],
  ['in', ['2'], 2, true],
  ['in', ['2'], '2.0', false],
  ['in', [true], true, true],
  ['in', ['true'], true, true],
  ['in', [1], true, false],
  ['in', ['a'], ['b', 'A'], true],
  ['in', ['Ünïcode'], 'üNÏCODE', true],
  ['in', ['a'], { a: 1 }, false],
  ['not_in', ['US', 'CA'], 'GB', true],
  ['not_in', ['US', 'CA'], 'ca', false],
  ['not_in', [1], 'abc', true],
  ['not_in', ['a'], ['b', 'c'], true],
  ['not_in', ['a'], ['b', 'A'], false],
  ['contains', 'mail', 'GMAIL.com', true],
  ['contains', 'xyz', 'gmail.com', false],
  ['contains', 'PF10003', ['PF10001', 'pf10003'], true, 'list membership'],
  ['contains', 'ab', ['xaby'], false, 'membership, not substring'],
  ['contains', 'PF10003', [{ id: 'PF10003', description: 'vpn' }], true, 'object elements by id'],
  ['contains', 'PF10003', [{ id: 'PF10004' }, { description: 'PF10003' }], false],
  ['contains', 16, [15, 16], true],
  ['contains', '16', [16], true],
  ['contains', true, [false, true], true],
  ['contains', true, 'true story', false],
  ['contains', '23', 12345, true, 'text of a number'],
  ['contains', 'a', true, false],
  ['contains', 'x', [], false],
  ['starts_with', 'AS2', 'as20712', true],
  ['starts_with', 'AS3', 'AS20712', false],
  ['starts_with', '4111', 411111111, true],
  ['starts_with', 'longer', 'long', false],
  ['starts_with', 'é', 'École', true],
  ['starts_with', 'x', true, false],
  ['starts_with', 'ab', ['zz', 'ABc'], true],
  ['ends_with', '.RU', 'mail.ru', true],
  ['ends_with', '.ru', 'mail.ua', false],
  ['ends_with', '99', 12399, true],
  ['ends_with', 'ru', 'u', false],
  ['ends_with', 'É', 'cafÉ', true],
  ['gt', 50, 51, true],
  ['gt', 50, 50, false],
  ['gte', 50, 50, true],
  ['gte', 50, 49.99, false],
  ['lt', 50, 49, true],
  ['lt', 50, 50, false],
  ['lte', 50, 50, true],
  ['lte', 50, 50.01, false],
  ['gt', 50, '51', true, 'numeric string field'],
  ['gt', '50', 51, true, 'numeric string value'],
  ['gt', ' 5e1 ', 51, true],
  ['gt', -1, '-0.5', true],
  ['gt', 50, 'abc', false, 'not a number'],
  ['gt', 50, true, false],
  ['lt', 50, '', false],
  ['lt', 0, '0x10', false],
  ['gt', 0, 'Infinity', false],
  ['gt', 50, {}, false],
  ['gt', 100, [5, 150], true, 'any list element'],
  ['gt', 100, [5, 50], false],
  ['exists', undefined, 'x', true],
  ['exists', true, '', true],
  ['exists', true, 0, true],
  ['exists', true, false, true],
  ['exists', true, [], true],
  ['exists', false, 'x', false],
  ['exists', true, undefined, false, 'missing'],
  ['exists', false, undefined, true, 'missing'],
  ['exists', true, null, false, 'null'],
  ['exists', false, null, true, 'null'],
  ['matches', '^AS2\\d+$', 'AS20712', true],
  ['matches', 'arnold', 'Andrews & Arnold', false, 'case-sensitive'],
  ['matches', '(?i)arnold', 'Andrews & Arnold', true],
  ['matches', 'nold', 'Arnold x', true, 'unanchored'],
  ['matches', '^4\\d', 41, true, 'text of a number'],
  ['matches', 'true', true, false, 'booleans are not text'],
  ['matches', '^b$', ['a', 'b'], true],
];

describe('operators', () => {
  for (const [op, value, actual, expected, why] of ROWS) {
    it(`${op} ${JSON.stringify(value)} on ${JSON.stringify(actual)} is ${expected}${why ? ` (${why})` : ''}`, () => {
      assert.equal(leaf(op, value, actual), expected);
    });
  }

  it('makes every operator but exists false on a missing or null field', () => {
    const values: Record<Exclude<RuleOp, 'exists'>, unknown> = {
      eq: 'a', neq: 'a', in: ['a'], not_in: ['a'], contains: 'a', starts_with: 'a', ends_with: 'a',
      gt: 1, gte: 1, lt: 1, lte: 1, in_cidr: '10.0.0.0/8', matches: '.*',
    };
    for (const [op, value] of Object.entries(values) as Array<[RuleOp, unknown]>) {
      assert.equal(leaf(op, value, undefined), false, `${op} on missing`);
      assert.equal(leaf(op, value, null), false, `${op} on null`);
    }
  });
});

describe('in_cidr', () => {
  const cases: Array<[cidr: string | string[], address: unknown, expected: boolean]> = [
    ['10.0.0.0/8', '10.0.0.0', true],
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '::ffff:10.1.2.3', true],
    ['10.0.0.0/8', '::ffff:a01:203', true],
    ['10.0.0.0/8', '::FFFF:A01:203', true],
    ['10.0.0.0/8', '10.1.2.3/8', false],
    ['10.0.0.0/8', '010.0.0.1', false],
    ['10.0.0.0/8', 'not an ip', false],
    ['10.0.0.0/8', 167772161, false],
    ['10.1.2.3/8', '10.9.9.9', true],
    ['10.0.0.0/31', '10.0.0.1', true],
    ['10.0.0.0/31', '10.0.0.2', false],
    ['1.2.3.4', '1.2.3.4', true],
    ['1.2.3.4', '1.2.3.5', false],
    ['255.255.255.255/32', '255.255.255.255', true],
    ['0.0.0.0/0', '255.255.255.255', true],
    ['0.0.0.0/0', '::1', false],
    [['10.0.0.0/8', '192.168.0.0/16'], '192.168.5.5', true],
    [['10.0.0.0/8', '192.168.0.0/16'], '172.16.0.1', false],
    [['10.0.0.0/9', '10.128.0.0/9'], '10.200.0.0', true],
    [['10.0.0.0/9', '10.128.0.0/9'], '11.0.0.0', false],
    ['2001:db8::/32', '2001:db8::', true],
    ['2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:db8::/32', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['2001:db8::/32', '2001:db9::', false],
    ['2001:db8::/32', '2001:DB8::1', true],
    ['2001:db8::/32', '2001:db8::1%eth0', false], // a zone id makes it a link-local interface address, not a routable one
    ['2001:db8::/32', '10.0.0.1', false],
    ['2001:db8::/127', '2001:db8::1', true],
    ['2001:db8::/127', '2001:db8::2', false],
    ['2001:db8:0:0:8000::/65', '2001:db8::8000:0:0:0', true],
    ['2001:db8:0:0:8000::/65', '2001:db8::7fff:ffff:ffff:ffff', false],
    ['::ffff:192.168.0.0/112', '192.168.255.255', true],
    ['::ffff:192.168.0.0/112', '192.169.0.0', false],
    ['::ffff:c0a8:0/112', '::ffff:192.168.1.1', true],
    ['::/0', '::1', true],
    ['::/0', '1.2.3.4', false],
    ['::1', '::1', true],
    ['::1', '::2', false],
  ];
  for (const [cidr, address, expected] of cases) {
    it(`${JSON.stringify(address)} in ${JSON.stringify(cidr)} is ${expected}`, () => {
      assert.equal(leaf('in_cidr', cidr, address), expected);
    });
  }
});

describe('matches', () => {
  it('runs a pathological pattern in linear time (RE2)', () => {
    const started = performance.now();
    assert.equal(leaf('matches', '(a+)+$', 'a'.repeat(5000) + 'b'), false);
    assert.equal(leaf('matches', '(a|aa)*c', 'a'.repeat(5000)), false);
    assert.ok(performance.now() - started < 1000, 'took too long');
  });
});

describe('paths', () => {
  const subject = {
    input: { cart_items: [{ item_price: '10', item_name: 'Gift card' }, { item_price: 600 }, { item_name: null }] },
    security: { isTor: true, proxyType: 'vpn' },
    rules: [{ id: 'PF10003', description: 'vpn' }],
    note: 'text',
  };
  const cases: Array<[ConditionNode, boolean]> = [
    [{ field: 'security.isTor', op: 'eq', value: true }, true],
    [{ field: 'security.isBot', op: 'exists', value: false }, true],
    [{ field: 'note.length', op: 'exists' }, false],
    [{ field: 'input.cart_items.item_price', op: 'gt', value: 500 }, true],
    [{ field: 'input.cart_items.item_price', op: 'lt', value: 5 }, false],
    [{ field: 'input.cart_items.item_name', op: 'contains', value: 'gift card' }, true],
    [{ field: 'input.cart_items.item_category_id', op: 'exists', value: false }, true],
    [{ field: 'input.cart_items', op: 'exists' }, true],
    [{ field: 'rules.id', op: 'contains', value: 'pf10003' }, true],
    [{ field: 'rules', op: 'contains', value: 'PF10003' }, true],
    [{ field: 'constructor', op: 'exists' }, false],
    [{ field: 'note.constructor.name', op: 'exists' }, false],
    [{ field: '__proto__', op: 'exists' }, false],
    [{ field: 'security.toString', op: 'exists' }, false],
  ];
  for (const [cond, expected] of cases) {
    it(`${JSON.stringify(cond)} is ${expected}`, () => {
      assert.equal(run({ all: [cond] }, subject), expected);
    });
  }
});

describe('groups', () => {
  const s = { a: 1, b: 2 };
  const yes: ConditionNode = { field: 'a', op: 'eq', value: 1 };
  const no: ConditionNode = { field: 'b', op: 'eq', value: 1 };
  const cases: Array<[string, ConditionGroup, boolean]> = [
    ['empty all', { all: [] }, true],
    ['empty any', { any: [] }, false],
    ['all true', { all: [yes, yes] }, true],
    ['all with one false', { all: [yes, no] }, false],
    ['any with one true', { any: [no, yes] }, true],
    ['any all false', { any: [no, no] }, false],
    ['nested any in all', { all: [yes, { any: [no, yes] }] }, true],
    ['nested all in any', { any: [no, { all: [yes, no] }] }, false],
    ['single child', { any: [yes] }, true],
    ['deep', { all: [{ any: [{ all: [{ any: [{ all: [yes] }] }] }] }] }, true],
    ['deep empty any', { all: [{ all: [{ any: [] }] }] }, false],
  ];
  for (const [name, conditions, expected] of cases) {
    it(`${name} is ${expected}`, () => assert.equal(run(conditions, s), expected));
  }
});

describe('compileRule', () => {
  it('turns a stored condition it cannot compile into a false one instead of throwing', () => {
    const r = rule({ any: [{ field: 'x', op: 'in', value: 'not a list' }, { field: 'x', op: 'matches', value: '(' }] });
    assert.equal(compileRule(r).matches({ x: 'not a list' }), false);
    const trace = traceRule(r, { x: 'a' });
    const notes = (trace.conditions as { any: LeafTrace[] }).any.map((c) => c.note ?? '');
    assert.match(notes[0] ?? '', /cannot be evaluated: value must be a list/);
    assert.match(notes[1] ?? '', /cannot be evaluated: .*missing closing \)/);
  });

  it('never throws on a subject with a throwing getter', () => {
    const subject = Object.defineProperty({}, 'x', { get: () => { throw new Error('boom'); }, enumerable: true });
    assert.equal(compileRule(rule({ all: [{ field: 'x', op: 'exists' }] })).matches(subject), false);
  });

  it('keeps id, title, group and action', () => {
    const c = compileRule({ ...rule({ all: [] }), id: 'CR204', title: 'T', group: 'email', action: { type: 'overwrite_score', score: 3 } });
    assert.deepEqual([c.id, c.title, c.group, c.action], ['CR204', 'T', 'email', { type: 'overwrite_score', score: 3 }]);
  });
});

describe('traceRule', () => {
  const subject = { input: { ip: '10.1.2.3' }, countryCode: 'GB', asn: { name: 'Acme' }, score: 'high', tags: ['a'], flag: true };

  it('points at the failing condition', () => {
    const t = traceRule(rule({ all: [{ field: 'countryCode', op: 'eq', value: 'gb' }, { field: 'asn.name', op: 'eq', value: 'Other' }] }), subject);
    assert.equal(t.matched, false);
    assert.equal(t.failedAt, 'conditions.all.1');
    const children = (t.conditions as { all: LeafTrace[] }).all;
    assert.deepEqual(children.map((c) => c.verdict), [true, false]);
    assert.deepEqual(children[1], { field: 'asn.name', op: 'eq', expected: 'Other', actual: 'Acme', verdict: false });
  });

  it('descends into nested all groups and stops at a failing any group', () => {
    const nested = traceRule(rule({ all: [{ field: 'flag', op: 'eq', value: true }, { all: [{ field: 'nope', op: 'exists' }] }] }), subject);
    assert.equal(nested.failedAt, 'conditions.all.1.all.0');
    const anyGroup = traceRule(rule({ all: [{ any: [{ field: 'flag', op: 'eq', value: false }] }] }), subject);
    assert.equal(anyGroup.failedAt, 'conditions.all.0');
    const root = traceRule(rule({ any: [] }), subject);
    assert.equal(root.failedAt, 'conditions');
  });

  it('traces every child and leaves failedAt out on a match', () => {
    const t = traceRule(rule({ any: [{ field: 'countryCode', op: 'eq', value: 'GB' }, { field: 'flag', op: 'eq', value: false }] }), subject);
    assert.equal(t.matched, true);
    assert.equal(t.failedAt, undefined);
    assert.deepEqual(t.action, { type: 'blacklist' });
    const group = t.conditions as GroupTrace & { any: LeafTrace[] };
    assert.equal(group.verdict, true);
    assert.equal(group.any.length, 2);
    assert.equal(group.any[1]?.verdict, false);
  });

  it('explains missing fields and type mismatches', () => {
    const cases: Array<[ConditionNode, RegExp | undefined]> = [
      [{ field: 'missing', op: 'eq', value: 'x' }, /field is missing/],
      [{ field: 'score', op: 'gt', value: 50 }, /field is string, not a number/],
      [{ field: 'flag', op: 'in_cidr', value: '10.0.0.0/8' }, /field is boolean, not an IP address/],
      [{ field: 'countryCode', op: 'in_cidr', value: '10.0.0.0/8' }, /field is not an IP address/],
      [{ field: 'flag', op: 'matches', value: 'x' }, /not text/],
      [{ field: 'flag', op: 'eq', value: 'yes' }, /field is boolean, value is string: never equal/],
      [{ field: 'tags', op: 'eq', value: 'a' }, /list field: true when any element matches/],
      [{ field: 'tags', op: 'neq', value: 'a' }, /list field: true when no element matches/],
      [{ field: 'countryCode', op: 'eq', value: 'FR' }, undefined],
      [{ field: 'flag', op: 'eq', value: 'true' }, undefined],
      [{ field: 'input.ip', op: 'in_cidr', value: '10.0.0.0/8' }, undefined],
    ];
    for (const [cond, expected] of cases) {
      const t = traceRule(rule({ all: [cond] }), subject);
      const note = (t.conditions as { all: LeafTrace[] }).all[0]?.note;
      if (expected) assert.match(note ?? '(none)', expected, JSON.stringify(cond));
      else assert.equal(note, undefined, JSON.stringify(cond));
    }
  });

  it('reports a missing field as null', () => {
    const t = traceRule(rule({ all: [{ field: 'gone', op: 'exists', value: false }] }), subject);
    assert.deepEqual((t.conditions as { all: LeafTrace[] }).all[0], { field: 'gone', op: 'exists', expected: false, actual: null, verdict: true, note: 'field is missing' });
  });
});
