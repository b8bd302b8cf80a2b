import type { FastifyReply } from 'fastify';
import { render, type Format, type Rendered } from './formats/index.ts';
import { ApiError, errorBody, type ErrorBody, type ErrorCode } from './errors.ts';
import { BODY_TOO_LARGE } from './body.ts';
import { vigilVersion } from '../version.ts';

export interface RenderOptions {
  format: Format;
  callback?: string | undefined;
  keyed?: boolean;
}

/** Renders an envelope in the requested format. */
export function renderEnvelope(body: Record<string, unknown>, opts: RenderOptions): Rendered {
  return render(body, { format: opts.format, ...(opts.callback ? { callback: opts.callback } : {}), keyed: opts.keyed ?? false });
}

/**
 * Bodies from this many UTF-16 units on are sent as UTF-8 bytes, not as a string. JSON.stringify builds
 * a long text as a string of many pieces, and one that holds a character beyond Latin-1 (a flag emoji
 * of the location module) takes about 1 ms to join into one string for 86 KB (a bulk of 50 IP results)
 * against 0.01-0.4 ms when it is all Latin-1. Fastify's Content-Length (Buffer.byteLength) joins it on
 * the event loop; Buffer.from encodes the pieces as they are, 0.2-0.5 ms. Short answers keep the
 * string, which Node writes with the headers in one piece.
 */
const BYTES_FROM = 8192;

/**
 * Writes a rendered body with the headers of every answer (CORS, request id, version: answerHeaders is the
 * same for other routes); API answers are HTTP 200 unless `httpStatus` says otherwise.
 */
export function writeRendered(reply: FastifyReply, out: Rendered, httpStatus = 200): FastifyReply {
  reply.code(httpStatus).header('content-type', out.contentType);
  answerHeaders(reply);
  if (out.headers) for (const [k, v] of Object.entries(out.headers)) reply.header(k, v);
  return reply.send(out.body.length >= BYTES_FROM ? Buffer.from(out.body, 'utf8') : out.body);
}

/** CORS, `X-Request-Id` (the caller's when sane, else generated: transport.ts) and `X-Vigil-Version`, on every answer. */
export function answerHeaders(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*').header('x-request-id', reply.request.id).header('x-vigil-version', vigilVersion());
}

/** Renders and writes an envelope in one go (errors outside the pipeline, 404s). */
export function sendEnvelope(reply: FastifyReply, body: Record<string, unknown>, opts: RenderOptions & { httpStatus?: number }): FastifyReply {
  return writeRendered(reply, renderEnvelope(body, opts), opts.httpStatus);
}

/** Maps anything thrown in a request to the envelope; unexpected errors become 115 with no internals. */
export function toErrorBody(err: unknown, inputErrorCode: ErrorCode | undefined): { body: ErrorBody; unexpected: boolean } {
  if (err instanceof ApiError) return { body: errorBody(err.code, err.detail), unexpected: false };
  const fe = err as { code?: unknown; statusCode?: unknown };
  // Fastify rejects odd bodies and content types before the handler: they are the caller's input.
  if (inputErrorCode !== undefined && typeof fe.code === 'string' && fe.code.startsWith('FST_ERR_CTP')) {
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { body: errorBody(inputErrorCode, BODY_TOO_LARGE), unexpected: false };
    return { body: errorBody(inputErrorCode, 'The request body is not valid JSON or has an unsupported Content-Type.'), unexpected: false };
  }
  return { body: errorBody(115), unexpected: true };
}
