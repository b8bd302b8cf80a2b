import { collectGarbage } from './collect-garbage.ts';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DOMAIN_LIST_DATASETS, importDomainList, type ImportReport } from './dangerous-domains.ts';
import { DatasetError, readManifest, rollbackDataset, type DatasetManifest } from './dataset-store.ts';
import { DISPOSABLE_PHONES, importDisposablePhones } from './disposable-phones.ts';
import { IBAN_REGISTRY, importIbanRegistry } from './iban-registry.ts';
import { importSwiftBic, SWIFT_BIC } from './swift-bic.ts';
import { BIN_LIST, BIN_LIST_DIRS, importBinList } from './bin-list.ts';
import {
  CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, importIcloudRelay, importIpcat, importJhassine, importTorExitNodes, importX4bnet,
  TOR_EXIT_NODES, VPN_DATACENTER_X4BNET,
} from './ip-lists.ts';
import { ASN_BGPTOOLS, ASN_NAMES_ASN2ORG, importAsn2org, importBgpTools } from './asn-lists.ts';
import { GEOLITE2_ASN, GEOLITE2_CITY, importMaxmindDb } from './maxmind-db.ts';
import { GEONAMES_POSTAL, importGeonamesPostal, importGeonamesPostalStreaming } from './geonames-postal.ts';
import { importReshippers, RESHIPPERS } from './reshippers.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';

export { DatasetError } from './dataset-store.ts';
export type { ImportReport } from './dangerous-domains.ts';

/** Every importable dataset by the sub-directory of DIR it reads; later datasets add theirs here. */
export const IMPORTERS: Readonly<Record<string, (dataDir: string, dir: string, now?: Date, progress?: Progress) => ImportReport>> = {
  ...Object.fromEntries(
    DOMAIN_LIST_DATASETS.map((name) => [name, (dataDir: string, dir: string, now?: Date) => importDomainList(name, dataDir, dir, now)]),
  ),
  [DISPOSABLE_PHONES]: importDisposablePhones,
  [IBAN_REGISTRY]: importIbanRegistry,
  [SWIFT_BIC]: importSwiftBic,
  [BIN_LIST]: importBinList,
  [TOR_EXIT_NODES]: importTorExitNodes,
  [VPN_DATACENTER_X4BNET]: importX4bnet,
  [CLOUD_RANGES_JHASSINE]: importJhassine,
  [DATACENTER_IPCAT]: importIpcat,
  [ICLOUD_PRIVATE_RELAY]: importIcloudRelay,
  [ASN_BGPTOOLS]: importBgpTools,
  [ASN_NAMES_ASN2ORG]: importAsn2org,
  [GEONAMES_POSTAL]: importGeonamesPostal,
  [RESHIPPERS]: importReshippers,
  [GEOLITE2_CITY]: (dataDir: string, dir: string, now?: Date) => importMaxmindDb(GEOLITE2_CITY, dataDir, dir, now),
  [GEOLITE2_ASN]: (dataDir: string, dir: string, now?: Date) => importMaxmindDb(GEOLITE2_ASN, dataDir, dir, now),
};

/** Datasets whose importer also reads a sub-directory of another name (the shared data's own). */
const SOURCE_DIRS: Readonly<Record<string, readonly string[]>> = { [BIN_LIST]: BIN_LIST_DIRS };

export const DATASET_NAMES: readonly string[] = Object.keys(IMPORTERS);

/** The datasets DIR holds (DIR/<name>/...), in IMPORTERS' order. */
function presentDatasets(dir: string): { root: string; present: string[] } {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new DatasetError(`${root} is not a directory`);
  const present = DATASET_NAMES.filter((name) => (SOURCE_DIRS[name] ?? [name]).some((d) => existsSync(join(root, d))));
  if (present.length === 0) {
    throw new DatasetError(`${root} holds none of the dataset directories Vigil imports (${DATASET_NAMES.join(', ')})`);
  }
  return { root, present };
}

/**
 * `vigil data import DIR`: imports each dataset whose sub-directory DIR holds (DIR/<name>/...),
 * each as a new version that running servers pick up without restart.
 */
export function importDirectory(dataDir: string, dir: string, now: Date = new Date(), progress: Progress = NO_PROGRESS): ImportReport[] {
  const { root, present } = presentDatasets(dir);
  return present.map((name, i) => announced(name, i, present.length, progress, () => {
    const importer = IMPORTERS[name];
    if (importer === undefined) throw new DatasetError(`no importer for ${name}`);
    return importer(dataDir, root, now, progress);
  }));
}

/** Importers that read their files as streams, for the CLI (the synchronous ones hold a whole file). */
const STREAMING_IMPORTERS: Readonly<Record<string, (dataDir: string, dir: string, now: Date, progress: Progress) => Promise<ImportReport>>> = {
  [GEONAMES_POSTAL]: importGeonamesPostalStreaming,
};

/** importDirectory for the CLI: the same imports, the large ones streamed, so memory stays near the largest dataset's working set. */
export async function importDirectoryStreaming(dataDir: string, dir: string, now: Date = new Date(), progress: Progress = NO_PROGRESS): Promise<ImportReport[]> {
  const { root, present } = presentDatasets(dir);
  const reports: ImportReport[] = [];
  for (const [i, name] of present.entries()) {
    const streaming = STREAMING_IMPORTERS[name];
    const started = Date.now();
    progress(`importing ${name} (${i + 1} of ${present.length})`);
    const report = streaming ? await streaming(dataDir, root, now, progress) : importDirectoryOne(dataDir, root, name, now, progress);
    progress(`${name} ${report.manifest.version}: ${report.manifest.count} records in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    reports.push(report);
    // What one dataset parsed is garbage now: collected before the next one, so V8 does not size the heap for
    // the next import on top of this one's leftovers (the whole folder peaked at 350-460 MB without it).
    collectGarbage();
  }
  return reports;
}

function importDirectoryOne(dataDir: string, root: string, name: string, now: Date, progress: Progress): ImportReport {
  const importer = IMPORTERS[name];
  if (importer === undefined) throw new DatasetError(`no importer for ${name}`);
  return importer(dataDir, root, now, progress);
}

function announced(name: string, i: number, n: number, progress: Progress, run: () => ImportReport): ImportReport {
  progress(`importing ${name} (${i + 1} of ${n})`);
  const started = Date.now();
  const report = run();
  progress(`${name} ${report.manifest.version}: ${report.manifest.count} records in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return report;
}

/** A current manifest with how old its data is: whole days since `builtAt` (the publisher's build date, where known) or else `importedAt`. */
export type DatasetStatus = DatasetManifest & { ageDays: number };

/**
 * Each dataset's current manifest (`count` records, `ageDays` old), or null when never imported
 * (`vigil data status`). The age counts from the build date where the data carries one (MaxMind
 * databases), else from the import: a list can be older than its import (binlist/data's files
 * date from 2016-2017), which SOURCE.md and the manifest's source say.
 */
export function datasetStatus(dataDir: string, now: Date = new Date()): Record<string, DatasetStatus | null> {
  return Object.fromEntries(DATASET_NAMES.map((name) => {
    const m = readManifest(dataDir, name);
    return [name, m && { ...m, builtAt: m.builtAt ?? null, ageDays: Math.max(0, Math.floor((now.getTime() - Date.parse(m.builtAt ?? m.importedAt)) / 86_400_000)) }];
  }));
}

export function rollback(dataDir: string, name: string): DatasetManifest {
  if (!DATASET_NAMES.includes(name)) throw new DatasetError(`unknown dataset "${name}" (known: ${DATASET_NAMES.join(', ')})`);
  return rollbackDataset(dataDir, name);
}
