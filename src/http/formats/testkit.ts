/**
 * Test helpers for the format writers: independent readers, so tests prove that what we write
 * parses back, rather than comparing the writers with themselves.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isObject, isSkipped, scalarText, toPlain } from './leaves.ts';

/** A strict RFC 4180 reader (CRLF record ends, `""` inside quotes); throws on malformed input. */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let atFieldStart = true;
  while (i < text.length) {
    const c = text[i];
    if (atFieldStart && c === '"') {
      // Quoted field: runs to the quote not followed by another quote.
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
      atFieldStart = false;
      const next = text[i];
      if (next !== ',' && next !== '\r' && next !== undefined) throw new Error(`junk after quoted field at ${String(i)}`);
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
      atFieldStart = true;
      i++;
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`bare CR at ${String(i)}`);
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      atFieldStart = true;
      i += 2;
    } else if (c === '\n' || c === '"') {
      throw new Error(`unquoted ${JSON.stringify(c)} at ${String(i)}`);
    } else {
      field += c;
      atFieldStart = false;
      i++;
    }
  }
  if (!atFieldStart || field !== '' || record.length > 0) throw new Error('last record lacks CRLF');
  return records;
}

/** Undoes the CSV formula guard on one cell. */
export function unguard(cell: string): string {
  return /^'[=+\-@]/.test(cell) ? cell.slice(1) : cell;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

type Parsed = Record<string, unknown>;

/** Validates an XML document and decodes `<response>` back to a JSON-like value (see xmlProjection). */
export function readXml(xml: string): unknown {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`invalid XML: ${valid.err.msg} (line ${String(valid.err.line)})`);
  const doc = parser.parse(xml) as Parsed[];
  const root = doc.find((n) => 'response' in n);
  if (root === undefined) throw new Error('no <response>');
  return decode(root.response as Parsed[]);
}

function tagOf(node: Parsed): string {
  const tag = Object.keys(node).find((k) => k !== ':@');
  if (tag === undefined) throw new Error('node without a tag');
  return tag;
}

function keyOf(node: Parsed): string {
  const tag = tagOf(node);
  const attrs = node[':@'] as Record<string, string> | undefined;
  return tag === 'field' && attrs?.['@_name'] !== undefined ? attrs['@_name'] : tag;
}

function decode(children: Parsed[]): unknown {
  if (children.length === 0) return '';
  if (children.every((c) => '#text' in c)) return children.map((c) => String(c['#text'])).join('');
  if (children.every((c) => tagOf(c) === 'item' && c[':@'] === undefined)) {
    return children.map((c) => decode(c.item as Parsed[]));
  }
  const out: Record<string, unknown> = {};
  for (const c of children) {
    if ('#text' in c) throw new Error('mixed content');
    out[keyOf(c)] = decode(c[tagOf(c)] as Parsed[]);
  }
  return out;
}

/** What an XML round trip can preserve: scalars as text, empties and null as '', order kept. */
export function xmlProjection(value: unknown): unknown {
  const plain = toPlain(value, '');
  if (Array.isArray(plain)) {
    return plain.length === 0 ? '' : plain.map((v: unknown) => (isSkipped(toPlain(v, '')) ? '' : xmlProjection(v)));
  }
  if (isObject(plain)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(plain)) if (!isSkipped(toPlain(v, k))) out[k] = xmlProjection(v);
    return Object.keys(out).length === 0 ? '' : out;
  }
  // XML 1.0 cannot carry these characters; the writer drops them.
  return scalarText(plain).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

/** Reads a Newline body back into `[path, value]` pairs, undoing its escapes. */
export function readNewline(text: string): [string, string][] {
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error('last line lacks LF');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const at = line.indexOf(': ');
      if (at < 0) throw new Error(`no separator in ${JSON.stringify(line)}`);
      return [unescapeLine(line.slice(0, at)), unescapeLine(line.slice(at + 2))];
    });
}

function unescapeLine(text: string): string {
  return text.replace(/\\([\\nr])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
}
