import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskCard, maskEmail, maskIban, maskPhone, maskText } from './mask.ts';

describe('masking of event subjects', () => {
  const cases: Array<[string, (s: string) => string, string, string]> = [
    ['email keeps first and last of the local part and the domain', maskEmail, 'john.doe@example.com', 'j******e@example.com'],
    ['short local part', maskEmail, 'jo@example.com', 'j*@example.com'],
    ['one-letter local part', maskEmail, 'j@example.com', 'j@example.com'],
    ['not an address', maskEmail, 'nonsense', 'n******e'],
    ['unicode local part counts characters, not UTF-16 units', maskEmail, 'jürgen😀x@example.de', 'j******x@example.de'],
    ['phone keeps prefix and last three', maskPhone, '447911123456', '4479*****456'],
    ['card keeps BIN and last four', maskCard, '4111 1111 1111 1111', '411111******1111'],
    ['a bare BIN stays a BIN', maskCard, '411111', '411111'],
    ['IBAN keeps country, check digits and last four', maskIban, 'de89 3704 0044 0532 0130 00', 'DE89**************3000'],
    ['text masks inside words of 3+ letters', maskText, 'you are an idiot', 'y*u a*e an i***t'],
  ];
  for (const [name, fn, input, expected] of cases) {
    it(name, () => assert.equal(fn(input), expected));
  }

  it('cuts long text and marks the cut', () => {
    const out = maskText('a'.repeat(10_000), 100);
    assert.equal([...out].length, 100);
    assert.ok(out.endsWith('…'));
  });

  it('never returns the personal part unchanged for long values', () => {
    for (const v of ['someone.special@example.org', '+1 (415) 555-0123 ext 99']) {
      assert.notEqual(maskEmail(v), v);
    }
  });
});
