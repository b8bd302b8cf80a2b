import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { errorBody, type ErrorCode } from './errors.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { answerHeaders, sendEnvelope, toErrorBody } from './reply.ts';
import { requestScope } from '../logger.ts';

const CORS = { 'access-control-allow-origin': '*' };

/**
 * Everything outside an endpoint's pipeline: CORS on every answer, OPTIONS preflight, unknown paths,
 * malformed URLs, unreadable requests and the last-resort error handler. Internals never leak.
 */
export function registerTransportHandlers(app: FastifyInstance, logger: Logger): void {
  // API methods set the header as they write (writeRendered, also the 404 and error envelopes): a
  // global onRequest hook cost them about 3 µs a request. Every other route gets it from its own hook.
  const cors: onRequestHookHandler = (_req, reply, done) => {
    answerHeaders(reply);
    done();
  };
  app.addHook('onRoute', (route) => {
    if ((route.config as { corsInAnswer?: boolean } | undefined)?.corsInAnswer === true) return;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [cors] : [cors, ...(Array.isArray(own) ? own : [own])];
  });

  // Every route's handler runs in its request's scope (src/logger.ts): what any module logs while the request is
  // served, and after it awaits, carries the request's `reqId`. Entered around the handler rather than in a hook:
  // the body has been read by then (stream events would have left the scope), and no hook is added to API methods.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function scoped(this: FastifyInstance, req, reply) {
      return requestScope.run({ reqId: req.id }, () => handler.call(this, req, reply));
    };
  });

  app.options('/*', { schema: { hide: true } }, (_req, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type')
      .header('access-control-max-age', '86400')
      .send(),
  );

  const allowed = allowedMethods(app);
  app.setNotFoundHandler((req, reply) => {
    // A known path asked with another method is told which methods it answers (HTTP 405 and Allow), not "no method here".
    const methods = req.method === 'OPTIONS' ? [] : allowed(req.url);
    // A route of this very method that found nothing (a missing /docs asset) is a 404 too.
    if (methods.length === 0 || methods.includes(req.method)) return sendEnvelope(reply, { ...errorBody(404) }, { format: 'JSON', httpStatus: 404 });
    const list = methods.join(', ');
    reply.header('allow', list);
    return sendEnvelope(reply, { ...errorBody(405, `${req.method} is not answered at this path; it answers ${list}. See /docs.`) }, { format: 'JSON', httpStatus: 405 });
  });

  app.setErrorHandler((err, req, reply) => {
    const routeConfig = req.routeOptions.config as { inputErrorCode?: ErrorCode; corsInAnswer?: boolean } | undefined;
    const mapped = toErrorBody(err, routeConfig?.inputErrorCode);
    if (mapped.unexpected) {
      const status = (err as { statusCode?: number }).statusCode;
      // Fastify's own 4xx (unreadable body, bad media type on a route without an input code) are the caller's fault.
      if (typeof status === 'number' && status >= 400 && status < 500) {
        // API methods answer HTTP 200 with the envelope. Elsewhere (the /docs assets of @fastify/static) the status is
        // real: a path that leaves the assets' folder (403 there, `/docs/static/../../package.json`) is a file that
        // is not there, as a missing one is (404); other refusals are 400.
        if (routeConfig?.corsInAnswer === true) return sendEnvelope(reply, { ...errorBody(400) }, { format: 'JSON' });
        if (status === 403 || status === 404) return sendEnvelope(reply, { ...errorBody(404) }, { format: 'JSON', httpStatus: 404 });
        return sendEnvelope(reply, { ...errorBody(400) }, { format: 'JSON', httpStatus: 400 });
      }
      logger.error({ reqId: req.id, err }, 'unhandled error');
    }
    return sendEnvelope(reply, { ...mapped.body }, { format: 'JSON' });
  });
}

/** A caller's request id is kept when it is a plain token (a UUID, a trace id); anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Fastify option `genReqId`: the request id logged with the request's lines and echoed as `X-Request-Id`,
 * the caller's `X-Request-Id` when sane (so a proxy's or client's id follows the request), else a UUID.
 */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** HEAD comes with GET (Fastify answers it) and OPTIONS with every path (CORS preflight): neither is listed alone. */
const LISTED = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The methods each registered path answers, for the 405's Allow header: collected as routes are added
 * (`:param` matches one segment, `*` the rest), matched on the request's path without its query or a
 * trailing slash (the router ignores one). Returns a lookup by request URL.
 */
function allowedMethods(app: FastifyInstance): (url: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase()).filter((m) => LISTED.has(m));
    if (methods.length === 0) return;
    const source = route.url
      .replace(/\/+$/, '')
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    routes.push({ pattern: new RegExp(`^${source}/?$`), methods });
  });
  return (url) => {
    const q = url.indexOf('?');
    let path = q === -1 ? url : url.slice(0, q);
    try {
      path = decodeURIComponent(path);
    } catch {
      return [];
    }
    const found = new Set<string>();
    for (const r of routes) if (r.pattern.test(path)) for (const m of r.methods) found.add(m);
    if (found.has('GET')) found.add('HEAD');
    return [...found];
  };
}

/** Fastify option: framework-level failures (bad URL encoding, overlong path parameter). */
export function frameworkErrors(): (err: Error, req: unknown, reply: import('fastify').FastifyReply) => void {
  // These fail before any onRequest hook runs; sendEnvelope (writeRendered) sets CORS.
  return (_err, _req, reply) => {
    void sendEnvelope(reply, { ...errorBody(400) }, { format: 'JSON', httpStatus: 400 });
  };
}

/** Fastify option: requests Node cannot parse (oversized headers, broken HTTP) or that came too slowly get the envelope too. */
export function clientErrorHandler(err: NodeJS.ErrnoException & { code?: string }, socket: import('node:stream').Duplex): void {
  // The socket is ours once Node hands it here: one that cannot take an answer is closed, never left open.
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, description] = clientErrorAnswer(err.code ?? '');
  const body = JSON.stringify(description === undefined ? { ...errorBody(400) } : { ...errorBody(400, description) });
  const headers = Object.entries({ ...CORS, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status}\r\n${headers}\r\n\r\n${body}`);
}

function clientErrorAnswer(code: string): [status: string, description: string | undefined] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['431 Request Header Fields Too Large', 'The request line or headers are too large (limit 128 KiB). Send long inputs in fewer or shorter parameters.'];
    // HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS passed before the whole request arrived (a slow or stalled client).
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['408 Request Timeout', 'The request did not arrive in full in time (see HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS). Send the headers and the body without pauses.'];
    default:
      return ['400 Bad Request', undefined];
  }
}
