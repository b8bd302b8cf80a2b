import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { datasetAges, GEOLITE2_MAX_AGE_DAYS, staleGeoLite2 } from '../data/data-age.ts';
import { onDatasetLoaded } from '../data/import/loaded-events.ts';
import { startDataUpdates, type DataUpdateSchedule } from './data-update-schedule.ts';
import { updateInChildProcess } from './data-update-process.ts';

/**
 * What a serving process does about its data's age: warns at start when GeoLite2 is older than
 * its licence allows (35 days), logs each new dataset version it picks up (an import, an update or
 * a rollback, by any process writing DATA_DIR), and runs the DATA_UPDATE_INTERVAL schedule.
 */
export function watchDataFreshness(config: Readonly<Config>, logger: Logger, clock: () => Date = () => new Date()): { schedule: DataUpdateSchedule; stop(): void } {
  for (const a of staleGeoLite2(datasetAges(config.dataDir, clock()))) {
    logger.warn(
      { dataset: a.dataset, version: a.version, builtAt: a.builtAt, ageDays: a.ageDays },
      `${a.dataset} is ${a.ageDays} days old (over ${GEOLITE2_MAX_AGE_DAYS}); the GeoLite2 licence asks for current data: set MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY with DATA_UPDATE_INTERVAL, or run vigil data update ${a.dataset}`,
    );
  }
  const unsubscribe = onDatasetLoaded((e) => {
    if (e.initial) return;
    logger.info({ dataset: e.name, version: e.version, records: e.records, builtAt: e.builtAt, importedAt: e.importedAt }, `picked up new data: ${e.name} ${e.version} (${e.records ?? '?'} records, ${e.builtAt !== null ? `built ${e.builtAt.slice(0, 10)}` : `imported ${e.importedAt?.slice(0, 10) ?? '?'}`})`);
  });
  const schedule = startDataUpdates({
    dataDir: config.dataDir,
    intervalMs: config.dataUpdateIntervalMs,
    logger,
    update: { sourcesFile: config.dataSourcesFile, maxmind: config.maxmind },
    // The same command line the server runs as (`vigil serve` from source, bin/vigil.js or a build), with `data update --all`.
    ...(process.argv[1] !== undefined && { run: (progress) => updateInChildProcess({ execArgv: process.execArgv, entry: process.argv[1] as string, progress }) }),
    clock,
  });
  return {
    schedule,
    stop() {
      schedule.stop();
      unsubscribe();
    },
  };
}
