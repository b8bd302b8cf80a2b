import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be delivered. A webhook URL is chosen by whoever holds the admin token or a seed file,
 * but the POST leaves from the server's own network: without a check, a webhook could reach the cloud
 * metadata service (169.254.169.254), the database or any other internal service. Private, loopback,
 * link-local and other non-public addresses are refused unless WEBHOOK_ALLOW_PRIVATE names them.
 */

/** Addresses a webhook never reaches by default (IPv4-mapped IPv6 addresses match their IPv4 rule). */
const SPECIAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  SPECIAL.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: checked through its embedded IPv4 below too
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  SPECIAL.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address (v4 or v6, no brackets) is outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL.check(address, 'ipv4');
  if (family === 6) return SPECIAL.check(address, 'ipv6');
  // Not an address: refuse rather than guess.
  return true;
}

export interface AllowedTargets {
  /** `host:port` pairs (host lower-case, IPv6 without brackets) allowed whatever they resolve to. */
  hostPorts: ReadonlySet<string>;
  /** Networks (and single addresses) allowed. */
  networks: BlockList;
  /** The setting as given, for messages. */
  text: string;
}

/**
 * Parses WEBHOOK_ALLOW_PRIVATE: entries separated by commas, each a `host:port` (`[::1]:9000` for IPv6), an IP
 * address or a CIDR range. Throws with the entry that is neither.
 */
export function parseAllowedTargets(text: string | undefined): AllowedTargets {
  const hostPorts = new Set<string>();
  const networks = new BlockList();
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const slash = entry.indexOf('/');
    if (slash !== -1) {
      const address = entry.slice(0, slash);
      const bitsText = entry.slice(slash + 1);
      const family = isIP(address);
      const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
      if (family === 0 || !(bits >= 0 && bits <= (family === 4 ? 32 : 128))) throw new RangeError(`"${entry}" is not a CIDR range`);
      networks.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    const family = isIP(entry);
    if (family !== 0) {
      networks.addAddress(entry, family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = m ? Number(m[2]) : NaN;
    if (!m || !(port >= 1 && port <= 65535)) throw new RangeError(`"${entry}" is not a host:port, an IP address or a CIDR range`);
    hostPorts.add(`${m[1]!.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`);
  }
  return { hostPorts, networks, text: text ?? '' };
}

/** Nothing private is allowed: the default. */
export const NO_PRIVATE_TARGETS: AllowedTargets = parseAllowedTargets('');

/** The host of a URL as compared here: lower-case, IPv6 without brackets; and its port (the scheme's default if none). */
function endpoint(url: URL): { host: string; port: number } {
  // A trailing dot names the same host (`localhost.`).
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

function allowedAddress(targets: AllowedTargets, address: string, host: string, port: number): boolean {
  if (!isPrivateAddress(address)) return true;
  if (targets.hostPorts.has(`${host}:${port}`) || targets.hostPorts.has(`${address.toLowerCase()}:${port}`)) return true;
  const family = isIP(address);
  return family !== 0 && targets.networks.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const ALLOW_HINT = 'set WEBHOOK_ALLOW_PRIVATE to allow a local receiver (docs/operations.md)';

/**
 * Why a webhook URL is refused when it is registered, or null. Only what the URL itself says is checked
 * here (an IP literal, `localhost`); names are checked after resolution at every delivery (refusalFor).
 */
export function urlRefusal(targets: AllowedTargets, url: URL): string | null {
  const { host, port } = endpoint(url);
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return allowedAddress(targets, '127.0.0.1', host, port) ? null : `the webhook URL points to ${host}, a loopback name: ${ALLOW_HINT}`;
  }
  if (isIP(host) === 0) return null;
  return allowedAddress(targets, host, host, port) ? null : `the webhook URL points to ${host}, a private, loopback or link-local address: ${ALLOW_HINT}`;
}

/** Why a delivery to `url` may not connect to `address` (what the host resolved to), or null. */
export function addressRefusal(targets: AllowedTargets, url: URL, address: string): string | null {
  const { host, port } = endpoint(url);
  if (allowedAddress(targets, address, host, port)) return null;
  const what = host === address.toLowerCase() ? `${address} is` : `${host} resolves to ${address},`;
  return `${what} a private, loopback or link-local address; ${ALLOW_HINT}`;
}
