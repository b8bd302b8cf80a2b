import type { Lang } from '../country/types.ts';
import { ibanFormats } from './formats.ts';
import type { IbanBank, IbanCheck, IbanCountryBlock, IbanEngineData, IbanResult } from './types.ts';
import { validateParsed, type IbanSpec } from './validate.ts';

/** Where the national bank code sits in the BBAN of the countries whose banks Vigil names. */
export const BANK_CODE_LENGTH: Readonly<Record<string, number>> = { SA: 2, AE: 3, KW: 4, BH: 4, QA: 4, JO: 4 };

export interface IbanEvaluation {
  result: IbanResult;
  /** Each check and whether it passed (null: not run or not defined for the country). */
  checks: Record<IbanCheck, boolean | null>;
  failed: IbanCheck | null;
}

/** The country block: ibantools for length, SEPA and registry status; the imported registry and the project's countries for the rest. */
export function ibanCountry(country: string, spec: IbanSpec, data: IbanEngineData, lang: Lang): IbanCountryBlock {
  const reg = data.registry.get(country);
  const facts = data.country(country, lang);
  return {
    name: facts?.name ?? reg?.name ?? null,
    // The ccTLD in use: the registry's (GB is `uk`), else the country table's, else the code.
    IANA: reg?.iana ?? facts?.tld ?? country.toLowerCase(),
    ISO3166: country,
    currency: reg?.currency ?? facts?.currency ?? null,
    centralBank: { name: reg?.centralBankName ?? null, url: reg?.centralBankUrl ?? null },
    membership: reg?.membership ?? null,
    isEU: facts?.isEU ?? reg?.membership === 'eu_member',
    isSEPA: spec.sepa,
    swiftOfficial: spec.registry,
    length: String(spec.length),
  };
}

/** The bank of a valid IBAN of SA, AE, KW, BH, QA or JO from its national bank code; null elsewhere or when unknown. */
export function ibanBank(country: string, iban: string, data: IbanEngineData): IbanBank | null {
  const n = BANK_CODE_LENGTH[country];
  if (n === undefined) return null;
  const code = iban.slice(4, 4 + n);
  const bank = data.banks(country)?.get(code);
  if (bank === undefined) return null;
  return { code, name: bank.name, nameAr: bank.nameAr, swift: bank.swift, mergedInto: bank.mergedInto };
}

/** Validates a parsed IBAN and assembles the spec's result (without `custom_rules_applied`, which the policy adds). */
export function evaluateIban(p: { iban: string; country: string; spec: IbanSpec }, data: IbanEngineData, lang: Lang = 'EN'): IbanEvaluation {
  const v = validateParsed(p);
  const result: IbanResult = {
    isValid: v.isValid,
    formats: ibanFormats(p.iban),
    country: ibanCountry(p.country, p.spec, data, lang),
    bank: v.isValid ? ibanBank(p.country, p.iban, data) : null,
  };
  return { result, checks: v.checks, failed: v.failed };
}
