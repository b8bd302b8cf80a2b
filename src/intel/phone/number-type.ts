import { Metadata, type PhoneNumber, type ValidatePhoneNumberLengthResult } from 'libphonenumber-js/max';
import type { PhoneType } from './types.ts';

/** The parts of libphonenumber-js's numbering plan the type match reads (present at run time, not in its typings). */
interface TypeDesc {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
interface Plan {
  nationalNumberPattern(): string;
  possibleLengths(): number[] | undefined;
  type(name: string): TypeDesc | undefined;
}

const NON_FIXED_LINE: readonly PhoneType[] = ['MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];

const metadata = new Metadata() as unknown as { selectNumberingPlan(country: string): void; numberingPlan?: Partial<Plan> };
const compiled = new Map<string, RegExp>();

function whole(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) {
    re = new RegExp(`^(?:${pattern})$`);
    compiled.set(pattern, re);
  }
  return re;
}

function isType(nn: string, name: PhoneType, plan: Plan): boolean {
  const desc = plan.type(name);
  const pattern = desc?.pattern();
  if (desc === undefined || !pattern) return false;
  const lengths = desc.possibleLengths();
  if (lengths && !lengths.includes(nn.length)) return false;
  return whole(pattern).test(nn);
}

/**
 * The number's type, as libphonenumber-js's `getType()` decides it (same metadata, same order),
 * with each pattern compiled once: the library builds a `new RegExp` from its large max-metadata
 * patterns on every match, which costs tens of µs per number in a busy server (docs/benchmarks.md).
 * Falls back to the library when the number has no region or the metadata's shape is not the one
 * expected. Null: not a valid number.
 */
export function numberType(n: PhoneNumber): PhoneType | null {
  if (n.country === undefined) return n.getType() ?? null;
  metadata.selectNumberingPlan(n.country);
  const plan = metadata.numberingPlan;
  if (typeof plan?.type !== 'function' || typeof plan.nationalNumberPattern !== 'function') return n.getType() ?? null;
  const p = plan as Plan;
  const nn: string = n.nationalNumber;
  if (!whole(p.nationalNumberPattern()).test(nn)) return null;
  if (isType(nn, 'FIXED_LINE', p)) {
    const mobile = p.type('MOBILE');
    if (mobile === undefined || mobile.pattern() === '' || isType(nn, 'MOBILE', p)) return 'FIXED_LINE_OR_MOBILE';
    return 'FIXED_LINE';
  }
  for (const name of NON_FIXED_LINE) if (isType(nn, name, p)) return name;
  return null;
}

/**
 * What `validatePhoneNumberLength` says of the text a number was parsed from, read off the parsed
 * number instead of parsing the text a second time (a cold parse costs tens of µs in a busy server):
 * the lengths of the number's own region's plan, else of its calling code's main region, as the
 * library's checkNumberLength compares them. Falls back to the library's answer through `viaText`
 * when the metadata's shape is not the one expected.
 */
export function lengthProblem(n: PhoneNumber, viaText: () => ValidatePhoneNumberLengthResult | undefined): ValidatePhoneNumberLengthResult | undefined {
  metadata.selectNumberingPlan(n.country ?? n.countryCallingCode);
  const plan = metadata.numberingPlan;
  if (typeof plan?.possibleLengths !== 'function') return viaText();
  const lengths = plan.possibleLengths();
  if (!lengths || lengths.length === 0) return undefined;
  const length = n.nationalNumber.length;
  const min = lengths[0] as number;
  if (min === length) return undefined;
  if (min > length) return 'TOO_SHORT';
  if ((lengths[lengths.length - 1] as number) < length) return 'TOO_LONG';
  return lengths.indexOf(length, 1) >= 0 ? undefined : 'INVALID_LENGTH';
}
