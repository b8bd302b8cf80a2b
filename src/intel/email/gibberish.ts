/**
 * A conservative detector of random or keyboard-mashed local parts (`asdfghjkl`, `xkqzvbwp`,
 * `a8f3k29dj4`). It looks at each run of Latin letters on its own (names are split on dots,
 * digits, `_`, `-`, `+`), so that `jean.dupont` is judged as `jean` and `dupont`, and scores
 * evidence that no name in any Latin-script language shows; one weak sign is never enough.
 * Runs in other scripts, and short runs, are never judged.
 */

/** QWERTY rows: letters next to each other here are one finger-slide apart. */
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const ROW_OF = new Map<string, number>();
const COL_OF = new Map<string, number>();
ROWS.forEach((row, r) => [...row].forEach((c, i) => {
  ROW_OF.set(c, r);
  COL_OF.set(c, i);
}));

/**
 * Letter pairs that (almost) never occur inside names or words of the Latin-script languages,
 * romanised Arabic, Chinese, Japanese, Slavic and African names included. Kept short on purpose:
 * pairs that real names do show were left out (`Iqbal`, `Aqsa`, `Saqr`, `Jacques`, `Alqahtani`,
 * `Dijkstra`, `Kjell`, `Gjergj`, `Evgeny`, `Zvonimir`, `Salzburg`, `Campbell`, `Mcbride`,
 * `Hawkins`, `Crawford`, `Maxwell`, `Oxford`, `Xhaka`, `Pfeiffer`).
 */
const RARE_BIGRAMS = new Set([
  'qz', 'qx', 'qj', 'qk', 'qv', 'qw', 'qp', 'qg', 'qf', 'qc', 'qh', 'qn',
  'vq', 'jq', 'kq', 'wq', 'zq', 'xq', 'fq', 'gq', 'pq', 'hq', 'bq', 'tq', 'yq',
  'zx', 'xz', 'xj', 'jx', 'cx', 'vx', 'xv', 'wx', 'bx', 'fx', 'kx', 'xk', 'gx', 'xg', 'px', 'dx', 'xd', 'mx', 'xm',
  'xn', 'xr', 'lx', 'hx', 'sx', 'xx', 'jz', 'zj', 'vb', 'wv', 'vw', 'fv', 'vf', 'pv', 'wj',
]);

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);

export interface GibberishSigns {
  /** Points; the local part is gibberish from 2. */
  points: number;
  /** What was seen, for `explain=yes`. */
  signs: string[];
}

function longestKeyboardSlide(word: string): number {
  let best = 0;
  let run = 0;
  for (let i = 1; i < word.length; i++) {
    const a = word[i - 1] ?? '';
    const b = word[i] ?? '';
    const ra = ROW_OF.get(a);
    const adjacent = ra !== undefined && ra === ROW_OF.get(b) && Math.abs((COL_OF.get(a) ?? 0) - (COL_OF.get(b) ?? 0)) === 1;
    run = adjacent ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

function longestConsonantRun(word: string): number {
  let best = 0;
  let run = 0;
  for (const c of word) {
    run = VOWELS.has(c) ? 0 : run + 1;
    if (run > best) best = run;
  }
  return best;
}

/** Signs of one run of ASCII letters (lower case, at least 5 letters). */
function wordSigns(word: string, out: GibberishSigns): void {
  if (longestKeyboardSlide(word) >= 4) {
    out.points += 2;
    out.signs.push(`keyboard run in "${word}"`);
  }
  const vowels = [...word].filter((c) => VOWELS.has(c)).length;
  if (vowels === 0) {
    out.points += 2;
    out.signs.push(`no vowel in "${word}"`);
  } else if (word.length >= 7 && vowels / word.length < 0.2) {
    out.points += 1;
    out.signs.push(`few vowels in "${word}"`);
  }
  let rare = 0;
  for (let i = 1; i < word.length; i++) if (RARE_BIGRAMS.has(word.slice(i - 1, i + 1))) rare++;
  if (rare > 0) {
    out.points += rare;
    out.signs.push(`${rare} letter pair(s) not found in names in "${word}"`);
  }
  if (vowels > 0 && longestConsonantRun(word) >= 6) {
    out.points += 1;
    out.signs.push(`long consonant run in "${word}"`);
  }
  const row = ROW_OF.get(word[0] ?? '');
  if (word.length >= 8 && [...word].every((c) => ROW_OF.get(c) === row)) {
    out.points += 1;
    out.signs.push(`"${word}" typed on one keyboard row`);
  }
}

/** Letters and digits alternating many times, as in generated ids (`a8f3k29dj4`), or a long digit run inside letters. */
function mixSigns(local: string, out: GibberishSigns): void {
  const alnum = local.toLowerCase().replace(/[^a-z0-9]/g, '');
  const letters = alnum.replace(/[0-9]/g, '').length;
  const digits = alnum.length - letters;
  let switches = 0;
  for (let i = 1; i < alnum.length; i++) if (/\d/.test(alnum[i] ?? '') !== /\d/.test(alnum[i - 1] ?? '')) switches++;
  if (alnum.length >= 8 && letters >= 3 && digits >= 3 && switches >= 4) {
    out.points += 2;
    out.signs.push('letters and digits alternate like a generated id');
  }
  if (letters > 0 && /\d{6,}/.test(alnum)) {
    out.points += 1;
    out.signs.push('a run of six or more digits');
  }
}

/** The evidence that a local part is random or mashed (see the file comment). */
export function gibberishSigns(local: string): GibberishSigns {
  const out: GibberishSigns = { points: 0, signs: [] };
  // Accents are folded (`müller` is `muller`); a run holding other letters (ø, ß, Cyrillic, Han) is not judged.
  const folded = local.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  for (const run of folded.split(/[^\p{L}]+/u)) {
    if (run.length < 5 || !/^[a-z]+$/.test(run)) continue;
    wordSigns(run, out);
  }
  mixSigns(folded, out);
  return out;
}

/** True when a local part looks random or keyboard-mashed (2 points or more; conservative). */
export function isGibberish(local: string): boolean {
  return gibberishSigns(local).points >= 2;
}
