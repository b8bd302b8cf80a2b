/** The `bin` parameter read as a card prefix, a full number or a masked number (docs/api-decisions.md "BIN"). */

/** Characters that stand for hidden digits in masked numbers: `411111******1111`, `4111 11XX XXXX 1111`. */
const MASKED = /^\d+[\d*xX•#]*$/;
/** No card scheme issues numbers longer than 19 digits (ISO/IEC 7812). */
export const MAX_CARD_LENGTH = 19;
export const MIN_BIN_LENGTH = 6;
/** The BIN is at most 8 digits: the only digits used, logged or stored. */
export const MAX_BIN_LENGTH = 8;

export interface ParsedBin {
  /** Leading digits, before any mask character (all digits of a full number). */
  leading: string;
  /** The BIN used for the lookup: the first 6 to 8 leading digits. */
  bin: string;
  /** The full number when every digit was sent (12 to 19 digits, no mask); null otherwise. */
  full: string | null;
  /** Digits plus mask characters when the whole number's length is known (full or masked with a tail); else null. */
  totalLength: number | null;
}

export type ParseBinResult = { ok: true; value: ParsedBin } | { ok: false; problem: string };

/** Reads a BIN, full number or masked number; spaces and dashes are ignored. */
export function parseBinInput(sent: string): ParseBinResult {
  if (sent.length > 64) return { ok: false, problem: 'it is longer than any card number.' };
  const s = sent.trim().replace(/[\s-]/g, '');
  if (s === '') return { ok: false, problem: 'it is empty; send at least the first 6 digits of the card.' };
  if (!MASKED.test(s)) return { ok: false, problem: 'send digits only (spaces, dashes and X or * for hidden digits are accepted), starting with at least 6 digits.' };
  const leading = /^\d+/.exec(s)?.[0] ?? '';
  if (leading.length < MIN_BIN_LENGTH) return { ok: false, problem: `it starts with ${leading.length} digit(s); at least ${MIN_BIN_LENGTH} are needed.` };
  if (s.length > MAX_CARD_LENGTH) return { ok: false, problem: `it has ${s.length} characters; no card number has more than ${MAX_CARD_LENGTH} digits.` };
  const masked = s.length !== leading.length;
  // A masked number ending in digits (`411111******1111`) tells its length; `411111XXXX` does not.
  const tail = masked && /\d$/.test(s);
  return {
    ok: true,
    value: {
      leading,
      bin: leading.slice(0, MAX_BIN_LENGTH),
      full: !masked && s.length >= 12 ? s : null,
      totalLength: (!masked && s.length >= 12) || tail ? s.length : null,
    },
  };
}

/** Luhn (mod 10) check of a digit string. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
