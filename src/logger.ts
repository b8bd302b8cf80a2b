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

function decoded(v: string): string {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return v;
  }
}

/** How a personal query value appears in a logged URL: enough to tell requests apart, never the value. */
const MASKED_PARAMS: Readonly<Record<string, (value: string) => string>> = {
  // A full card number may be sent as `bin`: only the BIN (8 leading digits, spaces and dashes dropped) is logged.
  bin: (v) => `${(/^\d+/.exec(v.replace(/[\s-]/g, ''))?.[0] ?? '').slice(0, 8)}[CUT]`,
  iban: (v) => maskIban(v),
  email: (v) => maskEmail(v),
  phone: (v) => maskPhone(v.replace(/\D/g, '')),
  text: (v) => `[${[...v].length} characters]`,
};

/** Removes key/token values from a URL before it is logged, and masks personal values (card, IBAN, email, phone, text). */
export function scrubUrl(url: string): string {
  return url
    .replace(/([?&](?:key|token|secret)=)[^&#]*/gi, '$1[REDACTED]')
    .replace(/([?&])(bin|iban|email|phone|text)=([^&#]*)/gi, (_, sep: string, name: string, v: string) => {
      const mask = MASKED_PARAMS[name.toLowerCase()];
      return `${sep}${name}=${mask ? mask(decoded(v)) : '[REDACTED]'}`;
    });
}

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } });
}
