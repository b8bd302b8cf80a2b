import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real RDAP server (node:http on 127.0.0.1) answering `/rdap/autnum/<asn>` from a table, for the
 * ASN-contacts tests; an ASN not in the table is 404.
 */
export interface AutnumAnswer {
  /** Default 200. */
  status?: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is instead of `body` (malformed JSON, say). */
  raw?: string;
  /** Answer after this long. */
  delayMs?: number;
  /** Answer with a 302 to this path on the same server. */
  redirectTo?: string;
}

export interface RdapAsnTestServer {
  baseUrl: string;
  answers: Map<number, AutnumAnswer>;
  /** Every ASN asked for, in order. */
  requests: number[];
  /** An IANA asn.json-format bootstrap sending the given ranges ("1-100", "64500") here. */
  bootstrap(ranges: string[]): { publication: string; services: Array<[string[], string[]]> };
  close(): Promise<void>;
}

export async function startRdapAsnServer(answers: Record<number, AutnumAnswer>): Promise<RdapAsnTestServer> {
  const table = new Map(Object.entries(answers).map(([k, v]) => [Number(k), v]));
  const requests: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const send = (res: ServerResponse, a: AutnumAnswer): void => {
    if (a.redirectTo !== undefined) {
      res.writeHead(302, { location: a.redirectTo });
      res.end();
      return;
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/rdap+json' });
    res.end(a.raw ?? JSON.stringify(a.body ?? {}));
  };
  const server = createServer((req, res) => {
    const m = /^\/rdap\/autnum\/(\d+)$/.exec(req.url ?? '');
    const asn = m ? Number(m[1]) : -1;
    requests.push(asn);
    const a = table.get(asn) ?? { status: 404, body: { errorCode: 404, title: 'Not Found' } };
    if (a.delayMs === undefined) return send(res, a);
    const t = setTimeout(() => {
      timers.delete(t);
      if (!res.destroyed) send(res, a);
    }, a.delayMs);
    timers.add(t);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/rdap/`;
  return {
    baseUrl,
    answers: table,
    requests,
    bootstrap: (ranges) => ({ publication: '2026-01-01T00:00:00Z', services: [[ranges, [baseUrl]]] }),
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
