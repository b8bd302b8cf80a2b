import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainProblem, normaliseDomain } from './name.ts';

const label63 = 'a'.repeat(63);
// 4 labels of 63 + 3 dots = 255; trimmed to exactly 253 below.
const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;

describe('normaliseDomain', () => {
  const valid: [string, string][] = [
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['example.com.', 'example.com'],
    ['mail.sub.example.co.uk', 'mail.sub.example.co.uk'],
    ['xn--bcher-kva.ch', 'xn--bcher-kva.ch'],
    ['bücher.ch', 'xn--bcher-kva.ch'],
    ['BÜCHER.CH', 'xn--bcher-kva.ch'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['ｅｘａｍｐｌｅ。com', 'example.com'],
    ['a-b.c-d.io', 'a-b.c-d.io'],
    ['123.example.com', '123.example.com'],
    [`${label63}.com`, `${label63}.com`],
    [name253, name253],
  ];
  for (const [input, want] of valid) {
    it(`accepts ${JSON.stringify(input.slice(0, 40))}`, () => assert.equal(normaliseDomain(input), want));
  }
  const invalid: string[] = [
    '', '   ', '.', 'example..com', '.example.com', 'example.com..', 'localhost', 'com',
    '1.2.3.4', '0x7f.1', '127.0.0.1.', '::1', '[::1]', '2001:db8::1',
    'exa mple.com', 'exa_mple.com', '-example.com', 'example-.com', 'example.c-m', 'example.123',
    'user@example.com', 'http://example.com', 'example.com/path', 'example.com:80', 'ex%41mple.com', 'ex*.com',
    `${'a'.repeat(64)}.com`, `a.${name253}`, 'xn--zz.com', 'example.c',
  ];
  for (const input of invalid) {
    it(`rejects ${JSON.stringify(input.slice(0, 40))}`, () => assert.equal(normaliseDomain(input), null));
  }
  it('rejects non-strings', () => {
    assert.equal(normaliseDomain(undefined), null);
    assert.equal(normaliseDomain(['example.com']), null);
  });
  it('names the problem without echoing the input', () => {
    assert.match(domainProblem('1.2.3.4'), /IP address/);
    assert.match(domainProblem('localhost'), /single label/);
    assert.match(domainProblem(`${'a'.repeat(64)}.com`), /label is longer than 63/);
    assert.match(domainProblem(`a.${name253}`), /longer than 253/);
    assert.match(domainProblem('a..b'), /empty label/);
  });
});
