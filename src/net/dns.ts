import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * One DNS question's outcome. `none` is an authoritative "no such record" (NXDOMAIN or NODATA),
 * which callers may cache as a negative answer; `error` (timeout, SERVFAIL, refused) is not an
 * answer about the domain at all.
 */
export type DnsOutcome<T> =
  | { kind: 'found'; value: T }
  | { kind: 'none'; nxdomain: boolean }
  | { kind: 'error'; code: string };

export interface DnsClientOptions {
  /** Resolver addresses (`ip`, `ip:port`, `[v6]:port`); empty or absent: the system's resolvers. */
  servers?: readonly string[];
  /** Per-query timeout of one try, in milliseconds. */
  timeoutMs: number;
  /** Tries per server before giving up (default 1: the caller's budget is short anyway). */
  tries?: number;
}


function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return 'EUNKNOWN';
}

async function ask<T>(query: () => Promise<T>): Promise<DnsOutcome<T>> {
  try {
    return { kind: 'found', value: await query() };
  } catch (err) {
    const code = errorCode(err);
    // ENOTFOUND is NXDOMAIN (no such name); ENODATA is NODATA (the name exists, not this type).
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { kind: 'none', nxdomain: code === 'ENOTFOUND' };
    return { kind: 'error', code };
  }
}

/** A thin `node:dns` Resolver with its own servers and timeout that never throws. */
export class DnsClient {
  private readonly resolver: Resolver;

  constructor(opts: DnsClientOptions) {
    this.resolver = new Resolver({ timeout: Math.max(1, Math.round(opts.timeoutMs)), tries: opts.tries ?? 1 });
    if (opts.servers && opts.servers.length > 0) this.resolver.setServers([...opts.servers]);
  }

  /** TXT records, each record's character-strings joined (RFC 7208 3.3). */
  txt(name: string): Promise<DnsOutcome<string[]>> {
    return ask(async () => (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  mx(name: string): Promise<DnsOutcome<{ exchange: string; priority: number }[]>> {
    return ask(() => this.resolver.resolveMx(name));
  }

  cname(name: string): Promise<DnsOutcome<string[]>> {
    return ask(() => this.resolver.resolveCname(name));
  }

  /** Abandons outstanding queries (they settle with an error outcome). */
  cancel(): void {
    this.resolver.cancel();
  }
}

/** `ip`, `ip:port`, `v6`, `[v6]` or `[v6]:port` as `node:dns` accepts them; null when malformed. */
export function parseDnsServer(raw: string): string | null {
  const s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracketed) return isIP(bracketed[1] ?? '') === 6 && validPort(bracketed[2]) ? s : null;
  if (isIP(s) !== 0) return s;
  const v4 = /^([\d.]+):(\d{1,5})$/.exec(s);
  return v4 && isIP(v4[1] ?? '') === 4 && validPort(v4[2]) ? s : null;
}

function validPort(port: string | undefined): boolean {
  if (port === undefined) return true;
  const n = Number(port);
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}
