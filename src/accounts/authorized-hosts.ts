import { BlockList, isIP } from 'node:net';

/**
 * Authorized-host matching (spec, Authentication 4). An entry is a hostname (`shop.example.com`,
 * exact), a wildcard (`*.example.com`: any subdomain, not the apex itself), an IP address or a
 * CIDR range (IPv4 or IPv6). Origin and Referer hosts are matched against hostnames; the caller IP
 * against addresses and ranges.
 */
export interface HostMatcher {
  readonly unrestricted: boolean;
  allows(input: { origin: string | undefined; referer: string | undefined; ip: string }): boolean;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Returns a reason when the entry is not a valid authorized-host entry, else null. */
export function invalidHostEntry(entry: string): string | null {
  const e = entry.trim().toLowerCase();
  if (e === '') return 'empty entry';
  const slash = e.indexOf('/');
  if (slash >= 0) {
    const addr = e.slice(0, slash);
    const bits = Number(e.slice(slash + 1));
    const family = isIP(addr);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) return `"${entry}" is not a valid CIDR range`;
    return null;
  }
  if (isIP(e) !== 0) return null;
  const host = e.startsWith('*.') ? e.slice(2) : e;
  return HOSTNAME.test(host) ? null : `"${entry}" is not a hostname, wildcard (*.example.com), IP address or CIDR range`;
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/** Compiles an account's entries once; matching is then allocation-light. */
export function compileHostMatcher(entries: readonly string[]): HostMatcher {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const blocks = new BlockList();
  for (const raw of entries) {
    const e = raw.trim().toLowerCase();
    const slash = e.indexOf('/');
    if (slash >= 0) {
      const addr = e.slice(0, slash);
      blocks.addSubnet(addr, Number(e.slice(slash + 1)), isIP(addr) === 6 ? 'ipv6' : 'ipv4');
    } else if (isIP(e) !== 0) {
      blocks.addAddress(e, isIP(e) === 6 ? 'ipv6' : 'ipv4');
      exact.add(e);
    } else if (e.startsWith('*.')) {
      suffixes.push(e.slice(1));
    } else if (e) {
      exact.add(e);
    }
  }
  const unrestricted = entries.length === 0;
  const hostAllowed = (host: string | null): boolean =>
    host !== null && (exact.has(host) || suffixes.some((s) => host.endsWith(s) && host.length > s.length));
  const ipAllowed = (ip: string): boolean => {
    const v = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(v);
    return family !== 0 && blocks.check(v, family === 6 ? 'ipv6' : 'ipv4');
  };
  return {
    unrestricted,
    allows({ origin, referer, ip }) {
      if (unrestricted) return true;
      return hostAllowed(hostOf(origin)) || hostAllowed(hostOf(referer)) || ipAllowed(ip);
    },
  };
}
