import { z } from 'zod';
import { parseDnsServer } from './net/dns.ts';
import { parseAllowedTargets, type AllowedTargets } from './policy/webhooks/targets.ts';

/** Environment schema: parsed once at boot, frozen, passed in. Nothing else reads process.env. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const emptyToUndefined = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const EnvSchema = z
  .object({
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(8080)),
    HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
        .optional(),
    ),
    TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().optional()),
    SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    CARD_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    CARD_KEY_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info')),
    ADMIN_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
    PUBLIC_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url('must be an absolute URL such as https://vigil.example.com')
        .transform((s) => s.replace(/\/+$/, ''))
        .optional(),
    ),
    SEED_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(10000)),
    HEADERS_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(20_000)),
    REQUEST_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(30_000)),
    KEEP_ALIVE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(72_000)),
    MAX_CONNECTIONS_PER_IP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(256)),
    DECISION_LOG_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3650).default(30)),
    POLICY_REFRESH_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(3_600_000).default(1000)),
    WEBHOOK_WORKER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    WEBHOOK_ALLOW_PRIVATE: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .optional()
        .superRefine((v, ctx) => {
          try {
            parseAllowedTargets(v);
          } catch (err) {
            ctx.addIssue({ code: 'custom', message: `${(err as Error).message} (comma-separated host:port, IP addresses or CIDR ranges)` });
          }
        }),
    ),
    NETWORK: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    DNS_SERVERS: z.preprocess(emptyToUndefined, z.string().optional()),
    NETWORK_BUDGET_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000).default(300)),
    NETWORK_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(60_000).default(2000)),
    RDAP_BOOTSTRAP_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    RDAP_ASN_BOOTSTRAP_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    CRAWLER_RANGES_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    DATA_SOURCES_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  })
  .strip()
  .refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
    path: ['HEADERS_TIMEOUT_MS'],
    message: 'must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
  });

export type TrustProxy = boolean | string[] | number;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  trustProxy: TrustProxy;
  /** Resolved by bootstrap (env or generated file); undefined only before bootstrap. */
  secretKey: string | undefined;
  /** CARD_KEY: the second key of card identities, kept out of DATA_DIR (src/accounts/card-key.ts). */
  cardKey: string | undefined;
  /** CARD_KEY_FILE: where the card key is read (or generated), outside DATA_DIR. */
  cardKeyFile: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  adminToken: string | undefined;
  publicUrl: string | undefined;
  seedFile: string | undefined;
  shutdownTimeoutMs: number;
  /** The request line and headers must arrive within this (ms) of the request's start. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (ms): slow bodies are closed (HTTP 408). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (ms). */
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold (0: no cap); TRUST_PROXY's proxies are not capped. */
  maxConnectionsPerIp: number;
  /** Days live policy evaluations are kept for rule backtests; 0 keeps none. */
  decisionLogDays: number;
  /** How often an instance compares its in-memory rules and lists with the store's version. */
  policyRefreshMs: number;
  /** Whether this instance sends webhook deliveries (several instances may all do so safely). */
  webhookWorker: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: private webhook targets allowed (docs/operations.md). */
  webhookAllowPrivate: AllowedTargets;
  /** false (`NETWORK=off`): DNS and RDAP checks answer null at once and nothing is sent. */
  network: boolean;
  /** DNS resolvers for domain checks (`ip`, `ip:port`, `[v6]:port`); empty: the system's. */
  dnsServers: string[];
  /** How long an answer waits for DNS/RDAP before unsettled facts are null (they complete into the cache). */
  networkBudgetMs: number;
  /** Timeout of one DNS query (an RDAP request gets 4 times this). */
  networkTimeoutMs: number;
  /** IANA-format RDAP bootstrap (dns.json) to use instead of the shipped one. */
  rdapBootstrapFile: string | undefined;
  /** IANA-format RDAP bootstrap for AS numbers (asn.json) to use instead of the shipped one. */
  rdapAsnBootstrapFile: string | undefined;
  /** Crawler ranges file (Vigil's or a crawler operator's googlebot.json layout) instead of the shipped one. */
  crawlerRangesFile: string | undefined;
  /** JSON file replacing the public sources `vigil data update NAME` downloads (src/data/import/update.ts). */
  dataSourcesFile: string | undefined;
}

export class ConfigError extends Error {}

function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const parts = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of parts) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p) && !['loopback', 'linklocal', 'uniquelocal'].includes(p)) {
      throw new ConfigError(`TRUST_PROXY: "${p}" is not an IP address, CIDR range, hop count, true or false`);
    }
  }
  return parts;
}

function parseDnsServers(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const parts = raw.split(',').map((s) => s.trim()).filter(Boolean);
  return parts.map((p) => {
    const server = parseDnsServer(p);
    if (server === null) throw new ConfigError(`DNS_SERVERS: "${p}" is not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)`);
    return server;
  });
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    secretKey: e.SECRET_KEY,
    cardKey: e.CARD_KEY,
    cardKeyFile: e.CARD_KEY_FILE,
    logLevel: e.LOG_LEVEL,
    adminToken: e.ADMIN_TOKEN,
    publicUrl: e.PUBLIC_URL,
    seedFile: e.SEED_FILE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    decisionLogDays: e.DECISION_LOG_DAYS,
    policyRefreshMs: e.POLICY_REFRESH_MS,
    webhookWorker: e.WEBHOOK_WORKER === 'on',
    webhookAllowPrivate: parseAllowedTargets(e.WEBHOOK_ALLOW_PRIVATE),
    network: e.NETWORK === 'on',
    dnsServers: parseDnsServers(e.DNS_SERVERS),
    networkBudgetMs: e.NETWORK_BUDGET_MS,
    networkTimeoutMs: e.NETWORK_TIMEOUT_MS,
    rdapBootstrapFile: e.RDAP_BOOTSTRAP_FILE,
    rdapAsnBootstrapFile: e.RDAP_ASN_BOOTSTRAP_FILE,
    crawlerRangesFile: e.CRAWLER_RANGES_FILE,
    dataSourcesFile: e.DATA_SOURCES_FILE,
  });
}
