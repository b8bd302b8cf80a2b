import { createRequire } from 'node:module';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { normaliseDomain } from '../intel/domain/name.ts';
import type { DomainListFacts, DomainLists } from '../intel/domain/types.ts';
import { DISPOSABLE_SUPPLEMENT, DISPOSABLE_SUPPLEMENT_VERSION } from './disposable-supplement.ts';
import { FORWARDING_DOMAINS, FORWARDING_LIST_VERSION } from './forwarding-domains.ts';
import { DANGEROUS_DOMAINS, DISPOSABLE_DOMAINS } from './import/dangerous-domains.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';

const requireCjs = createRequire(import.meta.url);

export interface DomainListsOptions {
  /** DATA_DIR, where `vigil data import` writes; null: no imported datasets (dangerous stays empty). */
  dataDir: string | null;
  /** How often the imported lists' manifests are checked for a new version (ms; 0: never). */
  reloadMs?: number;
  /** Told when an imported version cannot be read (the previous set stays in use). */
  onReloadError?: (err: unknown) => void;
}

/** Vigil's domain lists, with the imported sets (dangerous, disposable updates) swapped in when a new version appears. */
export interface LoadedDomainLists extends DomainLists {
  readonly datasets: DatasetInfo[];
  /** Number of domains per list. */
  readonly sizes: { disposable: number; forwarding: number; dangerous: number };
  /** Reloads the imported sets now if a manifest changed; true when one did. */
  refresh(): boolean;
  /** Stops watching for new imports. */
  close(): void;
}

function packageVersion(name: string): string {
  const pkg = requireCjs(`${name}/package.json`) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** The domain and each parent above the top-level label: a.b.example.com -> a.b.example.com, b.example.com, example.com. */
function* selfAndParents(domain: string): Generator<string> {
  let d = domain;
  for (;;) {
    yield d;
    const dot = d.indexOf('.');
    if (dot < 0 || d.indexOf('.', dot + 1) < 0) return;
    d = d.slice(dot + 1);
  }
}

function listed(set: ReadonlySet<string>, domain: string): boolean {
  for (const d of selfAndParents(domain)) if (set.has(d)) return true;
  return false;
}

/** One bundled source of disposable domains (an npm package's list, or Vigil's supplement). */
export interface DisposableSource extends DatasetInfo {
  /** Its entries (as shipped: normalised when the union is built). */
  readonly entries: () => Iterable<unknown>;
}

/**
 * The bundled disposable lists, unioned at start: neither package is a superset of the other
 * (each holds tens of thousands of domains the other lacks), and services missing from both are
 * in Vigil's supplement.
 */
export function disposableSources(): DisposableSource[] {
  return [
    {
      name: 'disposable-email-domains', version: packageVersion('disposable-email-domains'), source: 'npm disposable-email-domains (index.json)', license: 'MIT',
      entries: () => requireCjs('disposable-email-domains') as unknown[],
    },
    {
      name: 'disposable-email-domains-wildcard', version: packageVersion('disposable-email-domains'), source: 'npm disposable-email-domains (wildcard.json: every subdomain too)', license: 'MIT',
      entries: () => requireCjs('disposable-email-domains/wildcard.json') as unknown[],
    },
    {
      name: 'mailchecker', version: packageVersion('mailchecker'), source: 'npm mailchecker', license: 'MIT',
      entries: () => (requireCjs('mailchecker') as { blacklist(): Set<unknown> }).blacklist(),
    },
    {
      name: 'disposable-supplement', version: DISPOSABLE_SUPPLEMENT_VERSION, source: 'Vigil curated list (src/data/disposable-supplement.ts)', license: 'MIT',
      entries: () => DISPOSABLE_SUPPLEMENT.map((e) => e.domain),
    },
  ];
}

/** What `vigil data status` says of the bundled disposable sources: version and entry count of each. */
export function bundledDisposableStatus(): Array<DatasetInfo & { count: number }> {
  return disposableSources().map(({ name, version, source, license, entries }) => {
    let count = 0;
    for (const e of entries()) if (typeof e === 'string') count++;
    return { name, version, source, license, count };
  });
}

function loadDisposable(sources: readonly DisposableSource[], forwarding: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const add = (d: unknown): void => {
    if (typeof d !== 'string') return;
    // Lookups are normalised, so an entry that is not a valid name can never match: only names
    // that need it go through full normalisation (IDN), which keeps start-up fast (~150,000 entries).
    const plain = d.trim().toLowerCase();
    const n = /^[a-z0-9.-]+$/.test(plain) ? plain : normaliseDomain(plain);
    if (n !== null && !forwarding.has(n)) out.add(n);
  };
  for (const source of sources) for (const d of source.entries()) add(d);
  return out;
}

const domainSet = (content: string): ReadonlySet<string> => new Set(content.split('\n').filter((l) => l !== ''));

/**
 * Disposable (the union of npm `disposable-email-domains` and `mailchecker`, both MIT, Vigil's
 * supplement, and imported `disposable-domains` updates), forwarding (Vigil's curated list, which wins over the disposable
 * lists) and dangerous (imported `dangerous-domains`; empty until then). A subdomain of a listed
 * domain is listed. Imports are picked up by a running server within `reloadMs`.
 */
export function loadDomainLists(opts: DomainListsOptions): LoadedDomainLists {
  const forwarding = new Set(FORWARDING_DOMAINS);
  const sources = disposableSources();
  const disposable = loadDisposable(sources, forwarding);
  const empty: ReadonlySet<string> = new Set();
  const dangerous = new ImportedDataset(DANGEROUS_DOMAINS, opts.dataDir, domainSet, empty, opts.onReloadError);
  const disposableUpdates = new ImportedDataset(DISPOSABLE_DOMAINS, opts.dataDir, domainSet, empty, opts.onReloadError);
  const refresh = (): boolean => {
    const a = dangerous.refresh();
    const b = disposableUpdates.refresh();
    return a || b;
  };
  refresh();
  const stop = opts.dataDir === null ? () => undefined : watchDatasets([dangerous, disposableUpdates], opts.reloadMs ?? 5000);

  const staticInfo: DatasetInfo[] = [
    ...sources.filter((s) => s.name !== 'disposable-email-domains-wildcard').map(({ name, version, source, license }) => ({ name, version, source, license })),
    { name: 'forwarding-domains', version: FORWARDING_LIST_VERSION, source: 'Vigil curated list (src/data/forwarding-domains.ts)', license: 'MIT' },
  ];

  return {
    lists(domain: string): DomainListFacts {
      const name = normaliseDomain(domain) ?? domain.trim().toLowerCase();
      const isForwarding = listed(forwarding, name);
      return {
        is_dangerous: listed(dangerous.value, name),
        is_disposable: !isForwarding && (listed(disposable, name) || listed(disposableUpdates.value, name)),
        is_forwarding: isForwarding,
      };
    },
    get datasets(): DatasetInfo[] {
      return [...staticInfo, disposableUpdates.info, dangerous.info];
    },
    get sizes() {
      return { disposable: disposable.size + disposableUpdates.value.size, forwarding: forwarding.size, dangerous: dangerous.value.size };
    },
    refresh,
    close: stop,
  };
}
