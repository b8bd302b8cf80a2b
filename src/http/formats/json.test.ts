import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderJson, reusableAnswer, stringifyEnvelope, stringifyJson } from './json.ts';
import { renderJsonp } from './jsonp.ts';

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

describe('reusableAnswer and stringifyEnvelope', () => {
  const answer = () => ({ code: 'DE', nested: { list: [1, 'two', null], deeper: { ok: true } }, gone: undefined, quote: '"\u2028</script>' });

  it('writes the same text as JSON.stringify, envelope fields in their own order', () => {
    for (const order of ['data-first', 'data-last'] as const) {
      const data = reusableAnswer(answer());
      const body = order === 'data-first' ? { data, status: 'success', executionTime: 0.123, skipped: undefined } : { status: 'success', extra: [1, { a: 'b' }], data };
      const expected = JSON.stringify(body);
      assert.equal(stringifyEnvelope(body), expected, order);
      assert.equal(stringifyEnvelope(body), expected, `${order}, from the memo`);
      assert.equal(renderJson(body).body, expected);
    }
  });

  it('freezes the whole answer, so the memo can never go stale', () => {
    const data = reusableAnswer(answer());
    stringifyEnvelope({ data, status: 'success' });
    assert.ok(Object.isFrozen(data) && Object.isFrozen(data.nested) && Object.isFrozen(data.nested.list) && Object.isFrozen(data.nested.deeper));
    assert.throws(() => {
      data.nested.deeper.ok = false;
    }, TypeError);
    assert.equal(stringifyEnvelope({ data, status: 'success' }), JSON.stringify({ data: answer(), status: 'success' }));
  });

  it('gives each envelope its own fields around one shared answer', () => {
    const data = reusableAnswer(answer());
    const a = JSON.parse(stringifyEnvelope({ data, status: 'success', executionTime: 1 })) as Record<string, unknown>;
    const b = JSON.parse(stringifyEnvelope({ data, status: 'success', executionTime: 2 })) as Record<string, unknown>;
    assert.deepEqual([a.executionTime, b.executionTime], [1, 2]);
    assert.deepEqual(a.data, b.data);
  });

  it('keeps bigints exact inside a reusable answer', () => {
    const data = reusableAnswer({ IPNumber: 2n ** 100n });
    assert.equal(stringifyEnvelope({ data }), `{"data":{"IPNumber":${2n ** 100n}}}`);
  });

  it('takes the plain path for answers that were not marked, and for envelopes without data', () => {
    const data = answer();
    assert.equal(stringifyEnvelope({ data, status: 'success' }), JSON.stringify({ data, status: 'success' }));
    assert.ok(!Object.isFrozen(data));
    assert.equal(stringifyEnvelope({ status: 'error', code: 101 }), '{"status":"error","code":101}');
    assert.equal(stringifyEnvelope({}), '{}');
  });

  it('is what JSONP wraps, with U+2028 still escaped', () => {
    const data = reusableAnswer(answer());
    const out = renderJsonp({ data, status: 'success' }, 'cb');
    assert.ok(out.body.startsWith('/**/ cb({"data":'));
    assert.ok(!out.body.includes(String.fromCharCode(0x2028)));
    assert.ok(out.body.includes('\\u2028'));
  });

  it('rejects an answer nested deeper than any real one with a TypeError', () => {
    const value: Record<string, unknown> = { a: { b: {} } };
    let inner = value.a as Record<string, unknown>;
    for (let i = 0; i < 100; i++) inner = (inner.next = {});
    assert.throws(() => reusableAnswer(value), TypeError);
  });
});
