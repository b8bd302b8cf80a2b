import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Counters, Store } from './store/ports.ts';
import { AccountService } from './accounts/service.ts';
import { CachedKeyResolver } from './http/key-cache.ts';
import { QuotaGate } from './http/pipeline/quota.ts';
import { FloodGate } from './http/pipeline/flood.ts';
import { Recorder } from './http/recorder.ts';
import { registerEndpoint } from './http/register-endpoint.ts';
import { acceptTextBodies } from './http/body.ts';
import type { EndpointDef } from './http/endpoint.ts';
import { buildEndpoints, type EngineData } from './http/routes/index.ts';
import { registerFlagRoutes } from './http/routes/flags.ts';
import { registerLicenseRoute } from './http/routes/licenses.ts';
import { registerHealthRoutes } from './http/routes/health.ts';
import { logCanaryChanges } from './net/dns-canary.ts';
import { registerAdminRoutes } from './http/admin/index.ts';
import { clientErrorHandler, frameworkErrors, registerTransportHandlers, requestId } from './http/transport.ts';
import { Metrics } from './ops/metrics.ts';
import { registerDatasetAgeMetric } from './ops/dataset-age-metric.ts';
import { datasetAges } from './data/data-age.ts';
import { applyPolicySeed, createPolicy, type Policy } from './policy/index.ts';
import type { Seed } from './accounts/seed.ts';
import { createLearning, type Learning } from './learning/index.ts';
import type { VelocitySource } from './learning/velocity.ts';
import { IdentityHasher } from './learning/identity-hash.ts';
import { BODY_LIMIT_BYTES } from './http/body.ts';
import { capConnectionsPerAddress, timeoutOptions } from './http/connection-limits.ts';
import { apiDocumentBase, completeDocument } from './http/openapi/document.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import { registerDashboard } from './dashboard/index.ts';
import { ConsoleSessions } from './dashboard/sessions.ts';
import { DataUpdates } from './dashboard/data-updates.ts';

export interface AppDeps {
  config: Readonly<Config>;
  store: Store;
  counters: Counters;
  data: EngineData;
  secret: string;
  /** The second key of card identities, never kept in DATA_DIR (src/accounts/card-key.ts). */
  cardSecret: string;
  logger: Logger;
  clock?: () => Date;
  /** The API endpoints (given the learning services); default: every endpoint of src/http/routes. Tests may add fixtures. */
  endpoints?: (learning: Learning) => EndpointDef[];
  /** Velocity windows in Redis (REDIS_URL); default: counted over the stored scorings. */
  velocity?: VelocitySource;
  /** Prometheus default process metrics; off in tests that build many apps. */
  processMetrics?: boolean;
}

export interface App {
  app: FastifyInstance;
  accounts: AccountService;
  recorder: Recorder;
  policy: Policy;
  learning: Learning;
  /** Applies a whole seed: plans, accounts and keys, then each account's lists, rules and webhooks. */
  applySeed: (seed: Seed) => Promise<Record<string, number>>;
}

function hopsTrusted(n: number): (addr: string, hop: number) => boolean {
  return (_addr, hop) => hop < n;
}

/** How often each instance writes its buffered usage and request log (a lost quota counter waits for one more). */
const USAGE_FLUSH_MS = 1000;

const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The composition root: picks nothing itself (stores are opened by the caller), wires modules. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, store, counters, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  // Typed as Fastify's logger interface so the instance keeps its default generics.
  const fastifyLogger: FastifyBaseLogger = logger;
  const app = Fastify({
    loggerInstance: fastifyLogger,
    // Fastify's per-request lines are replaced by our own debug line (with key values redacted).
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger: request lines are ours (register-endpoint) and carry their own
    // fields; a pino child per request costs more than the rest of a country answer.
    childLoggerFactory: (logger) => logger,
    // The request id (X-Request-Id if sane, else a UUID) is echoed in the answer and logged as `reqId` by the
    // lines a request writes (register-endpoint, transport, admin).
    requestIdHeader: false,
    genReqId: requestId,
    // A hop count becomes the equivalent function: trust the nearest `n` proxies.
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
    // Long query strings are legitimate here (10,000-character texts, 50 IPv6 addresses, URL-encoded).
    http: { maxHeaderSize: 128 * 1024, ...timeoutOptions(config) },
    // Fastify sets these on the server after creating it (its requestTimeout default 0 would undo the one above).
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: frameworkErrors(),
    clientErrorHandler,
  });

  const accounts = new AccountService(store, deps.secret, clock);
  const keys = new CachedKeyResolver(accounts);
  const metrics = new Metrics(deps.processMetrics ?? true);
  capConnectionsPerAddress(app.server, { maxPerAddress: config.maxConnectionsPerIp, trustProxy: config.trustProxy, onRefused: () => metrics.refusedConnection() });
  // User deletion by userID records this hash; buffered records and events of a deleted user are then left out.
  const identities = new IdentityHasher(deps.secret, deps.cardSecret);
  const userHash = (userId: string): string => identities.hash('customer_id', userId);
  const recorder = new Recorder(store, logger, USAGE_FLUSH_MS, (log) => metrics.droppedRecord(log), userHash);
  recorder.start();
  const policy = createPolicy({
    store,
    secret: deps.secret,
    logger,
    clock,
    refreshMs: config.policyRefreshMs,
    decisionLogDays: config.decisionLogDays,
    logDecision: config.decisionLogDays > 0 ? (record) => recorder.logDecision(record) : undefined,
    worker: config.webhookWorker,
    webhookTargets: config.webhookAllowPrivate,
    webhookTiming: { timeoutMs: config.webhookTimeoutMs, leaseMs: config.webhookLeaseMs },
    userHash,
    onDeliveryFailure: (givenUp) => metrics.deliveryFailed(givenUp),
  });
  metrics.backlogs({ pendingDeliveries: () => store.events.countPending(), decisionBacklog: () => recorder.decisionBacklog() });
  const learning = createLearning({
    store, counters, secret: deps.secret, cardSecret: deps.cardSecret, policy, logger, velocity: deps.velocity, flushLogs: () => recorder.flush(), refreshMs: config.policyRefreshMs, clock,
    engines: { ip: deps.data.ip.sources, countries: deps.data.countries, email: deps.data.email, domains: deps.data.domains, phone: deps.data.phone, bins: deps.data.bins, reshippers: deps.data.reshippers },
  });
  app.addHook('onClose', async () => {
    await policy.close();
    await recorder.stop();
  });

  const baseUrl = (req: FastifyRequest): string => {
    if (config.publicUrl) return config.publicUrl;
    // The Host header is caller-controlled: only a plain host[:port] is echoed into answer URLs.
    const host = SAFE_HOST.test(req.host) ? req.host : `localhost:${config.port}`;
    return `${req.protocol}://${host}`;
  };

  registerTransportHandlers(app, logger);
  const endpoints = deps.endpoints ? deps.endpoints(learning) : buildEndpoints(deps.data, learning);
  await app.register(swagger, {
    openapi: apiDocumentBase(config.publicUrl),
    transformObject: (doc) => ('openapiObject' in doc ? completeDocument(doc.openapiObject as OpenAPIV3_1.Document, endpoints) : doc.swaggerObject),
  });
  // Two documents in one page: the API, and the operator API (src/http/admin/openapi.ts).
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { urls: [{ url: '/openapi.json', name: 'Vigil API' }, { url: '/admin/openapi.json', name: 'Admin API (ADMIN_TOKEN)' }] },
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());

  const endpointDeps = { keys, counters, flood: new FloodGate(counters), quota: new QuotaGate(counters, store.usage, (accountId, month) => recorder.monthUsage(accountId, month), USAGE_FLUSH_MS + 500), metrics, recorder, policy: policy.stage, logger, clock, baseUrl };
  // API methods in their own scope: they read bodies as text (body.ts); the admin API keeps Fastify's JSON parser.
  await app.register((scope, _opts, done) => {
    acceptTextBodies(scope);
    for (const def of endpoints) registerEndpoint(scope, def, endpointDeps);
    done();
  });
  registerFlagRoutes(app);
  const canary = deps.data.domains.canary;
  if (canary) logCanaryChanges(canary, logger);
  registerLicenseRoute(app);
  // Imported datasets are read from DATA_DIR's manifests (what `vigil data status` shows), bundled GeoLite2 from the package.
  const ages = () => datasetAges(config.dataDir, clock());
  registerDatasetAgeMetric(metrics.registry, ages, clock);
  registerHealthRoutes(app, { store, counters, metrics, dns: canary, datasetAges: ages });
  registerAdminRoutes(app, { accounts, store, adminToken: config.adminToken, onChange: () => keys.clear(), clock, policy: { ...policy, store }, publicUrl: config.publicUrl });
  if (config.dashboard) {
    registerDashboard(app, {
      accounts, store, counters, policy, learning, adminToken: config.adminToken, clock, logger, dataDir: config.dataDir, onAccountsChange: () => keys.clear(),
      sessions: new ConsoleSessions(store, accounts, deps.secret, clock, config.dashboardSessionMinutes),
      updates: new DataUpdates(store.console, {
        dataDir: config.dataDir, sourcesFile: config.dataSourcesFile, maxmind: config.maxmind, importDir: config.dataImportDir, clock, logger, soleInstance: store.kind === 'sqlite',
      }),
    });
  }
  const applySeed = async (seed: Seed): Promise<Record<string, number>> => {
    const done = await accounts.applySeed(seed);
    keys.clear();
    return { ...done, ...(await applyPolicySeed(seed, policy)) };
  };
  return { app, accounts, recorder, policy, learning, applySeed };
}
