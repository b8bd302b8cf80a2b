import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRefusal, type AllowedTargets } from './targets.ts';

/** A delivery the target check refused: not retried (the next delivery checks again). */
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** Every address a name resolves to (the system resolver, as a connection would use it; tests give their own). */
export type Resolve = (hostname: string, family: number | undefined) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname, family) => dnsLookup(hostname, { all: true, ...(family === 4 || family === 6 ? { family } : {}) });

/**
 * A DNS lookup that refuses a name resolving to an address WEBHOOK_ALLOW_PRIVATE does not allow. It is the
 * lookup of the connection itself, so the address checked is the address connected to: a name that
 * resolves outside when the webhook is added and inside later (or at every other query) is caught.
 * Every address of the answer is checked, whichever the connection would try first.
 */
function checkedLookup(targets: AllowedTargets, url: URL, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, typeof options.family === 'number' ? options.family : undefined).then(
      (addresses) => {
        for (const a of addresses) {
          const refusal = addressRefusal(targets, url, a.address);
          if (refusal !== null) return callback(new TargetRefused(refusal), '', 0);
        }
        if (options.all === true) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * POSTs `body` once and resolves to the HTTP status; redirects are not followed and the answer's body is
 * not read. Node's own client (not fetch) so the connection uses checkedLookup.
 */
export function postOnce(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, targets: AllowedTargets, resolveName: Resolve = systemResolve): Promise<number> {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0) {
    // A literal address is connected to without a lookup: check it here.
    const refusal = addressRefusal(targets, url, literal);
    if (refusal !== null) return Promise.reject(new TargetRefused(refusal));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: checkedLookup(targets, url, resolveName),
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (res: IncomingMessage) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err: Error) => reject(err.cause instanceof TargetRefused ? err.cause : err));
    req.end(body);
  });
}
