/** JSON writer: the envelope as is, nothing else on the hot path. */
import { randomUUID } from 'node:crypto';
import type { Rendered } from './index.ts';

const CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Marks a bigint in the second pass of stringifyJson. The nonce is drawn once per process and never
 * written anywhere (every mark is unquoted), so no string a caller sends can be turned into a number;
 * one nonce per process also means one compiled pattern (a fresh one per answer cost ~40 µs).
 */
const MARKER = `\u0000${randomUUID()}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARKER).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?\\d+)"`, 'g');

/**
 * JSON text of a value that may hold bigints (an IPv6 `IPNumber` is up to 2^128 - 1): each is
 * written as an exact integer literal, which JSON allows, instead of JSON.stringify's TypeError or
 * a rounded double. Plain values take the plain path; a value with bigints is stringified once more
 * with each bigint as a marked string (only the objects on the way to one are copied), and the
 * marks are then unquoted.
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
  }
  return JSON.stringify(markBigints(value, 0)).replaceAll(MARKED, '$1');
}

/** Deeper than any answer: a cycle (which JSON.stringify rejects too) ends here instead of overflowing the stack. */
const MAX_DEPTH = 64;

/** The value with each bigint as MARKER + its digits; an object or array holding none is returned as is, not copied. */
function markBigints(value: unknown, depth: number): unknown {
  if (typeof value === 'bigint') return `${MARKER}${value.toString()}`;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) throw new TypeError('Converting a too deeply nested or circular structure to JSON');
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    let copy: unknown[] | undefined;
    items.forEach((item, i) => {
      const marked = markBigints(item, depth + 1);
      if (marked !== item) (copy ??= [...items])[i] = marked;
    });
    return copy ?? items;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const marked = markBigints(item, depth + 1);
    if (marked !== item) (copy ??= { ...record })[key] = marked;
  }
  return copy ?? value;
}

/** Renders an envelope as JSON. */
export function renderJson(body: Record<string, unknown>): Rendered {
  return { contentType: CONTENT_TYPE, body: stringifyJson(body) };
}
