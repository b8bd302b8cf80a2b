import type { Config } from '../config.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import type { BinIndex, BinRecord } from '../intel/bin/types.ts';
import { BIN_LIST, parseBinTsv } from './import/bin-list.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';

/**
 * Longest-prefix index over BIN records: per prefix length, a hash map of single prefixes and a
 * sorted array of ranges searched by bisection. A lookup tries the longest length first, so an
 * 8-digit BIN beats the 6-digit one it sits in.
 */
export function buildBinIndex(records: readonly BinRecord[]): BinIndex {
  const exact = new Map<number, Map<string, BinRecord>>();
  const ranges = new Map<number, BinRecord[]>();
  for (const r of records) {
    const len = r.start.length;
    if (r.start === r.end) {
      let m = exact.get(len);
      if (!m) exact.set(len, (m = new Map<string, BinRecord>()));
      if (!m.has(r.start)) m.set(r.start, r);
    } else {
      let a = ranges.get(len);
      if (!a) ranges.set(len, (a = []));
      a.push(r);
    }
  }
  for (const a of ranges.values()) a.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
  const lengths = [...new Set([...exact.keys(), ...ranges.keys()])].sort((a, b) => b - a);
  return {
    size: records.length,
    find(leading: string): BinRecord | null {
      for (const len of lengths) {
        if (leading.length < len) continue;
        const key = leading.slice(0, len);
        const hit = exact.get(len)?.get(key);
        if (hit) return hit;
        const a = ranges.get(len);
        if (!a) continue;
        // Last range starting at or before key.
        let lo = 0;
        let hi = a.length - 1;
        let found = -1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          if ((a[mid] as BinRecord).start <= key) {
            found = mid;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        const r = found >= 0 ? a[found] : undefined;
        if (r && r.end >= key) return r;
      }
      return null;
    },
  };
}

export interface BinData {
  readonly index: BinIndex;
  readonly datasets: readonly DatasetInfo[];
  refresh(): boolean;
  close(): void;
}

const EMPTY = buildBinIndex([]);

/** The imported `bin-list` dataset (empty until `vigil data import`), re-read when a new version appears. */
export function loadBinData(config?: Pick<Config, 'dataDir'>, opts: { reloadMs?: number; onReloadError?: (err: unknown) => void } = {}): BinData {
  const dataset = new ImportedDataset<BinIndex>(BIN_LIST, config?.dataDir ?? null, (content) => buildBinIndex(parseBinTsv(content)), EMPTY, opts.onReloadError);
  dataset.refresh();
  const stop = config ? watchDatasets([dataset], opts.reloadMs ?? 5000) : () => undefined;
  return {
    get index() {
      return dataset.value;
    },
    get datasets() {
      return [dataset.info];
    },
    refresh: () => dataset.refresh(),
    close: stop,
  };
}
