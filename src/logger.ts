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

/** Removes key/token values from a URL before it is logged. */
export function scrubUrl(url: string): string {
  return url.replace(/([?&](?:key|token|secret)=)[^&#]*/gi, '$1[REDACTED]');
}

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } });
}
