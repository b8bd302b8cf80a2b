import type { CountryData } from '../../data/countries.ts';
import { lookupCountry } from '../../intel/country/lookup-country.ts';
import { COUNTRY_MODULES, type CountryModule } from '../../intel/country/types.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { requireParam } from '../params.ts';

/** Test mode computes time-dependent fields at this fixed instant so answers are deterministic. */
export const TEST_MODE_INSTANT = new Date('2025-06-21T12:00:00Z');

/** GET /lookup/country: country facts, optionally with language, flag, currency and timezone. */
export function countryEndpoint(data: CountryData): EndpointDef {
  const answer = (ctx: RequestContext, now: Date): unknown => {
    const code = requireParam(ctx.query, 'CountryCode', 116);
    const result = lookupCountry(data, code, {
      lang: ctx.options.lang,
      modules: ctx.options.modules as ReadonlySet<CountryModule>,
      now,
      flagBaseUrl: ctx.baseUrl,
    });
    if (!result) throw new ApiError(116, `"${code.slice(0, 16)}" is not an ISO 3166-1 alpha-2 country code.`);
    return result;
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
    live: (ctx) => answer(ctx, ctx.now),
    test: (ctx) => answer(ctx, TEST_MODE_INSTANT),
  };
}
