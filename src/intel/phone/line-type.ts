import type { PhoneType } from './types.ts';

/**
 * The answer's `lineType`: libphonenumber's type of the number in lower_snake_case, `unknown` when
 * the number has none (not valid, or a range the metadata does not type). docs/api-decisions.md "Phone".
 */
export type LineType =
  | 'mobile' | 'fixed_line' | 'fixed_line_or_mobile' | 'voip' | 'toll_free' | 'premium_rate' | 'shared_cost'
  | 'personal_number' | 'pager' | 'uan' | 'voicemail' | 'unknown';

/** A constant table: the hot path reads a property, it builds no string. */
const LINE_TYPES: Readonly<Record<PhoneType, LineType>> = {
  MOBILE: 'mobile', FIXED_LINE: 'fixed_line', FIXED_LINE_OR_MOBILE: 'fixed_line_or_mobile', VOIP: 'voip',
  TOLL_FREE: 'toll_free', PREMIUM_RATE: 'premium_rate', SHARED_COST: 'shared_cost', PERSONAL_NUMBER: 'personal_number',
  PAGER: 'pager', UAN: 'uan', VOICEMAIL: 'voicemail',
};

/** Every value `lineType` can take, in the documented order. */
export const LINE_TYPE_VALUES: readonly LineType[] = [...Object.values(LINE_TYPES), 'unknown'];

/** The `lineType` of libphonenumber's type (null: `unknown`). */
export function lineTypeOf(type: PhoneType | null): LineType {
  return type === null ? 'unknown' : LINE_TYPES[type];
}
