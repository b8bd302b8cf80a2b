import type { Lang } from '../country/types.ts';
import { flagEmoji } from '../country/flag-block.ts';
import { issuerTitleCase } from './issuer-name.ts';
import { localScheme } from './local-schemes.ts';
import { luhnValid, type ParsedBin } from './parse.ts';
import { globalScheme } from './schemes.ts';
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
  if (d) return { name: d.name, coName: d.coName, syntax: { gaps: [...d.syntax.gaps], lengths: [...d.syntax.lengths], code: { ...d.syntax.code } }, luhn: d.luhn };
  const name = record ? schemeFromDataset(record.scheme) : null;
  return { name, coName: null, syntax: Object.assign({}, CARD16, { lengths: record && record.length > 0 ? [record.length] : [...CARD16.lengths] }), luhn: name !== 'UnionPay' };
}

function rangeSchemeUncached(leading: string): Derived | null {
  const best = globalScheme(leading);
  const local = localScheme(leading);
  if (best && local && CO_BADGING.has(best.type)) {
    return { name: best.niceType, coName: local, syntax: { gaps: [...best.gaps], lengths: [...best.lengths], code: { ...best.code } }, luhn: true };
  }
  if (local) return { name: local, coName: null, syntax: LOCAL_SYNTAX[local] ?? CARD16, luhn: true };
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

function countryOf(alpha2: string, countries: CountryLookup, lang: Lang): BinCountry | null {
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
  const record = data.index.find(parsed.leading);
  const d = derive(parsed.leading, record);
  const luhn = record?.luhn === false ? false : d.luhn;
  const country = record ? countryOf(record.country, data.countries, lang) : null;
  const reason = reasonOf(parsed, d.name, d.syntax, luhn);
  const c = record && record.country !== '' ? data.countries.get(record.country) : undefined;
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
        type: record && record.type !== '' ? record.type : null,
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
