import type { FastifyInstance } from 'fastify';
import { ApiError, type ErrorCode } from './errors.ts';

/**
 * Request bodies of the POST and DELETE methods are taken as text, whatever their Content-Type, and
 * parsed by the endpoint after the pipeline: so the spec's order of checks holds (a bad key is 101
 * even when the body is not JSON) and a body that is not JSON gets the method's own input code.
 */
export function acceptTextBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    done(null, body);
  });
}

/** The body parsed as JSON; absent, empty or invalid JSON throws the endpoint's input error. */
export function readJsonBody(raw: unknown, code: ErrorCode, what: string): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ApiError(code, `The request body is empty: send ${what} as JSON with Content-Type: application/json.`);
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError(code, `The request body is not valid JSON: send ${what} as JSON with Content-Type: application/json.`);
  }
}
