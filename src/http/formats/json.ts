/** JSON writer: the envelope as is, nothing else on the hot path. */
import { randomUUID } from 'node:crypto';
import type { Rendered } from './index.ts';

const CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * JSON text of a value that may hold bigints (an IPv6 `IPNumber` is up to 2^128 - 1): each is
 * written as an exact integer literal, which JSON allows, instead of JSON.stringify's TypeError or
 * a rounded double. Plain values take the plain path; only a bigint pays for the second pass. The
 * marker carries a random nonce, so no string a caller sends can be turned into a number.
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
  }
  const marker = `\u0000${randomUUID()}:`;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString()}` : v));
  const quoted = JSON.stringify(marker).slice(1, -1);
  return text.replaceAll(new RegExp(`"${quoted.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(\\d+)"`, 'g'), '$1');
}

/** Renders an envelope as JSON. */
export function renderJson(body: Record<string, unknown>): Rendered {
  return { contentType: CONTENT_TYPE, body: stringifyJson(body) };
}
