import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nestsDeeperThan } from './body.ts';

describe('nestsDeeperThan', () => {
  const cases: Array<[string, string, number, boolean]> = [
    ['flat object', '{"a": 1}', 1, false],
    ['object in object at the limit', '{"a": {"b": 1}}', 2, false],
    ['one past the limit', '{"a": {"b": []}}', 2, true],
    ['arrays count as objects do', '[[[]]]', 2, true],
    ['brackets in strings do not count', '{"a": "[[[[{{{{"}', 1, false],
    ['an escaped quote keeps the string open', '{"a": "\\"[[[["}', 1, false],
    ['an escaped backslash closes it', '{"a": "\\\\", "b": [[1]]}', 2, true],
    ['siblings do not add up', '[[1], [2], [3], [4]]', 2, false],
    ['scalar text', '"x"', 0, false],
    ['unbalanced closers are left to JSON.parse', ']]]][[', 2, false],
  ];
  for (const [name, text, max, deeper] of cases) {
    it(name, () => assert.equal(nestsDeeperThan(text, max), deeper));
  }
});
