import { accessSync, constants, statfsSync, statSync, type Stats } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { parseDnsServer } from './net/dns.ts';
import { parseAllowedTargets, type AllowedTargets } from './policy/webhooks/targets.ts';

/** Environment schema: parsed once at boot, frozen, passed in. Nothing else reads process.env. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const emptyToUndefined = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A whole number from `min` to `max` (inclusive), with a message that says so whatever is wrong with it. */
const int = (min: number, max: number, def: number): z.ZodType<number> => {
  const msg = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(emptyToUndefined, z.coerce.number({ error: msg }).int(msg).min(min, msg).max(max, msg).default(def));
};

/** An issue from a parser that throws ConfigError (TRUST_PROXY, DNS_SERVERS): collected with zod's own issues. */
const checkedBy = (parse: (raw: string | undefined) => unknown) =>
  z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        parse(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    });

const LABEL = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_NAME = new RegExp(`^${LABEL}(\\.${LABEL})*\\.?$`);
/** HOST: an IPv4 or IPv6 address or a host name; `999.1.1.1` is refused here rather than by getaddrinfo at listen. */
function checkHost(raw: string): string | null {
  if (isIP(raw) !== 0) return null;
  if (/^[\d.]+$/.test(raw)) return 'is not a valid IPv4 address (four numbers from 0 to 255)';
  if (raw.includes(':')) return 'is not a valid IPv6 address (write it without brackets, e.g. ::1)';
  if (!HOST_NAME.test(raw) || raw.length > 253) return 'is not an IP address or a host name';
  return null;
}

const EnvFields = z
  .object({
    PORT: int(0, 65535, 8080),
    HOST: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('0.0.0.0')
        .superRefine((v, ctx) => {
          const problem = checkHost(v);
          if (problem) ctx.addIssue({ code: 'custom', message: `${problem}; use 0.0.0.0 (every interface), 127.0.0.1 (this machine only) or an address of this machine` });
        }),
    ),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(2).max(1000).default(10)),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
        .optional(),
    ),
    REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().max(100).regex(/^[^\s{}]*$/, 'must not hold spaces or braces (keys are hash-tagged after it)').default('vigil:')),
    REDIS_CLUSTER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('off')),
    TRUST_PROXY: z.preprocess(emptyToUndefined, checkedBy(parseTrustProxy)),
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
    SHUTDOWN_TIMEOUT_MS: int(0, 3_600_000, 10000),
    HEADERS_TIMEOUT_MS: int(100, 3_600_000, 20_000),
    REQUEST_TIMEOUT_MS: int(100, 3_600_000, 30_000),
    KEEP_ALIVE_TIMEOUT_MS: int(100, 3_600_000, 72_000),
    MAX_CONNECTIONS_PER_IP: int(0, 1_000_000, 256),
    DECISION_LOG_DAYS: int(0, 3650, 30),
    POLICY_REFRESH_MS: int(50, 3_600_000, 1000),
    WEBHOOK_WORKER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    WEBHOOK_TIMEOUT_MS: int(100, 600_000, 10_000),
    WEBHOOK_LEASE_MS: int(200, 3_600_000, 30_000),
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
    DNS_SERVERS: z.preprocess(emptyToUndefined, checkedBy(parseDnsServers)),
    // A name whose MX records must resolve; `off` disables the canary (net/dns-canary.ts).
    DNS_CANARY_NAME: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^(?:off|(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}\.?)$/, 'must be a domain name with MX records, or off').default('gmail.com'),
    ),
    NETWORK_BUDGET_MS: int(0, 10_000, 300),
    NETWORK_TIMEOUT_MS: int(50, 60_000, 2000),
    RDAP_BOOTSTRAP_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    RDAP_ASN_BOOTSTRAP_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    CRAWLER_RANGES_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    DATA_SOURCES_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
    DATA_IMPORT_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
    DATA_UPDATE_INTERVAL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('off')
        .transform((v, ctx) => {
          const ms = parseInterval(v);
          if (ms === null) {
            ctx.addIssue({ code: 'custom', message: 'must be off or a duration of at least 10 minutes (e.g. 24h, 6h, 90m, 1d, or milliseconds such as 86400000)' });
            return z.NEVER;
          }
          return ms;
        }),
    ),
    MAXMIND_ACCOUNT_ID: z.preprocess(emptyToUndefined, z.string().regex(/^\d{1,12}$/, 'must be the numeric MaxMind account ID').optional()),
    MAXMIND_LICENSE_KEY: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9_]{8,64}$/, 'must be a MaxMind licence key (letters, digits and _)').optional()),
    MAXMIND_BASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .url('must be an absolute URL such as https://download.maxmind.com')
        .transform((s) => s.replace(/\/+$/, ''))
        .default('https://download.maxmind.com'),
    ),
    DASHBOARD: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
    DASHBOARD_SESSION_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(10_080).default(480)),
  })
  .strip();

type EnvField = keyof typeof EnvFields.shape;
type Issue = { name: string; message: string };

/**
 * Checks between variables. Each runs on the variables it reads as soon as those parse, whatever else is wrong,
 * so that every problem is reported at once (a zod object refinement would only run once every field is valid).
 */
const CROSS_CHECKS: ReadonlyArray<{ reads: readonly EnvField[]; check: (v: Record<string, unknown>) => Issue | null }> = [
  {
    reads: ['WEBHOOK_LEASE_MS', 'WEBHOOK_TIMEOUT_MS'],
    check: (v) => ((v.WEBHOOK_LEASE_MS as number) <= (v.WEBHOOK_TIMEOUT_MS as number)
      ? { name: 'WEBHOOK_LEASE_MS', message: 'must exceed WEBHOOK_TIMEOUT_MS (a slow send could otherwise be claimed by another instance too)' }
      : null),
  },
  {
    reads: ['HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS'],
    check: (v) => ((v.HEADERS_TIMEOUT_MS as number) > (v.REQUEST_TIMEOUT_MS as number)
      ? { name: 'HEADERS_TIMEOUT_MS', message: 'must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)' }
      : null),
  },
  {
    // One without the other would silently never download: say so at start.
    reads: ['MAXMIND_ACCOUNT_ID', 'MAXMIND_LICENSE_KEY'],
    check: (v) => ((v.MAXMIND_ACCOUNT_ID === undefined) !== (v.MAXMIND_LICENSE_KEY === undefined)
      ? {
          name: v.MAXMIND_ACCOUNT_ID === undefined ? 'MAXMIND_ACCOUNT_ID' : 'MAXMIND_LICENSE_KEY',
          message: 'MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY go together (GeoLite2 downloads need both)',
        }
      : null),
  },
];

/** The cross-variable problems among the variables that parse on their own (a bad one is already reported). */
function crossProblems(env: Record<string, string | undefined>): Issue[] {
  const out: Issue[] = [];
  for (const { reads, check } of CROSS_CHECKS) {
    const values: Record<string, unknown> = {};
    let parsedAll = true;
    for (const name of reads) {
      const r = EnvFields.shape[name].safeParse(env[name]);
      if (!r.success) parsedAll = false;
      else values[name] = r.data;
    }
    const issue = parsedAll ? check(values) : null;
    if (issue !== null) out.push(issue);
  }
  return out;
}

/** Linux file systems of the kernel's own virtual files (statfs f_type): never a place for data. */
const VIRTUAL_FS: Readonly<Record<number, string>> = {
  0x9fa0: 'proc', 0x62656572: 'sysfs', 0x1cd1: 'devpts', 0x27e0eb: 'cgroup', 0x63677270: 'cgroup2', 0x64626720: 'debugfs',
  0x73636673: 'securityfs', 0x74726163: 'tracefs', 0xcafe4a11: 'bpf', 0x62656570: 'configfs', 0x6165676c: 'pstore',
  0xde5e81e4: 'efivarfs', 0xf97cff8c: 'selinuxfs', 0x19800202: 'mqueue', 0x42494e4d: 'binfmt_misc', 0x65735543: 'fusectl',
};

const FIX = 'set DATA_DIR to a directory this user can write (it is created if missing), e.g. ./data or /var/lib/vigil';

function kindOf(st: Stats): string {
  if (st.isFile()) return 'a file';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a directory';
}

/**
 * What is wrong with DATA_DIR, checked before anything opens it (a file there gave a bare `EEXIST ... mkdir`,
 * /proc a bare ENOENT or a stall): a path that is or runs through something other than a directory, or a
 * kernel virtual file system (/proc, /sys), always; a directory this user cannot write (or create) only when
 * the SQLite store lives there (`mustWrite`): with PostgreSQL a read-only DATA_DIR is legitimate (a migration
 * job on a read-only root, datasets on a read-only volume). Null when fine. Reads only: nothing is created.
 */
export function dataDirProblem(dataDir: string, mustWrite: boolean): string | null {
  const path = resolve(dataDir);
  const shown = path === dataDir ? '' : ` (${path})`;
  // The nearest part of the path that exists: DATA_DIR itself, or the directory it would be created in.
  let existing = path;
  let st: Stats | undefined;
  for (;;) {
    try {
      st = statSync(existing);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') {
        existing = dirname(existing);
        continue;
      }
      if (code !== 'ENOENT') return `cannot be read${shown}: ${(err as Error).message}; ${FIX}`;
      const parent = dirname(existing);
      if (parent === existing) return null;
      existing = parent;
    }
  }
  if (!st.isDirectory()) {
    return existing === path
      ? `is ${kindOf(st)}${shown}, not a directory; ${FIX}`
      : `cannot be created: ${existing} is ${kindOf(st)}, not a directory; ${FIX}`;
  }
  if (process.platform === 'linux') {
    try {
      const fs = VIRTUAL_FS[statfsSync(existing).type];
      if (fs !== undefined) return `${existing === path ? 'is' : 'would be'} on ${fs}${shown}, the kernel's virtual files, not a disk; ${FIX}`;
    } catch {
      // statfs unavailable: the write check and the store's own errors remain.
    }
  }
  if (!mustWrite) return null;
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EROFS' ? 'is on a read-only file system' : `is not writable by this user (uid ${process.getuid?.() ?? '?'})`;
    return existing === path ? `${why}${shown}; ${FIX}` : `cannot be created: ${existing} ${why}; ${FIX}`;
  }
  return null;
}

/** The shortest DATA_UPDATE_INTERVAL: public list hosts are not to be polled more often. */
export const MIN_DATA_UPDATE_INTERVAL_MS = 10 * 60_000;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `off` (0), milliseconds, or a number with a unit (`24h`, `90m`, `1d`); null when invalid or under 10 minutes. */
export function parseInterval(raw: string): number | null {
  const v = raw.trim().toLowerCase();
  if (v === 'off' || v === '0') return 0;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(v);
  if (m === null) return null;
  const ms = Math.round(Number(m[1]) * (UNIT_MS[m[2] ?? 'ms'] ?? 1));
  return Number.isFinite(ms) && ms >= MIN_DATA_UPDATE_INTERVAL_MS ? ms : null;
}

export type TrustProxy = boolean | string[] | number;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections per instance (the pool; feedback's advisory locks and policy notifications use one more each). */
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key (several deployments can share one Redis). */
  redisPrefix: string;
  /** REDIS_URL names a node of a Redis Cluster (velocity keys then carry the account as a hash tag). */
  redisCluster: boolean;
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
  /** WEBHOOK_TIMEOUT_MS: one delivery's POST, answer included. */
  webhookTimeoutMs: number;
  /** WEBHOOK_LEASE_MS: how long a claimed delivery stays reserved for its instance (a killed instance's are taken over after it). */
  webhookLeaseMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: private webhook targets allowed (docs/operations.md). */
  webhookAllowPrivate: AllowedTargets;
  /** false (`NETWORK=off`): DNS and RDAP checks answer null at once and nothing is sent. */
  network: boolean;
  /** DNS resolvers for domain checks (`ip`, `ip:port`, `[v6]:port`); empty: the system's. */
  dnsServers: string[];
  /** DNS_CANARY_NAME: a name whose MX must resolve, else DNS negatives are unknown; null: no canary. */
  dnsCanaryName: string | null;
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
  /** DATA_IMPORT_DIR: the directory whose files operators may import from the console by path (unset: off). */
  dataImportDir: string | undefined;
  /** DATA_UPDATE_INTERVAL in ms (0: off): how often a server runs `vigil data update --all` itself, with jitter. */
  dataUpdateIntervalMs: number;
  /** MaxMind credentials (MAXMIND_ACCOUNT_ID, MAXMIND_LICENSE_KEY): GeoLite2 downloads as geoipupdate does; undefined without them. */
  maxmind: MaxmindConfig | undefined;
  /** The web console at /dashboard (src/dashboard/); `DASHBOARD=off` leaves it out. */
  dashboard: boolean;
  /** How long a console sign-in lasts (DASHBOARD_SESSION_MINUTES, default 8 hours). */
  dashboardSessionMinutes: number;
}

export interface MaxmindConfig {
  accountId: string;
  licenseKey: string;
  /** MAXMIND_BASE_URL, default https://download.maxmind.com (a mirror, or a local server in tests). */
  baseUrl: string;
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
      throw new ConfigError(`"${p}" is not an IP address, CIDR range, hop count, true or false (e.g. TRUST_PROXY=127.0.0.1,10.0.0.0/8 or TRUST_PROXY=1)`);
    }
  }
  return parts;
}

function parseDnsServers(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const parts = raw.split(',').map((s) => s.trim()).filter(Boolean);
  return parts.map((p) => {
    const server = parseDnsServer(p);
    if (server === null) throw new ConfigError(`"${p}" is not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)`);
    return server;
  });
}

/** Variables whose values may hold a secret (a password in a URL): their values are never repeated. */
const SECRET_VALUE = /SECRET|TOKEN|PASSWORD|_URL$|_KEY$/;

/** Parses the environment; throws one ConfigError naming every bad variable, its value (unless secret) and the fix. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  const parsed = EnvFields.safeParse(env);
  const issues: Issue[] = parsed.success ? [] : parsed.error.issues.map((i) => ({ name: i.path.join('.'), message: i.message }));
  issues.push(...crossProblems(env));
  // Checked on the file system, beside zod's checks so that it is reported with them (an object-level
  // refinement only runs once every field is valid). The SQLite store must write there; PostgreSQL need not.
  const dataDir = dataDirProblem(env.DATA_DIR?.trim() ? env.DATA_DIR : './data', !env.DATABASE_URL?.trim());
  if (dataDir !== null) issues.push({ name: 'DATA_DIR', message: dataDir });
  if (!parsed.success || issues.length > 0) {
    const lines = issues.map(({ name, message }) => {
      const value = env[name];
      const shown = value === undefined || SECRET_VALUE.test(name) ? '' : `=${JSON.stringify(value)}`;
      return `${name}${shown}: ${message}`;
    });
    throw new ConfigError(`Invalid configuration (${lines.length} ${lines.length === 1 ? 'variable' : 'variables'}; see README "Configuration"):\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    redisCluster: e.REDIS_CLUSTER === 'on',
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
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookLeaseMs: e.WEBHOOK_LEASE_MS,
    webhookAllowPrivate: parseAllowedTargets(e.WEBHOOK_ALLOW_PRIVATE),
    network: e.NETWORK === 'on',
    dnsServers: parseDnsServers(e.DNS_SERVERS),
    dnsCanaryName: e.DNS_CANARY_NAME === 'off' ? null : e.DNS_CANARY_NAME.toLowerCase().replace(/\.$/, ''),
    networkBudgetMs: e.NETWORK_BUDGET_MS,
    networkTimeoutMs: e.NETWORK_TIMEOUT_MS,
    rdapBootstrapFile: e.RDAP_BOOTSTRAP_FILE,
    rdapAsnBootstrapFile: e.RDAP_ASN_BOOTSTRAP_FILE,
    crawlerRangesFile: e.CRAWLER_RANGES_FILE,
    dataSourcesFile: e.DATA_SOURCES_FILE,
    dataImportDir: e.DATA_IMPORT_DIR,
    dataUpdateIntervalMs: e.DATA_UPDATE_INTERVAL,
    maxmind: e.MAXMIND_ACCOUNT_ID !== undefined && e.MAXMIND_LICENSE_KEY !== undefined
      ? { accountId: e.MAXMIND_ACCOUNT_ID, licenseKey: e.MAXMIND_LICENSE_KEY, baseUrl: e.MAXMIND_BASE_URL }
      : undefined,
    dashboard: e.DASHBOARD === 'on',
    dashboardSessionMinutes: e.DASHBOARD_SESSION_MINUTES,
  });
}
