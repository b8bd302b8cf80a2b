import type { BinData } from '../../data/bin-data.ts';
import type { CountryData } from '../../data/countries.ts';
import { evaluateBin } from '../../intel/bin/evaluate.ts';
import { MAX_BIN_LENGTH, parseBinInput } from '../../intel/bin/parse.ts';
import type { EndpointPolicy, PolicySubject } from '../../policy/types.ts';
import { writeVerdict } from '../../policy/verdict.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';
import type { LabelLookups } from '../../learning/label-lookups.ts';
import { deferredBinHashes } from './learning-seam.ts';

/** The BIN only (first 6 to 8 digits): all that is logged, stored or sent in events. */
export function binOnly(sent: string): string {
  return (/^\d+/.exec(sent.replace(/[\s-]/g, ''))?.[0] ?? '').slice(0, MAX_BIN_LENGTH);
}

/** GET /lookup/bin: scheme, co-badge and syntax by range, issuer and country from the imported dataset. */
export function binEndpoint(bins: BinData, countries: CountryData, labels?: LabelLookups): EndpointDef {
  const answer = (ctx: RequestContext) => {
    const sent = readParam(ctx.query, 'bin', 120);
    if (sent === undefined || sent.trim() === '') throw new ApiError(120, 'The "bin" parameter is required: send at least the first 6 digits of the card, such as 411111.');
    const parsed = parseBinInput(sent);
    if (!parsed.ok) throw new ApiError(120, `The BIN is malformed: ${parsed.problem}`);
    return evaluateBin(sent, parsed.value, { index: bins.index, countries: countries.byCode }, ctx.options.lang);
  };

  const policy: EndpointPolicy = {
    group: 'bin',
    subjects(data: unknown): PolicySubject[] {
      if (typeof data !== 'object' || data === null) return [];
      const result = data as Record<string, unknown>;
      const sent = String(result.bin);
      const bin = binOnly(sent);
      const info = result.info as { country?: { alpha2?: unknown } | null; scheme?: { name?: unknown } } | undefined;
      const alpha2 = info?.country?.alpha2;
      return [{
        // Rules never need more than the BIN; the full number must not reach the decision log.
        input: { bin },
        result,
        // The BIN matches the same 6-8 digit list entries as the number sent, and a list hit shown by
        // explain=yes then carries no full number.
        lists: [{ type: 'card_bin', value: bin }, ...(typeof alpha2 === 'string' ? [{ type: 'card_country' as const, value: alpha2 }] : [])],
        apply: (verdict) => writeVerdict(result, verdict, { listed: result, validity: { field: 'isValid', reasonField: 'reason' } }),
        event() {
          if (result.isValid !== false) return null;
          return { kind: 'invalid_bin', risk: 100, subject: bin, summary: { bin, isValid: false, reason: result.reason, scheme: info?.scheme?.name ?? null } };
        },
        logged: () => Object.assign({}, result, { bin }),
        identities: deferredBinHashes(labels, bin),
      }];
    },
  };

  return {
    operation: 'lookup.bin',
    method: 'GET',
    summary: 'Card BIN/IIN lookup',
    description:
      'Scheme (with co-badged domestic schemes such as mada in `coName`), card syntax, issuer and issuing country of a card BIN. ' +
      'Send the first 6 to 8 digits; a longer or masked number (`411111******1111`, `4111 11XX XXXX 1111`) is accepted and only its ' +
      'leading digits are looked up; a full number is Luhn-checked and never stored or logged. Missing or malformed: 120.',
    query: { bin: { type: 'string', required: true, description: 'At least the first 6 digits of the card', example: '45717360' } },
    sample: { bin: '45717360' },
    get datasets() {
      return [...bins.datasets, ...countries.datasets];
    },
    policy,
    live: answer,
    // The lookup is local and deterministic: test mode answers the same, without quota or events.
    test: answer,
  };
}
