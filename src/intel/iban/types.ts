import type { Lang } from '../country/types.ts';

/** The IBAN result as the spec shows it (spec "IBAN result"), plus the policy's `custom_rules_applied`. */
export interface IbanResult {
  isValid: boolean;
  formats: { machine: string; human: string; obfuscated: string };
  country: IbanCountryBlock;
  bank: IbanBank | null;
  custom_rules_applied?: { total: number; rules: Array<{ id: string; title: string }> };
}

export interface IbanCountryBlock {
  name: string | null;
  IANA: string;
  ISO3166: string;
  currency: string | null;
  centralBank: { name: string | null; url: string | null };
  /** php-iban's membership: eu_member, efta_member, other_member or non_member; null until the registry is imported. */
  membership: string | null;
  isEU: boolean;
  isSEPA: boolean;
  swiftOfficial: boolean;
  /** Expected IBAN length, as a string (spec). */
  length: string;
}

export interface IbanBank {
  code: string;
  name: string;
  nameAr: string | null;
  swift: string | null;
  mergedInto: string | null;
}

/** One country of the php-iban registry (imported dataset `iban-registry`), the columns Vigil uses. */
export interface IbanRegistryEntry {
  code: string;
  name: string;
  ibanExample: string;
  ibanLength: number;
  bankIdStart: number | null;
  bankIdStop: number | null;
  sepa: boolean;
  swiftOfficial: boolean;
  iana: string;
  currency: string | null;
  centralBankUrl: string | null;
  centralBankName: string | null;
  membership: string | null;
}

/** A bank of a national bank-code table (src/data/gulf-banks.ts) or of the imported BIC directory. */
export interface GulfBank {
  code: string;
  name: string;
  nameAr: string | null;
  swift: string | null;
  /** Name of the bank it merged into (the code may still route there); null for an active bank. */
  mergedInto: string | null;
}

/** One check of the validation and whether it passed (explain=yes shows them). */
export type IbanCheck = 'country' | 'length' | 'format' | 'checkDigits' | 'nationalCheckDigits';

/** Read-only data the IBAN engine takes: country facts, the registry and the bank tables. */
export interface IbanEngineData {
  /** Name in `lang`, currency code, EU membership and ccTLD (without the dot) from the project's country table. */
  country(code: string, lang: Lang): { name: string | null; currency: string | null; isEU: boolean; tld: string | null } | null;
  /** The imported registry; empty before `vigil data import`. */
  registry: ReadonlyMap<string, IbanRegistryEntry>;
  /** National bank codes by country (SA, AE written in the project; KW, BH, QA, JO from the imported BIC directory). */
  banks(country: string): ReadonlyMap<string, GulfBank> | undefined;
}
