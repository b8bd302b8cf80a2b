/**
 * What an endpoint keeps beside an answer for its policy stage (the IP lookup behind an IP result, the
 * scoring behind a payment score...), for one request. Nothing of it can reach a response format.
 *
 * These notes used to live in WeakMaps of the endpoint modules. Such a WeakMap lives as long as the
 * process, so its table is in V8's old space, and the young-generation GC keeps every young key and
 * value written into an old table alive: each request's answer and lookup survived, were promoted
 * to old space and died there. On `/lookup/ip` that was about 1 KB per request, scavenges of 3-5 ms
 * instead of about 1 ms and a mark-compact every few seconds (2026-11-24, docs/benchmarks.md). Notes
 * owned by the request die young with it.
 */
export class NoteKey<V> {
  /** Carries the value type only. */
  declare readonly value: V;

  constructor(readonly name: string) {}
}

/** The notes of one request: a value per (key, answer object). */
export class AnswerNotes {
  #byKey: Map<NoteKey<unknown>, Map<object, unknown>> | undefined;

  set<V>(key: NoteKey<V>, answer: object, value: V): void {
    this.#byKey ??= new Map();
    let notes = this.#byKey.get(key);
    if (!notes) {
      notes = new Map();
      this.#byKey.set(key, notes);
    }
    notes.set(answer, value);
  }

  get<V>(key: NoteKey<V>, answer: object): V | undefined {
    return this.#byKey?.get(key)?.get(answer) as V | undefined;
  }
}
