import type { CountryCode } from 'libphonenumber-js/max';
import { HOT_BLOCK, HOT_BLOCK_VOIP } from './disposable.ts';
import { fictionalRange } from './fictional.ts';
import { lineTypeOf } from './line-type.ts';
import { numberType } from './number-type.ts';
import { callingCodeOf, lengthProblemOf, type ParsedPhone } from './parse.ts';
import type { CarrierLookup, DisposableFacts, IdentityLabel, PhoneResult, PhoneType } from './types.ts';

/** Types a person's number has; any other valid type is "not a mobile or fixed line". */
const PERSONAL: ReadonlySet<PhoneType> = new Set(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE', 'VOIP']);

const TYPE_NAMES: Readonly<Record<PhoneType, string>> = {
  MOBILE: 'Mobile', FIXED_LINE: 'Fixed-line', FIXED_LINE_OR_MOBILE: 'Fixed-line or mobile', VOIP: 'VoIP',
  TOLL_FREE: 'Toll-free', PREMIUM_RATE: 'Premium-rate', SHARED_COST: 'Shared-cost', PERSONAL_NUMBER: 'Personal (follow-me)',
  PAGER: 'Pager', UAN: 'Corporate (UAN)', VOICEMAIL: 'Voicemail access',
};

export const FRAUD_LABEL_REASON = 'The number carries a fraud label.';

export interface PhoneInputs {
  /** The number's record in the receive-SMS list (test mode: fake facts). */
  readonly disposable: DisposableFacts;
  readonly carrier: CarrierLookup;
  /** The number's identity label from the learning services (null when none, and in test mode); `fraud` marks it invalid. */
  readonly label?: IdentityLabel | null;
}

export interface PhoneEvaluation {
  result: PhoneResult;
  /** libphonenumber's type of a valid number (null: invalid or unknown); the answer carries it as `result.lineType`. */
  type: PhoneType | null;
  /** The region the number belongs to (GB, GG...), or the region it was read in. */
  region: string;
  /**
   * libphonenumber's region of the number (ISO 3166-1 alpha-2: GB, GG, CA...), never the region it
   * was read in: null when the number has none (not valid for any region, or non-geographic such
   * as +800). Payment scoring compares it with the IP's country.
   */
  country: string | null;
  /** In a range a regulator reserves for fiction (src/intel/phone/fictional.ts). */
  fictional: boolean;
}

/** Why a parsed number is not valid, in words ('' when it is valid). */
function invalidReason(p: ParsedPhone, where: string): string {
  switch (lengthProblemOf(p)) {
    case 'TOO_SHORT': return `Too short for a number of ${where}.`;
    case 'TOO_LONG': return `Too long for a number of ${where}.`;
    case 'INVALID_LENGTH': return `No number of ${where} has this many digits.`;
    case 'INVALID_COUNTRY': return `+${p.number.countryCallingCode} is not a country calling code.`;
    case 'NOT_A_NUMBER':
    case undefined: break;
  }
  return p.international
    ? `Not a valid number for ${where}: no such range is assigned.`
    : `Not a valid number for ${where}: wrong country, or no such range is assigned.`;
}

/**
 * Scores one parsed number (docs/api-decisions.md "Phone"): validity and its reason, type (a
 * premium-rate, toll-free, pager... number is not a person's number; a range reserved for fiction
 * is no one's), `lineType`, original carrier, and
 * `disposable` from the receive-SMS list (recent records, and blocks where such numbers sit; a
 * VOIP number needs less evidence). A fraud label makes the number invalid.
 */
export function evaluatePhone(countryCode: string, parsed: ParsedPhone, region: CountryCode, inputs: PhoneInputs): PhoneEvaluation {
  const n = parsed.number;
  const digits = n.number.slice(1);
  // With the max metadata a number is valid exactly when it has a type (libphonenumber-js isValid does the same match).
  const type = numberType(n);
  const valid = type !== null;
  // An invalid number has no region of its own: name the one it was read in when the calling code is that region's.
  const numberRegion = n.country ?? (n.countryCallingCode === callingCodeOf(region) ? region : '');
  const where = numberRegion === '' ? `+${n.countryCallingCode}` : numberRegion;
  let reason = valid ? '' : invalidReason(parsed, where);
  if (type !== null && !PERSONAL.has(type)) reason = `${TYPE_NAMES[type]} number: not a mobile or fixed line.`;
  // A reserved range says more than its type or length (libphonenumber types most of them as real lines).
  const fiction = fictionalRange(n.countryCallingCode, n.nationalNumber);
  if (fiction !== null) reason = fiction.reason;
  if (inputs.label === 'fraud') reason = reason === '' ? FRAUD_LABEL_REASON : `${FRAUD_LABEL_REASON} ${reason}`;

  const d = inputs.disposable;
  const voip = type === 'VOIP';
  const disposable = d.recent || d.blockRecent >= HOT_BLOCK || (voip && (d.listedOn !== null || d.blockRecent >= HOT_BLOCK_VOIP));

  const result: PhoneResult = {
    // A reserved range has no carrier, whatever block the prefix data puts it in.
    carrier: valid && fiction === null ? inputs.carrier(n.countryCallingCode, n.nationalNumber) : '',
    reason,
    isValid: reason === '',
    blacklisted: false,
    disposable,
    phone: digits,
    countryCode,
    lineType: lineTypeOf(type),
    custom_rules_applied: { total: 0, rules: [] },
  };
  return { result, type, region: numberRegion === '' ? region : numberRegion, country: valid ? (n.country ?? null) : null, fictional: fiction !== null };
}
