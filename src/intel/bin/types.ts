import type { CountryFacts } from '../country/facts.ts';

/** One issuer record of the imported BIN dataset (src/data/import/bin-list.ts writes them). */
export interface BinRecord {
  /** Inclusive prefix range, both ends of equal length (6 to 8 digits, sometimes fewer). */
  start: string;
  end: string;
  /** Scheme as the dataset names it, lower case (visa, mastercard...); '' unknown. */
  scheme: string;
  /** Product level (Classic, Gold, Platinum, Business...); '' unknown. */
  brand: string;
  /** debit, credit or charge; '' unknown. */
  type: string;
  prepaid: boolean | null;
  commercial: boolean | null;
  /** ISO alpha-2, '' unknown. */
  country: string;
  bank: string;
  city: string;
  url: string;
  phone: string;
  logo: string;
  latitude: string;
  longitude: string;
  /** Card number length when the dataset says; 0 unknown. */
  length: number;
  /** Whether numbers of this range pass Luhn, when the dataset says. */
  luhn: boolean | null;
}

/** Finds the record of the longest known prefix (or range) of a number's leading digits. */
export interface BinIndex {
  find(leading: string): BinRecord | null;
  readonly size: number;
}

export interface BinScheme {
  name: string | null;
  coName: string | null;
  isLuha: boolean;
  isPrepaid: boolean;
  isCommercial: boolean;
  type: string | null;
  brand: string | null;
  currency: string | null;
}

export interface BinBank {
  id: string | null;
  identifier: string | null;
  name: string | null;
  city: string | null;
  url: string | null;
  phone: string | null;
  logo: string | null;
  latitude: string | null;
  longitude: string | null;
}

export interface BinCountry {
  alpha2: string;
  name: string;
  code: string | null;
  numeric: string | null;
  emoji: string;
  continent: string;
  languageCode: string | null;
  languageNative: string | null;
  /** Where the country comes from: `issuer` (the imported record) or `scheme` (a domestic scheme's country). */
  source: 'issuer' | 'scheme';
}

export interface BinInfo {
  scheme: BinScheme;
  detected_digits: string;
  syntax: { gaps: number[]; lengths: number[]; code: { name: string; size: number } };
  bank: BinBank | null;
  country: BinCountry | null;
}

/** The spec's BIN result; `custom_rules_applied` is written by the policy stage. */
export interface BinResult {
  reason: string;
  isValid: boolean;
  blacklisted: boolean;
  bin: string;
  info: BinInfo;
  custom_rules_applied: { total: number; rules: Array<{ id: string; title: string }> };
}

export type CountryLookup = Pick<ReadonlyMap<string, CountryFacts>, 'get'>;
