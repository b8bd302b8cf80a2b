import { BlockList, isIPv4, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { TrustProxy } from '../config.ts';

/** Node's http.createServer options for the request timeouts (docs/operations.md, "Slow clients"). */
export function timeoutOptions(t: { headersTimeoutMs: number; requestTimeoutMs: number }): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  // Node looks for overdue requests only every connectionsCheckingInterval (30 s by default), which would let a
  // slow body live up to 30 s past its timeout: a tenth of the shorter timeout (100 ms to 1 s) keeps the overshoot small.
  const interval = Math.min(1000, Math.max(100, Math.floor(Math.min(t.headersTimeoutMs, t.requestTimeoutMs) / 10)));
  return { headersTimeout: t.headersTimeoutMs, requestTimeout: t.requestTimeoutMs, connectionsCheckingInterval: interval };
}

// TRUST_PROXY's keywords, as Fastify (proxy-addr) reads them.
const KEYWORD_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/**
 * Which direct peers are trusted proxies, never capped: a proxy carries the connections of many clients.
 * `true` and a hop count trust every direct peer (so nothing is capped); a list trusts its addresses.
 */
function trustedPeers(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (trust === true || typeof trust === 'number') return () => true;
  const list = new BlockList();
  for (const entry of trust) {
    const keyword = KEYWORD_RANGES[entry];
    if (keyword) for (const [net, prefix, type] of keyword) list.addSubnet(net, prefix, type);
    else {
      const [net, bits] = entry.split('/');
      const type = isIPv4(net!) ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(net!, type);
      else list.addSubnet(net!, Number(bits), type);
    }
  }
  return (address) => list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

/** `::ffff:1.2.3.4` (an IPv4 peer of a dual-stack socket) is the address 1.2.3.4. */
const peerAddress = (socket: Socket): string | undefined => socket.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/**
 * Caps the open connections of one client address (MAX_CONNECTIONS_PER_IP; 0 = no cap): one address holding
 * thousands of idle or slow sockets cannot take the server's file descriptors and memory from everyone else.
 * A connection over the cap is closed at once, before anything is read from it; `onRefused` counts it.
 */
export function capConnectionsPerAddress(server: Server, opts: { maxPerAddress: number; trustProxy: TrustProxy; onRefused: () => void }): void {
  if (opts.maxPerAddress <= 0) return;
  const trusted = trustedPeers(opts.trustProxy);
  const open = new Map<string, number>();
  // Before http's own listener: a refused socket never gets a parser.
  server.prependListener('connection', (socket: Socket) => {
    const address = peerAddress(socket);
    if (address === undefined || trusted(address)) return;
    const n = open.get(address) ?? 0;
    if (n >= opts.maxPerAddress) {
      opts.onRefused();
      socket.destroy();
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
