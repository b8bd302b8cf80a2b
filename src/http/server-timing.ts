/** Per-stage durations for the `Server-Timing` header (auth, engine, policy, format). */
export class ServerTiming {
  private readonly stages: [string, number][] = [];
  private mark = performance.now();
  readonly startedAt = this.mark;

  /** Closes the current stage under `name` and starts the next one. */
  lap(name: string): void {
    const t = performance.now();
    this.stages.push([name, t - this.mark]);
    this.mark = t;
  }

  /** Milliseconds since the request started, as the envelope's integer `executionTime`. */
  elapsedMs(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  header(): string {
    return this.stages.map(([n, d]) => `${n};dur=${d.toFixed(3)}`).join(', ');
  }
}
