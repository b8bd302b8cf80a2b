import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one app instance (own registry, so tests can build many apps). */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'vigil_requests_total',
    help: 'API requests by operation and result code (0 = success)',
    labelNames: ['operation', 'code'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'vigil_request_duration_seconds',
    help: 'Server time per API request, by operation',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly dropped = new Counter({
    name: 'vigil_records_dropped_total',
    help: 'Records of a batched log (decision, request) dropped because they can never be written',
    labelNames: ['log'] as const,
    registers: [this.registry],
  });

  private readonly refused = new Counter({
    name: 'vigil_connections_refused_total',
    help: 'Connections closed on arrival because their client address already held MAX_CONNECTIONS_PER_IP',
    registers: [this.registry],
  });

  private readonly deliveryFailures = new Counter({
    name: 'vigil_webhook_delivery_failures_total',
    help: 'Failed webhook delivery attempts of this instance: result "retry" (another attempt is scheduled) or "given_up" (the last one)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor(defaults = true) {
    for (const result of ['retry', 'given_up']) this.deliveryFailures.inc({ result }, 0);
    // Both series from the start at 0, so an alert on an increase sees the first drop.
    for (const log of ['decision', 'request']) this.dropped.inc({ log }, 0);
    if (defaults) collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
  }

  // Label-bound children, looked up once per label set: prom-client hashes labels on every call otherwise.
  private readonly requestChildren = new Map<string, { inc(): void }>();
  private readonly latencyChildren = new Map<string, { observe(v: number): void }>();

  observe(operation: string, code: number, seconds: number): void {
    const key = `${operation}|${code}`;
    let counter = this.requestChildren.get(key);
    if (!counter) {
      counter = this.requests.labels({ operation, code: String(code) });
      this.requestChildren.set(key, counter);
    }
    counter.inc();
    let histogram = this.latencyChildren.get(operation);
    if (!histogram) {
      histogram = this.latency.labels({ operation });
      this.latencyChildren.set(operation, histogram);
    }
    histogram.observe(seconds);
  }

  /** A failed webhook delivery attempt; `givenUp` when no other attempt follows. */
  deliveryFailed(givenUp: boolean): void {
    this.deliveryFailures.inc({ result: givenUp ? 'given_up' : 'retry' });
  }

  /**
   * Gauges read when /metrics is scraped: the webhook backlog (pending delivery jobs of every account, from
   * the store, so every instance reports the same shared figure) and this instance's decision-log backlog.
   */
  backlogs(sources: { pendingDeliveries: () => Promise<number>; decisionBacklog: () => number }): void {
    new Gauge({
      name: 'vigil_webhook_backlog',
      help: 'Webhook delivery jobs pending in the store (the shared figure: every instance reports the same)',
      registers: [this.registry],
      async collect() {
        // A store that does not answer leaves the last figure: /metrics itself must still answer.
        try {
          this.set(await sources.pendingDeliveries());
        } catch {
          // keep the previous value
        }
      },
    });
    new Gauge({
      name: 'vigil_decision_log_backlog',
      help: 'Policy decisions buffered in this instance and not yet written to the decision log',
      registers: [this.registry],
      collect() {
        this.set(sources.decisionBacklog());
      },
    });
  }

  /** A record of a batched log dropped as unwritable (src/store/unwritable.ts). */
  droppedRecord(log: string): void {
    this.dropped.inc({ log });
  }

  /** A connection over the per-address cap (src/http/connection-limits.ts). */
  refusedConnection(): void {
    this.refused.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
