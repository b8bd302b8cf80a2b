/**
 * Word lists of the profanity engine, built once at start from npm-shipped lists plus Vigil's own
 * curated terms (docs/api-decisions.md "Profanity"):
 * - obscenity's English preset (patterns with their whitelist; MIT) catches compounds;
 * - cuss (English words rated 0-2 for how surely they are profane; MIT): 2 strong, 1 mild, 0 unused;
 * - naughty-words (LDNOOBW lists, CC-BY-4.0) for the 8 API languages: mild unless curated strong,
 *   because they mix insults with neutral words (`escort`, `infierno`, `голый`);
 * - the curated lists below: the strong words of each language, Russian roots with their verbal
 *   prefixes, Arabic prefixes, and whitelists of words that only look bad.
 */
import { cuss } from 'cuss';
import { createRequire } from 'node:module';
import { compileAbuse, type AbuseRules } from '../intel/text/abuse.ts';
import { normalize } from '../intel/text/normalize.ts';
import { englishObscenityMatcher } from '../intel/text/pattern-matcher.ts';
import { compileSpeller } from '../intel/text/spelling.ts';
import { isCjk, tokenize } from '../intel/text/tokens.ts';
import type { CjkTerm, LexEntry, Lexicon, PhraseEntry, Severity } from '../intel/text/types.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { CUSS_EVERYDAY } from './text-spelling-ordinary.ts';
import { SPELLING_EN } from './text-spelling.ts';
import { ADDRESS, CJK_ADDRESS, CJK_PATTERNS, COMPOUND_PREFIXES, COMPOUND_SUFFIXES, GROUP_HOSTILITY, INSULTS, NEGATIONS, NAMING_EN, PATTERNS, QUOTE_FRAME_EN, REPORTING_EN, SENSES, SLURS_EN, WEAK_INSULTS_EN } from './text-abuse.ts';

const LANGS = ['en', 'ar', 'de', 'fr', 'es', 'ja', 'zh', 'ru'] as const;

/** Strong words per language (as written; normalised when loaded). */
const STRONG: Readonly<Record<(typeof LANGS)[number], readonly string[]>> = {
  en: ['fuck', 'fucker', 'fucking', 'fucked', 'motherfucker', 'shit', 'bullshit', 'bitch', 'cunt', 'asshole', 'dick', 'dickhead', 'cock', 'pussy', 'whore', 'slut', 'bastard', 'wanker', 'twat', 'faggot', 'retard', 'kys', 'stfu', 'gtfo', 'wtf', 'nigga', 'nigger'],
  ar: ['كس امك', 'كسمك', 'كس اختك', 'ابن الكلب', 'ابن الشرموطة', 'شرموطة', 'شرموط', 'منيوك', 'منيوكة', 'عرص', 'معرص', 'خول', 'قحبة', 'زب', 'طيز', 'نيك', 'متناك', 'متناكة', 'يلعن', 'لبوة', 'سكس'],
  de: ['scheiße', 'scheiss', 'scheisse', 'scheißkerl', 'wichser', 'fotze', 'hurensohn', 'arschloch', 'arschgeige', 'missgeburt', 'schlampe', 'fick', 'ficken', 'fickt', 'gefickt', 'fick dich', 'verpiss dich', 'drecksau', 'hure', 'nutte', 'schwuchtel', 'neger', 'kanake', 'spast', 'spasti', 'arschficker', 'schwanzlutscher', 'wichse', 'wichsen', 'hackfresse', 'kackbratze'],
  fr: ['putain', 'merde', 'connard', 'connasse', 'salope', 'salaud', 'enculé', 'enculée', 'enculer', 'pute', 'fils de pute', 'fille de pute', 'nique ta mère', 'nique ta race', 'ta gueule', 'ferme ta gueule', 'niquer', 'batard', 'bâtard', 'va te faire foutre', 'enfoiré', 'enfoirée', 'pédé', 'pouffiasse', 'trou du cul', 'branleur', 'tapette', 'nègre', 'sac à merde'],
  es: ['puta', 'puto', 'mierda', 'joder', 'jodete', 'gilipollas', 'cabrón', 'cabron', 'pendejo', 'pendeja', 'chinga', 'chingada', 'chingar', 'verga', 'coño', 'hijo de puta', 'hija de puta', 'hijoputa', 'hijaputa', 'maricón', 'zorra', 'culero', 'concha de tu madre', 'vete a la mierda', 'chupapollas', 'soplapollas', 'malparido', 'mamón', 'jilipollas'],
  ja: ['死ね', '氏ね', 'くたばれ', '殺すぞ', 'ぶっ殺す', 'クソ野郎', 'くそ野郎', 'くそったれ', 'クソッタレ', '糞野郎', 'バカヤロー', 'バカヤロウ', '馬鹿野郎', 'ばかやろう', '死んでしまえ', 'まんこ', 'マンコ', 'オマンコ', 'ちんこ', 'チンコ', 'ちんぽ', 'チンポ', '売女', 'ヤリマン', 'ファック', '淫乱', 'ビッチ', 'キチガイ', '気違い'],
  zh: ['他妈的', '他媽的', '操你妈', '操你媽', '肏你妈', '草泥马', '傻逼', '傻屄', '煞笔', '傻比', '我操', '卧槽', '妈逼', '媽逼', '婊子', '贱人', '賤人', '王八蛋', '狗娘养的', '鸡巴', '雞巴', '屌你', '日你妈', '你妈的', '去死', '骚货', '贱货', '狗屎', '屁眼', '他妈'],
  ru: ['мразь', 'чмо', 'падла', 'паскуда', 'шалава', 'выблядок', 'ублюдок', 'ёбарь', 'ебло', 'манда', 'мандавошка', 'хуило', 'опесдол', 'сцука'],
};

/** Mild words per language: abusive only with company or a model that agrees. */
const MILD: Readonly<Record<(typeof LANGS)[number], readonly string[]>> = {
  en: ['stupid', 'idiot', 'moron', 'dumb', 'crap', 'damn', 'loser', 'jerk', 'negro', 'hell', 'bloody', 'piss', 'pissed', 'suck', 'sucks'],
  ar: ['حمار', 'كلب', 'غبي', 'حقير', 'وسخ', 'زبالة', 'تفو', 'لعنة', 'حيوان'],
  de: ['idiot', 'depp', 'trottel', 'blödmann', 'mistkerl', 'penner', 'dummkopf', 'verdammt', 'mist', 'vollidiot', 'vollpfosten'],
  fr: ['crétin', 'débile', 'abruti', 'imbécile', 'idiot', 'bordel', 'chiant', 'bite'],
  es: ['idiota', 'imbécil', 'estúpido', 'estúpida', 'tonto', 'tonta', 'carajo', 'pinche', 'mamada', 'cojones', 'huevón', 'boludo', 'pelotudo'],
  ja: ['クソ', 'くそ', 'バカ', '馬鹿', 'ばか', 'アホ', '阿呆', 'きもい', 'キモい', 'キモイ', 'うざい', 'ウザい', 'ブス', 'デブ', '畜生', 'ちくしょう', '消えろ', 'カス', 'ゴミ'],
  zh: ['滚蛋', '混蛋', '白痴', '笨蛋', '废物', '妓女', '放屁', '蠢货', '闭嘴', '滚开'],
  ru: ['дурак', 'дура', 'идиот', 'тупой', 'тупая', 'урод', 'тварь', 'сволочь', 'козел', 'дебил', 'лох', 'придурок', 'говно', 'дерьмо', 'жопа', 'срать', 'засранец'],
};

/** List entries that are ordinary words in one of the 8 languages (or too ambiguous), never used. */
const EXCLUDE = new Set([
  'con', 'bitte', 'folle', 'grande folle', 'gerbe', 'gerber', 'tanche', 'meuf', 'jouir', 'péter', 'ramoner', 'gueule', 'pipi',
  'mufti', 'bonze', 'popel', 'rosette', 'nackt', 'kimme', 'ische', 'bratze', 'martillo', 'trio', 'racista', 'nazi', 'drogas', 'heroína', 'asesinato',
  'infierno', 'maldito', 'maciza', 'tía buena', 'orina', 'pedo', 'pis', 'asno', 'concha',
  'какая разница', 'другой дразнится', 'голый', 'бугор', 'хапать', 'мент', 'ты мне ваньку не валяй', 'на фиг', 'офигеть', 'фига',
  'каждый дрочит как он хочет', 'курите мою трубку', 'обнаженный',
  'いたずら', 'エスコート', 'コカイン', 'エクスタシー', 'エロティズム', 'カーマスートラ', 'グロ', 'おしり', 'オシリ', 'お尻', 'おもらし', 'おしっこ',
  '九游', '你全家', '交配', '下贱',
  'escort', 'domination', 'intercourse', 'erotic', 'erotism', 'playboy', 'undressing', 'swinger', 'voyeur', 'lolita', 'santorum', 'scat', 'snatch',
  'mong', 'poof', 'butt', 'grope', 'kinky', 'topless', 'sexual', 'sexually', 'sexuality', 'nude', 'nudity', 'genitals', 'rectum', 'vulva', 'vagina', 'penis',
]);

/** Russian obscene roots, matched at the start of a word after an optional prefix (normalised: ё is е, й is и). */
const RU_ROOTS = [
  'хуй', 'хуи', 'хуе', 'хуя', 'хую', 'хуйн', 'пизд', 'пезд', 'ебал', 'ебан', 'ебат', 'ебну', 'ебл', 'ебу', 'ебет', 'ебыв', 'ебис', 'бляд', 'блят', 'бля',
  'сука', 'суки', 'суке', 'суку', 'сукой', 'сучк', 'сучар', 'сучь', 'мудак', 'мудил', 'мудозвон', 'гандон', 'пидор', 'пидар', 'пидр', 'залуп', 'шлюх', 'долбоеб', 'дроч', 'ссан', 'обосс',
];
const RU_PREFIXES = ['', 'за', 'вы', 'от', 'ото', 'раз', 'рас', 'по', 'на', 'у', 'до', 'при', 'про', 'съ', 'въ', 'об', 'объ', 'пере', 'недо', 'о', 'с', 'под', 'подъ', 'из', 'изъ', 'вз', 'взъ', 'не', 'ни', 'тупо'];

/** Arabic prefixes glued to a word: conjunction + article, article, conjunctions, vocative. */
const AR_PREFIXES = ['وال', 'بال', 'فال', 'كال', 'لل', 'ال', 'يا', 'و', 'ب', 'ف', 'ل'];

/** Words that only look bad (place names, food, everyday words containing a listed string). */
const WHITELIST = [
  'assassin', 'assassins', 'assassinate', 'assassinated', 'assassination', 'scunthorpe', 'penistone', 'cocktail', 'cocktails',
  'dickens', 'dickensian', 'dickinson', 'sussex', 'essex', 'middlesex', 'wessex', 'shitake', 'shiitake', 'cockpit', 'cockpits',
  'cockatoo', 'cockroach', 'cockroaches', 'peacock', 'hancock', 'hitchcock', 'babcock', 'woodcock', 'shuttlecock', 'analysis', 'analyst', 'analysts',
  'analytics', 'analyse', 'analyze', 'assess', 'assessment', 'assume', 'assumption', 'assistant', 'assist', 'bass', 'class', 'classic', 'classes',
  'grass', 'glass', 'mass', 'pass', 'passion', 'compass', 'embarrass', 'harass', 'cumulative', 'cucumber', 'document', 'circumstance', 'titanic',
  'titan', 'title', 'therapist', 'grape', 'grapes', 'rapeseed', 'skyscraper', 'scrap', 'arsenal', 'arsenic', 'butter', 'button', 'buttress',
  'basement', 'bitumen', 'sextant', 'sextet', 'pussycat', 'pussywillow', 'hello', 'shell', 'shellfish', 'sucker', 'raccoon', 'cocoon', 'tycoon',
  'spicy', 'spice', 'niger', 'nigeria', 'snigger', 'kumquat', 'pakistan',
  'потребление', 'употреблять', 'употребление', 'оскорбление', 'сукно', 'скипидар', 'хулиган', 'хулиганы', 'требует', 'требуется', 'ребёнок',
];

/** Han/Kana words that contain a listed term but are harmless. */
const CJK_WHITELIST = ['去死皮', '去死角', '乳房检查', '牛乳', '豆乳', '乳酸', '乳製品'];

/** Strong single symbols (emoji). */
const SYMBOLS: Readonly<Record<string, Severity>> = { '🖕': 'strong' };

function loadNaughty(lang: string): string[] {
  // naughty-words is CommonJS JSON without types: require one list and check its shape.
  const list: unknown = createRequire(import.meta.url)(`naughty-words/${lang}.json`);
  return Array.isArray(list) ? list.filter((w): w is string => typeof w === 'string') : [];
}

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  try {
    const pkg = require(`${name}/package.json`) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

interface Builder {
  words: Map<string, LexEntry>;
  phrases: Map<string, PhraseEntry[]>;
  cjk: Map<string, CjkTerm[]>;
}

const rank = (s: Severity): number => (s === 'strong' ? 2 : 1);

/** Adds one term; a later strong entry upgrades an earlier mild one, never the reverse. */
function add(b: Builder, term: string, entry: LexEntry): void {
  if (EXCLUDE.has(term.toLowerCase())) return;
  const text = normalize(term).text.trim();
  if (text.length === 0) return;
  if ([...text].every((c) => isCjk(c) || c === ' ')) {
    const t = text.replaceAll(' ', '');
    if ([...t].length < 2) return;
    const first = t[0] ?? '';
    const list = b.cjk.get(first) ?? [];
    const same = list.find((c) => c.term === t);
    if (same) {
      if (rank(entry.severity) > rank(same.entry.severity)) list.splice(list.indexOf(same), 1, { term: t, entry });
    } else list.push({ term: t, entry });
    b.cjk.set(first, list);
    return;
  }
  const tokens = tokenize(text);
  if (tokens.length === 0 || tokens.some((t) => t.cjk)) return;
  const [head, ...rest] = tokens.map((t) => t.raw);
  if (head === undefined) return;
  if (rest.length === 0) {
    if ([...head].length < 2) return;
    const prev = b.words.get(head);
    if (!prev || rank(entry.severity) > rank(prev.severity)) b.words.set(head, entry);
    return;
  }
  const list = b.phrases.get(head) ?? [];
  list.push({ rest, entry });
  b.phrases.set(head, list);
}

const norm = (w: string): string => normalize(w).text;

/** The abuse rules of text-abuse.ts, normalised and compiled. */
function loadAbuseRules(): AbuseRules {
  const insults: Array<[string, string]> = [];
  const cjkInsults: Array<[string, string]> = [];
  const put = (w: string, lang: string): void => {
    const n = norm(w);
    if ([...n].every((c) => isCjk(c))) cjkInsults.push([n, lang]);
    else if (!n.includes(' ')) insults.push([n, lang]);
  };
  for (const [lang, words] of Object.entries(INSULTS)) for (const w of words) put(w, lang === 'cjk' ? (/[\u3040-\u30ff]/.test(w) ? 'ja' : 'zh') : lang);
  return compileAbuse({
    patterns: PATTERNS,
    cjkPatterns: CJK_PATTERNS,
    address: Object.entries(ADDRESS).flatMap(([lang, words]) => words.map((w): [string, string] => [norm(w), lang])),
    cjkAddress: CJK_ADDRESS.map(norm),
    negations: NEGATIONS.map(norm),
    insults,
    cjkInsults,
    arabicPrefixes: AR_PREFIXES.map(norm),
    groupHostility: GROUP_HOSTILITY,
    counterSpeech: [...REPORTING_EN, 'not', 'never', 'no', 't', 'nt', 'cannot', 'nobody'],
    quoteFrame: QUOTE_FRAME_EN,
    naming: NAMING_EN,
    weakInsults: WEAK_INSULTS_EN.map(norm),
  });
}

/** Builds the lexicon (a few milliseconds; call once at start). */
export function loadTextLexicon(): Lexicon {
  const b: Builder = { words: new Map(), phrases: new Map(), cjk: new Map() };
  const matcher = englishObscenityMatcher();
  const everyday = new Set(CUSS_EVERYDAY);
  for (const [word, rating] of Object.entries(cuss)) {
    // cuss rates 2 many everyday words (`dope`, `chug`, `yanks`, `chunky`, `welfare`): those are mild (CUSS_EVERYDAY).
    if (rating >= 1) add(b, word, { severity: rating >= 2 && !everyday.has(word) ? 'strong' : 'mild', lang: 'en' });
  }
  for (const lang of LANGS) {
    for (const w of loadNaughty(lang)) {
      if (lang === 'en' && cuss[w.toLowerCase()] !== undefined) continue;
      add(b, w, { severity: 'mild', lang });
    }
  }
  // Curated severities win over the lists: mild first (demoting nothing strong), then strong.
  const mildEntries: Array<[string, LexEntry]> = LANGS.flatMap((lang) => MILD[lang].map((w): [string, LexEntry] => [w, { severity: 'mild', lang }]));
  for (const [w, e] of mildEntries) {
    const key = normalize(w).text;
    if (b.words.get(key)?.severity === 'strong') b.words.set(key, e);
    else add(b, w, e);
  }
  for (const lang of LANGS) for (const w of STRONG[lang]) add(b, w, { severity: 'strong', lang });
  for (const w of SLURS_EN) add(b, w, { severity: 'strong', lang: 'en' });

  for (const list of b.cjk.values()) list.sort((x, y) => y.term.length - x.term.length);
  const roots = new Map<string, Array<{ root: string; entry: LexEntry }>>();
  for (const r of RU_ROOTS) {
    const root = normalize(r).text;
    const key = root.slice(0, 2);
    roots.set(key, [...(roots.get(key) ?? []), { root, entry: { severity: 'strong', lang: 'ru' } }]);
  }
  for (const list of roots.values()) list.sort((x, y) => y.root.length - x.root.length);
  const maskable = new Map<number, string[]>();
  for (const w of STRONG.en) {
    const n = [...w].length;
    maskable.set(n, [...(maskable.get(n) ?? []), w]);
  }
  const symbols = new Map<string, LexEntry>(Object.entries(SYMBOLS).map(([s, severity]) => [s, { severity, lang: 'emoji' }]));
  const whitelist = new Set(WHITELIST.map((w) => normalize(w).text));
  return {
    words: b.words,
    phrases: b.phrases,
    roots,
    rootPrefixes: RU_PREFIXES.map((p) => normalize(p).text),
    arabicPrefixes: AR_PREFIXES.map((p) => normalize(p).text),
    cjk: b.cjk,
    maskable,
    symbols,
    whitelist,
    cjkWhitelist: CJK_WHITELIST.map((w) => normalize(w).text),
    matcher,
    abuse: loadAbuseRules(),
    senses: new Map(Object.entries(SENSES).map(([w, ctx]) => [norm(w), new Set(ctx.map(norm))])),
    compoundPrefixes: new Set(COMPOUND_PREFIXES),
    compoundSuffixes: new Set(COMPOUND_SUFFIXES),
    speller: compileSpeller(SPELLING_EN, (f) => b.words.has(f) || whitelist.has(f)),
    version: textLexiconVersion(),
  };
}

function textLexiconVersion(): string {
  return `obscenity@${packageVersion('obscenity')}+cuss@${packageVersion('cuss')}+naughty-words@${packageVersion('naughty-words')}+vigil-3`;
}

/** The datasets behind the word lists, for `explain=yes`. */
export function textLexiconDatasets(): DatasetInfo[] {
  return [
    { name: 'obscenity English preset', version: packageVersion('obscenity'), source: 'npm obscenity', license: 'MIT' },
    { name: 'cuss (English profanity ratings)', version: packageVersion('cuss'), source: 'npm cuss', license: 'MIT' },
    { name: 'List of Dirty, Naughty, Obscene and Otherwise Bad Words', version: packageVersion('naughty-words'), source: 'npm naughty-words', license: 'CC-BY-4.0' },
    { name: 'Vigil curated profanity lists', version: '3', source: 'src/data/text-lexicon.ts, text-abuse.ts, text-spelling.ts', license: 'MIT' },
    { name: 'Vigil abuse patterns (threats, self-harm, hate, addressed insults; whole-word and harmless-sense rules)', version: '1', source: 'src/data/text-abuse.ts', license: 'MIT' },
  ];
}
