/**
 * Typo suggestions for mistyped domains of major mail providers (mailcheck-style): the domain's
 * name and suffix are compared with a curated provider list, and top-level typos that are not
 * real TLDs (`.con`, `.cmo`) are corrected for any domain.
 */

/** Top-level labels that do not exist and are typos of a real one (none of these is delegated by IANA). */
export const TLD_TYPOS: Readonly<Record<string, string>> = {
  con: 'com', cmo: 'com', ocm: 'com', vom: 'com', xom: 'com', cpm: 'com', cim: 'com', comm: 'com', coom: 'com', comn: 'com', ccom: 'com',
  cok: 'com', conm: 'com', clm: 'com', dom: 'com', copm: 'com',
  nte: 'net', nett: 'net', ner: 'net', bet: 'net', nrt: 'net', neet: 'net',
  ogr: 'org', orgg: 'org', prg: 'org', rog: 'org', otg: 'org',
};

/** Multi-label public suffixes used by the providers in the list (so `yahoo.co.uk` splits as `yahoo` + `co.uk`). */
const TWO_LABEL_SUFFIXES = new Set(['co.uk', 'co.jp', 'com.br', 'com.au', 'com.ar', 'com.mx', 'co.in', 'co.nz', 'co.za', 'com.tr', 'com.cn']);

export interface TypoIndex {
  /** Provider domains (a suggestion is one of these, or the domain with its TLD corrected). */
  providers: readonly string[];
  /** Domains never corrected: the providers and real domains that sit close to one (`ymail.com`, `mail.com`). */
  known: ReadonlySet<string>;
}

/** Providers split once (they are few and fixed); typed domains are split per call. */
const providerParts = new Map<string, { name: string; suffix: string }>();

function splitProvider(domain: string): { name: string; suffix: string } {
  let parts = providerParts.get(domain);
  if (parts === undefined) {
    parts = split(domain);
    providerParts.set(domain, parts);
  }
  return parts;
}

function split(domain: string): { name: string; suffix: string } {
  const labels = domain.split('.');
  const two = labels.slice(-2).join('.');
  if (labels.length > 2 && TWO_LABEL_SUFFIXES.has(two)) return { name: labels.slice(0, -2).join('.'), suffix: two };
  return { name: labels.slice(0, -1).join('.'), suffix: labels[labels.length - 1] ?? '' };
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Three rolling rows: the one before the previous is needed for transpositions.
  let prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[b.length] ?? max + 1;
}

/**
 * How far a provider's name may be from the typed one: short names (`aol`, `gmx`, `live`) are
 * only corrected in their suffix, since one letter off is usually another real domain.
 */
function nameBudget(providerName: string): number {
  if (providerName.length >= 9) return 2;
  if (providerName.length >= 5) return 1;
  return 0;
}

/** Distance between two suffixes; a known TLD typo counts as 1, otherwise at most 1 edit for `com`-length suffixes. */
function suffixDistance(typed: string, provider: string): number {
  if (typed === provider) return 0;
  if (TLD_TYPOS[typed] === provider) return 1;
  if (typed.length >= 2 && provider.length >= 3 && editDistance(typed, provider, 1) <= 1) return 1;
  return 2;
}

/**
 * The corrected domain when `domain` (lower-case ASCII) looks like a typo of a provider, else null.
 * Candidates are the provider whose name is within its budget and whose suffix matches or is one
 * typo away (smallest total distance, then list order); failing that, a TLD that does not exist
 * and is a known typo is corrected on its own (`shop.con` -> `shop.com`).
 */
export function suggestDomain(domain: string, index: TypoIndex): string | null {
  if (index.known.has(domain)) return null;
  // The answer depends on the domain and the index only: a business's traffic repeats its customers'
  // domains, and one search over the providers costs 10-35 µs.
  let memo = suggestions.get(index);
  if (memo === undefined) {
    memo = new Map();
    suggestions.set(index, memo);
  }
  const hit = memo.get(domain);
  if (hit !== undefined) return hit;
  const found = searchSuggestion(domain, index);
  if (memo.size >= MAX_REMEMBERED) memo.clear();
  memo.set(domain, found);
  return found;
}

/** Suggestions remembered per index (a new index, as a list update builds, starts empty); at most this many domains. */
const suggestions = new WeakMap<TypoIndex, Map<string, string | null>>();
const MAX_REMEMBERED = 10_000;

function searchSuggestion(domain: string, index: TypoIndex): string | null {
  const typed = split(domain);
  let best: string | null = null;
  let bestDistance = Number.MAX_SAFE_INTEGER;
  const suffixes = new Map<string, number>();
  for (const provider of index.providers) {
    const p = splitProvider(provider);
    let sd = suffixes.get(p.suffix);
    if (sd === undefined) {
      sd = suffixDistance(typed.suffix, p.suffix);
      suffixes.set(p.suffix, sd);
    }
    if (sd > 1) continue;
    // One slip per address: a wrong name with a wrong suffix is more likely another domain.
    if (sd === 1 && typed.name !== p.name) continue;
    const budget = nameBudget(p.name);
    const nameDistance = typed.name === p.name ? 0 : editDistance(typed.name, p.name, budget);
    if (nameDistance > budget) continue;
    const total = nameDistance + sd;
    if (total > 0 && total < bestDistance) {
      best = provider;
      bestDistance = total;
    }
  }
  if (best !== null) return best;
  const labels = domain.split('.');
  const fixed = TLD_TYPOS[labels[labels.length - 1] ?? ''];
  if (fixed !== undefined && labels.length >= 2) return [...labels.slice(0, -1), fixed].join('.');
  return null;
}
