/**
 * Values that hold for one wall-clock second (answers that carry the current time to the second),
 * keyed by everything else they depend on. A request of another second starts an empty map, so
 * nothing outlives its second by more than one request. At most `maxEntries` are kept per second;
 * past that, values are computed and not kept, so hostile variety costs memory only up to the cap.
 */
export class SecondMemo<V> {
  #second = Number.NaN;
  #entries = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  /** The value of `key` for the second of `instantMs`, from `compute` the first time (a throw is not kept). */
  get(key: string, instantMs: number, compute: () => V): V {
    const second = Math.floor(instantMs / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#entries = new Map();
    }
    const kept = this.#entries.get(key);
    if (kept !== undefined) return kept;
    const value = compute();
    if (this.#entries.size < this.maxEntries) this.#entries.set(key, value);
    return value;
  }

  /** Entries kept for the current second. */
  get size(): number {
    return this.#entries.size;
  }
}
