/**
 * Flattening of a response value into dot-path leaves, shared by the CSV and Newline writers
 * (decisions.md "Options and formats": both list "the leaves of `data`").
 *
 * Rules, chosen so every format agrees with the JSON answer:
 * - Objects recurse; a key joins its parent's path with `.` (keys are not escaped, so a key that
 *   itself contains a dot is ambiguous in the path; no current field has one).
 * - A nested empty object is one leaf with an empty value, so its column does not vanish.
 *   The root itself has no path: an empty root object gives no leaves at all.
 * - A root that is not an object (the string `data` of `GET /ip`) is one leaf named by `rootPath`.
 * - Arrays are one leaf: items joined with `|` (not escaped: an item containing `|` is ambiguous;
 *   ask for JSON when that matters). An item that is an object or array is JSON-encoded, so
 *   `[{"a":1},{"a":2}]` becomes `{"a":1}|{"a":2}`; a null item is empty.
 * - Scalars: strings as is, booleans `true`/`false`, null empty, finite numbers as JSON writes
 *   them, non-finite numbers empty (JSON writes them as null).
 * - Keys whose value is undefined, a function or a symbol are skipped, as JSON.stringify does,
 *   and a value with `toJSON` (a Date) is replaced by its result first, as JSON.stringify does.
 */

/** Name of the key in keyed (bulk) CSV and Newline output: the subject as submitted. */
export const KEY_COLUMN = 'query';

/** One flattened value: its dot path and its text. */
export interface Leaf {
  path: string;
  value: string;
}

/** Flattens `value` into dot-path leaves (see the module comment for the rules). */
export function leaves(value: unknown, rootPath = 'data'): Leaf[] {
  const out: Leaf[] = [];
  const root = toPlain(value, '');
  if (isObject(root)) walkObject(root, '', out);
  else if (!isSkipped(root)) out.push({ path: rootPath, value: leafText(root) });
  return out;
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a scalar the way JSON would write it, without quotes; null and undefined are empty. */
export function scalarText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
    case 'symbol':
    case 'function':
      return '';
    case 'object':
      // Only null reaches here from the writers; anything else is encoded rather than lost.
      return value === null ? '' : JSON.stringify(value);
  }
}

/** Applies `toJSON` like JSON.stringify so every format sees the same value. */
export function toPlain(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && 'toJSON' in value) {
    const toJSON: unknown = value.toJSON;
    if (typeof toJSON === 'function') return (toJSON as (k: string) => unknown).call(value, key);
  }
  return value;
}

/** True for values JSON.stringify leaves out of an object. */
export function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function walkObject(obj: Record<string, unknown>, prefix: string, out: Leaf[]): void {
  for (const key of Object.keys(obj)) {
    const child = toPlain(obj[key], key);
    if (isSkipped(child)) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isObject(child) && Object.keys(child).length > 0) walkObject(child, path, out);
    else out.push({ path, value: leafText(child) });
  }
}

function leafText(value: unknown): string {
  if (Array.isArray(value)) return value.map(itemText).join('|');
  if (isObject(value)) return Object.keys(value).length === 0 ? '' : JSON.stringify(value);
  return scalarText(value);
}

function itemText(item: unknown): string {
  const plain = toPlain(item, '');
  if (typeof plain === 'object' && plain !== null) return JSON.stringify(plain);
  return scalarText(plain);
}
