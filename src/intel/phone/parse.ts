import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode, type PhoneNumber, type ValidatePhoneNumberLengthResult } from 'libphonenumber-js/max';
import { lengthProblem } from './number-type.ts';

/** Longest `phone` accepted (characters, after trimming); a longer value is not a phone number (118). */
export const MAX_PHONE_CHARS = 64;

/** Keypad letters (ITU E.161), for vanity numbers such as 1-800-FLOWERS. */
const KEYPAD: Readonly<Record<string, string>> = Object.fromEntries(
  ['ABC', 'DEF', 'GHI', 'JKL', 'MNO', 'PQRS', 'TUV', 'WXYZ'].flatMap((letters, i) => [...letters].map((l) => [l, String(i + 2)])),
);

/** What a caller may write in a number: digits, letters (vanity), a leading +, separators, an extension. */
const ALLOWED = /^[0-9A-Za-z +\-.()/#\t\u00a0]+$/;
/** A trailing extension: `ext. 12`, `extension 12`, `x12`, `#12`. */
const EXTENSION = /\s*(?:ext\.?|extension|x|#)\s*\d{1,7}$/i;

/**
 * Each region's calling code, read from the metadata once: the library's getCountryCallingCode and
 * isSupportedCountry build a metadata wrapper per call (8 µs on a cold path against a map lookup).
 */
const CALLING_CODES: ReadonlyMap<string, string> = new Map(getCountries().map((region) => [region, getCountryCallingCode(region)]));

/** The calling code of a region with a numbering plan (`44` for GB). */
export function callingCodeOf(region: CountryCode): string {
  return CALLING_CODES.get(region) ?? getCountryCallingCode(region);
}

export type CountryCheck = { ok: true; region: CountryCode } | { ok: false; problem: string };

/** `countryCode`: two letters (any case) naming a region with a numbering plan. */
export function checkCountry(code: string): CountryCheck {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return { ok: false, problem: 'it must be two letters, such as US or GB' };
  if (!CALLING_CODES.has(upper)) return { ok: false, problem: `${upper} is not an ISO 3166-1 alpha-2 code with a telephone numbering plan` };
  return { ok: true, region: upper as CountryCode };
}

export interface ParsedPhone {
  number: PhoneNumber;
  /** Written with +, 00 or an international prefix, or with another country's calling code. */
  international: boolean;
  /** Letters were read as keypad digits. */
  vanity: boolean;
  /** The text libphonenumber read (00 turned into +, letters into digits) and the region it was read in. */
  read: string;
  region: CountryCode;
}

/** libphonenumber's length verdict for the digits: TOO_SHORT, TOO_LONG, ... (undefined: a possible length); asked of invalid numbers only. */
export function lengthProblemOf(p: ParsedPhone): ValidatePhoneNumberLengthResult | undefined {
  return lengthProblem(p.number, () => validatePhoneNumberLength(p.read, { defaultCountry: p.region }));
}

export type ParseOutcome = { ok: true; phone: ParsedPhone } | { ok: false; problem: string };

/**
 * Reads `phone` in `region` (docs/api-decisions.md "Phone"): national and international forms
 * (`+`, `00`, the region's own international prefix such as 011), separators, a trailing extension
 * (ignored), and vanity letters read as keypad digits. Unparsable (no digit, stray characters,
 * nothing libphonenumber can read, over 64 characters) is a problem; a parsed number that is too
 * short, too long or not valid is not (the engine says why).
 */
export function parsePhone(sent: string, region: CountryCode): ParseOutcome {
  let text = sent.trim();
  if (text === '') return { ok: false, problem: 'it is empty' };
  if (text.length > MAX_PHONE_CHARS) return { ok: false, problem: `it is longer than ${MAX_PHONE_CHARS} characters` };
  if (!ALLOWED.test(text)) return { ok: false, problem: 'it holds characters that are not part of a phone number' };
  text = text.replace(EXTENSION, '');
  if (!/[0-9]/.test(text)) return { ok: false, problem: 'it holds no digit' };
  const plus = text.indexOf('+');
  if (plus >= 0 && (plus !== text.search(/[^\s(]/) || text.indexOf('+', plus + 1) >= 0)) {
    return { ok: false, problem: 'a + may only start the number' };
  }
  const vanity = /[A-Za-z]/.test(text);
  if (vanity) text = text.replace(/[A-Za-z]/g, (c) => KEYPAD[c.toUpperCase()] ?? c);
  // 00 is the international prefix almost everywhere (and how people write it even where it is not).
  const compact = text.replace(/[\s\-.()/\u00a0]/g, '');
  const international = compact.startsWith('+') || compact.startsWith('00');
  if (compact.startsWith('00')) text = `+${compact.slice(2)}`;
  const number = parsePhoneNumberFromString(text, { defaultCountry: region, extract: false });
  if (number === undefined) return { ok: false, problem: 'it cannot be read as a phone number' };
  const foreign = number.countryCallingCode !== callingCodeOf(region);
  return { ok: true, phone: { number, international: international || foreign, vanity, read: text, region } };
}
