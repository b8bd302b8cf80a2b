import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IP_RESULT } from './fixtures.ts';
import { leaves } from './leaves.ts';

/** Leaves as a path -> value object, for compact expectations. */
function flat(value: unknown): Record<string, string> {
  return Object.fromEntries(leaves(value).map((l) => [l.path, l.value]));
}

void describe('leaves', () => {
  void it('gives the dot path of every leaf of an IP result, in order', () => {
    const paths = leaves(IP_RESULT).map((l) => l.path);
    assert.deepEqual(paths.slice(0, 4), ['ip', 'ipType', 'IPNumber', 'bogon']);
    assert.ok(paths.includes('location.flag.png.1000px'));
    assert.ok(paths.includes('location.language.native'));
    assert.equal(paths.at(-1), 'asn.type');
    assert.equal(new Set(paths).size, paths.length);
  });

  const cases: { name: string; data: unknown; want: Record<string, string> }[] = [
    { name: 'nested objects', data: { a: { b: { c: 1 } }, d: 'x' }, want: { 'a.b.c': '1', d: 'x' } },
    { name: 'arrays of primitives joined with |', data: { t: ['vpn', 'tor', 1, true, null] }, want: { t: 'vpn|tor|1|true|' } },
    { name: 'empty array', data: { t: [] }, want: { t: '' } },
    {
      name: 'objects and arrays inside arrays JSON-encoded',
      data: { r: [{ i: 0, k: 'p' }, [1, 'a'], { n: { x: null } }] },
      want: { r: '{"i":0,"k":"p"}|[1,"a"]|{"n":{"x":null}}' },
    },
    { name: 'null and booleans', data: { n: null, t: true, f: false }, want: { n: '', t: 'true', f: 'false' } },
    {
      name: 'numbers as JSON writes them',
      data: { a: 0, b: -0, c: 1.5, d: -33.86, e: 1e21, f: 5e-7, g: Number.NaN, h: Number.POSITIVE_INFINITY },
      want: { a: '0', b: '0', c: '1.5', d: '-33.86', e: '1e+21', f: '5e-7', g: '', h: '' },
    },
    { name: 'nested empty object kept as an empty leaf', data: { e: {}, x: 1 }, want: { e: '', x: '1' } },
    { name: 'empty root object has no leaves', data: {}, want: {} },
    { name: 'string root is the leaf data', data: '203.0.113.9', want: { data: '203.0.113.9' } },
    { name: 'number root', data: 5, want: { data: '5' } },
    { name: 'null root', data: null, want: { data: '' } },
    { name: 'array root', data: ['a', 'b'], want: { data: 'a|b' } },
    { name: 'undefined root has no leaves', data: undefined, want: {} },
    {
      name: 'undefined, functions and symbols skipped like JSON',
      data: { u: undefined, f: () => 1, s: Symbol('x'), k: 'kept', arr: [undefined, () => 1] },
      want: { k: 'kept', arr: '|' },
    },
    {
      name: 'toJSON applied like JSON (Date)',
      data: { when: new Date(0), list: [new Date(0)] },
      want: { when: '1970-01-01T00:00:00.000Z', list: '1970-01-01T00:00:00.000Z' },
    },
    { name: 'keys kept verbatim', data: { '1000px': 'a', 'a b': { 'c:d': 'e' } }, want: { '1000px': 'a', 'a b.c:d': 'e' } },
  ];
  for (const c of cases) {
    void it(c.name, () => {
      assert.deepEqual(flat(c.data), c.want);
    });
  }

  void it('names a non-object root with rootPath', () => {
    assert.deepEqual(leaves('x', 'value'), [{ path: 'value', value: 'x' }]);
  });
});
