import type { FastifyInstance } from 'fastify';
import { ApiError, type ErrorCode } from './errors.ts';

/**
 * The largest request body the API reads (bytes; Fastify's `bodyLimit`). A bulk feedback call of 1,000
 * items is about 150 KB: the limit leaves room for long values without letting one request hold megabytes.
 */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * How deep objects and arrays may nest in a JSON body. The API's bodies nest four levels at most; a body
 * nested thousands of levels parsed (V8's parser does not recurse) but then overflowed the stack of every
 * recursive walk after it (JSON.stringify of the decision record), after the answer had gone out.
 */
export const BODY_MAX_DEPTH = 64;

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

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the text, read as JSON, nests objects and arrays deeper than `max`. Brackets inside strings do not
 * count. One pass over the text without recursion, before parsing, so the limit also holds for walks that would
 * otherwise be the first to meet the depth. Unbalanced text is left to JSON.parse to reject.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** The description of a body over BODY_LIMIT_BYTES (Fastify rejects it before it is read whole). */
export const BODY_TOO_LARGE = `The request body is too large: at most ${BODY_LIMIT_BYTES.toLocaleString('en-US')} bytes (2 MiB) are accepted.`;

/** The body parsed as JSON; absent, empty, invalid or too deeply nested JSON throws the endpoint's input error. */
export function readJsonBody(raw: unknown, code: ErrorCode, what: string): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ApiError(code, `The request body is empty: send ${what} as JSON with Content-Type: application/json.`);
  }
  if (nestsDeeperThan(raw, BODY_MAX_DEPTH)) {
    throw new ApiError(code, `The request body nests objects and arrays too deeply: at most ${BODY_MAX_DEPTH} levels are accepted. Send ${what} as JSON.`);
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError(code, `The request body is not valid JSON: send ${what} as JSON with Content-Type: application/json.`);
  }
}
