/**
 * The IP engine's view of its data sources. Each is a narrow interface so the engine does not care
 * whether a source is bundled, imported, or (in tests) built from a fixture.
 */
import type { DatasetInfo } from '../country/facts.ts';
import type { CityRecord, AsnRecord } from '../../data/geoip-data.ts';

export type { CityRecord, AsnRecord };

export type SecurityFlag = 'tor' | 'vpn' | 'hosting' | 'relay' | 'bot' | 'blacklist';

/** Where one security flag came from: the dataset (and its version) or the request's User-Agent. */
export interface FlagSource {
  flag: SecurityFlag;
  dataset: string;
  version: string;
  detail?: string;
}

export interface ThreatFlags {
  isTor: boolean;
  isProxy: boolean;
  proxyType: string | null;
  isHosting: boolean;
  isRelay: boolean;
  sources: FlagSource[];
}

export type { AsnType } from '../../data/ip-threat-data.ts';
import type { AsnType } from '../../data/ip-threat-data.ts';
import type { AsnContacts } from '../../net/rdap-asn.ts';
export type { AsnContacts };
import { NO_CONTACTS } from '../../net/rdap-asn.ts';
export { NO_CONTACTS };

/** The `contacts` of a lookup that never waits for a registry (threat flags, test mode, payment scoring). */
export function noContacts(): AsnContacts {
  return NO_CONTACTS;
}

export interface AsnFacts {
  asn: number;
  /** Short network name (bgp.tools), else the registry organisation. */
  name: string | null;
  org: string | null;
  country: string | null;
}


export interface IpSources {
  city(ip: string): CityRecord | null;
  asnOf(ip: string): AsnRecord | null;
  threats(ip: string, asn: number | null): ThreatFlags;
  asnFacts(asn: number, geoOrg: string | null): AsnFacts;
  asnType(asn: number, org: string | null): AsnType;
  /** Cached registry contacts; a miss starts a background lookup and gives null fields now. */
  asnContacts(asn: number): AsnContacts;
  /** Name of the known crawler whose published range holds the address, else null. */
  crawler(ip: string): string | null;
  /** Version of the crawler ranges `crawler` answers from (their publication date). */
  readonly crawlerVersion: string;
  zipFor(countryCode: string, cityName: string | null, lat: number, lon: number): string | null;
  readonly datasets: readonly DatasetInfo[];
}

export const IP_MODULES = ['security', 'currency', 'timezone', 'location'] as const;
export const GEOIP_MODULES = [...IP_MODULES, 'device'] as const;
export type IpModule = (typeof GEOIP_MODULES)[number];

/** What GET /lookup/asn needs beyond the per-address sources. */
export interface AsnDirectory {
  /** Every network GeoLite2 ASN maps to the AS (its announced prefixes). */
  prefixes(asn: number): { ipv4: readonly string[]; ipv6: readonly string[] };
  /** Registry contacts, waiting at most `budgetMs` (the lookup goes on and fills the cache). */
  contactsWithin(asn: number, budgetMs: number): Promise<AsnContacts>;
  /** The regional registry responsible for the number (IANA's RDAP bootstrap), or null. */
  registryOf(asn: number): string | null;
}
