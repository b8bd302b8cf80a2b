/**
 * "A dataset version was loaded": told by each loader (ImportedDataset, MmdbDataset) when it reads
 * a new version, so the server can log that it picked up new data (name, version, build or import
 * date, record count) without every loader taking a logger. Listeners are process-wide; the
 * server adds one and removes it on close.
 */
export interface DatasetLoaded {
  name: string;
  version: string;
  records: number | null;
  builtAt: string | null;
  importedAt: string | null;
  /** True for the load at start (or the first one after the loader was created). */
  initial: boolean;
}

type Listener = (event: DatasetLoaded) => void;
const listeners = new Set<Listener>();

/** Calls `fn` for each dataset version loaded from now on; returns the function that stops it. */
export function onDatasetLoaded(fn: Listener): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

export function announceDatasetLoaded(event: DatasetLoaded): void {
  for (const fn of listeners) {
    try {
      fn(event);
    } catch {
      // A listener's failure (a closed log stream) must not stop the data from loading.
    }
  }
}
