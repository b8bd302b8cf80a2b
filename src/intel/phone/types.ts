import type { LineType } from './line-type.ts';

/** Types of the phone engine (spec "Phone result"; docs/api-decisions.md "Phone"). */

export type IdentityLabel = 'fraud' | 'legit';

/** libphonenumber's number types, as the engine reasons about them. */
export type PhoneType =
  | 'MOBILE' | 'FIXED_LINE' | 'FIXED_LINE_OR_MOBILE' | 'VOIP' | 'TOLL_FREE' | 'PREMIUM_RATE' | 'SHARED_COST'
  | 'PERSONAL_NUMBER' | 'PAGER' | 'UAN' | 'VOICEMAIL';

/** The phone result in the spec's field order (`lineType` added); `blacklisted` and `custom_rules_applied` are the policy stage's. */
export interface PhoneResult {
  carrier: string;
  reason: string;
  isValid: boolean;
  blacklisted: boolean;
  disposable: boolean;
  /** E.164 digits without `+`. */
  phone: string;
  /** As sent. */
  countryCode: string;
  /** libphonenumber's type of the number (src/intel/phone/line-type.ts); `unknown` when it has none. */
  lineType: LineType;
  custom_rules_applied: { total: number; rules: Array<{ id: string; title: string }> };
}

/** What the disposable index says of one number (src/intel/phone/disposable.ts). */
export interface DisposableFacts {
  /** Day (YYYY-MM-DD) the number was last recorded on a receive-SMS site; null when not listed. */
  listedOn: string | null;
  /** Listed within the recency window before `now`. */
  recent: boolean;
  /** Recently listed numbers in the same block of 1,000 (the number's digits without the last three). */
  blockRecent: number;
}

/** Looks a number's original carrier up by calling code and national number ('' when unknown). */
export type CarrierLookup = (callingCode: string, nationalNumber: string) => string;
