/**
 * XML writer (decisions.md "Options and formats").
 *
 * - `<?xml version="1.0" encoding="UTF-8"?>`, a LF, then `<response>` holding the envelope's
 *   fields, `status` first, the others in the body's order (success: status, data,
 *   executionTime; error: status, code, type, description). No indentation.
 * - Objects nest as elements; array items are `<item>` elements; a key that is not a valid
 *   XML name is written `<field name="key">`. Valid means an XML 1.0 Name without `:` (so
 *   namespace-aware parsers accept it) and not starting with `xml` in any case (reserved).
 *   Bulk addresses (`1.2.3.4`, `2001:db8::1`) therefore become `<field name="...">`.
 * - null, an empty string, an empty object and an empty array are all an empty element
 *   (`<zipCode/>`); XML has no null, read JSON when the difference matters.
 * - Scalars as JSON writes them (see leaves.ts `scalarText`); keys JSON would skip are skipped.
 * - Text escapes `&`, `<`, `>`, `"`, `'` and CR (as `&#13;`, which parsers would otherwise turn
 *   into LF); attribute values also escape LF and TAB, which parsers would turn into spaces.
 *   Characters XML 1.0 forbids (C0 controls other than TAB/LF/CR, lone surrogates, U+FFFE/FFFF)
 *   are removed.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { Rendered } from './index.ts';
import { isObject, isSkipped, scalarText, toPlain } from './leaves.ts';

const CONTENT_TYPE = 'application/xml; charset=utf-8';
const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>\n';

// Ordered mode lets `field` repeat between other keys without losing order; we escape text
// ourselves (processEntities off) so that CR and attribute whitespace survive a parse.
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  suppressEmptyNode: true,
  processEntities: false,
  format: false,
});

/** A node of fast-xml-parser's ordered form: `{ tag: children, ':@'?: attributes }` or text. */
type OrderedNode = Record<string, OrderedNode[] | Record<string, string> | string>;

/** Renders an envelope as XML. */
export function renderXml(body: Record<string, unknown>): Rendered {
  const keys = Object.keys(body);
  const ordered = keys.includes('status') ? ['status', ...keys.filter((k) => k !== 'status')] : keys;
  return { contentType: CONTENT_TYPE, body: PROLOG + builder.build([{ response: objectChildren(body, ordered) }]) };
}

// XML 1.0 (5th ed.) NameStartChar / NameChar, without ':'. The joiner and combining-mark ranges
// are code point ranges of the production, not visible characters, hence the disable.
const NAME =
  // eslint-disable-next-line no-misleading-character-class
  /^[A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}][A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}\-.0-9\u00B7\u0300-\u036F\u203F\u2040]*$/u;

/** True when `key` can be written as an element name as is. */
export function isElementName(key: string): boolean {
  return NAME.test(key) && !/^xml/i.test(key);
}

// Everything outside XML 1.0's Char production; with /u a lone surrogate is one code point.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const TEXT_SPECIAL = /[&<>"'\r]/g;
const ATTR_SPECIAL = /[&<>"'\r\n\t]/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

function escapeWith(text: string, special: RegExp): string {
  return text.replace(FORBIDDEN, '').replace(special, (c) => ENTITY[c] ?? c);
}

/** Escapes element text: markup characters, quotes and CR; drops characters XML forbids. */
export function escapeText(text: string): string {
  return escapeWith(text, TEXT_SPECIAL);
}

/** Escapes an attribute value: as text, plus LF and TAB. */
export function escapeAttribute(text: string): string {
  return escapeWith(text, ATTR_SPECIAL);
}

function element(key: string, value: unknown): OrderedNode {
  const children = valueChildren(value);
  if (isElementName(key)) return { [key]: children };
  return { field: children, ':@': { '@_name': escapeAttribute(key) } };
}

function valueChildren(value: unknown): OrderedNode[] {
  if (Array.isArray(value)) {
    return value.map((item: unknown) => {
      const plain = toPlain(item, '');
      // JSON writes a skipped array item as null: an empty <item/>.
      return { item: isSkipped(plain) ? [] : valueChildren(plain) };
    });
  }
  if (isObject(value)) return objectChildren(value, Object.keys(value));
  const text = scalarText(value);
  return text === '' ? [] : [{ '#text': escapeText(text) }];
}

function objectChildren(obj: Record<string, unknown>, keys: string[]): OrderedNode[] {
  const out: OrderedNode[] = [];
  for (const key of keys) {
    const value = toPlain(obj[key], key);
    if (!isSkipped(value)) out.push(element(key, value));
  }
  return out;
}
