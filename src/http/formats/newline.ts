/**
 * Newline writer (decisions.md "Options and formats"): the same leaves as CSV (success: leaves of
 * `data`; error: the error fields), one `path: value` line each, every line ending in LF.
 *
 * - So a leaf always stays on one line, `\` is written `\\`, LF `\n` and CR `\r`; reading a line
 *   back means splitting at the first `: ` and undoing those three escapes.
 * - Keyed (bulk IP lookup): one block per key, starting with a `query: <key>` line (the same
 *   name as the CSV key column), blocks separated by one blank line.
 * - No leaves at all (empty `data` object) gives an empty body.
 */
import type { Rendered } from './index.ts';
import { isObject, KEY_COLUMN, leaves } from './leaves.ts';

const CONTENT_TYPE = 'text/plain; charset=utf-8';

/** Renders an envelope as `path: value` lines; `keyed` gives one block per key of `data`. */
export function renderNewline(body: Record<string, unknown>, keyed: boolean): Rendered {
  let text: string;
  if (body.status === 'error') text = lines(body);
  else if (keyed && isObject(body.data)) text = keyedBlocks(body.data);
  else text = lines(body.data);
  return { contentType: CONTENT_TYPE, body: text };
}

/** Escapes a path or value so it cannot break the line. */
export function escapeLine(text: string): string {
  // Fast path: most values hold none of the three characters.
  if (!/[\\\n\r]/.test(text)) return text;
  return text.replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r'));
}

function line(path: string, value: string): string {
  return `${escapeLine(path)}: ${escapeLine(value)}\n`;
}

function lines(value: unknown): string {
  let out = '';
  for (const leaf of leaves(value)) out += line(leaf.path, leaf.value);
  return out;
}

function keyedBlocks(data: Record<string, unknown>): string {
  return Object.keys(data)
    .map((key) => line(KEY_COLUMN, key) + lines(data[key]))
    .join('\n');
}
