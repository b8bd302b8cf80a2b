import { Gauge, type Registry } from 'prom-client';
import { ageSeconds, type DatasetAge } from '../data/data-age.ts';

/**
 * `vigil_dataset_age_seconds{dataset}`: seconds since each dataset in use was built (or, where the
 * data carries no build date, imported), read at scrape time so an import shows at the next scrape.
 * An alert on it (GeoLite2 over 35 days, a threat list over a week) is how an operator sees that
 * updates stopped.
 */
export function registerDatasetAgeMetric(registry: Registry, ages: () => readonly DatasetAge[], clock: () => Date = () => new Date()): void {
  new Gauge({
    name: 'vigil_dataset_age_seconds',
    help: 'Seconds since each dataset in use was built (publisher build date) or else imported',
    labelNames: ['dataset'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const now = clock();
      let list: readonly DatasetAge[];
      try {
        list = ages();
      } catch {
        // A corrupt manifest (shown in /readyz details) must not take the other metrics down with it.
        return;
      }
      for (const a of list) this.set({ dataset: a.dataset }, Math.round(ageSeconds(a, now)));
    },
  });
}
