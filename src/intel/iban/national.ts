/**
 * National check digits inside the BBAN. ibantools (4.5.4) checks BA, BE, CZ, EE, ES, FR, HR, HU, MC,
 * ME, MK, NO, PL, PT, RS, SI and SK (its `bban_validation_func`); it checks neither FI nor NL. Vigil
 * adds the Italian CIN (IT, SM), verified against the published registry examples, and the Finnish
 * Luhn digit. docs/api-decisions.md lists them.
 *
 * Finland: the BBAN is the 14-digit machine form of the account number and its last digit is a Luhn
 * (mod 10) check over all 14 digits, as in pear/Validate_FI Validate/FI.php (bankAccount(): the short
 * form is expanded to 14 digits, then _mod10()). The registry example FI2112345600000785 passes it.
 *
 * Netherlands: no national check. The 11-test ("elfproef") on the 10-digit account number does not
 * hold for former Postbank (ING) numbers of 1 to 7 digits (arturmkrtchyan/iban4j issue #10,
 * sytzeloor/elfproef issue #1), and numbers created since IBAN was introduced need not pass it
 * (Simplify/ibantools issue #103, citing the Betaalvereniging's notice that from 2020 the last 10
 * digits of a Dutch IBAN are no longer used on their own). ibantools removed its Dutch BBAN check
 * for that reason (Simplify/ibantools pull request #493, 2024); the IBAN's own ISO 7064 check digits
 * already cover the account number.
 */

import { luhnValid } from '../bin/parse.ts';

/** CIN weights of the characters in odd positions (1st, 3rd...): digit d and letter A+d share a value. */
const CIN_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function cinValue(ch: number): number {
  // '0'-'9' -> 0-9, 'A'-'Z' -> 0-25
  return ch <= 57 ? ch - 48 : ch - 65;
}

/** Italian/Sammarinese CIN: the letter that opens the BBAN, computed over ABI, CAB and account (22 characters). */
export function italianCin(rest22: string): string {
  let sum = 0;
  for (let i = 0; i < rest22.length; i++) {
    const v = cinValue(rest22.charCodeAt(i));
    sum += i % 2 === 0 ? (CIN_ODD[v] ?? 0) : v;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** Countries whose national check digits ibantools verifies. */
export const IBANTOOLS_NATIONAL: ReadonlySet<string> = new Set(['BA', 'BE', 'CZ', 'EE', 'ES', 'FR', 'HR', 'HU', 'MC', 'ME', 'MK', 'NO', 'PL', 'PT', 'RS', 'SI', 'SK']);

/** Countries whose national check digits Vigil verifies itself. */
export const OWN_NATIONAL: ReadonlySet<string> = new Set(['IT', 'SM', 'FI']);

/** National check of a BBAN Vigil verifies itself; null when the country has none Vigil knows. */
export function ownNationalCheck(country: string, bban: string): boolean | null {
  if ((country === 'IT' || country === 'SM') && bban.length === 23) return italianCin(bban.slice(1)) === bban[0];
  if (country === 'FI' && /^\d{14}$/.test(bban)) return luhnValid(bban);
  return null;
}
