/**
 * Runs calls that arrive while earlier ones are on their way as one batch: the first call goes at once (no wait
 * added when the server is quiet); calls made while `maxInFlight` batches are out wait for one to come back and
 * then go together, at most `maxBatch` at a time. Under load a round trip (and the statement, transaction and
 * commit it stands for) is shared by every call that queued meanwhile; a call never waits longer than one
 * round trip of a batch before it is sent.
 *
 * `run` answers a batch, one result per item in the same order. If a batch of several fails, each of its items
 * is run again alone, so one item's bad values (or one deleted user's scoring) fail only that item's call.
 */
export class Coalescer<I, O> {
  #queue: Array<{ item: I; resolve: (value: O) => void; reject: (err: unknown) => void }> = [];
  #inFlight = 0;

  constructor(
    private readonly run: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#inFlight < this.options.maxInFlight) this.#send();
    });
  }

  #send(): void {
    const batch = this.#queue.splice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    this.#inFlight++;
    void this.#answer(batch).finally(() => {
      this.#inFlight--;
      this.#send();
    });
  }

  async #answer(batch: Array<{ item: I; resolve: (value: O) => void; reject: (err: unknown) => void }>): Promise<void> {
    try {
      const out = await this.run(batch.map((b) => b.item));
      if (out.length !== batch.length) throw new Error(`a batch of ${batch.length} was answered with ${out.length} results`);
      batch.forEach((b, i) => b.resolve(out[i] as O));
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
    }
    // Each item alone: its own answer or its own failure.
    await Promise.all(batch.map(async (b) => {
      try {
        const [value] = await this.run([b.item]);
        b.resolve(value as O);
      } catch (err) {
        b.reject(err);
      }
    }));
  }
}
