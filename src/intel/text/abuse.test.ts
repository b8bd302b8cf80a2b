import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadTextLexicon } from '../../data/text-lexicon.ts';
import { compileAbuse, findAbuse, type AbuseData } from './abuse.ts';
import { findHits } from './dictionary.ts';
import { normalize } from './normalize.ts';
import { tokenize } from './tokens.ts';

const lexicon = loadTextLexicon();
const findings = (text: string) => {
  const norm = normalize(text);
  return findAbuse(lexicon.abuse, norm.text, tokenize(norm.text)).map((h) => [h.kind, h.lang, norm.text.slice(h.from, h.to)]);
};

describe('abuse patterns', () => {
  it('finds threats, self-harm, hate and addressed insults with their language and span', () => {
    assert.deepEqual(findings('Honestly, I will hurt you.'), [['threat', 'en', 'i will hurt you']]);
    assert.deepEqual(findings('go k1ll yourself'), [['self-harm', 'en', 'k1ll yourself']]);
    assert.deepEqual(findings('du Idiot'), [['insult', 'de', 'idiot']]);
    assert.deepEqual(findings('يا حمار'), [['insult', 'ar', 'حمار']]);
    assert.deepEqual(findings('ياحمار'), [['insult', 'ar', 'ياحمار']]);
    assert.deepEqual(findings('お前は本当にバカ'), [['insult', 'ja', 'バカ']]);
    // Found by the hate pattern and by the group-hostility rule; merged into one hit later.
    assert.deepEqual(new Set(findings('Immigrants are a plague. Nice weather.').map((f) => f.join('/'))), new Set(['hate/en/immigrants are a plague']));
  });
  it('needs an addressee of the same language and no negation in between', () => {
    assert.deepEqual(findings('what a stupid idea'), []);
    assert.deepEqual(findings('you are not an idiot'), []);
    assert.deepEqual(findings('he made a cake'), [], 'made is a German insult, he an English address');
    assert.deepEqual(findings('バカ'), []);
    assert.deepEqual(findings('this vacuum cleaner sucks'), []);
    assert.deepEqual(findings('what a stupid idea, what a great player'), []);
    assert.deepEqual(findings('you suck'), [['insult', 'en', 'suck']]);
    assert.deepEqual(findings('What a contemptuous clown he is'), [['insult', 'en', 'clown']]);
  });
  it('leaves counter-speech and quotations of hate alone', () => {
    assert.deepEqual(findings('Saying that you hate women shows how misguided you are.'), []);
    assert.deepEqual(findings('Posts like "women are scum" get deleted'), []);
  });
  it('refuses a pattern with a capturing group (it would shift the pattern numbers)', () => {
    const data: AbuseData = {
      patterns: [{ lang: 'en', kind: 'threat', source: 'a (b)' }], cjkPatterns: [], address: [], cjkAddress: [], negations: [], insults: [], cjkInsults: [],
      arabicPrefixes: [], counterSpeech: [], quoteFrame: [], weakInsults: [], naming: { verbs: [], objects: [], negators: [] }, groupHostility: { lang: 'en', groups: ['x'], hostile: ['y'], negations: ['z'] },
    };
    assert.throws(() => compileAbuse(data), /capturing group/);
  });
  it('reports findings as written, in the original text', () => {
    const text = 'You are an IDIOT';
    const hits = findHits(lexicon, normalize(text));
    assert.deepEqual(hits.map((h) => [text.slice(h.start, h.end), h.severity, h.kind]), [['IDIOT', 'strong', 'insult']]);
  });
});

describe('whole words and harmless senses', () => {
  const words = (text: string) => findHits(lexicon, normalize(text)).map((h) => text.slice(h.start, h.end));
  it('a pattern inside another word is not a hit; a compound of the bad word is', () => {
    assert.deepEqual(words('assorted assortment Fukuoka assumption'), []);
    assert.deepEqual(words('motherfucker shitty dickhead bullshit fukn'), ['motherfucker', 'shitty', 'dickhead', 'bullshit', 'fukn']);
  });
  it('a sense the text names excuses the word', () => {
    assert.deepEqual(words('Dykes protect the Netherlands'), []);
    assert.deepEqual(words('Moby Dick'), []);
    assert.deepEqual(words('you dick'), ['dick']);
    assert.deepEqual(words('dykes are disgusting'), ['dykes']);
  });
});
