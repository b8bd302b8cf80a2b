import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadEmailData } from '../../data/email-lists.ts';
import { editDistance, suggestDomain } from './typo.ts';

const { typos } = loadEmailData().lists;

/** [typed domain, suggestion or null] */
const CASES: Array<[string, string | null]> = [
  // the examples
  ['gmial.com', 'gmail.com'],
  ['gmail.con', 'gmail.com'],
  ['hotmial.com', 'hotmail.com'],
  ['yaho.com', 'yahoo.com'],
  ['gmx.de', null],
  // more slips on providers
  ['gmai.com', 'gmail.com'],
  ['gmaill.com', 'gmail.com'],
  ['gnail.com', 'gmail.com'],
  ['gmail.co', 'gmail.com'],
  ['gmail.cm', 'gmail.com'],
  ['gmail.ocm', 'gmail.com'],
  ['yahooo.com', 'yahoo.com'],
  ['yahoo.cmo', 'yahoo.com'],
  ['hotmai.com', 'hotmail.com'],
  ['hotmail.co', 'hotmail.com'],
  ['outlok.com', 'outlook.com'],
  ['iclod.com', 'icloud.com'],
  ['gogglemail.com', 'googlemail.com'],
  ['protonmial.com', 'protonmail.com'],
  ['yandx.ru', 'yandex.ru'],
  ['concast.net', 'comcast.net'],
  ['aol.con', 'aol.com'],
  ['163.con', '163.com'],
  // a TLD that does not exist, on any domain
  ['example.con', 'example.com'],
  ['shop.example.nte', 'shop.example.net'],
  ['wikipedia.ogr', 'wikipedia.org'],
  // real domains: never corrected
  ['gmail.com', null],
  ['googlemail.com', null],
  ['yahoo.co.uk', null],
  ['yahoo.fr', null],
  ['hotmail.co.uk', null],
  ['web.de', null],
  ['gmx.net', null],
  ['mail.com', null],
  ['email.com', null],
  ['ymail.com', null],
  ['live.de', null],
  ['yandex.ua', null],
  ['t-online.de', null],
  ['mail.ru', null],
  ['example.com', null],
  ['stanford.edu', null],
  ['ox.ac.uk', null],
  ['co.uk', null],
  // short names are only corrected in their suffix: one letter off is usually another domain
  ['mns.com', null],
  ['life.com', null],
  ['wed.de', null],
  ['max.com', null],
  // one slip per address: a wrong name and a wrong suffix is another domain
  ['gmial.org', null],
  ['yahoo.de', null],
  ['xn--mnchen-3ya.de', null],
];

describe('suggestDomain', () => {
  for (const [typed, expected] of CASES) {
    it(`${typed} -> ${String(expected)}`, () => assert.equal(suggestDomain(typed, typos), expected));
  }
});

describe('suggestDomain remembers answers per index', () => {
  it('a second ask gives the same answer, suggestion or none', () => {
    for (const [typed, expected] of CASES) {
      assert.equal(suggestDomain(typed, typos), expected, typed);
      assert.equal(suggestDomain(typed, typos), expected, `${typed}, asked again`);
    }
  });

  it('answers come from the index asked: a new index (a list update) does not reuse the old one\'s', () => {
    const small = { providers: ['gmail.com'], known: new Set(['gmail.com']) };
    const other = { providers: ['hotmail.com'], known: new Set(['hotmail.com']) };
    assert.equal(suggestDomain('gmial.com', small), 'gmail.com');
    assert.equal(suggestDomain('gmial.com', other), null);
    assert.equal(suggestDomain('hotmial.com', small), null);
    assert.equal(suggestDomain('hotmial.com', other), 'hotmail.com');
    assert.equal(suggestDomain('gmial.com', small), 'gmail.com');
  });

  it('past 10,000 remembered domains (the memo starts again) answers stay the same', () => {
    const index = { providers: ['gmail.com'], known: new Set(['gmail.com']) };
    for (let i = 0; i < 10_050; i++) assert.equal(suggestDomain(`shop${i}.example`, index), null);
    assert.equal(suggestDomain('gmial.com', index), 'gmail.com');
    assert.equal(suggestDomain('shop1.example', index), null);
  });
});

describe('editDistance', () => {
  for (const [a, b, d] of [
    ['gmail', 'gmail', 0], ['gmial', 'gmail', 1], ['gmai', 'gmail', 1], ['gmaill', 'gmail', 1], ['gnail', 'gmail', 1],
    ['hotmial', 'hotmail', 1], ['htomial', 'hotmail', 2], ['abc', 'xyz', 3],
  ] as const) {
    it(`${a} vs ${b} = ${d}`, () => assert.equal(editDistance(a, b, 5), d));
  }
  it('stops past the budget', () => assert.equal(editDistance('abcdefgh', 'zyxwvuts', 2), 3));
});
