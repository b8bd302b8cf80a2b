import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions } from './options.ts';
import { ApiError } from '../errors.ts';

const MODULES = ['security', 'currency'];
const code = (q: Record<string, unknown>): number | 'ok' => {
  try {
    parseOptions(q, MODULES);
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return e.code;
  }
};

describe('options step', () => {
  it('defaults', () => {
    const o = parseOptions({}, MODULES);
    assert.deepEqual({ ...o, modules: [...o.modules] }, { format: 'JSON', callback: undefined, lang: 'EN', mode: 'live', userId: undefined, modules: [], explain: false });
  });
  it('accepts valid values case-insensitively', () => {
    const o = parseOptions({ format: 'newline', lang: 'de', mode: 'TEST', userID: 'u-1', params: 'Security, currency', explain: 'YES' }, MODULES);
    assert.equal(o.format, 'Newline');
    assert.equal(o.lang, 'DE');
    assert.equal(o.mode, 'test');
    assert.equal(o.userId, 'u-1');
    assert.deepEqual([...o.modules], ['security', 'currency']);
    assert.equal(o.explain, true);
  });
  const table: [string, Record<string, unknown>, number | 'ok'][] = [
    ['bad format', { format: 'YAML' }, 108],
    ['repeated format', { format: ['JSON', 'XML'] }, 108],
    ['bad callback', { callback: 'alert(1)' }, 107],
    ['callback too deep', { callback: 'a.b.c.d.e' }, 107],
    ['callback too long', { callback: 'a'.repeat(65) }, 107],
    ['good dotted callback', { callback: 'ns.cb_1' }, 'ok'],
    ['callback with XML', { callback: 'cb', format: 'XML' }, 109],
    ['bad format wins over callback', { callback: 'cb', format: 'nope' }, 108],
    ['bad lang', { lang: 'IT' }, 110],
    ['bad mode', { mode: 'sandbox' }, 111],
    ['userID too long', { userID: 'x'.repeat(256) }, 123],
    ['userID 255 ok', { userID: 'x'.repeat(255) }, 'ok'],
    ['userID control char', { userID: 'a\nb' }, 123],
    ['userID unicode ok', { userID: 'Ω用户🙂' }, 'ok'],
    ['unknown module', { params: 'security,weather' }, 104],
    ['empty params ok', { params: ',' }, 'ok'],
    ['options checked before params', { params: 'weather', lang: 'xx' }, 110],
    ['empty values mean defaults', { format: '', lang: '', mode: '' }, 'ok'],
    ['hostile format', { format: '<script>' }, 108],
  ];
  for (const [name, q, want] of table) it(name, () => assert.equal(code(q), want));

  it('ignores params on methods without modules', () => {
    assert.equal(parseOptions({ params: 'anything' }, []).modules.size, 0);
  });

  it('parses the same params text to the same modules every time, per method, and still refuses a bad one every time', () => {
    const first = parseOptions({ params: 'Currency, security' }, MODULES).modules;
    assert.deepEqual([...first].sort(), ['currency', 'security']);
    assert.deepEqual([...parseOptions({ params: 'Currency, security' }, MODULES).modules].sort(), ['currency', 'security']);
    // Another method's module list is its own: the same text can be an error there.
    assert.throws(() => parseOptions({ params: 'Currency, security' }, ['security']), (e) => e instanceof ApiError && e.code === 104);
    for (let i = 0; i < 3; i++) assert.equal(code({ params: 'security,bogus' }), 104);
    // Many different texts (more than are kept) all still parse right.
    for (let i = 0; i < 600; i++) {
      const text = `${' '.repeat(i % 7)}security${','.repeat(1 + (i % 90))}`;
      assert.deepEqual([...parseOptions({ params: text }, MODULES).modules], ['security'], text);
    }
    assert.equal(parseOptions({ params: '' }, MODULES).modules.size, 0);
  });
});
