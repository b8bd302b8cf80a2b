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

/** Answers frozen by {@link reusableAnswer}, with their JSON text once it has been written. */
const reusable = new WeakMap<object, string | null>();

/**
 * Deep-freezes `value` and marks it as an answer that many requests may share (a per-second cache
 * of country answers): its JSON text is then written once and spliced into every envelope that
 * carries it as `data`. Freezing is what makes the memo safe: nothing can change the answer after
 * its text was taken (a write would throw instead of being silently missing from the text).
 */
export function reusableAnswer<T extends object>(value: T): T {
  deepFreeze(value, 0);
  reusable.set(value, null);
  return value;
}

/** Whether `value` was marked by {@link reusableAnswer} (and is therefore frozen). */
export function isReusableAnswer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && reusable.has(value);
}

function deepFreeze(value: unknown, depth: number): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (depth > MAX_DEPTH) throw new TypeError('Cannot freeze a too deeply nested or circular structure');
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item, depth + 1);
}

/**
 * JSON text of an envelope. When `data` is a {@link reusableAnswer}, its text is taken from the
 * memo and the few envelope fields around it are written one by one, in the envelope's own key
 * order and with JSON.stringify's rules (undefined fields left out); otherwise the plain path.
 */
export function stringifyEnvelope(body: Record<string, unknown>): string {
  const data = body.data;
  if (typeof data !== 'object' || data === null || !reusable.has(data)) return stringifyJson(body);
  let dataText = reusable.get(data);
  if (dataText == null) {
    dataText = stringifyJson(data);
    reusable.set(data, dataText);
  }
  let out = '';
  for (const key of Object.keys(body)) {
    const text = key === 'data' ? dataText : (stringifyJson(body[key]) as string | undefined);
    if (text === undefined) continue;
    out += `${out === '' ? '{' : ','}${JSON.stringify(key)}:${text}`;
  }
  return out === '' ? '{}' : `${out}}`;
}

/** Renders an envelope as JSON. */
export function renderJson(body: Record<string, unknown>): Rendered {
  return { contentType: CONTENT_TYPE, body: stringifyEnvelope(body) };
}
