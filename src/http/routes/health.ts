import type { FastifyInstance } from 'fastify';
import type { Counters, Store } from '../../store/ports.ts';
import type { Metrics } from '../../ops/metrics.ts';
import type { CanaryStatus, DnsCanary } from '../../net/dns-canary.ts';
import type { DatasetAge } from '../../data/data-age.ts';
import { vigilVersion } from '../../version.ts';

/**
 * /healthz (process is up), /readyz (store and counters answer; `details.dns` tells whether the
 * resolver passes its canary, without failing readiness: the API still answers, with DNS facts
 * unknown; `details.datasets` tells each dataset's version, date and age, never failing readiness),
 * /metrics (Prometheus).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { store: Store; counters: Counters; metrics: Metrics; dns?: DnsCanary | null; datasetAges?: () => readonly DatasetAge[] },
): void {
  // The version lets a rolling upgrade be watched from the health checks.
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok', version: vigilVersion() }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const checks: Record<string, string> = {};
    const probe = async (name: string, fn: () => Promise<void>): Promise<void> => {
      try {
        await Promise.race([fn(), new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 2000).unref())]);
        checks[name] = 'ok';
      } catch {
        checks[name] = 'unavailable';
      }
    };
    const canary = deps.dns ?? null;
    let dns: CanaryStatus | { state: 'off' } = { state: 'off' };
    await Promise.all([
      probe(`store:${deps.store.kind}`, () => deps.store.ping()),
      probe(`counters:${deps.counters.kind}`, () => deps.counters.ping()),
      canary && Promise.race([canary.status(), new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]).then(() => {
        dns = canary.peek();
      }),
    ]);
    const ok = Object.values(checks).every((v) => v === 'ok');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks, details: { dns, datasets: datasetDetails(deps.datasetAges) } });
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.header('content-type', deps.metrics.registry.contentType).send(await deps.metrics.text()),
  );
}

/** Each dataset's age for /readyz; a failure to read them (a corrupt manifest) is a detail too, never a 500. */
function datasetDetails(ages: (() => readonly DatasetAge[]) | undefined): Record<string, Omit<DatasetAge, 'dataset'>> | { error: string } {
  if (ages === undefined) return {};
  try {
    return Object.fromEntries(ages().map(({ dataset, ...rest }) => [dataset, rest]));
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
