import { countrySpecs, validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import { IBANTOOLS_NATIONAL, ownNationalCheck } from './national.ts';
import type { IbanCheck } from './types.ts';

/** Longest IBAN of the standard (ISO 13616). */
export const MAX_IBAN_LENGTH = 34;
/** Raw input longer than this is refused before any work (spaces included). */
const MAX_RAW = 128;
const SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;

export interface IbanSpec {
  length: number;
  sepa: boolean;
  registry: boolean;
}

/** The ibantools specification of a country that has IBANs; null otherwise. */
export function ibanSpec(country: string): IbanSpec | null {
  const s = countrySpecs[country];
  if (s?.chars === undefined || s.chars === null) return null;
  return { length: s.chars, sepa: s.SEPA ?? false, registry: s.IBANRegistry ?? false };
}

export type ParsedIban = { ok: true; iban: string; country: string; spec: IbanSpec } | { ok: false; problem: string };

/**
 * Is this an IBAN at all: spaces (and other white space) removed, lower case accepted, then two
 * letters of a country that has IBANs, two check digits and 1 to 30 letters or digits.
 */
export function parseIban(raw: string): ParsedIban {
  if (raw.length > MAX_RAW) return { ok: false, problem: `it is longer than ${MAX_IBAN_LENGTH} characters.` };
  const compact = raw.replace(/\s+/g, '');
  if (compact === '') return { ok: false, problem: 'it is empty.' };
  if (!/^[A-Za-z0-9]+$/.test(compact)) return { ok: false, problem: 'only letters, digits and spaces are allowed.' };
  if (compact.length > MAX_IBAN_LENGTH) return { ok: false, problem: `it is longer than ${MAX_IBAN_LENGTH} characters.` };
  const iban = compact.toUpperCase();
  if (!SHAPE.test(iban)) return { ok: false, problem: 'an IBAN starts with a two-letter country code and two check digits.' };
  const country = iban.slice(0, 2);
  const spec = ibanSpec(country);
  if (spec === null) return { ok: false, problem: `"${country}" is not a country that uses IBANs.` };
  return { ok: true, iban, country, spec };
}

export interface IbanValidation {
  isValid: boolean;
  /** The first check that failed (country is always passed here: parseIban refuses the rest). */
  failed: IbanCheck | null;
  checks: Record<IbanCheck, boolean | null>;
}

/** Length, BBAN format, ISO 7064 check digits and national check digits of a parsed IBAN. */
export function validateParsed(p: { iban: string; country: string; spec: IbanSpec }): IbanValidation {
  const checks: Record<IbanCheck, boolean | null> = { country: true, length: null, format: null, checkDigits: null, nationalCheckDigits: null };
  checks.length = p.iban.length === p.spec.length;
  const errors = validateIBAN(p.iban).errorCodes;
  if (checks.length) {
    checks.format = !errors.includes(ValidationErrorsIBAN.WrongBBANFormat);
    checks.checkDigits = !errors.includes(ValidationErrorsIBAN.WrongIBANChecksum) && !errors.includes(ValidationErrorsIBAN.ChecksumNotNumber);
    if (checks.format) {
      if (IBANTOOLS_NATIONAL.has(p.country)) checks.nationalCheckDigits = !errors.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum);
      else checks.nationalCheckDigits = ownNationalCheck(p.country, p.iban.slice(4));
    }
  } else {
    checks.checkDigits = !errors.includes(ValidationErrorsIBAN.WrongIBANChecksum) && !errors.includes(ValidationErrorsIBAN.ChecksumNotNumber);
  }
  const order: IbanCheck[] = ['length', 'format', 'checkDigits', 'nationalCheckDigits'];
  const failed = order.find((c) => checks[c] === false) ?? null;
  return { isValid: failed === null, failed, checks };
}

/** ISO 7064 MOD 97-10 check digits for a country and BBAN (builds valid IBANs for tests and test mode). */
export function ibanCheckDigits(country: string, bban: string): string {
  const s = `${bban}${country}00`.toUpperCase();
  let rem = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c <= 57 ? c - 48 : c - 55;
    rem = v > 9 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return String(98 - rem).padStart(2, '0');
}
