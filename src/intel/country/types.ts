/** Result shapes of the country engine (spec "Country result"), shared with the IP result. */

export const LANGS = ['EN', 'AR', 'DE', 'FR', 'ES', 'JA', 'ZH', 'RU'] as const;
export type Lang = (typeof LANGS)[number];

export interface CurrencyBlock {
  currencyName: string;
  currencyCode: string;
  currencySymbol: string;
}

export interface LanguageBlock {
  name: string;
  code: string;
  native: string;
}

/**
 * Sun events as local `HH:mm:ss` in the block's zone. An event that does not happen on that day
 * (no sunrise in polar day or night, no astronomical night in a northern summer) is `null`, never
 * a placeholder string. `transit` (solar noon) always exists; `dayLength` is `24:00:00` in polar
 * day and `00:00:00` in polar night.
 */
export interface SunInfo {
  sunset: string | null;
  sunrise: string | null;
  transit: string;
  civilTwilightBegin: string | null;
  civilTwilightEnd: string | null;
  nauticalTwilightBegin: string | null;
  nauticalTwilightEnd: string | null;
  astronomicalTwilightBegin: string | null;
  astronomicalTwilightEnd: string | null;
  dayLength: string;
}

export interface TimezoneBlock {
  name: string;
  abbreviation: string;
  offset: number;
  currentTime: string;
  currentTimestamp: number;
  isDST: boolean;
  sunInfo: SunInfo;
}

export interface FlagBlock {
  emoji: string;
  unicode: string;
  png: { '1000px': string; '250px': string; '100px': string };
  svg: string;
}

export interface CountryResult {
  countryCode: string;
  countryName: string;
  countryGeoNameID: number | null;
  capital: string | null;
  population: number | null;
  phoneCode: string | null;
  currency?: CurrencyBlock | null;
  language?: LanguageBlock | null;
  timezone?: TimezoneBlock | null;
  flag?: FlagBlock | null;
  countryIsEU: boolean;
  countryNeighbours: string;
  tld: string | null;
  continentName: string;
  continentCode: string;
  continentGeoNameID: number;
}

export const COUNTRY_MODULES = ['language', 'flag', 'currency', 'timezone'] as const;
export type CountryModule = (typeof COUNTRY_MODULES)[number];
