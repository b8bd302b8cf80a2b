import type { Lang } from './types.ts';

/** One string per supported `lang`. */
export type LocalizedNames = Readonly<Record<Lang, string>>;

export const CONTINENT_CODES = ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'] as const;
export type ContinentCode = (typeof CONTINENT_CODES)[number];

export interface ContinentFacts {
  readonly code: ContinentCode;
  readonly geonameId: number;
  readonly names: LocalizedNames;
}

/** Where a country's sun times are computed and which zone its clock shows. */
export interface ReferencePlace {
  /** Representative IANA zone: the capital's zone (see reference-places.ts). */
  readonly zone: string;
  readonly latitude: number;
  readonly longitude: number;
  /** `capital`: coordinates of the capital; `country`: GeoNames' point for the country. */
  readonly point: 'capital' | 'country';
}

/**
 * Static facts about one country, joined once at start from the npm data packages. Shared by
 * every engine that names a country (country, IP, BIN, IBAN); deeply frozen.
 */
export interface CountryFacts {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly code: string;
  readonly alpha3: string | null;
  readonly numeric: string | null;
  readonly names: LocalizedNames;
  readonly geonameId: number | null;
  /** English name of the capital; null where there is none (AQ, BV, HM, UM, MO). */
  readonly capital: string | null;
  readonly population: number | null;
  /** First international dialing code, digits only ("49", "1268"). */
  readonly phoneCode: string | null;
  readonly currency: {
    readonly code: string;
    readonly symbol: string;
    readonly names: LocalizedNames;
  } | null;
  /** The first language the data lists for the country. */
  readonly language: {
    /** ISO 639-1. */
    readonly code: string;
    readonly native: string;
    readonly names: LocalizedNames;
  } | null;
  readonly isEU: boolean;
  /** Alpha-2 codes of land neighbours, sorted. */
  readonly neighbours: readonly string[];
  /** Country-code TLD with its dot (".de"); null where none is delegated or in use. */
  readonly tld: string | null;
  readonly continent: ContinentFacts;
  readonly place: ReferencePlace | null;
  /** Every zone GeoNames lists for the country, as listed (may include backward-compatible links). */
  readonly zones: readonly string[];
  /** True when svg-country-flags ships the SVG and all three PNG sizes. */
  readonly hasFlag: boolean;
}

/** Name, version and origin of one dataset, so answers can cite what they were built from. */
export interface DatasetInfo {
  readonly name: string;
  readonly version: string;
  readonly source: string;
  readonly license: string;
}

/** The country table plus the datasets it was built from. */
export interface CountryData {
  /** Keyed by upper-case alpha-2 code. */
  readonly byCode: ReadonlyMap<string, CountryFacts>;
  readonly datasets: readonly DatasetInfo[];
}
