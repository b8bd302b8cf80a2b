/** Per-stage durations for the `Server-Timing` header (auth, engine, policy, format). */
export class ServerTiming {
  #text = '';
  #mark: number;
  readonly startedAt: number;

  constructor() {
    this.#mark = performance.now();
    this.startedAt = this.#mark;
  }

  /** Closes the current stage under `name` and starts the next one (written straight into the header text). */
  lap(name: string): void {
    const t = performance.now();
    this.#text += `${this.#text === '' ? '' : ', '}${name};dur=${(t - this.#mark).toFixed(3)}`;
    this.#mark = t;
  }

  /** Milliseconds since the request started, as the envelope's integer `executionTime`. */
  elapsedMs(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  /** The closed stages as a Server-Timing value; empty when none was closed. */
  header(): string {
    return this.#text;
  }
}
