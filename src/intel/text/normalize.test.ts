import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLength, normalize } from './normalize.ts';
import { spreadTokens, tokenize, variantsOf } from './tokens.ts';

describe('codePointLength', () => {
  const cases: Array<[string, number]> = [
    ['', 0], ['abc', 3], ['é', 1], ['e\u0301', 2], ['😀', 1], ['👋🏽', 2], ['你好', 2], ['\ud800', 1], ['a\udc00b', 3], ['مرحبا', 5],
  ];
  for (const [s, n] of cases) it(`${JSON.stringify(s)} has ${n}`, () => assert.equal(codePointLength(s), n));
});

describe('normalize', () => {
  const cases: Array<[string, string]> = [
    ['Hello', 'hello'],
    ['FÜCK', 'fuck'],
    ['fu\u0308ck', 'fuck'],
    ['ｆｕｃｋ', 'fuck'],
    ['𝐟𝐮𝐜𝐤', 'fuck'],
    ['fu\u200bck', 'fuck'],
    ['sh\u00adit', 'shit'],
    ['\u202ekcuf\u202c', 'kcuf'],
    ['Scheiße', 'scheisse'],
    ['ЁЖИК', 'ежик'],
    ['شَرْمُوطـة', 'شرموطه'],
    ['أإآ', 'ااا'],
    ['ガッコウ', 'ガッコウ'],
    ['😀a', '😀a'],
  ];
  for (const [input, want] of cases) it(`${JSON.stringify(input)} → ${JSON.stringify(want)}`, () => assert.equal(normalize(input).text, want));

  it('maps every output unit back to its original span', () => {
    const input = 'Ａß\u200b😀e\u0301';
    const n = normalize(input);
    assert.equal(n.text, 'ass😀e');
    assert.deepEqual(n.start, [0, 1, 1, 3, 3, 5]);
    assert.deepEqual(n.end, [1, 2, 2, 5, 5, 6]);
  });
});

describe('tokens', () => {
  it('splits words, keeps leet symbols inside, drops edge punctuation', () => {
    assert.deepEqual(tokenize('hello! @you, a$$ sh1t *ok*').map((t) => t.raw), ['hello', '@you', 'a$$', 'sh1t', 'ok']);
  });
  it('separates CJK runs from Latin words', () => {
    assert.deepEqual(tokenize('fuck你妈the').map((t) => [t.raw, t.cjk]), [['fuck', false], ['你妈', true], ['the', false]]);
  });
  const variants: Array<[string, string]> = [
    ['sh1t', 'shit'], ['a$$', 'ass'], ['fuuuuck', 'fuck'], ['fu\u0441k', 'fuck'], ['cука', 'сука'], ['f*u*c*k', 'fuck'], ['b!tch', 'bitch'],
  ];
  for (const [raw, want] of variants) it(`${raw} has the variant ${want}`, () => assert.ok(variantsOf(raw).includes(want), variantsOf(raw).join(',')));
  it('does not shorten ordinary double letters', () => {
    assert.deepEqual(variantsOf('bitte'), ['bitte']);
    assert.deepEqual(variantsOf('assess'), ['assess']);
  });
  it('joins letters spread with separators, not ordinary words', () => {
    const joined = (s: string) => spreadTokens(s, tokenize(s)).map((t) => t.raw);
    assert.deepEqual(joined('f.u.c.k'), ['fuck']);
    assert.deepEqual(joined('f u c k you'), ['fuck']);
    assert.deepEqual(joined('s-h-1-t'), ['shit']);
    assert.deepEqual(joined('a b'), []);
    assert.deepEqual(joined('I am a cat'), []);
    assert.deepEqual(joined('f  .  u'), []);
  });
});
