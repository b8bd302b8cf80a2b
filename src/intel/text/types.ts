/** Types of the text (profanity) engine. */
import type { Speller } from './spelling.ts';
import type { AbuseRules } from './abuse.ts';

/** What an abuse pattern found (src/data/text-abuse.ts). */
export type AbuseKind = 'threat' | 'self-harm' | 'hate' | 'dehumanising' | 'insult';

/** How sure a listed word is abusive: `strong` alone makes a text unsafe, `mild` needs company. */
export type Severity = 'strong' | 'mild';

export interface LexEntry {
  readonly severity: Severity;
  /** Which list it came from (language code or `obscenity`), for explanations. */
  readonly lang: string;
}

export interface PhraseEntry {
  /** Normalised words after the first. */
  readonly rest: readonly string[];
  readonly entry: LexEntry;
}

export interface CjkTerm {
  readonly term: string;
  readonly entry: LexEntry;
}

/** Finds listed substrings in (normalised) text; spans are UTF-16 indices, end exclusive. */
export interface SubstringMatcher {
  findAll(input: string): Array<{ start: number; end: number }>;
}

/** Compiled word lists, built once at start by src/data/text-lexicon.ts. All keys are normalised. */
export interface Lexicon {
  /** Whole words. */
  readonly words: ReadonlyMap<string, LexEntry>;
  /** Multi-word terms, keyed by their first word. */
  readonly phrases: ReadonlyMap<string, readonly PhraseEntry[]>;
  /** Roots matched at the start of a word, after one of `rootPrefixes` (Russian inflection). Keyed by their first two characters. */
  readonly roots: ReadonlyMap<string, ReadonlyArray<{ root: string; entry: LexEntry }>>;
  readonly rootPrefixes: readonly string[];
  /** Prefixes glued to Arabic words (article, conjunctions, vocative), longest first. */
  readonly arabicPrefixes: readonly string[];
  /** Terms found anywhere inside Han/Kana runs, keyed by first UTF-16 unit, longest first. */
  readonly cjk: ReadonlyMap<string, readonly CjkTerm[]>;
  /** Strong words by length, for masked spellings such as `f*ck`. */
  readonly maskable: ReadonlyMap<number, readonly string[]>;
  /** Single symbols (emoji) found anywhere. */
  readonly symbols: ReadonlyMap<string, LexEntry>;
  /** Words that are never flagged, whatever they contain (`assassin`, `scunthorpe`, `cocktail`). */
  readonly whitelist: ReadonlySet<string>;
  /** CJK words that are never flagged though they contain a listed term (牛乳). */
  readonly cjkWhitelist: readonly string[];
  /** English substring patterns with their own whitelist (obscenity's English preset). */
  readonly matcher: SubstringMatcher;
  /** Threats, incitement to self-harm, hate and addressed insults (abuse.ts). */
  readonly abuse: AbuseRules;
  /** Words with a harmless sense, and the words that name that sense (`dyke`: `netherlands`...). */
  readonly senses: ReadonlyMap<string, ReadonlySet<string>>;
  /** What may precede or follow a pattern inside a longer word (`mother`+`fuck`+`er`). */
  readonly compoundPrefixes: ReadonlySet<string>;
  readonly compoundSuffixes: ReadonlySet<string>;
  /** Misspelt and run-together abuse words (`haet`, `ihate`), spelling.ts. */
  readonly speller: Speller;
  readonly version: string;
}

/** One flagged word, as spans of the original text (UTF-16 indices, end exclusive). */
export interface Hit {
  readonly start: number;
  readonly end: number;
  readonly severity: Severity;
  readonly lang: string;
  /** Set for abuse found by a pattern rather than a listed word. */
  readonly kind?: AbuseKind;
}

/** Weights of the text classifier, as loaded from src/data/models/text-model.json. */
export interface TextModel {
  readonly version: string;
  /** Number of hashed feature buckets (a power of two). */
  readonly buckets: number;
  readonly bias: number;
  readonly weights: Float64Array;
  /** Platt scaling and base rate for the raw probability (train.ts `calibrate`). */
  readonly calibration: { readonly a: number; readonly b: number; readonly baseRate: number };
}

/** What the engine computes for one text (the endpoint shapes the answer from it). */
export interface TextAnalysis {
  readonly riskScore: number;
  readonly isSafe: boolean;
  readonly isML: boolean;
  /** Calibrated probability from the model (at the expected base rate), null when it did not take part. */
  readonly modelScore: number | null;
  /** Score from the word lists alone. */
  readonly dictionaryScore: number;
  readonly hits: readonly Hit[];
  /** Number of flagged words (occurrences). */
  readonly badWordCount: number;
  /** The offending words as written, in order of appearance, each spelling once. */
  readonly badWords: readonly string[];
}
