import type { CountryCode } from 'libphonenumber-js/max';
import type { PhoneData } from '../../data/phone-data.ts';
import { evaluatePhone } from '../../intel/phone/evaluate.ts';
import { fakeDisposableFacts } from '../../intel/phone/fake.ts';
import { checkCountry, parsePhone, type ParsedPhone } from '../../intel/phone/parse.ts';
import type { PhoneResult } from '../../intel/phone/types.ts';
import type { LabelLookups } from '../../learning/label-lookups.ts';
import { confirmedFraudProbe, deferredHashes, identityOf } from './learning-seam.ts';
import { maskPhone } from '../../policy/events/mask.ts';
import type { EndpointPolicy, PolicySubject } from '../../policy/types.ts';
import { writeVerdict } from '../../policy/verdict.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';
import { NoteKey, type AnswerNotes } from '../answer-notes.ts';

/** Risk stored with a `spam_phone` event (a verdict, as for the other invalid/spam events). */
export const SPAM_PHONE_RISK = 100;


/** `countryCode` (116) then `phone` (118), as docs/api-decisions.md "Phone" orders them. */
export function readPhone(query: Readonly<Record<string, unknown>>): { countryCode: string; region: CountryCode; parsed: ParsedPhone } {
  const countryCode = readParam(query, 'countryCode', 116);
  if (countryCode === undefined || countryCode.trim() === '') {
    throw new ApiError(116, 'The "countryCode" parameter is required: send the ISO 3166-1 alpha-2 code of the country the number is read in, such as US.');
  }
  const country = checkCountry(countryCode);
  if (!country.ok) throw new ApiError(116, `The country code is not valid: ${country.problem}.`);
  const sent = readParam(query, 'phone', 118);
  if (sent === undefined) throw new ApiError(118, 'The "phone" parameter is required: send a number such as +44 7911 123456 or 07911 123456.');
  const parsed = parsePhone(sent, country.region);
  if (!parsed.ok) throw new ApiError(118, `The phone number cannot be parsed: ${parsed.problem}.`);
  return { countryCode, region: country.region, parsed: parsed.phone };
}

/** GET /scoring/phone: validity, type, original carrier and receive-SMS checks of one number. */
export function phoneEndpoint(data: PhoneData, labels?: LabelLookups): EndpointDef {
  /** The region each answered number belongs to, for the event summary (kept off the answer). */
  const regions = new NoteKey<string>('phone region');

  const answer = async (ctx: RequestContext, fake: boolean): Promise<PhoneResult> => {
    const { countryCode, region, parsed } = readPhone(ctx.query);
    const digits = parsed.number.number.slice(1);
    const disposable = fake ? fakeDisposableFacts(digits) : data.disposable.facts(digits, ctx.now);
    // Identity labels (spec "Identity label"): live only (test mode reads no store).
    const label = !fake && labels && ctx.caller ? await labels.label(ctx.caller.account.id, 'phone', digits, ctx.now) : null;
    const { result, region: numberRegion } = evaluatePhone(countryCode, parsed, region, { disposable, carrier: data.carrier, label });
    ctx.notes.set(regions, result, numberRegion);
    return result;
  };

  const policy: EndpointPolicy = {
    group: 'phone',
    subjects(answerData: unknown, input: Readonly<Record<string, unknown>>, notes: AnswerNotes): PolicySubject[] {
      if (typeof answerData !== 'object' || answerData === null) return [];
      const result = answerData as Record<string, unknown>;
      const digits = String(result.phone);
      return [{
        input,
        result,
        lists: [{ type: 'phone', value: digits }, ...confirmedFraudProbe(labels, 'phone', digits)],
        apply(verdict) {
          writeVerdict(result, verdict, { listed: result, validity: { field: 'isValid', reasonField: 'reason' } });
        },
        identities: deferredHashes(labels, 'phone', digits),
        event() {
          if (result.isValid === true && result.disposable !== true && result.blacklisted !== true) return null;
          return {
            kind: 'spam_phone',
            risk: SPAM_PHONE_RISK,
            subject: maskPhone(digits),
            summary: {
              isValid: result.isValid, disposable: result.disposable, blacklisted: result.blacklisted, reason: result.reason,
              country: notes.get(regions, result) ?? String(result.countryCode).toUpperCase(),
            },
            ...identityOf(labels, 'phone', digits),
          };
        },
      }];
    },
  };

  return {
    operation: 'scoring.phone',
    method: 'GET',
    summary: 'Phone number validity and risk',
    description:
      'Parses one number in the given country (national or international form: +, 00 or the country\'s international prefix; ' +
      'separators, an extension and vanity letters are accepted) with libphonenumber\'s full metadata: `phone` (E.164 digits), ' +
      '`isValid` with a `reason` (too short, too long, not valid for the country, not a mobile or fixed line such as premium-rate, ' +
      'a range regulators reserve for fiction such as US 555-0100 to 555-0199), the original `carrier` of the range, ' +
      '`disposable` (numbers and number blocks of receive-SMS services) and `lineType` (mobile, fixed_line, voip, toll_free...). ' +
      'Missing or invalid countryCode: 116; missing or unparsable number: 118. Details in docs/api-decisions.md "Phone".',
    query: {
      phone: { type: 'string', required: true, description: 'The number, e.g. +44 7911 123456 or 07911 123456', example: '+44 7911 123456' },
      countryCode: { type: 'string', required: true, description: 'ISO 3166-1 alpha-2 code of the country the number is read in', example: 'GB' },
    },
    sample: { phone: '+44 7911 123456', countryCode: 'GB' },
    get datasets() {
      return data.datasets;
    },
    policy,
    live: (ctx) => answer(ctx, false),
    test: (ctx) => answer(ctx, true),
  };
}
