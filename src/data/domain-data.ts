import type { Config } from '../config.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { DnsDomainNetwork } from '../intel/domain/network.ts';
import type { DomainNetwork } from '../intel/domain/types.ts';
import type { DnsCanary } from '../net/dns-canary.ts';
import { DEFAULT_RDAP_BOOTSTRAP_FILE } from '../net/rdap.ts';
import { loadDomainLists, type LoadedDomainLists } from './domain-lists.ts';

/** What the domain checks need at run time: the lists, the network client and its budget. */
export interface DomainData {
  readonly lists: LoadedDomainLists;
  readonly network: DomainNetwork;
  /** The resolver's canary (net/dns-canary.ts); null with the network off or DNS_CANARY_NAME=off. */
  readonly canary: DnsCanary | null;
  /** Longest an answer waits for DNS/RDAP (NETWORK_BUDGET_MS). */
  readonly budgetMs: number;
  /** The lists' datasets (the dangerous-domains version changes on import) and the RDAP bootstrap. */
  readonly datasets: readonly DatasetInfo[];
}

/** The network part of the configuration, as DnsDomainNetwork takes it. */
export type DomainNetworkConfig = Pick<Config, 'network' | 'dnsServers' | 'networkBudgetMs' | 'networkTimeoutMs' | 'rdapBootstrapFile'> & Partial<Pick<Config, 'dnsCanaryName'>>;

/** Without a configuration (shared test data): network off, no imported datasets. */
export function loadDomainData(config?: DomainNetworkConfig & Pick<Config, 'dataDir'>, overrides: { reloadMs?: number } = {}): DomainData {
  const lists = loadDomainLists({ dataDir: config?.dataDir ?? null, ...overrides });
  const network = new DnsDomainNetwork({
    network: config?.network ?? false,
    servers: config?.dnsServers ?? [],
    budgetMs: config?.networkBudgetMs ?? 300,
    timeoutMs: config?.networkTimeoutMs ?? 2000,
    rdapBootstrap: config?.rdapBootstrapFile,
    canaryName: config?.dnsCanaryName ?? null,
  });
  const rdap: DatasetInfo = {
    name: 'rdap-bootstrap',
    version: network.rdapBootstrap?.publication ?? 'unused (NETWORK=off)',
    source: config?.rdapBootstrapFile ?? `IANA RDAP bootstrap, curated copy (${DEFAULT_RDAP_BOOTSTRAP_FILE.replace(/^.*\/src\//, 'src/')})`,
    license: 'IANA registry data',
  };
  return {
    lists,
    network,
    canary: network.canary,
    budgetMs: network.budgetMs,
    get datasets(): readonly DatasetInfo[] {
      return [...lists.datasets, rdap];
    },
  };
}
