import type { FastifyInstance } from 'fastify';
import type { Counters, Store } from '../../store/ports.ts';
import type { Metrics } from '../../ops/metrics.ts';
import { vigilVersion } from '../../version.ts';

/** /healthz (process is up), /readyz (store and counters answer), /metrics (Prometheus). */
export function registerHealthRoutes(app: FastifyInstance, deps: { store: Store; counters: Counters; metrics: Metrics }): void {
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
    await Promise.all([probe(`store:${deps.store.kind}`, () => deps.store.ping()), probe(`counters:${deps.counters.kind}`, () => deps.counters.ping())]);
    const ok = Object.values(checks).every((v) => v === 'ok');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not_ready', checks });
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.header('content-type', deps.metrics.registry.contentType).send(await deps.metrics.text()),
  );
}
