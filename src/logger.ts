import { maskEmail, maskIban, maskPhone } from './policy/events/mask.ts';
import pino, { type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } });
}
