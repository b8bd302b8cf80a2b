import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CUSS_EVERYDAY, ORDINARY } from '../../data/text-spelling-ordinary.ts';
import { SPELLING_EN } from '../../data/text-spelling.ts';
import { loadTextLexicon } from '../../data/text-lexicon.ts';
import { loadTextModel } from '../../data/text-model.ts';
import { cussEveryday, dictionaryWords, DICTIONARIES, ordinaryWords } from '../../../scripts/text-spelling.ts';
import { analyzeText } from './analyze.ts';
import { compileSpeller, respellForm, typosOf } from './spelling.ts';

const lexicon = loadTextLexicon();
const engine = { lexicon, model: loadTextModel().model };
const isWord = (f: string): boolean => lexicon.words.has(f) || lexicon.whitelist.has(f);

describe('typosOf', () => {
  it('swaps adjacent letters and drops one, never the first letter', () => {
    assert.deepEqual(typosOf('hate').sort(), ['haet', 'htae']);
    assert.ok(typosOf('hatred').includes('hatrd'));
    assert.ok(!typosOf('hatred').includes('atred'));
    assert.ok(!typosOf('chink').includes('chik'), 'no dropped letter in 5-letter words');
    assert.ok(typosOf('black', true).includes('blck'));
  });
});

describe('respellForm', () => {
  const sp = lexicon.speller;
  it('reads one typo of an abuse word as the word', () => {
    for (const [typo, word] of [['haet', 'hate'], ['disgutsed', 'disgusted'], ['sikc', 'sick'], ['stupd', 'stupid'], ['bicth', 'bitch'], ['immigrnt', 'immigrant'], ['blck', 'black']]) {
      assert.equal(respellForm(sp, typo ?? '', isWord), word, typo);
    }
  });
  it('reads run-together words apart', () => {
    for (const [joined, words] of [['ihate', 'i hate'], ['sosickening', 'so sickening'], ['immigrantvermin', 'immigrant vermin'], ['absolutefilth', 'absolute filth']]) {
      assert.equal(respellForm(sp, joined ?? '', isWord), words, joined);
    }
  });
  it('leaves ordinary words alone (Scunthorpe in both directions)', () => {
    for (const w of ['classic', 'assess', 'scunthorpe', 'cocktail', 'therapist', 'therapists', 'lack', 'back', 'rash', 'viel', 'chik', 'beta', 'hated', 'assassin', 'shitake', 'cockburn']) {
      assert.equal(respellForm(sp, w, isWord), w, w);
    }
  });
  it('does not try to split a very long run of letters', () => {
    const long = `${'a'.repeat(9_990)}hate`;
    const t0 = performance.now();
    assert.equal(respellForm(sp, long, isWord), long);
    assert.ok(performance.now() - t0 < 50, 'bounded work');
  });
  it('drops a typo that two abuse words share', () => {
    const s = compileSpeller({ keys: ['abcde', 'abdce'], shortDrop: [], partners: [], ordinary: [] }, () => false);
    assert.equal(s.fixes.has('abdce'), false);
  });
});

describe('everyday words that cuss rates strong', () => {
  it('are mild: alone they are safe', () => {
    for (const t of ['pretty dope game', "Let's go Yanks", 'chug this bottle', 'feeling chunky today', 'the welfare state']) {
      assert.equal(analyzeText(engine, t).isSafe, true, t);
    }
  });
  it('slurs stay strong', () => {
    for (const t of ['a filthy squaw', 'dirty kike', 'you wop']) assert.equal(analyzeText(engine, t).isSafe, false, t);
  });
});

describe('misspelt abuse through analyzeText', () => {
  it('flags typos and run-together words of abuse', () => {
    for (const t of ['I haet women.', 'You immigrants make me sikc.', 'Ihate gay people', 'These womendisgust me so much.', 'you are so stpuid', 'what a bicth']) {
      assert.equal(analyzeText(engine, t).isSafe, false, t);
    }
  });
  it('keeps ordinary text with look-alike words safe', () => {
    for (const t of ['The therapist will see you now', 'I lack the time to go back', 'A cool chik from the band Whitesnake', 'Viel Glück!', 'a rash on my arm']) {
      const a = analyzeText(engine, t);
      assert.equal(a.isSafe, true, t);
      assert.deepEqual(a.badWords, [], t);
    }
  });
});

const DICT = '/usr/share/dict';
describe('the ordinary-word list', { skip: DICTIONARIES.every((d) => existsSync(`${DICT}/${d}`)) ? false : `dictionaries not installed in ${DICT}` }, () => {
  it('is current for the keys and partners (npm run text:spelling)', () => {
    assert.deepEqual([...ORDINARY], ordinaryWords(dictionaryWords(DICT)));
    assert.equal(SPELLING_EN.ordinary, ORDINARY);
  });
  it('the everyday cuss words are current (npm run text:spelling)', () => {
    assert.deepEqual([...CUSS_EVERYDAY], cussEveryday(dictionaryWords(DICT, ['american-english', 'british-english'])));
  });
});
