import type { Config } from '../config.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { loadCrawlerRanges } from '../intel/ip/crawlers.ts';
import type { AsnDirectory, IpSources } from '../intel/ip/types.ts';
import { AsnRegistry, NO_CONTACTS } from '../net/rdap-asn.ts';
import { loadGeoIpData, type GeoIpData } from './geoip-data.ts';
import { IP_INFRASTRUCTURE_DATASETS } from './ip-infrastructure.ts';
import { loadIpThreatData, type IpThreatData } from './ip-threat-data.ts';
import { buildAsnPrefixIndex, type AsnPrefixIndex } from './mmdb-networks.ts';
import { loadPostalData, type PostalData } from './postal-data.ts';

/** Everything the IP methods read: GeoLite2, the imported threat, ASN and postal lists, crawler ranges, RDAP. */
export interface IpData {
  readonly sources: IpSources;
  readonly asns: AsnDirectory;
  readonly geo: GeoIpData;
  readonly threats: IpThreatData;
  readonly postal: PostalData;
  readonly registry: AsnRegistry;
  /** NETWORK_BUDGET_MS: longest /lookup/asn waits for the registry. */
  readonly budgetMs: number;
  readonly datasets: readonly DatasetInfo[];
  /** Builds the ASN prefix index now rather than on the first /lookup/asn call. */
  warm(): void;
  close(): void;
}

export type IpDataConfig = Pick<Config, 'dataDir' | 'network' | 'networkTimeoutMs' | 'networkBudgetMs' | 'rdapAsnBootstrapFile' | 'crawlerRangesFile'>;

/**
 * Loads the IP data. With the configuration: imported datasets from DATA_DIR (re-read within
 * `reloadMs` of an import) and registry lookups as NETWORK says; without it (shared test data):
 * the bundled GeoLite2 databases only, nothing imported, no network.
 */
export function loadIpData(config?: IpDataConfig, opts: { reloadMs?: number } = {}): IpData {
  const dataDir = config?.dataDir ?? null;
  const reloadMs = opts.reloadMs ?? 5000;
  const geo = loadGeoIpData({ dataDir, reloadMs });
  const threats = loadIpThreatData({ dataDir, reloadMs });
  const postal = loadPostalData({ dataDir, reloadMs });
  const crawlers = loadCrawlerRanges(config?.crawlerRangesFile);
  const registry = new AsnRegistry({
    network: config?.network ?? false,
    // An RDAP answer is one HTTP request; it gets the same allowance as the domain checks' RDAP.
    timeoutMs: (config?.networkTimeoutMs ?? 2000) * 4,
    ...(config?.rdapAsnBootstrapFile !== undefined && { bootstrapFile: config.rdapAsnBootstrapFile }),
  });

  // GeoLite2 ASN is walked once per database version (about a second); until the first
  // /lookup/asn call or warm(), nothing is spent on it.
  let prefixIndex: { generation: number; index: AsnPrefixIndex } | null = null;
  const prefixes = (): AsnPrefixIndex => {
    const generation = geo.asn.generation;
    if (prefixIndex?.generation !== generation) prefixIndex = { generation, index: buildAsnPrefixIndex(geo.asn.buffer) };
    return prefixIndex.index;
  };

  const sources: IpSources = {
    city: (ip) => geo.city.get(ip),
    asnOf: (ip) => geo.asn.get(ip),
    threats: (ip, asn) => threats.match(ip, asn),
    asnFacts(asn, geoOrg) {
      const meta = threats.asn(asn);
      return { asn, name: meta?.name ?? geoOrg, org: meta?.org ?? geoOrg, country: meta?.country ?? null };
    },
    asnType: (asn, org) => threats.asnType(asn, org),
    // A miss starts the background lookup; this answer gives nulls and never waits.
    asnContacts: (asn) => registry.peek(asn) ?? NO_CONTACTS,
    crawler: (ip) => crawlers.match(ip),
    crawlerVersion: crawlers.info.version,
    zipFor: (cc, city, lat, lon) => postal.zipFor(cc, city, lat, lon),
    get datasets() {
      return [...geo.datasets, ...threats.datasets, ...IP_INFRASTRUCTURE_DATASETS, postal.info, crawlers.info];
    },
  };
  const asns: AsnDirectory = {
    prefixes: (asn) => prefixes().prefixes(asn),
    contactsWithin: (asn, budgetMs) => registry.lookupWithin(asn, budgetMs),
    registryOf: (asn) => registry.registryOf(asn),
  };
  return {
    sources,
    asns,
    geo,
    threats,
    postal,
    registry,
    budgetMs: config?.networkBudgetMs ?? 300,
    get datasets() {
      return sources.datasets;
    },
    warm: () => void prefixes(),
    close() {
      geo.close();
      threats.close();
      postal.close();
    },
  };
}
