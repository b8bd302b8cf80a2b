import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { createLogger } from './logger.ts';
import { openCounters, openStore } from './store/index.ts';
import { RedisVelocity } from './store/redis/redis-velocity.ts';
import { loadEngineData } from './data/engine-data.ts';
import { resolveSecret } from './accounts/secret.ts';
import { parseSeed } from './accounts/seed.ts';
import { bootstrapIfEmpty, bootstrapNotice } from './accounts/bootstrap.ts';
import { listenError } from './ops/startup-errors.ts';

/** Opens stores, bootstraps, listens, and shuts down gracefully on SIGTERM/SIGINT. */
export async function serve(config: Readonly<Config>): Promise<void> {
  const logger = createLogger(config.logLevel);
  const { secret, generated } = resolveSecret(config.secretKey, config.dataDir);
  if (generated) logger.warn({ dataDir: config.dataDir }, 'generated a new SECRET_KEY into DATA_DIR/secret.key; set SECRET_KEY to share it between instances');
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    backgroundCheckpoint: { onFailure: (err) => logger.error({ err }, 'the WAL checkpoint worker failed; SQLite checkpoints in commits again') },
  });
  const counters = await openCounters({ redisUrl: config.redisUrl });
  // With REDIS_URL, payment velocity windows live in Redis too, shared by every instance.
  const velocity = config.redisUrl ? new RedisVelocity({ url: config.redisUrl }) : undefined;
  const data = loadEngineData(config);
  const { app, accounts, applySeed } = await buildApp({ config, store, counters, data, secret, logger, velocity });

  await accounts.ensureBuiltinPlans();
  if (config.seedFile) {
    const r = await applySeed(parseSeed(readFileSync(config.seedFile, 'utf8')));
    logger.info(r, 'seed applied');
  }
  const boot = await bootstrapIfEmpty(store, accounts, config.dataDir);
  // The ASN prefix index (a walk of GeoLite2 ASN, under a second) is built before serving, so the
  // first /lookup/asn call does not pay for it.
  data.ip.warm();

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // app.close() stops accepting, waits for in-flight requests, then runs onClose (usage flush).
    app
      .close()
      .then(() => Promise.all([store.close(), counters.close(), velocity?.close()]))
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // The store may already hold a new account: its keys wait in DATA_DIR/bootstrap-keys.json for the next start.
    throw listenError(config.host, config.port, err);
  }
  const shown = address.replace('0.0.0.0', 'localhost');
  logger.info({ address, store: store.kind, counters: counters.kind }, 'Vigil is serving');
  if (boot) logger.info({ account: boot.accountId, file: boot.file }, 'first start: created an account and its keys');
  const notice = bootstrapNotice(config.dataDir);
  if (notice?.kind === 'keys') {
    // Printed by the first start that listens (a start that failed after creating them printed nothing).
    process.stdout.write(
      `\nVigil: first start, created account "${notice.accountId}" (premium plan).\n` +
        `  live key: ${notice.liveKey}\n  test key: ${notice.testKey}\n` +
        `  (saved to ${notice.file})\n  try: curl "${shown}/lookup/country?CountryCode=DE&key=${notice.liveKey}"\n\n`,
    );
  } else if (notice) {
    process.stdout.write(`\nVigil: the keys of account "${notice.accountId}" are in ${notice.file} (mode 0600); keep them elsewhere and delete that file.\n\n`);
  }
}
