import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RdapBootstrapJson } from '../../src/net/rdap.ts';

/**
 * A real RDAP server (node:http on 127.0.0.1) answering `/rdap/domain/<name>` from a table of
 * registration dates, for the domain-check tests; anything else is 404.
 */
export interface RdapZone {
  /** Domain -> registration date (`eventDate`); null: a domain object without a registration event. */
  registered: Record<string, string | null>;
  delayMs?: Record<string, number>;
  /** Never answered (the request times out). */
  silent?: string[];
  /** Answered 503. */
  failing?: string[];
}

export interface RdapTestServer {
  baseUrl: string;
  zone: RdapZone;
  /** Every domain asked for. */
  requests: string[];
  /** An IANA-format bootstrap sending the given TLDs here. */
  bootstrap(tlds: string[]): RdapBootstrapJson;
  close(): Promise<void>;
}

export async function startRdapServer(zone: RdapZone): Promise<RdapTestServer> {
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const reply = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/rdap+json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const m = /^\/rdap\/domain\/([^/?]+)$/.exec(req.url ?? '');
    const name = m ? decodeURIComponent(m[1] ?? '').toLowerCase() : '';
    requests.push(name);
    if ((zone.silent ?? []).includes(name)) return;
    const answer = (): void => {
      if ((zone.failing ?? []).includes(name)) return reply(res, 503, { errorCode: 503, title: 'unavailable' });
      if (!(name in zone.registered)) return reply(res, 404, { errorCode: 404, title: 'not found' });
      const date = zone.registered[name];
      reply(res, 200, {
        objectClassName: 'domain',
        ldhName: name,
        events: [
          ...(date ? [{ eventAction: 'registration', eventDate: date }] : []),
          { eventAction: 'last changed', eventDate: '2026-01-01T00:00:00Z' },
        ],
      });
    };
    const delay = zone.delayMs?.[name];
    if (delay === undefined) return answer();
    const t = setTimeout(() => {
      timers.delete(t);
      answer();
    }, delay);
    timers.add(t);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/rdap/`;
  return {
    baseUrl,
    zone,
    requests,
    bootstrap: (tlds) => ({ publication: '2026-01-01T00:00:00Z', services: [[tlds, [baseUrl]]] }),
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
