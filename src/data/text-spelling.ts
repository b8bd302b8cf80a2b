/**
 * Data of the misspelt-abuse reader (src/intel/text/spelling.ts): the English abuse vocabulary a
 * typo is corrected to, the words that may be run together with it, and the ordinary words that
 * must never be corrected or split (generated: `npm run text:spelling`, which checks every typo
 * and every run-together reading against the English, German, French and Spanish dictionaries of
 * the Debian `wamerican`, `wbritish`, `wngerman`, `wfrench` and `wspanish` packages; the
 * dictionaries are read when the list is written, never shipped nor read at run time).
 */
import type { SpellingData } from '../intel/text/spelling.ts';
import { GROUP_HOSTILITY, IDENT_EN, INSULT_NOUNS_EN, INSULTS, NEG_PRED_EN, SLURS_EN, VIOLENT_PP_EN, VIOLENT_VERB_EN } from './text-abuse.ts';
import { ORDINARY } from './text-spelling-ordinary.ts';

/** `lesbians?` → `lesbian`, `lesbians`; alternatives with spaces or other syntax are left out. */
function expand(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const m = /^([a-z]+)(s|es)\?$/.exec(w);
    if (m?.[1]) out.push(m[1], m[1] + (m[2] ?? ''));
    else if (/^[a-z]+$/.test(w)) out.push(w);
  }
  return out;
}

/** Strong English swear words and slurs (the lexicon's own lists catch their leetspeak; these catch typos). */
const PROFANITY_EN = [
  'fuck', 'fucking', 'fucked', 'fucker', 'shit', 'bitch', 'bitches', 'cunt', 'cunts', 'whore', 'whores', 'slut', 'sluts', 'bastard', 'faggot', 'asshole',
  'dickhead', 'pussy', 'wanker', 'twat', 'retard', 'nigger', 'niggers', 'nigga', 'motherfucker', 'bullshit',
];
/** Words of hatred and contempt that the patterns and the hostility rule read. */
const HATE_EN = [
  'hate', 'hatred', 'hateful', 'despise', 'detest', 'loathe', 'abhor', 'disgust', 'disgusted', 'disgusting', 'disgusts', 'contempt', 'disdain',
  'threat', 'cancer', 'plague', 'kill', 'murder', 'death', 'dead', 'sick', 'sickening', 'worthless', 'inferior', 'ignorant', 'uncivilised', 'uncivilized',
  'stupidest', 'dumbest', 'scumbag', 'scumbags', 'vermin', 'rapist', 'rapists', 'worth',
];

/** Words a typo is corrected to, and parts of run-together words. */
export const SPELLING_KEYS_EN: readonly string[] = [...new Set([
  ...PROFANITY_EN, ...HATE_EN, ...expand(SLURS_EN), ...expand(INSULTS.en ?? []), ...expand(INSULT_NOUNS_EN), ...expand(NEG_PRED_EN),
  ...expand(VIOLENT_VERB_EN), ...expand(VIOLENT_PP_EN), ...expand(GROUP_HOSTILITY.hostile), ...expand(IDENT_EN),
])].filter((w) => w.length >= 4).sort();

/** Short words that may be run together with a key (`ihate`, `sosickening`, `justpathetic`, `femalevermin`). */
export const SPELLING_PARTNERS_EN: readonly string[] = [...new Set([
  'i', 'im', 'you', 'u', 'ur', 'youre', 'so', 'such', 'just', 'all', 'these', 'those', 'the', 'a', 'an', 'to', 'much', 'very', 'really', 'absolute',
  'absolutely', 'total', 'totally', 'complete', 'completely', 'utterly', 'pure', 'are', 'is', 'be', 'me', 'them', 'they', 'we', 'people', 'person', 'of',
  'gay', 'trans', ...expand(IDENT_EN),
])].sort();

/** Names of groups: harmless alone, so their 5-letter forms may lose a letter too (`womn`, `blck`). */
export const SPELLING_SHORT_DROP_EN: readonly string[] = expand(IDENT_EN).filter((w) => w.length === 5);

export const SPELLING_EN: SpellingData = { keys: SPELLING_KEYS_EN, shortDrop: SPELLING_SHORT_DROP_EN, partners: SPELLING_PARTNERS_EN, ordinary: ORDINARY };

/**
 * cuss words rated 2 (strong) that are also everyday English dictionary words with no obscenity
 * pattern inside (`dope`, `chug`, `yanks`, `chunky`, `welfare`, `kumquat`) are demoted to mild
 * (the generated CUSS_EVERYDAY); except these, which are slurs whatever the dictionary says.
 */
export const CUSS_STRONG_ANYWAY: readonly string[] = [
  'coolie', 'coolies', 'gringo', 'gringos', 'hebe', 'mulatto', 'squaw', 'shylock', 'redskin', 'redskins', 'moslem', 'kkk', 'klansman', 'bunghole',
  'whorehouse', 'pussies', 'hussy', 'pansy', 'pansies', 'sissy', 'twink',
];
