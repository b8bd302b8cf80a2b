import { timezoneBlock } from '../time/timezone.ts';
import type { CountryData, CountryFacts } from './facts.ts';
import { flagBlock } from './flag-block.ts';
import type { CountryModule, CountryResult, Lang } from './types.ts';

export interface LookupCountryOptions {
  lang: Lang;
  modules: ReadonlySet<CountryModule>;
  /** Instant for the timezone block (current time, DST, sun times). */
  now: Date;
  /** Base address the flag image URLs are built on, e.g. "https://vigil.example". */
  flagBaseUrl: string;
}

/*
 * Accepted codes: exactly two ASCII letters in any case, with no trimming, naming a code in the
 * table (the 249 ISO 3166-1 assignments plus XK, see countries.ts). Reserved or exceptional
 * codes that are not assignments (UK, EU, EL, XX) are unknown and give null.
 */
const ALPHA2_INPUT = /^[A-Za-z]{2}$/;

/** The static record of a country by alpha-2 code (any case), for every engine; null if unknown. */
export function countryFacts(data: CountryData, code: string): CountryFacts | null {
  if (!ALPHA2_INPUT.test(code)) return null;
  return data.byCode.get(code.toUpperCase()) ?? null;
}

/**
 * The country result (spec "Country result") for `code`, or null when it is not a known alpha-2
 * code. Modules absent from `opts.modules` are left out of the object, not set to null. Each call
 * builds a new object, so callers may change it freely.
 */
export function lookupCountry(data: CountryData, code: string, opts: LookupCountryOptions): CountryResult | null {
  const facts = countryFacts(data, code);
  if (!facts) return null;
  const { lang, modules } = opts;
  const { currency, language, place } = facts;

  return {
    countryCode: facts.code,
    countryName: facts.names[lang],
    countryGeoNameID: facts.geonameId,
    capital: facts.capital,
    population: facts.population,
    phoneCode: facts.phoneCode,
    ...(modules.has('currency') && {
      currency: currency && { currencyName: currency.names[lang], currencyCode: currency.code, currencySymbol: currency.symbol },
    }),
    ...(modules.has('language') && {
      language: language && { name: language.names[lang], code: language.code, native: language.native },
    }),
    ...(modules.has('timezone') && {
      timezone: place && timezoneBlock(place.zone, place.latitude, place.longitude, opts.now),
    }),
    ...(modules.has('flag') && { flag: facts.hasFlag ? flagBlock(facts.code, opts.flagBaseUrl) : null }),
    countryIsEU: facts.isEU,
    countryNeighbours: facts.neighbours.join(','),
    tld: facts.tld,
    continentName: facts.continent.names[lang],
    continentCode: facts.continent.code,
    continentGeoNameID: facts.continent.geonameId,
  };
}
