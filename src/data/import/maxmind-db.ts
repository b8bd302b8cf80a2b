import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Reader } from 'maxmind';
import { openMmdb, type MmdbReaderOptions } from '../mmdb-networks.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';

export const GEOLITE2_CITY = 'geolite2-city';
export const GEOLITE2_ASN = 'geolite2-asn';
/** The stored file of either dataset. */
export const MMDB_FILE = 'db.mmdb';

/** The database type each dataset must hold (metadata `database_type` starts with it). */
const EXPECTED_TYPE: Readonly<Record<string, RegExp>> = {
  [GEOLITE2_CITY]: /City/i,
  [GEOLITE2_ASN]: /ASN/i,
};

/** Opens a MaxMind DB buffer, or throws a DatasetError naming `label` and saying why it is not one. */
export function openDatasetMmdb<T extends object>(content: Buffer, label: string, opts: MmdbReaderOptions = {}): Reader<T> {
  try {
    return openMmdb<T>(content, opts);
  } catch (err) {
    throw new DatasetError(`${label}: not a MaxMind DB file (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * Imports DIR/<name>/*.mmdb (or *.mmdb.gz) as a new version of a MaxMind database: GeoLite2 City or
 * ASN, or a commercial GeoIP2 database of the same type. The file is opened and its type checked
 * before it is stored, so a wrong or truncated file never becomes current.
 */
export function importMaxmindDb(name: string, dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const expected = EXPECTED_TYPE[name];
  if (expected === undefined) throw new DatasetError(`${name} is not a MaxMind dataset`);
  const src = resolve(dir, name);
  const files = existsSync(src) ? readdirSync(src).filter((f) => /\.mmdb(\.gz)?$/i.test(f)).sort() : [];
  if (files.length !== 1) throw new DatasetError(`${src} must hold exactly one .mmdb or .mmdb.gz file (found ${files.length})`);
  const file = files[0]!;
  const raw = readFileSync(join(src, file));
  let content: Buffer;
  try {
    content = file.toLowerCase().endsWith('.gz') ? gunzipSync(raw) : raw;
  } catch (err) {
    throw new DatasetError(`${file}: not gzip (${err instanceof Error ? err.message : String(err)})`);
  }
  const reader = openDatasetMmdb<Record<string, unknown>>(content, file);
  const type = reader.metadata.databaseType;
  if (!expected.test(type)) throw new DatasetError(`${file} is a ${type} database; ${name} needs a ${expected.source} database`);
  const manifest = writeDatasetVersion(dataDir, name, {
    file: MMDB_FILE,
    content,
    source: `${join(src, file)} (${type}, built ${reader.metadata.buildEpoch.toISOString().slice(0, 10)})`,
    license: 'as supplied by the operator (GeoLite2: CC BY-SA 4.0, MaxMind GeoLite2 EULA)',
    count: reader.metadata.nodeCount,
    builtAt: reader.metadata.buildEpoch.toISOString(),
  }, now);
  return { manifest, files: [file], rejected: 0, samples: [] };
}
