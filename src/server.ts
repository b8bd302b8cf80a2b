import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { createLogger } from './logger.ts';
import { openCounters, openStore } from './store/index.ts';
import { RedisVelocity } from './store/redis/redis-velocity.ts';
import { loadEngineData } from './data/engine-data.ts';
import { resolveSecret } from './accounts/secret.ts';
import { resolveCardKey } from './accounts/card-key.ts';
import { parseSeed } from './accounts/seed.ts';
import { watchDataFreshness } from './ops/data-freshness.ts';
import { bootstrapIfEmpty, bootstrapNotice } from './accounts/bootstrap.ts';
import { listenError } from './ops/startup-errors.ts';

/** Opens stores, bootstraps, listens, and shuts down gracefully on SIGTERM/SIGINT. */
export async function serve(config: Readonly<Config>): Promise<void> {
  const logger = createLogger(config.logLevel);
  const { secret, generated } = resolveSecret(config.secretKey, config.dataDir);
  if (generated) logger.warn({ dataDir: config.dataDir }, 'generated a new SECRET_KEY into DATA_DIR/secret.key; set SECRET_KEY to share it between instances');
  // Card identities are keyed a second time with a key that is never in DATA_DIR (docs/operations.md, "Card numbers").
  const cardKey = resolveCardKey({ cardKey: config.cardKey, cardKeyFile: config.cardKeyFile, secretKey: config.secretKey, dataDir: config.dataDir });
  if (cardKey.generated) {
    logger.warn({ file: cardKey.generated }, 'generated the card key outside DATA_DIR; back it up apart from DATA_DIR (without it card identities start over), or set CARD_KEY');
  }
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    backgroundCheckpoint: { onFailure: (err) => logger.error({ err }, 'the WAL checkpoint worker failed; SQLite checkpoints in commits again') },
    onScoringWriteFailure: (err, { rows, dropped }) =>
      logger.error({ err, rows }, dropped ? 'a payment scoring cannot be written; dropped' : 'buffered payment scorings could not be written; will retry'),
  });
  const counters = await openCounters({ redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, redisCluster: config.redisCluster });
  // With REDIS_URL, payment velocity windows live in Redis too, shared by every instance.
  const velocity = config.redisUrl ? new RedisVelocity({ url: config.redisUrl, prefix: config.redisPrefix, cluster: config.redisCluster }) : undefined;
  const data = loadEngineData(config);
  const freshness = watchDataFreshness(config, logger);
  const { app, accounts, applySeed, learning } = await buildApp({ config, store, counters, data, secret, cardSecret: cardKey.secret, logger, velocity });
  const rekeyed = await store.rekeyCardIdentities((h) => learning.hasher.rekeyCard(h));
  if (rekeyed !== null) logger.info({ cards: rekeyed, cardKey: cardKey.source }, 'card identities keyed with the card key');

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
    freshness.stop();
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
