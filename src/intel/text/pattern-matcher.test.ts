import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { CombinedPatternMatcher } from './pattern-matcher.ts';

const dataset = englishDataset.build();
const ours = new CombinedPatternMatcher({
  patterns: dataset.blacklistedTerms.map((t) => t.pattern),
  whitelist: dataset.whitelistedTerms ?? [],
  blacklistTransformers: englishRecommendedTransformers.blacklistMatcherTransformers ?? [],
  whitelistTransformers: englishRecommendedTransformers.whitelistMatcherTransformers ?? [],
});
const reference = new RegExpMatcher({ ...dataset, ...englishRecommendedTransformers });

/** Character positions covered by matches (ours are [start, end), obscenity's are inclusive). */
function covered(spans: Array<[number, number]>): string {
  const set = new Set<number>();
  for (const [a, b] of spans) for (let i = a; i < b; i++) set.add(i);
  return [...set].sort((x, y) => x - y).join(',');
}

const CORPUS = [
  'fuck you', 'FUCK', 'fuuuuuck', 'sh1t', 'a$$hole', 'bullshit', 'you motherfucker', 'b1tch', 'ｆｕｃｋ', 'c0ck', 'dick', 'Dickens',
  'Scunthorpe', 'cocktail', 'cockney', 'assassin', 'assess', 'pass the glass', 'an alphabet', 'Uranus', 'tetanus', 'penistone', 'the pen is blue',
  'shitake', 'kung fu', 'fick', 'montenegro', 'snigger', 'whore', 'wh0re', 'p0rn', 'sexy', 'sex', 'Essex', 'nigga', 'retard', 'hello world',
  'Hello, how are you? 😀', 'f u c k', 'twat', 'a twattle', 'rapper', 'rape', 'grape', 'therapist', 'cum', 'cumulative', 'document',
  'I like turtles and cocktails; what the fuck; ass; assume; class; bass', 'analyst anal analysis', '', 'ÀÉÎÕÜ', '🖕 finger',
];

describe('CombinedPatternMatcher equals obscenity\'s RegExpMatcher', () => {
  for (const text of CORPUS) {
    it(JSON.stringify(text), () => {
      const want = covered(reference.getAllMatches(text).map((m) => [m.startIndex, m.endIndex + 1]));
      const got = covered(ours.findAll(text).map((m) => [m.start, m.end]));
      assert.equal(got, want);
    });
  }
});
