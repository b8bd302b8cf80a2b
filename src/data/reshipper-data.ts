import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import { buildReshipperIndex, type ReshipperIndex } from '../intel/address/reshipper.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';
import { parseReshipperCsv, RESHIPPERS, toEntries } from './import/reshippers.ts';

/** The list shipped in the repository (see its header comment and docs/reshippers.md). */
export const BUNDLED_RESHIPPERS_FILE = fileURLToPath(new URL('./reshippers.csv', import.meta.url));

/** What payment scoring needs: the current matcher and the dataset that built it. */
export interface ReshipperData {
  /** The imported list's matcher once `vigil data import` ran, else the bundled list's. */
  readonly index: ReshipperIndex;
  /** One entry: the bundled list, or the imported version that replaced it. */
  readonly datasets: readonly DatasetInfo[];
  /** Reloads the imported list now if its manifest changed; true when it did. */
  refresh(): boolean;
  /** Stops watching for new imports. */
  close(): void;
}

/** The bundled list, parsed once; a broken bundled file is a build error, so it throws. */
export function loadBundledReshippers(file: string = BUNDLED_RESHIPPERS_FILE): { index: ReshipperIndex; info: DatasetInfo } {
  const parsed = parseReshipperCsv(readFileSync(file, 'utf8'), file);
  if (parsed.rejected > 0) throw new Error(`${file}: ${parsed.rejected} invalid rows (${parsed.samples.join('; ')})`);
  return {
    index: buildReshipperIndex(toEntries(parsed.rows)),
    info: {
      name: RESHIPPERS,
      version: `bundled-${parsed.version ?? 'unknown'}`,
      source: `Vigil's curated list (src/data/reshippers.csv, ${parsed.rows.length} entries from the forwarders' own public pages and official notices)`,
      license: 'MIT (compilation); the addresses are public facts',
    },
  };
}

/**
 * The reshipper matcher for the engines: the bundled list until an operator imports one
 * (`vigil data import DIR` with DIR/reshippers/*.csv, or `vigil data update reshippers --from`),
 * then the imported version, re-read within `reloadMs` of a new import or rollback.
 */
export function loadReshipperData(config?: Pick<Config, 'dataDir'>, opts: { reloadMs?: number; onReloadError?: (err: unknown) => void; bundledFile?: string } = {}): ReshipperData {
  const bundled = loadBundledReshippers(opts.bundledFile);
  const dataset = new ImportedDataset<ReshipperIndex>(
    RESHIPPERS,
    config?.dataDir ?? null,
    (content) => buildReshipperIndex(toEntries(parseReshipperCsv(content).rows)),
    bundled.index,
    opts.onReloadError,
  );
  dataset.refresh();
  const stop = config ? watchDatasets([dataset], opts.reloadMs ?? 5000) : () => undefined;
  return {
    get index() {
      return dataset.value;
    },
    get datasets() {
      // Until the first import the ImportedDataset reports version 'none': the bundled list is what answers.
      return [dataset.info.version === 'none' ? bundled.info : dataset.info];
    },
    refresh: () => dataset.refresh(),
    close: stop,
  };
}
