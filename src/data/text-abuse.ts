/**
 * Abuse without swear words, and the rules that keep harmless look-alikes clean (issue 24;
 * docs/text-model.md "Abuse without swear words" gives the reasoning and sources):
 *
 * - PATTERNS: threats of violence, incitement to self-harm ("kill yourself", `kys`), calls for
 *   violence against a group and dehumanising statements, per language. Written against the
 *   definitions of the public benchmarks the project measures on (HateCheck's functionalities
 *   `threat_dir_h`, `threat_norm_h`, `derog_dehum_h`, `derog_neg_emote_h`; OLID's "targeted
 *   insult or threat"), each a fixed phrase or a first/second-person frame around a violent verb,
 *   never a single everyday word.
 * - ADDRESS + INSULTS: an insult said to someone ("you are an idiot", "يا حمار", "お前はバカだ",
 *   "du Idiot") is abuse, while the same word about a thing ("a stupid idea") is not. Insults
 *   here are flagged only when addressed; the word lists' mild words are upgraded when addressed.
 * - SENSES: words with a common harmless sense (dyke as a sea wall, a bitch as a female dog, the
 *   spotted dick pudding) are not flagged when the text names that sense.
 * - COMPOUND_PREFIXES / COMPOUND_SUFFIXES: a pattern found inside a longer word (`ass` in
 *   `assorted`, `fuk` in `Fukuoka`) counts only when the rest of the word is one of these
 *   (`motherfucker`, `shitty`, `dickhead`, `bullshit`).
 *
 * Patterns run on the text's word forms (lower case, accents folded, obfuscations resolved,
 * one space between words, punctuation dropped: "I'll" is `i ll`), so they are written that way.
 * CJK patterns run on the Han/Kana runs as written.
 */

import type { AbusePatternDef as AbusePattern } from '../intel/text/abuse.ts';

const alt = (words: readonly string[]): string => `(?:${words.join('|')})`;
/** Up to n arbitrary words, none of them a negation. */
const gap = (n: number): string => `(?: (?!${alt(NEGATIONS_EN)} )\\S+){0,${n}}?`;

export const NEGATIONS_EN = ['not', 'never', 'no', 't', 'nt', 'cannot', 'nobody', 'nothing', 'without'];

/** Groups people are attacked for (HateCheck's seven targets and other common ones). */
export const IDENT_EN = [
  'women', 'woman', 'womn', 'female', 'females', 'girls', 'trans', 'transgender', 'gay', 'gays', 'lesbians?', 'homosexuals?', 'queers?', 'black',
  'blacks', 'disabled', 'cripples', 'muslims?', 'immigrants?', 'migrants?', 'refugees', 'jews?', 'jewish', 'asians?', 'mexicans?', 'arabs?',
  'africans?', 'hindus?', 'christians?', 'catholics?', 'foreigners', 'gypsies', 'latinos?', 'hispanics?', 'whites', 'white', 'immigrant',
];
/** Groups as noun phrases (`gay people`, not `gay`), for rules that must not read "black coffee" as a group. */
const GROUP_NOUNS_EN: readonly string[] = [
    'women', 'woman', 'womn', 'womens?', 'females?', 'trans (?:people|persons?|women|men)', 'transgenders?', 'gay (?:people|persons?|men)', 'gays',
    'lesbians?', 'homosexuals?', 'black (?:people|persons?|folks?|men|women)', 'blacks', 'disabled (?:people|persons?)', 'the disabled', 'muslims?',
    'immigrants?', 'migrants?', 'refugees?', 'jews', 'jewish people', 'asians', 'mexicans', 'arabs', 'foreigners', 'gypsies',
];
/** After a group word: not a modifier of another noun ("the refugee agency", "women's football"). */
const NOT_MODIFIER = `(?! ${alt(['s', 'agency', 'agencies', 'camps?', 'crisis', 'polic(?:y|ies)', 'rights', 'laws?', 'numbers', 'figures', 'data', 'statistics', 'organi[sz]ations?', 'groups?', 'charit(?:y|ies)', 'services?', 'centres?', 'centers?', 'football', 'team', 'teams', 'league', 'sports?', 'history', 'studies', 'shelter', 'shelters', 'drivers', 'doctors?'])}(?= |$))`;
/** A group, or the lives of one ("immigrant lives"), as one regular-expression alternative. */
const GROUP_NP_EN = `(?:${[...GROUP_NOUNS_EN, `${alt(IDENT_EN)} (?:lives|life)`].join('|')})`;
export const VIOLENT_VERB_EN = [
  'kill', 'murder', 'hurt', 'stab', 'shoot', 'beat', 'strangle', 'choke', 'rape', 'slaughter', 'butcher', 'behead', 'hang', 'lynch', 'burn',
  'torture', 'gut', 'drown', 'slit', 'bash', 'smash', 'exterminate', 'eradicate', 'execute', 'attack', 'punch', 'bury', 'poison', 'gas', 'massacre',
];
export const VIOLENT_PP_EN = [
  'killed', 'murdered', 'shot', 'stabbed', 'hanged', 'hung', 'lynched', 'burned', 'burnt', 'gassed', 'exterminated', 'eradicated', 'executed',
  'slaughtered', 'butchered', 'drowned', 'strangled', 'raped', 'tortured', 'beheaded', 'wiped out', 'put down', 'eliminated', 'dead', 'die', 'suffer',
];
/** Objects that make a violent verb a threat against people. */
const TARGET_EN = [
  'you', 'u', 'ya', 'your', 'ur', 'him', 'her', 'them', 'all', 'every', 'everyone', 'everybody', 'the next', 'those', 'these', 'his', 'their',
  `(?:that|this|the) ${alt(['person', 'people', 'man', 'guy', 'woman', 'girl', 'kid', 'bitch', 'bastard', ...IDENT_EN])}`, ...IDENT_EN,
];
export const NEG_PRED_EN = [
  'scum', 'vermin', 'filth', 'trash', 'garbage', 'dirt', 'rats', 'parasites', 'cockroaches', 'animals', 'savages', 'subhuman', 'pigs', 'apes',
  'disgusting', 'repulsive', 'revolting', 'vile', 'despicable', 'sickening', 'repugnant', 'pathetic', 'worthless', 'inferior', 'filthy',
  'brainless', 'primitive', 'uncivilised', 'uncivilized', 'a plague', 'a cancer', 'a disease', 'a virus', 'a burden', 'lesser beings',
  'the worst', 'the absolute worst', 'dishonest', 'stupid', 'dumb', 'evil', 'useless', 'a waste', 'pests', 'nothing but',
];

/** Praise that, negated and said of a group, denies its worth ("women are never intelligent", "immigrant lives do not matter"). */
const NEGATED_PRAISE_EN = [
  'attractive', 'intelligent', 'smart', 'clever', 'capable', 'competent', 'trustworthy', 'honest', 'decent', 'good people', 'humans?', 'worthy',
  'worth (?!(?:any |a bit |much )?less)\\S+', 'valuable', 'important', '(?:our |my )?equals?(?! (?:under|in|before|rights|pay|treatment|opportunit\\S*))',
  'welcome', 'civilised', 'civilized', 'matter(?! to)', 'deserve (?:to live|rights|respect|to exist|life)', 'allowed to (?:live|exist)',
  'belong (?:on|in) (?:this|the|our) (?:earth|planet|world|country|society)', 'belong here',
];

/** Insults that name a person (nouns), for exclamations. */
export const INSULT_NOUNS_EN = [
  'idiot', 'moron', 'loser', 'jerk', 'clown', 'liar', 'fool', 'imbecile', 'hypocrite', 'coward', 'creep', 'pervert', 'lunatic', 'psycho', 'scumbag',
  'lowlife', 'dumbass', 'dipshit', 'douchebag', 'douche', 'prick', 'bastard', 'bitch', 'asshole', 'dickhead', 'twat', 'wanker', 'tosser', 'cretin',
  'retard', 'disgrace', 'traitor', 'pig', 'slob', 'freak', 'crook', 'thug', 'degenerate', 'narcissist', 'wacko', 'nutjob', 'halfwit', 'dimwit',
];

export const PATTERNS: readonly AbusePattern[] = [
  // English: incitement to self-harm.
  ...[
    `${alt(['kill', 'hang', 'neck', 'shoot', 'end', 'off', 'unalive', 'hurt', 'cut'])} ${alt(['yourself', 'your self', 'yourselves', 'urself', 'yaself'])}`,
    'kys', 'go (?:and )?die', `go ${alt(['jump off', 'jump in front of'])} (?:a|the) \\S+`, `${alt(['drink', 'swallow', 'eat'])} (?:some )?bleach`,
    `(?:i )?hope ${alt(['you', 'u'])} ${alt(['die', 'get cancer', 'get raped', 'rot', 'choke', 'suffer', 'get hit by a', 'burn'])}`,
    'drop dead', `${alt(['nobody', 'no one'])} ${alt(['would', 'will'])} miss ${alt(['you', 'u'])}`,
    `(?:the )?world ${alt(['would be', 'is', 'will be'])} better (?:off )?without ${alt(['you', 'u'])}`,
    `${alt(['you', 'u'])} ${alt(['should', 'deserve to', 'ought to'])} ${alt(['die', 'be dead', 'not exist', 'not be alive', 'kill yourself'])}`,
    `${alt(['you', 'u'])} ${alt(['don t', 'do not', 'dont'])} deserve to live`, 'die in a (?:fire|ditch|hole)',
  ].map((source): AbusePattern => ({ lang: 'en', kind: 'self-harm', source })),
  // English: threats against a person or a group (first person + violent verb + a human target).
  ...[
    `${alt(['i', 'we'])}${gap(4)} ${alt(VIOLENT_VERB_EN)}(?:s|ed|ing)?${gap(1)} ${alt(TARGET_EN)}`,
    `${alt(['i', 'we'])}${gap(3)} ${alt(['know', 'find', 'found', 'find out'])} where ${alt(['you', 'u', 'your family', 'your kids'])} ${alt(['live', 'sleep', 'work', 'lives'])}`,
    'watch your back', `${alt(['you', 'u'])} ${alt(['re', 'are', 'r'])} ${alt(['dead meat', 'next', 'going to die', 'gonna die'])}`,
    `${alt(['you', 'u'])} ${alt(['will', 'll'])} ${alt(['die', 'pay for this', 'pay for that', 'regret being born'])}`,
    `death to${gap(1)} ${alt(['all', 'the', 'every', ...IDENT_EN])}`,
    `${alt([...IDENT_EN, 'you', 'they', 'them', 'those \\S+', 'these \\S+', 'people like you', '\\S+ like you'])}${gap(3)} ${alt(['should', 'must', 'ought to', 'deserve to', 'need to', 'have to'])}(?: ${alt(['all', 'just', 'really', 'simply'])})*(?: be)? ${alt(VIOLENT_PP_EN)}`,
    `${alt(['kill', 'exterminate', 'gas', 'hang', 'shoot', 'lynch', 'burn', 'drown', 'deport'])} ${alt(['all', 'every', 'those', 'these', 'the'])}${gap(1)} ${alt(IDENT_EN)}`,
  ].map((source): AbusePattern => ({ lang: 'en', kind: 'threat', source })),
  // English: hatred of and dehumanising statements about a group.
  ...[
    `${alt(['i', 'we'])}${gap(2)} ${alt(['hate', 'despise', 'detest', 'loathe', 'abhor', 'can t stand', 'cannot stand', 'disgusted by', 'sick of', 'contempt for', 'hatred for', 'hatred of', 'hatred towards'])}${gap(3)} ${alt(IDENT_EN)}`,
    `${alt(IDENT_EN)}(?: people| person)?(?: like ${alt(['you', 'them'])})?${gap(1)} ${alt(['are', 'is', 're'])}${gap(3)} ${alt(NEG_PRED_EN)}`,
    `you ${alt(IDENT_EN)}${gap(2)} ${alt(['make me sick', 'disgust me', 'are all', 'are nothing'])}`,
  ].map((source): AbusePattern => ({ lang: 'en', kind: 'hate', source })),
  // Negated praise of a group (HateCheck's negate_pos_h; scope: the negation must sit between the group and the praise,
  // so "women are not stupid", "I don't hate women" and "no woman deserves to die" stay safe).
  ...[
    `${GROUP_NP_EN}(?: like ${alt(['you', 'them', 'that'])})? ${alt(['are', 'is', 're', 'can', 'could', 'will', 'would', 'should', 'do', 'does', 'must'])}(?: ${alt(['just', 'simply', 'really', 'clearly', 'obviously'])})? ${alt(['not', 'never', 'nt', 'no longer'])}(?: ${alt(['any', 'ever', 'be', 'as', 'our', 'at all', 'really', 'truly', 'that', 'even', 'very', 'fully', 'real'])})* ${alt(NEGATED_PRAISE_EN)}`,
    `${GROUP_NP_EN} ${alt(['have', 'has'])} no ${alt(['value', 'worth', 'place (?:in|on) (?:this|the|our) \\S+', 'right to (?:live|exist|be alive|be here|breathe)', 'business (?:being|living) \\S+'])}`,
    `no ${GROUP_NP_EN} ${alt(['can', 'could', 'will', 'should', 'is', 'deserves to'])}(?: ever)? (?:be )?(?:a |an |as )?${alt(['valuable', 'good', 'decent', 'useful', 'productive', 'trusted', 'trustworthy', 'equal', 'intelligent', 'smart', 'human', 'live', 'exist'])}`,
    `${alt(['no', 'zero', 'not any', 'never any', 'never'])} ${alt(['compassion', 'respect', 'sympathy', 'empathy', 'pity', 'mercy', 'tolerance', 'place', 'space', 'room'])}(?: (?!${alt(['for', 'towards?', 'to'])} )\\S+){0,4}? ${alt(['for', 'towards?'])}(?: ${alt(['any', 'all', 'the', 'these', 'those', 'a', 'an', 'you'])})? ${GROUP_NP_EN}`,
    `${alt(['rights', 'laws', 'protections'])} ${alt(['should', 'must', 'shall', 'do', 'does'])} ${alt(['not', 'never', 'nt'])} ${alt(['apply', 'extend', 'be given'])} to ${GROUP_NP_EN}`,
    `${alt(['must', 'should', 'shall', 'will', 'cannot', 'can', 'do'])} ${alt(['not', 'never', 'nt'])} ${alt(['let', 'allow'])}(?: ${alt(['any', 'a', 'an', 'the', 'these', 'those', 'more'])})? ${GROUP_NP_EN} ${alt(['live', 'exist', 'survive', 'breathe', 'stay alive', 'to live', 'to exist'])}`,
    `i(?: ${alt(['just', 'really', 'simply'])})? ${alt(['don t', 'dont', 'do not', 'never', 'can t', 'cannot', 'won t', 'will never', 'could never'])} ${alt(['respect', 'trust', 'like', 'tolerate', 'value', 'accept'])}(?: ${alt(['any', 'the', 'these', 'those', 'all'])})? ${GROUP_NP_EN}${NOT_MODIFIER}`,
  ].map((source): AbusePattern => ({ lang: 'en', kind: 'hate', source })),
  ...[
    `${alt(['you', 'u'])}${gap(1)} ${alt(['are', 're', 'r'])}${gap(3)} ${alt(['a waste of (?:space|oxygen|air|skin)', 'subhuman', 'vermin', 'a parasite', 'a cockroach', 'a maggot'])}`,
  ].map((source): AbusePattern => ({ lang: 'en', kind: 'dehumanising', source })),
  // "What a clown (he is)": an exclamation naming someone by an insult noun ("what a stupid idea" names no one).
  { lang: 'en', kind: 'insult', source: `what (?:a|an)(?: \\S+)? ${alt(INSULT_NOUNS_EN)}` },

  // German (ä ö ü folded to a o u, ß to ss).
  ...[
    `ich(?: \\S+){0,2}? ${alt(['bring', 'bringe', 'werde', 'will', 'mach', 'mache'])} dich(?: \\S+){0,2}? ${alt(['um', 'umbringen', 'toten', 'abstechen', 'erschiessen', 'kaltmachen', 'fertigmachen', 'erwurgen', 'abknallen'])}`,
    `ich weiss wo du ${alt(['wohnst', 'lebst', 'schlafst'])}`, 'tod (?:allen|den) \\S+',
  ].map((source): AbusePattern => ({ lang: 'de', kind: 'threat', source })),
  ...[
    `${alt(['bring', 'bringt', 'bringe'])} dich(?: ${alt(['doch', 'einfach', 'endlich', 'bitte'])})? um`, `${alt(['geh', 'geht', 'gehen sie'])} sterben`,
    'stirb', `verreck${alt(['', 'e', 'en', 't'])}`, 'hang dich auf', `du ${alt(['solltest', 'sollst'])} sterben`, `ich hoffe du ${alt(['stirbst', 'verreckst'])}`,
  ].map((source): AbusePattern => ({ lang: 'de', kind: 'self-harm', source })),
  { lang: 'de', kind: 'dehumanising', source: `sind(?: ${alt(['alle', 'nur', 'doch'])})* ${alt(['ungeziefer', 'parasiten', 'abschaum', 'untermenschen', 'gesindel', 'viehzeug'])}` },

  // French (accents folded; "t'es" is `t es`).
  ...[
    `je ${alt(['vais', 'veux', 'vas'])}(?: \\S+){0,1}? te ${alt(['tuer', 'buter', 'crever', 'defoncer', 'egorger', 'planter', 'massacrer', 'fumer', 'decouper', 'tabasser'])}`,
    `je sais ou tu ${alt(['habites', 'vis', 'dors'])}`, `mort aux \\S+`,
  ].map((source): AbusePattern => ({ lang: 'fr', kind: 'threat', source })),
  ...[
    `${alt(['va', 'vas', 'allez'])} ${alt(['te tuer', 'te pendre', 'crever', 'mourir', 'te suicider'])}`, `${alt(['tue', 'pends', 'suicide'])} toi`, 'creve',
    `j espere que tu ${alt(['meurs', 'vas mourir', 'creves'])}`,
  ].map((source): AbusePattern => ({ lang: 'fr', kind: 'self-harm', source })),
  { lang: 'fr', kind: 'dehumanising', source: `sont(?: ${alt(['tous', 'toutes', 'des', 'que des', 'juste des', 'de la'])})* ${alt(['vermine', 'parasites', 'cafards', 'sous hommes', 'dechets', 'racaille'])}` },

  // Spanish (accents folded).
  ...[
    `te ${alt(['voy', 'vamos', 'van'])} a ${alt(['matar', 'reventar', 'apunalar', 'disparar', 'quemar', 'colgar', 'destrozar', 'partir la cara'])}`,
    `se donde ${alt(['vives', 'duermes'])}`, `muerte a ${alt(['los', 'las', 'todos', 'todas'])}`,
  ].map((source): AbusePattern => ({ lang: 'es', kind: 'threat', source })),
  ...[
    alt(['matate', 'suicidate', 'muerete', 'ahorcate', 'pegate un tiro']), `ojala ${alt(['te mueras', 'mueras', 'te maten'])}`, 'vete a morir',
    `${alt(['deberias', 'mereces'])} ${alt(['morir', 'morirte', 'estar muerto', 'estar muerta'])}`,
  ].map((source): AbusePattern => ({ lang: 'es', kind: 'self-harm', source })),
  { lang: 'es', kind: 'dehumanising', source: `son(?: ${alt(['todos', 'todas', 'unos', 'unas', 'solo', 'una'])})* ${alt(['ratas', 'parasitos', 'escoria', 'cucarachas', 'alimanas', 'subhumanos', 'plaga'])}` },

  // Russian (ё folded to е, й to и).
  ...[
    `я ${alt(['тебя', 'вас'])}(?: \\S+){0,1}? ${alt(['убью', 'урою', 'зарежу', 'прикончу', 'задушу', 'пристрелю', 'закопаю', 'найду'])}`,
    `я знаю где ты ${alt(['живешь', 'спишь'])}`, `${alt(['тебе', 'вам'])} ${alt(['конец', 'не жить', 'хана'])}`,
  ].map((source): AbusePattern => ({ lang: 'ru', kind: 'threat', source })),
  ...[
    alt(['убеися', 'удавись', 'повесься', 'вздернись', 'сдохни', 'сдохните', 'выпились', 'самоубеися']), `убеи ${alt(['себя', 'себе'])}`,
    `чтоб(?:ы)? ты ${alt(['сдох', 'сдохла', 'сдохнул'])}`,
  ].map((source): AbusePattern => ({ lang: 'ru', kind: 'self-harm', source })),
  { lang: 'ru', kind: 'dehumanising', source: alt(['нелюди', 'недочеловеки', 'недочеловек']) },

  // Arabic (hamza forms, alef maqsura and teh marbuta folded; ة is ه).
  ...[
    alt(['ساقتلك', 'هقتلك', 'حقتلك', 'بقتلك', 'اقتلك', 'ساذبحك', 'اذبحك', 'هذبحك', 'بذبحك']),
    `${alt(['اعرف', 'عارف'])} ${alt(['وين', 'فين', 'اين'])} ${alt(['ساكن', 'تسكن', 'بيتك', 'عايش'])}`,
  ].map((source): AbusePattern => ({ lang: 'ar', kind: 'threat', source })),
  ...['اقتل نفسك', 'انتحر', 'موت يا \\S+', 'الله ياخذك', 'روح موت'].map((source): AbusePattern => ({ lang: 'ar', kind: 'self-harm', source })),
];

/** Patterns for Han/Kana runs, found anywhere in a run. */
export const CJK_PATTERNS: readonly AbusePattern[] = [
  ...['殺すぞ', '殺してやる', 'ぶっ殺', 'ぶち殺', 'ころすぞ', 'コロス', '殴るぞ', '刺すぞ', 'お前の家(?:を|は)?知って', '住所(?:を|は)?知って']
    .map((source): AbusePattern => ({ lang: 'ja', kind: 'threat', source })),
  ...['自殺しろ', '死んでくれ', '死ねばいい', '消えてくれ'].map((source): AbusePattern => ({ lang: 'ja', kind: 'self-harm', source })),
  ...['杀了你', '杀死你', '弄死你', '打死你', '砍死你', '宰了你', '我知道你住(?:在)?(?:哪|哪里|哪儿)', '死全家', '全家死光']
    .map((source): AbusePattern => ({ lang: 'zh', kind: 'threat', source })),
  ...['你(?:怎么)?(?:还)?不去死', '去自杀', '自杀吧'].map((source): AbusePattern => ({ lang: 'zh', kind: 'self-harm', source })),
];

/**
 * Words that address someone: an insult of the same language right after one of them is said to
 * that person. The insults are INSULTS only, not every mild word (`bloody` and `hell` insult nobody).
 */
export const ADDRESS: Readonly<Record<string, readonly string[]>> = {
  // Third persons too: an insult said of someone ("he is a liar") is a targeted insult (OLID's definition).
  en: ['you', 'u', 'ya', 'ye', 'youre', 'ur', 'yourself', 'he', 'she', 'hes', 'shes', 'they', 'theyre', 'him', 'them', 'these', 'those'],
  de: ['du', 'dich', 'dir', 'ihr', 'euch'],
  fr: ['tu', 't', 'toi', 'te', 'vous', 'espece'],
  es: ['tu', 'eres', 'te', 'usted', 'vos', 'sos', 'ustedes'],
  ru: ['ты', 'тебя', 'тебе', 'тобои', 'вы', 'вас'],
  ar: ['انت', 'انتي', 'انتم', 'انتو', 'يا', 'ياا'],
};
/** The same for Han/Kana runs: an insult within a few characters after one of these. */
export const CJK_ADDRESS: readonly string[] = ['お前', 'おまえ', 'てめえ', 'てめぇ', 'テメェ', 'テメエ', '貴様', 'きさま', 'あんた', '你', '您', '妳'];

/** Words between the address and the insult that cancel it ("you are not an idiot"). */
export const NEGATIONS: readonly string[] = [
  ...NEGATIONS_EN, 'nicht', 'kein', 'keine', 'keiner', 'nie', 'pas', 'jamais', 'ne', 'nunca', 'nada', 'не', 'ни', 'никогда', 'ليس', 'لست', 'مش', 'مو', 'ما', 'لا',
];

/**
 * Insults that are abuse when addressed ("you pig", "du Schwein") and ordinary words otherwise
 * ("a pig farm"). The word lists' mild words are addressed insults too.
 */
export const INSULTS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'idiot', 'idiots', 'moron', 'morons', 'stupid', 'dumb', 'loser', 'losers', 'jerk', 'worthless', 'pathetic', 'useless', 'disgusting', 'ugly', 'retarded',
    'brainless', 'scum', 'trash', 'garbage', 'filth', 'vermin', 'parasite', 'cockroach', 'rat', 'rats', 'pig', 'pigs', 'dog', 'animal', 'animals', 'clown',
    'freak', 'maggot', 'worm', 'subhuman', 'savage', 'imbecile', 'dimwit', 'fool', 'halfwit', 'cretin', 'creep', 'pervert', 'failure', 'nobody', 'waste',
    'dumbass', 'airhead', 'numpty', 'tosser', 'plonker', 'git', 'pest', 'snake', 'weirdo', 'psycho', 'lowlife', 'scumbag', 'ignorant',
    'liar', 'liars', 'clowns', 'hypocrite', 'hypocrites', 'coward', 'cowards', 'lunatic', 'lunatics', 'crook', 'crooks', 'thug', 'thugs', 'degenerate',
    'degenerates', 'narcissist', 'wacko', 'wackos', 'nutjob', 'nutjobs', 'libtard', 'libtards', 'despicable', 'scumbags', 'fools', 'imbeciles',
    'traitor', 'traitors', 'disgrace', 'slob', 'bastard', 'bitch', 'asshole', 'dickhead', 'twat', 'wanker', 'cunt', 'whore', 'slut', 'suck', 'sucks',
  ],
  de: ['idiot', 'depp', 'trottel', 'blodmann', 'mistkerl', 'penner', 'dummkopf', 'vollpfosten', 'arschloch', 'schwein', 'sau', 'ratte', 'hund', 'tier', 'ungeziefer', 'parasit', 'abschaum', 'dreck', 'mull', 'wertlos', 'nutzlos', 'erbarmlich', 'hasslich', 'dumm', 'blod', 'behindert', 'versager', 'clown', 'made', 'kakerlake', 'opfer', 'lappen', 'spacko', 'vollidiot'],
  fr: ['idiot', 'cretin', 'abruti', 'connard', 'connasse', 'salope', 'salaud', 'porc', 'cochon', 'rat', 'chien', 'chienne', 'animal', 'vermine', 'parasite', 'dechet', 'ordure', 'minable', 'nul', 'nulle', 'inutile', 'pathetique', 'moche', 'bete', 'stupide', 'con', 'conne', 'rate', 'tare', 'clown', 'cafard', 'idiote', 'imbecile', 'abrutie', 'debile'],
  es: ['huevon', 'boludo', 'boluda', 'pelotudo', 'pelotuda', 'pendejo', 'pendeja', 'gilipollas', 'cabron', 'cerdo', 'cerda', 'rata', 'perro', 'perra', 'animal', 'basura', 'escoria', 'parasito', 'gusano', 'inutil', 'patetico', 'patetica', 'asqueroso', 'asquerosa', 'feo', 'fea', 'estupido', 'estupida', 'tonto', 'tonta', 'payaso', 'cucaracha', 'bestia', 'burro', 'burra', 'mierda', 'idiota', 'imbecil', 'subnormal', 'retrasado', 'retrasada'],
  ru: ['свинья', 'крыса', 'собака', 'животное', 'скотина', 'мусор', 'ничтожество', 'паразит', 'червь', 'урод', 'уродина', 'тупои', 'тупая', 'бесполезныи', 'жалкии', 'отброс', 'таракан', 'быдло', 'дебил', 'идиот', 'дурак', 'дура', 'кретин', 'тварь', 'сволочь', 'козел', 'лох', 'придурок', 'неудачник'],
  ar: ['حمار', 'كلب', 'خنزير', 'حيوان', 'حشره', 'زباله', 'قذر', 'غبي', 'حقير', 'تافه', 'جزمه', 'بهيمه', 'قرد', 'فاشل', 'وسخ', 'واطي', 'كلبه', 'حماره', 'بقره', 'اهبل', 'عبيط', 'متخلف'],
  cjk: ['バカ', 'ばか', '馬鹿', 'アホ', 'あほ', '阿呆', 'クズ', 'くず', 'カス', 'ゴミ', 'ごみ', 'ブス', 'デブ', '豚', 'ブタ', '役立たず', '無能', '間抜け', 'ボケ', '虫けら', 'ウジ虫', '白痴', '笨蛋', '废物', '廢物', '垃圾', '人渣', '蠢货', '蠢猪', '傻瓜', '猪', '狗', '畜生', '败类', '贱人', '混蛋', '王八蛋', '智障', '脑残'],
};

/** Insults with a common ordinary sense ("the dog", "a waste of time", "a circus clown"): no evidence unless addressed. */
const ORDINARY_SENSE_EN = new Set([
  'dog', 'animal', 'animals', 'rat', 'rats', 'pig', 'pigs', 'snake', 'worm', 'waste', 'trash', 'garbage', 'failure', 'nobody', 'pest', 'git', 'suck',
  'sucks', 'clown', 'clowns', 'freak', 'savage', 'creep', 'fool', 'fools', 'maggot', 'cockroach', 'ugly', 'parasite', 'filth',
]);
/**
 * English insults that are weak evidence even when addressed to no one ("these idiots", "liars
 * everywhere"): with none of the word lists' words, they add WEAK_WEIGHT (analyze.ts) to riskScore,
 * once, below the unsafe threshold on their own.
 */
export const WEAK_INSULTS_EN: readonly string[] = (INSULTS.en ?? []).filter((w) => !ORDINARY_SENSE_EN.has(w));

/** French words that English does not use: a text with one is French for `retard` (a delay). */
const FRENCH_CONTEXT = ['le', 'du', 'des', 'les', 'est', 'sont', 'pour', 'avec', 'sans', 'une', 'nous', 'vous', 'je', 'suis', 'au', 'aux', 'mon', 'mes', 'votre', 'notre', 'en', 'de', 'avons', 'avez', 'ont', 'tres'];

/** Words with a common harmless sense, and the words that name that sense in the same text. */
export const SENSES: Readonly<Record<string, readonly string[]>> = {
  dyke: ['netherlands', 'dutch', 'holland', 'flood', 'floods', 'flooding', 'sea', 'water', 'river', 'rivers', 'polder', 'levee', 'levees', 'dam', 'embankment', 'embankments', 'coast', 'tide', 'marsh', 'marshland', 'beach', 'walls', 'wall', 'van', 'dick', 'offa'],
  dykes: ['netherlands', 'dutch', 'holland', 'flood', 'floods', 'flooding', 'sea', 'water', 'river', 'rivers', 'polder', 'levee', 'dam', 'embankments', 'coast', 'tide', 'walls', 'wall', 'protect'],
  dyked: ['marsh', 'marshland', 'river', 'rivers', 'land', 'sea', 'pasture'],
  dick: ['moby', 'van', 'dyke', 'spotted', 'pudding', 'philip', 'tracy', 'cheney', 'clark', 'francis', 'whittington', 'turpin', 'grayson', 'dastardly'],
  bitch: ['labrador', 'puppies', 'puppy', 'litter', 'kennel', 'breeder', 'breeding', 'whelp', 'whelped', 'vet', 'canine', 'canines', 'dogs', 'sire', 'dam'],
  bitches: ['labrador', 'puppies', 'puppy', 'litter', 'kennel', 'breeder', 'breeding', 'canine', 'canines', 'dogs', 'female canines'],
  cock: ['rooster', 'hen', 'hens', 'chicken', 'chickens', 'crow', 'crowed', 'crows', 'farm', 'barnyard', 'weathercock', 'gun', 'pheasant'],
  pussy: ['cat', 'cats', 'kitten', 'kitty', 'willow', 'boots'],
  ass: ['donkey', 'donkeys', 'mule', 'mules', 'foal', 'bray', 'brays', 'burden', 'balaam', 'jenny'],
  fag: ['cigarette', 'cigarettes', 'smoke', 'smoked', 'smoking', 'lighter', 'packet', 'ashtray'],
  fags: ['cigarette', 'cigarettes', 'smoke', 'smoked', 'smoking', 'lighter', 'packet', 'ashtray', 'lungs'],
  faggot: ['meatball', 'meatballs', 'butcher', 'gravy', 'dinner', 'sticks', 'firewood', 'fuel', 'bundle', 'fried', 'pan'],
  faggots: ['meatball', 'meatballs', 'butcher', 'gravy', 'dinner', 'cooked', 'sticks', 'firewood', 'fuel', 'bundle', 'delicious'],
  hoe: ['garden', 'rake', 'soil', 'weeds', 'weeding', 'spade', 'shed'],
  screw: ['screwdriver', 'bolt', 'bolts', 'nut', 'nuts', 'drill', 'thread', 'loose', 'tighten'],
  cum: ['laude', 'magna', 'summa'],
  // French `retard` is a delay ("le retard de livraison"): named by French function words.
  retard: FRENCH_CONTEXT,
  retards: FRENCH_CONTEXT,
};

/** A pattern inside a longer word counts when what precedes it is one of these (or nothing)... */
export const COMPOUND_PREFIXES: readonly string[] = [
  'mother', 'muther', 'mutha', 'bull', 'dumb', 'dum', 'jack', 'horse', 'chicken', 'dip', 'dog', 'cluster', 'mind', 'bat', 'holy', 'ape', 'god', 'smart',
  'fat', 'lame', 'bad', 'kick', 'hard', 'half', 'candy', 'big', 'lard', 'wise', 'butt', 'cock', 'ass', 'arse', 'shit', 'fuck', 'dick', 'cunt', 'bitch',
  'pussy', 'piss', 'cum', 'un', 'super', 'mega', 'clit', 'tit', 'man', 'slut', 'whore', 'dirty', 'stupid', 'little', 'f', 'mf', 'phuk', 'fk',
];
/** ...and what follows it is one of these (or nothing). */
export const COMPOUND_SUFFIXES: readonly string[] = [
  's', 'es', 'ed', 'd', 'er', 'ers', 'r', 'rs', 'ing', 'in', 'ings', 'y', 'ey', 'ie', 'ies', 'ier', 'iest', 'ty', 'tier', 'tiest', 'ting', 'tings', 'ted',
  'ter', 'ters', 'head', 'heads', 'face', 'faces', 'hole', 'holes', 'hat', 'hats', 'wad', 'wads', 'bag', 'bags', 'stick', 'sticks', 'load', 'loads',
  'tard', 'tards', 'ass', 'wit', 'wits', 'nut', 'nuts', 'ery', 'ness', 'ly', 'off', 'offs', 'up', 'ups', 'show', 'storm', 'stain', 'pile', 'head',
  'brain', 'brains', 'lord', 'box', 'boy', 'boys', 'girl', 'bucket', 'burger', 'weasel', 'wipe', 'licker', 'lickers', 'sucker', 'suckers', 'kisser',
  'kissers', 'fest', 'tastic', 'tacular', 'ass', 'arse', 'crack', 'clown', 'monkey', 'ton', 'fuck', 'shit', 'bitch', 'dick', 'cunt', 'cock', 'tit',
  'tits', 'ish', 'a', 'z', 'o', 'er', 'ah', 'ahs', 'as', 'az', 'ers', 'in', 'rag', 'rags', 'hound', 'hounds', 'ball', 'balls', 'bird', 'birds', 'nugget',
  'y', 'ier', 'ging', 'gy', 'gin', 'ged', 'ger', 'gers', 'ters', 'ting', 'ning', 'tin', 'tits', 'ie', 'less', 'lessly', 'n', 'en', 'ng', 'king', 'kin',
];

/**
 * Words that report or condemn what follows in the sentence ("Saying that you hate women shows...",
 * "Threatening to kill ... will get you thrown in jail"): counter-speech, HateCheck's
 * `counter_ref_nh`. An English threat or hate pattern preceded by one in its sentence is dropped.
 */
export const REPORTING_EN: readonly string[] = [
  'saying', 'say', 'says', 'said', 'calling', 'call', 'called', 'threatening', 'writing', 'wrote', 'write', 'believe', 'telling', 'told', 'claim',
  'claims', 'claiming', 'condemn', 'report', 'reported', 'accused', 'posting', 'posts', 'tweeting', 'shouting', 'idea', 'notion', 'myth', 'lie',
  'statement', 'statements', 'comment', 'comments', 'remarks', 'rhetoric', 'argue', 'argues', 'arguing', 'suggest', 'suggests', 'suggesting', 'implying',
  'implies', 'insist', 'insisting', 'pretend', 'pretending', 'messages', 'tweets',
];

/**
 * Words outside quotation marks that frame what is quoted as condemned speech
 * ("Statements like "women are scum" are deeply hurtful", "He should be in jail for wishing "death
 * to all women""): counter-speech, HateCheck's `counter_quote_nh`. With one of them outside the
 * quotes, what is inside is not flagged; quotes alone hide nothing ("you are a "bitch"" is flagged), and neither does mere reporting
 * (`said`, `called`: "she said "fuck off"" still says it).
 */
/**
 * Naming a word instead of using it: a word right after `call`/`calling`/`called` (and its object,
 * `me`, `people`, `a`...), in a sentence that negates or questions the calling before it ("It's not
 * okay to call people bitch", "Why would you call me a slut?", "No one should call women that"):
 * HateCheck's `counter_ref_nh`. "Don't call me a bitch, you bitch" still flags the second one.
 */
export const NAMING_EN = {
  verbs: ['call', 'calls', 'calling', 'called', 'name', 'naming', 'named', 'label', 'labelling', 'labeling'],
  objects: ['me', 'you', 'u', 'him', 'her', 'them', 'us', 'people', 'someone', 'somebody', 'anyone', 'anybody', 'others', 'a', 'an', 'the', 'women', 'men', 'girls', 'guys', 'kids', 'each', 'other'],
  negators: ['not', 'never', 'no', 't', 'nt', 'stop', 'why', 'nobody', 'cannot', 'shouldn', 'wrong', 'quit'],
};

export const QUOTE_FRAME_EN: readonly string[] = [
  'statement', 'statements', 'comment', 'comments', 'remarks', 'threats', 'slur', 'slurs', 'hateful', 'hurtful', 'bigoted', 'bigotry', 'bigot', 'bigots',
  'racist', 'racism', 'sexist', 'sexism', 'misogynist', 'misogynistic', 'homophobic', 'homophobia', 'transphobic', 'islamophobic', 'antisemitic',
  'dehumanising', 'dehumanizing', 'offensive', 'unacceptable', 'report', 'reported', 'reporting', 'banned', 'blocked', 'jail', 'prison', 'condemn', 'condemned',
  'shameful', 'appalling', 'disgraceful', 'horrible', 'wishing', 'harassment', 'harassing', 'abusive', 'rhetoric', 'graffiti', 'chanting', 'chanted',
];

/**
 * Hostility towards a group: a sentence that names a group people are attacked for and a word of
 * contempt, disgust or violence, with no negation and no quotation (HateCheck's
 * `derog_*_h`, `threat_*_h`; its `negate_neg_nh` and `counter_quote_nh` are the contrasts that
 * the two exclusions keep safe). English only: the phrasing varies too much to guess elsewhere.
 */
export const GROUP_HOSTILITY = {
  lang: 'en',
  /** Regular expression alternatives over the word forms. */
  groups: GROUP_NOUNS_EN,
  hostile: [
    'hate', 'hated', 'hatred', 'despise', 'detest', 'loathe', 'abhor', 'disgust', 'disgusted', 'disgusting', 'disgusts', 'contempt', 'disdain', 'rage',
    'furious', 'sick', 'sickening', 'vile', 'repulsive', 'revolting', 'repugnant', 'despicable', 'scum', 'scumbags?', 'filth', 'filthy', 'trash',
    'garbage', 'dirt', 'vermin', 'rats', 'parasites', 'cockroaches', 'cancer', 'plague', 'pests?', 'suffer', 'execution', 'executed?', 'exterminated?',
    'eradicated?', 'kill', 'killed', 'murder', 'murdered', 'shoot', 'shot', 'hang', 'hanged', 'burn', 'burned', 'stab', 'die', 'death', 'drown',
    'slaughter', 'torture', 'gassed', 'worthless', 'inferior', 'subhuman', 'lesser', 'stupid', 'stupidest', 'dumb', 'dumbest', 'brainless',
    'ignorant', 'uncivilised', 'uncivilized', 'primitive', 'savages?', 'pathetic', 'disgrace', 'threat', 'danger', 'animals', 'apes', 'monkeys',
    'zoo', 'cages', 'landfill', 'lowlifes?', 'degenerates?', 'retarded', 'useless', 'dishonest', 'cruel', 'violent',
  ],
  negations: ['not', 'never', 'no', 't', 'nt', 'nobody', 'nothing', 'cannot', 'without', 'stop', 'against', 'opposite', ...REPORTING_EN],
};

/** Slurs for groups of people, strong in any context (Wikipedia's lists of ethnic and LGBT slurs, common spellings). */
export const SLURS_EN: readonly string[] = [
  'jihadi', 'jihadis', 'muzzie', 'muzzies', 'rapefugee', 'rapefugees', 'shemale', 'shemales', 'tranny', 'trannies', 'wetback', 'wetbacks', 'coon',
  'coons', 'spic', 'spics', 'towelhead', 'towelheads', 'raghead', 'ragheads', 'gook', 'gooks', 'kike', 'kikes', 'chink', 'chinks', 'retards', 'faggots',
  'fags', 'dykes', 'niggers', 'sandnigger', 'beaner', 'beaners', 'paki', 'pakis', 'zipperhead', 'libtard', 'libtards',
];
