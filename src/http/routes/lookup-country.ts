import type { CountryData } from '../../data/countries.ts';
import { lookupCountry } from '../../intel/country/lookup-country.ts';
import { COUNTRY_MODULES, type CountryModule, type CountryResult } from '../../intel/country/types.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { reusableAnswer } from '../formats/json.ts';
import { requireParam } from '../params.ts';
import { SecondMemo } from '../second-memo.ts';

/** Test mode computes time-dependent fields at this fixed instant so answers are deterministic. */
export const TEST_MODE_INSTANT = new Date('2025-06-21T12:00:00Z');

/** Answers kept per second and mode: at most this many distinct (code, lang, modules, base URL) a second. */
const MEMO_ENTRIES = 4096;

/**
 * GET /lookup/country: country facts, optionally with language, flag, currency and timezone.
 *
 * An answer depends on the code as sent, the language, the modules, the flag base URL and the
 * current second (the timezone block's clock), so it is built once per second for each such set and
 * shared, frozen, by the requests of that second; its JSON text is written once too (json.ts).
 */
export function countryEndpoint(data: CountryData): EndpointDef {
  const live = new SecondMemo<CountryResult>(MEMO_ENTRIES);
  const test = new SecondMemo<CountryResult>(MEMO_ENTRIES);
  const answer = (ctx: RequestContext, now: Date, memo: SecondMemo<CountryResult>): unknown => {
    const code = requireParam(ctx.query, 'CountryCode', 116);
    const { lang } = ctx.options;
    const modules = ctx.options.modules as ReadonlySet<CountryModule>;
    let mask = 0;
    COUNTRY_MODULES.forEach((m, i) => {
      if (modules.has(m)) mask |= 1 << i;
    });
    const flagBaseUrl = modules.has('flag') ? ctx.baseUrl : '';
    return memo.get(`${code}\u0000${lang}\u0000${mask}\u0000${flagBaseUrl}`, now.getTime(), () => {
      const result = lookupCountry(data, code, { lang, modules, now, flagBaseUrl });
      if (!result) throw new ApiError(116, `"${code.slice(0, 16)}" is not an ISO 3166-1 alpha-2 country code.`);
      return reusableAnswer(result);
    });
  };
  return {
    operation: 'lookup.country',
    method: 'GET',
    summary: 'Country facts',
    description:
      'Name (translated per `lang`), GeoNames ids, capital, population, dialing code, EU membership, neighbours, TLD and continent; ' +
      'modules `language`, `flag`, `currency` and `timezone` (with sun times at the capital) on request through `params`.',
    query: { CountryCode: { type: 'string', required: true, description: 'ISO 3166-1 alpha-2 code, e.g. DE', example: 'DE' } },
    sample: { CountryCode: 'DE' },
    modules: COUNTRY_MODULES,
    datasets: data.datasets,
    live: (ctx) => answer(ctx, ctx.now, live),
    test: (ctx) => answer(ctx, TEST_MODE_INSTANT, test),
  };
}
