/**
 * JSONP writer (decisions.md "Options and formats"): `/**\/ name(<json>);`.
 *
 * - The leading empty comment defeats the Rosetta Flash family of attacks, where a crafted
 *   callback name makes the body start with bytes another content sniffer accepts.
 * - U+2028 and U+2029 are escaped inside the JSON: they are legal in JSON strings but were line
 *   terminators in JavaScript string literals before ES2019, which broke older engines.
 * - The callback is validated with error 107 before we get here; it is checked again because a
 *   bad name reaching this point would be script injection, so that is a programming error.
 */
import type { Rendered } from './index.ts';
import { stringifyEnvelope } from './json.ts';

const CONTENT_TYPE = 'application/javascript; charset=utf-8';

/** The callback rule of decisions.md (error 107). */
export const CALLBACK_PATTERN = /^[A-Za-z_$][\w$]{0,63}(\.[A-Za-z_$][\w$]{0,63}){0,3}$/;

/** Renders an envelope as a JSONP call of `callback`; throws on a name the API would reject. */
export function renderJsonp(body: Record<string, unknown>, callback: string): Rendered {
  if (!CALLBACK_PATTERN.test(callback)) throw new TypeError('JSONP callback was not validated');
  const json = stringifyEnvelope(body).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
  return {
    contentType: CONTENT_TYPE,
    body: `/**/ ${callback}(${json});`,
    headers: { 'X-Content-Type-Options': 'nosniff' },
  };
}
