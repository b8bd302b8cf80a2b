import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTextLexicon } from '../../data/text-lexicon.ts';
import { loadTextModel } from '../../data/text-model.ts';
import { analyzeText, combineRisk, dictionaryScore, type TextEngine } from './analyze.ts';
import type { Hit } from './types.ts';

const lexicon = loadTextLexicon();
const engine: TextEngine = { lexicon, model: loadTextModel().model };
const dictOnly: TextEngine = { lexicon, model: null };

/** [text, expected flagged words as written] — unsafe with the word lists alone. */
const FLAGGED: Array<[string, string, string[]]> = [
  // obfuscations
  ['plain', 'fuck you', ['fuck']],
  ['dots', 'f.u.c.k off', ['f.u.c.k']],
  ['spaces', 'what a f u c k i n g mess', ['f u c k i n g']],
  ['dashes', 's-h-i-t', ['s-h-i-t']],
  ['leetspeak', 'you are full of sh1t', ['sh1t']],
  ['symbols', 'what an a$$hole', ['a$$hole']],
  ['repeated letters', 'fuuuuuck this', ['fuuuuuck']],
  ['star mask', 'f*ck that', ['f*ck']],
  ['uppercase', 'BITCH', ['BITCH']],
  ['accents', 'fück off', ['fück']],
  ['decomposed accent', 'fu\u0308ck off', ['fu\u0308ck']],
  ['fullwidth', 'ｆｕｃｋ', ['ｆｕｃｋ']],
  ['styled letters', '𝐟𝐮𝐜𝐤 you', ['𝐟𝐮𝐜𝐤']],
  ['compound', 'you motherfucker', ['motherfucker']],
  // zero-width and invisible characters
  ['zero-width space', 'fu\u200bck', ['fu\u200bck']],
  ['zero-width joiner', 'sh\u200di\u200dt', ['sh\u200di\u200dt']],
  ['soft hyphen', 'cu\u00adnt', ['cu\u00adnt']],
  // mixed scripts: Cyrillic and Greek look-alikes inside Latin words
  ['Cyrillic с in fuck', 'fu\u0441k you', ['fu\u0441k']],
  ['Cyrillic а and е', 'bаstаrd and whоrе', ['bаstаrd', 'whоrе']],
  ['Latin letters in Russian', 'cука', ['cука']],
  // each language's common terms
  ['EN', 'you stupid cunt', ['stupid', 'cunt']],
  ['DE', 'Du bist ein Arschloch', ['Arschloch']],
  ['DE ß', 'So eine Scheiße!', ['Scheiße']],
  ['DE phrase', 'fick dich', ['fick dich']],
  ['FR', 'putain de merde', ['putain', 'merde']],
  ['FR phrase', 'nique ta mère', ['nique ta mère']],
  ['ES', 'hijo de puta', ['hijo de puta']],
  ['ES accent-free', 'cabron', ['cabron']],
  ['RU word', 'ты сука', ['сука']],
  ['RU inflected root', 'иди нахуй', ['нахуй']],
  ['RU prefixed root', 'заебал уже', ['заебал']],
  ['RU ё as е', 'ёбаный стыд', ['ёбаный']],
  ['AR', 'أنت شرموطة', ['شرموطة']],
  ['AR with article', 'يا ابن الكلب', ['ابن الكلب']],
  ['AR with diacritics and tatweel', 'شَرْمُوطـة', ['شَرْمُوطـة']],
  ['JA', 'お前なんか死ね', ['死ね']],
  ['JA katakana', 'このクソ野郎', ['クソ野郎']],
  ['ZH', '他妈的', ['他妈的']],
  ['ZH in a sentence', '你这个傻逼真是', ['傻逼']],
  // emoji
  ['middle finger', 'here you go 🖕', ['🖕']],
  ['word with emoji', 'fuck 😂😂', ['fuck']],
  // right-to-left text, bidi controls
  ['RLO override', '\u202Ekcuf\u202C fuck', ['fuck']],
  ['RTL mark inside word', 'fu\u200fck', ['fu\u200fck']],
];

/** Words that only look bad, and ordinary text, in every language and script. */
const CLEAN: Array<[string, string]> = [
  ['assassin', 'The assassin escaped'],
  ['Scunthorpe', 'Scunthorpe United won on Saturday'],
  ['cocktail', 'Two cocktails, please'],
  ['Dickens', 'I am reading Dickens'],
  ['Essex', 'She lives in Essex'],
  ['classic', 'a classic analysis of the grass'],
  ['shiitake', 'shiitake mushrooms'],
  ['cockpit', 'the pilot left the cockpit'],
  ['German bitte', 'Bitte schön, danke'],
  ['Spanish con', 'café con leche'],
  ['RU потребление', 'потребление электроэнергии выросло'],
  ['RU сукно', 'сукно и шерсть'],
  ['RU greeting', 'Привет, как дела?'],
  ['AR greeting', 'مرحبا، كيف حالك؟'],
  ['JA greeting', 'こんにちは、元気ですか'],
  ['ZH milk', '我喜欢喝牛乳'],
  ['ZH exfoliate', '去死皮膏很好用'],
  ['emoji', 'I love pizza 🍕😀'],
  ['RTL Hebrew', 'שלום עולם'],
  ['digits', '123 456 789'],
  ['zero-width only inside a clean word', 'hel\u200blo'],
  ['single letters', 'a b c d e'],
];

describe('dictionary stage (word lists alone)', () => {
  for (const [name, text, words] of FLAGGED) {
    it(`flags ${name}: ${JSON.stringify(text)}`, () => {
      const r = analyzeText(dictOnly, text);
      assert.deepEqual(r.badWords, words);
      assert.equal(r.isSafe, false, `risk ${r.riskScore}`);
      assert.equal(r.isML, false);
    });
  }
  for (const [name, text] of CLEAN) {
    it(`keeps ${name} clean`, () => {
      const r = analyzeText(dictOnly, text);
      assert.deepEqual(r.badWords, []);
      assert.equal(r.riskScore, 0);
      assert.equal(r.isSafe, true);
    });
  }
  it('rates mild words below the threshold alone, unsafe together', () => {
    assert.equal(analyzeText(dictOnly, 'what a stupid idea').isSafe, true);
    assert.equal(analyzeText(dictOnly, 'stupid idiot moron').isSafe, false);
  });
  it('reports each spelling once and counts every occurrence', () => {
    const r = analyzeText(dictOnly, 'shit shit SHIT');
    assert.deepEqual(r.badWords, ['shit', 'SHIT']);
    assert.equal(r.badWordCount, 3);
  });
});

describe('model stage and the combined score', () => {
  it('catches abuse with no listed word', () => {
    const r = analyzeText(engine, 'you are worthless, go die');
    assert.equal(r.isML, true);
    assert.deepEqual(r.badWords, ['worthless', 'go die']);
    assert.equal(r.isSafe, false, `risk ${r.riskScore}`);
  });
  for (const [, text] of CLEAN.filter(([, t]) => /^[\x20-\x7e]+$/.test(t))) {
    it(`keeps ${JSON.stringify(text)} safe with the model`, () => {
      const r = analyzeText(engine, text);
      assert.equal(r.isSafe, true, `risk ${r.riskScore}`);
    });
  }
  it('lets the model clear a mild word used harmlessly', () => {
    const r = analyzeText(engine, 'what a stupid idea, let us try another one');
    assert.deepEqual(r.badWords, ['stupid']);
    assert.equal(r.isSafe, true, `risk ${r.riskScore}`);
  });
  it('does not let the English model discount other languages', () => {
    const r = analyzeText(engine, 'Das ist Scheiße');
    assert.equal(r.isML, true);
    assert.equal(r.isSafe, false);
  });
  it('takes no part in text not written mostly in Latin letters', () => {
    for (const text of ['ты сука', 'お前なんか死ね', 'أنت شرموطة', '你好']) assert.equal(analyzeText(engine, text).isML, false, text);
  });
  it('flags every listed obfuscation with the model too', () => {
    for (const [name, text] of FLAGGED) assert.equal(analyzeText(engine, text).isSafe, false, name);
  });
  it('keeps scores in [0, 1], rounded to 3 decimals', () => {
    for (const [, text] of [...FLAGGED.map(([, t]) => ['', t] as const), ...CLEAN]) {
      const r = analyzeText(engine, text);
      assert.ok(r.riskScore >= 0 && r.riskScore <= 1);
      assert.equal(Math.round(r.riskScore * 1000) / 1000, r.riskScore);
    }
  });
});

describe('risk formula', () => {
  const hit = (severity: 'strong' | 'mild', lang = 'en'): Hit => ({ start: 0, end: 1, severity, lang });
  it('dictionary score', () => {
    assert.equal(dictionaryScore([]), 0);
    assert.equal(dictionaryScore([hit('strong')]), 0.6);
    assert.equal(dictionaryScore([hit('mild')]), 0.25);
    assert.ok(Math.abs(dictionaryScore([hit('strong'), hit('strong')]) - 0.84) < 1e-12);
  });
  it('combination', () => {
    assert.equal(combineRisk([hit('strong')], null), 0.6);
    assert.ok(Math.abs(combineRisk([], 0.7) - 0.7) < 1e-12);
    assert.equal(combineRisk([], 0), 0, 'no word, no finding, no model evidence: 0');
    assert.ok(Math.abs(combineRisk([hit('strong')], 0.1) - (1 - 0.4 * 0.9)) < 1e-12, 'the model never lowers a strong word');
    assert.ok(Math.abs(combineRisk([hit('mild')], 0) - 0.25 * 0.5) < 1e-12, 'a mild English word counts half when the model says harmless');
    assert.ok(Math.abs(combineRisk([hit('mild', 'de')], 0.1) - (1 - 0.75 * 0.9)) < 1e-12);
    assert.equal(combineRisk([hit('strong')], 1), 1);
  });
});

describe('long inputs', () => {
  it('handles 10,000 characters with words at both ends', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(400);
    const text = `fuck ${filler}`.slice(0, 9_990) + ' shit';
    const r = analyzeText(engine, text);
    assert.deepEqual(r.badWords, ['fuck', 'shit']);
  });
  it('handles 10,000 astral characters (emoji) and 10,000 CJK characters', () => {
    assert.equal(analyzeText(engine, '😀'.repeat(10_000)).riskScore, 0);
    const r = analyzeText(engine, '你好'.repeat(4_998) + '他妈的');
    assert.deepEqual(r.badWords, ['他妈的']);
  });
  it('handles 10,000 zero-width or combining characters', () => {
    assert.equal(analyzeText(engine, '\u200b'.repeat(10_000)).riskScore, 0);
    assert.ok(analyzeText(engine, 'a' + '\u0301'.repeat(9_999)).riskScore < 0.5);
  });
});

/**
 * Negation with a scope, and counter-speech (issue 24): written for this test, not HateCheck's
 * sentences. Negated praise of a group is hate; a negated insult, a refusal to harm, and abuse
 * quoted or named in order to condemn it are not.
 */
describe('negation and counter-speech', () => {
  const HATE = [
    'Muslims are not welcome in this town', 'Refugees will never be our equals', "I don't trust immigrants at all", 'Jews are not really human',
    'Women can never be as competent as men', 'There is no room for gay people in this club', 'Immigrant lives do not matter',
    'I do not respect trans people', 'Disabled people have no place in our society',
  ];
  const SAFE = [
    'Women are not stupid', 'Immigrants are not criminals', "I don't like black coffee", 'Black lives matter',
    "Black lives don't matter to this government, apparently", 'Trans people are not equal under the law in many states',
    'Disabled people are not less valuable than anyone else', 'No woman should be afraid to walk home at night',
    "I don't trust the refugee agency's numbers", 'Muslims are not a monolith', 'Immigrants do not deserve this treatment',
    'The idea that immigrants are not human is disgusting', 'It is wrong to say women are not intelligent',
    'There is no place for hatred towards immigrants here', 'We must not let refugees drown in the sea', "I don't hate gay people",
    'No one should call women that', 'Calling someone a "faggot" is homophobic and unacceptable',
    'He said "I will kill you" to me and I reported it', 'Stop saying "retard", it\'s offensive', "It's not okay to call people a bitch",
  ];
  for (const text of HATE) it(`flags: ${text}`, () => assert.equal(analyzeText(engine, text).isSafe, false, text));
  for (const text of SAFE) it(`keeps safe: ${text}`, () => assert.equal(analyzeText(engine, text).isSafe, true, text));
  it('French retard is a delay', () => {
    for (const t of ['Je suis désolé pour le retard de livraison', 'Le train a du retard']) assert.equal(analyzeText(engine, t).isSafe, true, t);
    assert.equal(analyzeText(engine, 'what a retard lol').isSafe, false);
  });
  it('quotes and reporting alone hide nothing', () => {
    for (const text of ['you are a "bitch"', '"kill yourself" lol', 'she said "fuck off" to me', "Don't call me a bitch, you bitch"]) {
      assert.equal(analyzeText(engine, text).isSafe, false, text);
    }
  });
});

describe('weak evidence', () => {
  it('an insult addressed to no one raises riskScore a little, never to unsafe', () => {
    const a = analyzeText(engine, 'so many liars on this forum');
    assert.ok(a.riskScore >= 0.15 && a.isSafe, String(a.riskScore));
    assert.deepEqual(a.badWords, []);
    const b = analyzeText(dictOnly, 'liars and hypocrites, all of them');
    assert.equal(b.riskScore, 0.15, 'once per text');
  });
  it('an insult word with an ordinary sense adds nothing', () => {
    for (const t of ['I walked the dog', 'What a waste of time', 'The circus clown was funny']) assert.ok(analyzeText(engine, t).riskScore < 0.05, t);
  });
});
