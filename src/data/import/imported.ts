import { statSync } from 'node:fs';
import type { DatasetInfo } from '../../intel/country/facts.ts';
import { manifestPath, readCurrent } from './dataset-store.ts';
import { announceDatasetLoaded } from './loaded-events.ts';

/**
 * The current version of one imported dataset, parsed, re-read when its manifest changes (a new
 * `vigil data import` or a rollback), so running servers pick up new data without a restart.
 * Until the first import `value` is `empty` and the dataset's version is `none`.
 */
export class ImportedDataset<T> {
  #value: T;
  #info: DatasetInfo;
  #seen = '';
  /** Whether refresh ran before: the first run is the load at start, a later load is news (logged by the server). */
  #refreshed = false;

  constructor(
    private readonly name: string,
    private readonly dataDir: string | null,
    private readonly parse: (content: string) => T,
    empty: T,
    private readonly onError?: (err: unknown) => void,
  ) {
    this.#value = empty;
    this.#info = { name, version: 'none', source: 'not imported yet (vigil data import DIR)', license: 'n/a' };
  }

  get value(): T {
    return this.#value;
  }

  get info(): DatasetInfo {
    return this.#info;
  }

  /** Re-reads the dataset if its manifest changed; true when a new version was loaded. */
  refresh(): boolean {
    if (this.dataDir === null) return false;
    const initial = !this.#refreshed;
    this.#refreshed = true;
    const stamp = manifestStamp(this.dataDir, this.name);
    if (stamp === this.#seen) return false;
    try {
      const current = readCurrent(this.dataDir, this.name);
      this.#seen = stamp;
      if (current === null) return false;
      this.#value = this.parse(current.content);
      this.#info = { name: this.name, version: current.manifest.version, source: current.manifest.source, license: current.manifest.license };
      const m = current.manifest;
      announceDatasetLoaded({ name: this.name, version: m.version, records: m.count, builtAt: m.builtAt ?? null, importedAt: m.importedAt, initial });
      return true;
    } catch (err) {
      // A half-copied or corrupt version: keep answering from what is loaded, try again next time.
      this.onError?.(err);
      return false;
    }
  }
}

/** What changes when a dataset's manifest is replaced (import, update, rollback): checked cheaply by each refresh. */
export function manifestStamp(dataDir: string, name: string): string {
  try {
    const st = statSync(manifestPath(dataDir, name));
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return 'absent';
  }
}

/** Refreshes every given dataset every `ms` (0: never); returns a stop function. */
export function watchDatasets(datasets: ReadonlyArray<{ refresh(): boolean }>, ms: number): () => void {
  if (ms <= 0) return () => undefined;
  const timer = setInterval(() => {
    for (const d of datasets) d.refresh();
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
