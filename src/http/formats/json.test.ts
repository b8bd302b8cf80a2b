import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson } from './json.ts';

describe('stringifyJson', () => {
  it('writes plain values as JSON.stringify does', () => {
    const value = { a: 1, b: 'x', c: [true, null, { d: 2.5 }], e: undefined };
    assert.equal(stringifyJson(value), JSON.stringify(value));
  });

  it('writes every bigint as an exact integer literal, wherever it sits', () => {
    const max = 2n ** 128n - 1n;
    const value = { data: { IPNumber: max, list: [1n, { n: -42n }], text: 'keep' }, status: 'success' };
    const text = stringifyJson(value);
    assert.equal(text, `{"data":{"IPNumber":${max},"list":[1,{"n":-42}],"text":"keep"},"status":"success"}`);
    // JSON.parse reads the literal back (as a double); the text itself holds every digit.
    assert.ok(text.includes('340282366920938463463374607431768211455'));
  });

  it('leaves the value it was given as it was', () => {
    const inner = { IPNumber: 5n, other: { x: 1 } };
    const value = { data: inner, arr: [inner] };
    stringifyJson(value);
    assert.equal(value.data, inner);
    assert.equal(inner.IPNumber, 5n);
    assert.equal(value.arr[0], inner);
  });

  it('never turns a string a caller sent into a number, whatever it looks like', () => {
    for (const s of ['\u00001234', '\u0000abc:12', '"\\u0000x:5"', '12345678901234567890123']) {
      const text = stringifyJson({ n: 1n, s });
      assert.deepEqual(JSON.parse(text), { n: 1, s });
    }
  });

  it('rejects a circular value holding a bigint with a TypeError, not a stack overflow', () => {
    const value: Record<string, unknown> = { n: 1n };
    value.self = value;
    assert.throws(() => stringifyJson(value), TypeError);
  });

  it('passes other stringify errors through', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    assert.throws(() => stringifyJson(value), /circular/i);
  });
});
