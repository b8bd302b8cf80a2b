import type { Lang } from '../country/types.ts';
import { flagEmoji } from '../country/flag-block.ts';
import { issuerTitleCase } from './issuer-name.ts';
import { domesticFacts } from './domestic.ts';
import { localMatch } from './local-schemes.ts';
import { luhnValid, type ParsedBin } from './parse.ts';
import { globalMatch } from './schemes.ts';
import type { BinBank, BinCountry, BinIndex, BinInfo, BinRecord, BinResult, CountryLookup } from './types.ts';

/** Scheme names of the datasets' lower-case scheme column. */
const DATASET_SCHEMES: Readonly<Record<string, string>> = {
  visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', 'american express': 'American Express', diners: 'Diners Club',
  'diners club': 'Diners Club', 'diners club international': 'Diners Club', discover: 'Discover', jcb: 'JCB', unionpay: 'UnionPay',
  'china union pay': 'UnionPay', maestro: 'Maestro', mir: 'Mir', elo: 'Elo', rupay: 'RuPay', troy: 'Troy', verve: 'Verve',
  hipercard: 'Hipercard', dankort: 'Dankort', mada: 'mada', interac: 'Interac', 'cartes bancaires': 'Cartes Bancaires', meeza: 'Meeza',
};
/** Schemes a domestic scheme is co-badged with: the local one then goes to `coName`. */
const CO_BADGING = new Set(['visa', 'mastercard']);
/** UnionPay issues some numbers that do not pass Luhn; every other scheme uses it. */
const NO_LUHN = new Set(['unionpay']);

type Syntax = BinInfo['syntax'];
const CARD16: Syntax = { gaps: [4, 8, 12], lengths: [16], code: { name: 'CVV', size: 3 } };
const LOCAL_SYNTAX: Readonly<Record<string, Syntax>> = {
  mada: CARD16, RuPay: CARD16, Dankort: CARD16, Meeza: CARD16,
};

export interface BinEngineData {
  index: BinIndex;
  countries: CountryLookup;
}

function schemeFromDataset(s: string): string | null {
  return s === '' ? null : (DATASET_SCHEMES[s.toLowerCase()] ?? issuerTitleCase(s));
}

interface Derived { name: string | null; coName: string | null; syntax: Syntax; luhn: boolean }

/**
 * Scheme patterns and local ranges are at most 8 digits long, so the range answer depends on the
 * BIN only: cached per BIN (cleared past 50,000 entries).
 */
const byRange = new Map<string, Derived | null>();

function rangeScheme(leading: string): Derived | null {
  const key = leading.slice(0, 8);
  let d = byRange.get(key);
  if (d === undefined) {
    d = rangeSchemeUncached(key);
    if (byRange.size >= 50_000) byRange.clear();
    byRange.set(key, d);
  }
  return d;
}

/** The scheme and syntax the number's range gives, with or without an issuer record. */
function derive(leading: string, record: BinRecord | null): Derived {
  const d = rangeScheme(leading);
  if (d) {
    return { name: d.name, coName: d.coName ?? recordCoBadge(d.name, record), syntax: { gaps: [...d.syntax.gaps], lengths: [...d.syntax.lengths], code: { ...d.syntax.code } }, luhn: d.luhn };
  }
  const name = record ? schemeFromDataset(record.scheme) : null;
  return { name, coName: null, syntax: Object.assign({}, CARD16, { lengths: record && record.length > 0 ? [record.length] : [...CARD16.lengths] }), luhn: name !== 'UnionPay' };
}

/**
 * A domestic scheme an issuer record names inside another scheme's range is a co-badge the range
 * table cannot see: RuPay cards on JCB's 353/356 or Discover's 65 BINs, for example (their ranges
 * are shared with the partner's own cards, so only the record tells them apart).
 */
function recordCoBadge(rangeName: string | null, record: BinRecord | null): string | null {
  if (!record || record.scheme === '') return null;
  // The importer stores schemes lower case; every domestic scheme is in the table (no Title Case per call).
  const named = DATASET_SCHEMES[record.scheme] ?? null;
  return named !== rangeName && domesticFacts(named) !== null ? named : null;
}

/**
 * Precedence between credit-card-type's patterns and the local table: inside Visa or Mastercard a
 * local range is a co-badge; otherwise the local range wins unless the global pattern is more
 * specific (longer), so Discover's 6011 and Hipercard's 606282 stay theirs while RuPay's 508 and
 * 652150-653149 beat Maestro and Discover's 65. Maestro's patterns in the package (50, 56-59, 6,
 * 63, 67 and the 6-digit ranges between Elo's) are a catch-all, not ranges Maestro publishes
 * (Wikipedia lists 5018, 5020, 5038, 5893, 6304, 6759, 6761-6763): they never beat a local range.
 */
function rangeSchemeUncached(leading: string): Derived | null {
  const g = globalMatch(leading);
  const best = g?.scheme;
  const local = localMatch(leading);
  if (best && local && CO_BADGING.has(best.type)) {
    return { name: best.niceType, coName: local.scheme, syntax: { gaps: [...best.gaps], lengths: [...best.lengths], code: { ...best.code } }, luhn: true };
  }
  const globalWins = g !== undefined && local !== null && best?.type !== 'maestro' && g.strength > local.len;
  if (local && !globalWins) return { name: local.scheme, coName: null, syntax: LOCAL_SYNTAX[local.scheme] ?? CARD16, luhn: true };
  if (best) {
    return { name: best.niceType, coName: null, syntax: { gaps: [...best.gaps], lengths: [...best.lengths], code: { ...best.code } }, luhn: !NO_LUHN.has(best.type) };
  }
  return null;
}

const orNull = (s: string): string | null => (s === '' ? null : s);

/** Issuer blocks per record: Title Case and the id slug are worked out once per record, not per answer. */
const banks = new WeakMap<BinRecord, BinBank | null>();

function bankOf(r: BinRecord): BinBank | null {
  let b = banks.get(r);
  if (b === undefined) {
    b = bankOfUncached(r);
    banks.set(r, b);
  }
  return b === null ? null : { ...b };
}

function bankOfUncached(r: BinRecord): BinBank | null {
  if (r.bank === '') return null;
  const name = issuerTitleCase(r.bank);
  return {
    id: name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || null,
    identifier: r.start === r.end ? r.start : `${r.start}-${r.end}`,
    name,
    city: orNull(r.city),
    url: orNull(r.url),
    phone: orNull(r.phone),
    logo: orNull(r.logo),
    latitude: orNull(r.latitude),
    longitude: orNull(r.longitude),
  };
}

function countryOf(alpha2: string, source: BinCountry['source'], countries: CountryLookup, lang: Lang): BinCountry | null {
  const c = alpha2 === '' ? undefined : countries.get(alpha2);
  if (!c) return null;
  return {
    alpha2: c.code,
    name: c.names[lang],
    code: c.phoneCode,
    numeric: c.numeric,
    emoji: flagEmoji(c.code),
    continent: c.continent.names[lang],
    languageCode: c.language?.code ?? null,
    languageNative: c.language?.native ?? null,
    source,
  };
}

/** Why the number is not valid, or '' (scheme known, length and Luhn right where they can be checked). */
function reasonOf(parsed: ParsedBin, name: string | null, syntax: Syntax, luhn: boolean): string {
  if (name === null) return 'The number is in no known card scheme range.';
  if (parsed.totalLength !== null && !syntax.lengths.includes(parsed.totalLength)) {
    return `${name} card numbers have ${syntax.lengths.join(', ')} digits, not ${parsed.totalLength}.`;
  }
  if (parsed.full !== null && luhn && !luhnValid(parsed.full)) return 'The card number fails the Luhn check digit.';
  return '';
}

/** The BIN result for parsed input: scheme and syntax by range, issuer and country from the dataset. */
export function evaluateBin(sent: string, parsed: ParsedBin, data: BinEngineData, lang: Lang = 'EN'): BinResult {
  // The BIN only (at most 8 digits, as `detected_digits` says): a longer record never matches, so no answer
  // (nor the decision log that keeps it) names more of the card number than its BIN.
  const record = data.index.find(parsed.bin);
  const d = derive(parsed.leading, record);
  const luhn = record?.luhn === false ? false : d.luhn;
  // The issuer record's country first; else the one a domestic scheme implies (co-badge first: Visa + mada is Saudi).
  const domestic = domesticFacts(d.coName) ?? domesticFacts(d.name);
  const fromRecord = record !== null && record.country !== '';
  const alpha2 = fromRecord ? record.country : (domestic?.country ?? '');
  const country = countryOf(alpha2, fromRecord ? 'issuer' : 'scheme', data.countries, lang);
  const reason = reasonOf(parsed, d.name, d.syntax, luhn);
  const c = country ? data.countries.get(country.alpha2) : undefined;
  const type = record && record.type !== '' ? record.type : domestic?.debitOnly ? 'debit' : null;
  return {
    reason,
    isValid: reason === '',
    blacklisted: false,
    bin: sent,
    info: {
      scheme: {
        name: d.name,
        coName: d.coName,
        isLuha: luhn,
        isPrepaid: record?.prepaid ?? false,
        isCommercial: record?.commercial ?? false,
        type,
        brand: record && record.brand !== '' ? record.brand : null,
        currency: c?.currency?.code ?? null,
      },
      detected_digits: parsed.bin,
      syntax: d.syntax,
      bank: record ? bankOf(record) : null,
      country,
    },
    custom_rules_applied: { total: 0, rules: [] },
  };
}
