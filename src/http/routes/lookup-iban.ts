import type { IbanData } from '../../data/iban-data.ts';
import { evaluateIban } from '../../intel/iban/lookup.ts';
import type { IbanResult } from '../../intel/iban/types.ts';
import { parseIban } from '../../intel/iban/validate.ts';
import { maskIban } from '../../policy/events/mask.ts';
import type { EndpointPolicy, PolicySubject } from '../../policy/types.ts';
import { writeVerdict } from '../../policy/verdict.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';

/** The `iban` parameter as an IBAN (docs/api-decisions.md "IBAN"): missing, repeated or not an IBAN at all: 122 saying why. */
export function readIban(query: Readonly<Record<string, unknown>>): ReturnType<typeof parseIban> & { ok: true } {
  const sent = readParam(query, 'iban', 122);
  if (sent === undefined) throw new ApiError(122, 'The "iban" parameter is required: send an IBAN such as DE89 3704 0044 0532 0130 00.');
  const parsed = parseIban(sent);
  if (!parsed.ok) throw new ApiError(122, `The "iban" parameter is not an IBAN: ${parsed.problem}`);
  return parsed;
}

const policy: EndpointPolicy = {
  group: 'iban',
  subjects(answerData: unknown, input: Readonly<Record<string, unknown>>): PolicySubject[] {
    if (typeof answerData !== 'object' || answerData === null) return [];
    const result = answerData as IbanResult & Record<string, unknown>;
    const machine = result.formats.machine;
    const obfuscated = result.formats.obfuscated;
    return [{
      // Rules, the decision log and backtests never see the full IBAN under `input.`.
      input: Object.assign({}, input, { iban: obfuscated }),
      result,
      lists: [],
      apply: (verdict) => writeVerdict(result, verdict, { validity: { field: 'isValid' } }),
      event() {
        if (result.isValid) return null;
        return { kind: 'invalid_iban', risk: 100, subject: maskIban(machine), summary: { isValid: false, country: result.country.ISO3166, obfuscated } };
      },
      logged: () => Object.assign({}, result, { formats: { machine: obfuscated, human: obfuscated, obfuscated } }),
    }];
  },
};

/** GET /lookup/iban: validation (country, length, format, check digits, national check digits), formats, country facts and Gulf banks. */
export function ibanEndpoint(data: IbanData): EndpointDef {
  // The engine is local and deterministic: test mode gives the same answer (no quota, no events).
  const answer = (ctx: RequestContext): IbanResult & { explanation?: unknown } => {
    const parsed = readIban(ctx.query);
    const { result, checks } = evaluateIban(parsed, data.engine, ctx.options.lang);
    if (!ctx.options.explain) return result;
    const contributions = Object.entries(checks).map(([check, passed]) => ({ signal: check, passed }));
    return Object.assign({}, result, { explanation: { contributions } });
  };
  return {
    operation: 'lookup.iban',
    method: 'GET',
    summary: 'IBAN validation and facts',
    description:
      'Validates one IBAN (spaces and lower case accepted): country, length, BBAN format, ISO 7064 check digits and the national ' +
      'check digits where Vigil knows them. Answers `formats` (machine, human, obfuscated), the country\'s IBAN facts and, for ' +
      'Saudi Arabia, the UAE, Kuwait, Bahrain, Qatar and Jordan, the bank. A well-formed IBAN that fails a check is answered ' +
      'with `isValid: false` (and raises `invalid_iban`); input that is not an IBAN at all: 122. Validation does not confirm ' +
      'that the account exists.',
    query: { iban: { type: 'string', required: true, description: 'The IBAN, with or without spaces', example: 'DE89 3704 0044 0532 0130 00' } },
    sample: { iban: 'DE89370400440532013000' },
    get datasets() {
      return data.datasets;
    },
    policy,
    live: answer,
    test: answer,
  };
}
