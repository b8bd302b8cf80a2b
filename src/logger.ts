import { AsyncLocalStorage } from 'node:async_hooks';
import { maskEmail, maskIban, maskPhone } from './policy/events/mask.ts';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths scrubbed from every log line: keys and secrets never reach the logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'key',
  'secret',
  'adminToken',
  'liveKey',
  'testKey',
  '*.secret',
  '*.key',
];

/** How a personal query value appears in a logged URL: enough to tell requests apart, never the value. */
const MASKED_PARAMS: Readonly<Record<string, (value: string) => string>> = {
  // A full card number may be sent as `bin`: only the BIN (8 leading digits, spaces and dashes dropped) is logged.
  bin: (v) => `${(/^\d+/.exec(v.replace(/[\s-]/g, ''))?.[0] ?? '').slice(0, 8)}[CUT]`,
  iban: (v) => maskIban(v),
  email: (v) => maskEmail(v),
  phone: (v) => maskPhone(v.replace(/\D/g, '')),
  text: (v) => `[${[...v].length} characters]`,
};

/**
 * Query parameters whose values are never logged: `key` and anything that looks like a credential, in any
 * case. Matched on the decoded name, so `%6Bey` and `k%65y` (which authenticate as `key`) are caught too.
 */
const SECRET_NAME = /key|token|secret|passw|auth|sig/i;

function loggedValue(name: string, value: unknown): string {
  if (SECRET_NAME.test(name)) return '[REDACTED]';
  const text = typeof value === 'string' ? value : String(value);
  const mask = MASKED_PARAMS[name.toLowerCase()];
  return mask ? mask(text) : encodeURIComponent(text);
}

/**
 * The URL of a request as it is logged: its path, then the query as the server parsed it (the same object the
 * key was read from), key values replaced by `[REDACTED]` and personal values masked (card, IBAN, email, phone,
 * text). Built from the parsed query rather than by editing the raw URL, which missed percent-encoded names
 * (`?%6Bey=...` authenticates and was logged in clear).
 */
export function loggedUrl(url: string, query: Readonly<Record<string, unknown>> | undefined): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    const values: readonly unknown[] = Array.isArray(value) ? value : [value];
    for (const v of values) pairs.push(`${encodeURIComponent(name)}=${loggedValue(name, v)}`);
  }
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/** What every log line written while a request is served carries: its id (`X-Request-Id`, accepted or generated). */
export interface RequestScope {
  readonly reqId: string;
}

/**
 * The request being served, across its awaits: entered around each route's handler (src/http/transport.ts),
 * read by the logger's mixin, so that a line logged by any module (store, policy, learning, webhooks) while
 * serving a request carries its `reqId`, and lines outside requests carry none.
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `fn` outside any request's scope: for shared work a request merely starts (a timer that writes the
 * batch of many requests), whose lines must not carry that one request's id.
 */
export function outsideRequests<T>(fn: () => T): T {
  return requestScope.exit(fn);
}

/** The mixin's answer outside requests: one object, never written to. */
const NO_SCOPE: RequestScope = Object.freeze({ reqId: '' });

/** pino `mixin`: the request's own scope object (one per request, no allocation per line). */
const scopeOfLine = (): RequestScope => requestScope.getStore() ?? NO_SCOPE;

/**
 * pino `mixinMergeStrategy`: pino's default assigns the line's fields into the mixin's object, which would
 * write into the request's shared scope. Here a line outside requests is left as it is, a line inside gets
 * `reqId` first, and a line that names its own `reqId` keeps it.
 */
function mergeScope(fields: object, scope: object): object {
  if (scope === NO_SCOPE || 'reqId' in fields) return fields;
  return Object.assign({ reqId: (scope as RequestScope).reqId }, fields);
}

/** The server's logger (stdout unless a destination is given, as tests do). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' }, mixin: scopeOfLine, mixinMergeStrategy: mergeScope };
  return destination === undefined ? pino(options) : pino(options, destination);
}
