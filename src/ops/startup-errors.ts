import { ConfigError } from '../config.ts';

/**
 * Start-up failures told the way an operator fixes them: the variable, the address it led to and what to
 * do, instead of the driver's bare `connect ECONNREFUSED 127.0.0.1:18099`. Passwords in URLs are never
 * repeated. Each returns a ConfigError, which the CLI prints without a stack trace.
 */

interface NetError {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** The error's code; an AggregateError (both ::1 and 127.0.0.1 refused) carries it on itself or its first member. */
function codeOf(err: unknown): string | undefined {
  const e = err as NetError | null;
  if (typeof e?.code === 'string') return e.code;
  if (Array.isArray(e?.errors)) return codeOf(e.errors[0]);
  return undefined;
}

function messageOf(err: unknown): string {
  const e = err as NetError | null;
  if (typeof e?.message === 'string' && e.message !== '') return e.message;
  if (Array.isArray(e?.errors) && e.errors.length > 0) return messageOf(e.errors[0]);
  return String(err);
}

const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing listens there',
  ETIMEDOUT: 'no answer: timed out',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS failure)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
};

function reason(err: unknown): string {
  const code = codeOf(err);
  return (code !== undefined ? NETWORK_REASONS[code] : undefined) ?? messageOf(err);
}

/** host:port of a URL, without user or password; the default port when the URL names none. */
function addressOf(url: string, defaultPort: number): { address: string; host: string; user: string; path: string } {
  try {
    const u = new URL(url);
    const host = u.hostname === '' ? 'localhost' : u.hostname;
    return { address: `${host}:${u.port === '' ? defaultPort : u.port}`, host, user: decodeURIComponent(u.username), path: decodeURIComponent(u.pathname.replace(/^\//, '')) };
  } catch {
    return { address: '(unparsable URL)', host: '', user: '', path: '' };
  }
}

/** PostgreSQL could not be reached or logged into at DATABASE_URL; any other failure is returned as it is. */
export function databaseError(url: string, err: unknown): unknown {
  const { address, user, path } = addressOf(url, 5432);
  const code = codeOf(err) ?? '';
  let why: string;
  let fix: string;
  switch (code) {
    case '28P01':
    case '28000':
      why = `the login of user "${user || '(none)'}" was refused (${messageOf(err)})`;
      fix = 'Correct the user and password in DATABASE_URL.';
      break;
    case '3D000':
      why = `the database "${path || user}" does not exist`;
      fix = `Create it (createdb -h HOST -U USER ${path || 'NAME'}) or name an existing database in DATABASE_URL.`;
      break;
    default:
      if (NETWORK_REASONS[code] === undefined) return err;
      why = reason(err);
      fix = 'Start PostgreSQL there or correct the host and port in DATABASE_URL; unset DATABASE_URL to use the embedded SQLite store under DATA_DIR.';
  }
  return new ConfigError(`DATABASE_URL: cannot use PostgreSQL at ${address}: ${why}. ${fix}`);
}

/** Codes of a SQLite file that cannot be opened or written where DATA_DIR points. */
const FILE_CODES = /^(SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_NOTADB|SQLITE_PERM|EACCES|EPERM|EROFS|ENOENT|ENOTDIR|ENOSPC)/;

/** The SQLite store under DATA_DIR could not be opened; any other failure (a migration's) is returned as it is. */
export function sqliteError(dataDir: string, err: unknown): unknown {
  if (!FILE_CODES.test(codeOf(err) ?? '')) return err;
  return new ConfigError(
    `DATA_DIR: cannot open the SQLite store in ${dataDir}: ${messageOf(err)}. Make DATA_DIR a directory this user can write, or point DATA_DIR elsewhere.`,
  );
}

/** Redis at REDIS_URL did not answer a PING at boot; `cause` is the last connection error when one was seen. */
export function redisError(url: string, err: unknown, cause: unknown): ConfigError {
  const { address } = addressOf(url, 6379);
  // ioredis's own rejection ("Reached the max retries per request limit") says nothing about Redis: the
  // connection error behind it does.
  const why = reason(cause ?? err);
  return new ConfigError(
    `REDIS_URL: cannot reach Redis at ${address}: ${why}. Start Redis there or correct REDIS_URL; unset REDIS_URL to keep counters in this process (one instance only).`,
  );
}

/** The HTTP server could not listen on HOST:PORT. */
export function listenError(host: string, port: number, err: unknown): unknown {
  switch (codeOf(err) ?? '') {
    case 'EADDRINUSE':
      return new ConfigError(`PORT: ${port} is already in use on ${host}. Stop the program that holds it (ss -ltnp 'sport = :${port}') or set PORT to a free port.`);
    case 'EACCES':
      return new ConfigError(`PORT: this user may not listen on port ${port} of ${host} (ports below 1024 need privileges). Set PORT to 1024 or above, or put a proxy in front.`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(`HOST: ${host} is not an address of this machine. Set HOST to 0.0.0.0 (every interface), 127.0.0.1 (this machine only) or one of its addresses.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new ConfigError(`HOST: "${host}" is neither an IP address nor a host name that resolves (${messageOf(err)}). Set HOST to 0.0.0.0 (every interface), 127.0.0.1 or one of this machine's addresses.`);
    default:
      return err;
  }
}
