/**
 * The IP result (spec "IP result") of one parsed address: geolocation from GeoLite2 City, the AS
 * from GeoLite2 ASN plus imported metadata and registry contacts, country facts from the country
 * engine, and the security flags from the imported threat lists. Modules absent from `modules` are
 * left out; the `security` block is always computed (rules and the risk score need it) but only
 * shown when asked for.
 */
import type { CountryData, CountryFacts } from '../country/facts.ts';
import { countryFacts } from '../country/lookup-country.ts';
import { flagBlock } from '../country/flag-block.ts';
import type { Lang, TimezoneBlock } from '../country/types.ts';
import { timezoneBlock } from '../time/timezone.ts';
import { isKnownZone } from '../time/zone-clock.ts';
import type { IpAddress } from './address.ts';
import { keepsOneClock, precisionOf } from './precision.ts';
import { ipRisk } from './risk.ts';
import type { AsnContacts, CityRecord, FlagSource, IpSources } from './types.ts';

/** GeoLite2's locale for each of our languages; Arabic has none (see namesIn). */
const MMDB_LOCALE: Readonly<Record<Lang, string | null>> = {
  EN: 'en', AR: null, DE: 'de', FR: 'fr', ES: 'es', JA: 'ja', ZH: 'zh-CN', RU: 'ru',
};

/**
 * A place name in `lang`: GeoLite2 City has no Arabic names, and region and city names are often
 * English only; both fall back to English (country and continent names come from the country
 * engine, which has all eight languages).
 */
function nameIn(names: Record<string, string> | undefined, lang: Lang): string | null {
  if (!names) return null;
  const locale = MMDB_LOCALE[lang];
  return (locale !== null ? names[locale] : undefined) ?? names.en ?? null;
}

export interface SecurityBlock {
  isProxy: boolean;
  proxyType: string | null;
  isTor: boolean;
  isBot: boolean;
  isRelay: boolean;
  isHosting: boolean;
  blacklisted: boolean;
}

/** What the endpoint keeps beside the answer: the full security view and where each flag came from. */
export interface IpLookup {
  result: Record<string, unknown>;
  security: SecurityBlock;
  sources: FlagSource[];
  asn: number | null;
}

export interface IpLookupOptions {
  lang: Lang;
  modules: ReadonlySet<string>;
  now: Date;
  flagBaseUrl: string;
  /** Caller's parsed User-Agent for the device module and UA bot check (/geoip only). */
  device?: { block: unknown; isBot: boolean } | undefined;
  /** Registry contacts to use instead of the cache (test mode: never the network). */
  contacts?: (asn: number) => AsnContacts;
}

/** Coordinates as strings, as the spec types them; GeoLite2 gives up to 4 decimals. */
const coord = (v: number | undefined): string | null => (v === undefined ? null : String(v));

/**
 * The record's zone at `now`, where the record supports one (precision.ts): a city or region
 * record, or a country-level record of a country that keeps one clock. Else null.
 */
function timezoneOf(record: CityRecord | null, facts: CountryFacts | null, now: Date): TimezoneBlock | null {
  const loc = record?.location;
  if (!loc?.time_zone || loc.latitude === undefined || loc.longitude === undefined || !isKnownZone(loc.time_zone)) return null;
  if (precisionOf(record) === 'country' && (facts === null || !keepsOneClock(facts.code, facts.zones, now))) return null;
  return timezoneBlock(loc.time_zone, loc.latitude, loc.longitude, now);
}

/** The domain of an AS's registry email: the AS's `domain` (null without an email). */
export const emailDomain = (email: string | null): string | null => (email === null ? null : (/@([^@\s>]+)$/.exec(email)?.[1]?.toLowerCase() ?? null));

/** What payment scoring reads of an address (engine-signals.ts): its country, coordinates and security flags. */
export interface IpEssentials {
  countryCode: string | null;
  latitude: number | undefined;
  longitude: number | undefined;
  security: SecurityBlock;
}

/**
 * The country, coordinates and security flags `lookupIp` gives an address (without a User-Agent), and nothing else:
 * no names, postal code, AS facts or answer object, which a payment scoring never reads.
 */
export function ipEssentials(addr: IpAddress, sources: IpSources): IpEssentials {
  const bogon = addr.bogon !== null;
  const record = bogon ? null : sources.city(addr.ip);
  const asnRecord = bogon ? null : sources.asnOf(addr.ip);
  const threats = sources.threats(addr.ip, asnRecord?.autonomous_system_number ?? null);
  const crawler = sources.crawler(addr.ip);
  return {
    countryCode: record?.country?.iso_code ?? record?.registered_country?.iso_code ?? null,
    latitude: record?.location?.latitude,
    longitude: record?.location?.longitude,
    security: {
      isProxy: threats.isProxy,
      proxyType: threats.proxyType,
      isTor: threats.isTor,
      isBot: crawler !== null,
      isRelay: threats.isRelay,
      isHosting: threats.isHosting,
      blacklisted: false,
    },
  };
}

export function lookupIp(addr: IpAddress, sources: IpSources, countries: CountryData, opts: IpLookupOptions): IpLookup {
  const { lang, modules } = opts;
  const bogon = addr.bogon !== null;
  const record = bogon ? null : sources.city(addr.ip);
  const asnRecord = bogon ? null : sources.asnOf(addr.ip);
  const asnNumber = asnRecord?.autonomous_system_number ?? null;

  // Anycast and some other networks have no located country; the country the network is registered
  // in is the best answer there is (city and coordinates stay null).
  const countryCode = record?.country?.iso_code ?? record?.registered_country?.iso_code ?? null;
  const facts = countryCode === null ? null : countryFacts(countries, countryCode);
  const continentCode = record?.continent?.code ?? facts?.continent.code ?? null;
  const cityName = nameIn(record?.city?.names, lang);
  const lat = record?.location?.latitude;
  const lon = record?.location?.longitude;
  // The network's own postal code first; else, for a record placed in a city, the city's nearest
  // postal point (25 km). A region or country record's point is the middle of a large area: a postal
  // code found near it would be invented (precision.ts).
  const zip = record?.postal?.code
    ?? (countryCode !== null && lat !== undefined && lon !== undefined && precisionOf(record) === 'city'
      ? sources.zipFor(countryCode, nameIn(record?.city?.names, 'EN'), lat, lon)
      : null);

  const threats = sources.threats(addr.ip, asnNumber);
  const crawler = sources.crawler(addr.ip);
  const flagSources = [...threats.sources];
  if (crawler !== null) flagSources.push({ flag: 'bot', dataset: 'crawler-ranges', version: sources.crawlerVersion, detail: crawler });
  if (opts.device?.isBot === true) flagSources.push({ flag: 'bot', dataset: 'user-agent', version: 'request', detail: 'the request\'s User-Agent names a crawler or automation tool' });
  const security: SecurityBlock = {
    isProxy: threats.isProxy,
    proxyType: threats.proxyType,
    isTor: threats.isTor,
    isBot: crawler !== null || opts.device?.isBot === true,
    isRelay: threats.isRelay,
    isHosting: threats.isHosting,
    blacklisted: false,
  };

  let asnBlock: Record<string, unknown>;
  if (asnNumber === null) {
    asnBlock = { asn: null, name: null, org: null, domain: null, phone: null, email: null, created: null, type: null };
  } else {
    const org = asnRecord?.autonomous_system_organization ?? null;
    const asnFacts = sources.asnFacts(asnNumber, org);
    const contacts = (opts.contacts ?? ((n: number) => sources.asnContacts(n)))(asnNumber);
    asnBlock = {
      asn: `AS${asnNumber}`,
      name: asnFacts.name,
      org: asnFacts.org,
      domain: emailDomain(contacts.email),
      phone: contacts.phone,
      email: contacts.email,
      created: contacts.created,
      type: sources.asnType(asnNumber, asnFacts.org),
    };
  }

  const result: Record<string, unknown> = {
    ip: addr.ip,
    ipType: addr.family === 4 ? 'IPv4' : 'IPv6',
    IPNumber: addr.ipNumber,
    bogon,
    continentName: facts?.continent.names[lang] ?? nameIn(record?.continent?.names, lang),
    continentCode,
    continentGeoNameID: record?.continent?.geoname_id ?? facts?.continent.geonameId ?? null,
    countryCode,
    countryName: facts?.names[lang] ?? nameIn(record?.country?.names, lang),
    countryGeoNameID: record?.country?.geoname_id ?? record?.registered_country?.geoname_id ?? facts?.geonameId ?? null,
    regionName: nameIn(record?.subdivisions?.[0]?.names, lang),
    cityName,
    zipCode: zip,
    latitude: coord(lat),
    longitude: coord(lon),
  };
  if (modules.has('location')) {
    result.location = facts && {
      capital: facts.capital,
      population: facts.population,
      language: facts.language && { name: facts.language.names[lang], code: facts.language.code, native: facts.language.native },
      flag: facts.hasFlag ? flagBlock(facts.code, opts.flagBaseUrl) : null,
      phoneCode: facts.phoneCode,
      countryIsEU: facts.isEU,
      countryNeighbours: facts.neighbours.join(','),
      tld: facts.tld,
      // km around latitude/longitude that holds the address (GeoLite2's location.accuracy_radius); null without a location.
      accuracyRadius: record?.location?.accuracy_radius ?? null,
    };
  }
  if (modules.has('currency')) {
    const c = facts?.currency;
    result.currency = c ? { currencyName: c.names[lang], currencyCode: c.code, currencySymbol: c.symbol } : null;
  }
  result.asn = asnBlock;
  if (modules.has('timezone')) result.timezone = timezoneOf(record, facts, opts.now);
  // Object.assign, not `{ ...security }`: the policy stage adds `custom_rules_applied` to this copy, and on
  // Node 20 a property added to a spread copy gives the object a hidden class of its own (docs/benchmarks.md).
  // riskScore from the flags; the policy stage rewrites it once the account's lists, rules and labels are applied.
  if (modules.has('security')) result.security = Object.assign({}, security, { riskScore: ipRisk(security).risk });
  if (modules.has('device') && opts.device) result.device = opts.device.block;
  return { result, security, sources: flagSources, asn: asnNumber };
}
