import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BULK_DATA, DATA_CASES, ERROR_BODY, success } from './fixtures.ts';
import { render } from './index.ts';
import { readXml, xmlProjection } from './testkit.ts';
import { isElementName } from './xml.ts';

const xml = (body: Record<string, unknown>): string => render(body, { format: 'XML' }).body;
const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>\n';

void describe('XML', () => {
  for (const c of DATA_CASES) {
    void it(`is well-formed and round-trips ${c.name}`, () => {
      const body = success(c.data);
      const back = readXml(xml(body));
      assert.deepEqual(back, xmlProjection({ status: 'success', data: c.data, executionTime: 7 }));
    });
  }

  void it('keeps key order, status first', () => {
    const back = readXml(xml(success({ z: 1, a: 2, m: { y: 1, b: 2 } }))) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(back), ['status', 'data', 'executionTime']);
    assert.deepEqual(Object.keys(back.data ?? {}), ['z', 'a', 'm']);
    assert.deepEqual(Object.keys(back.data?.m ?? {}), ['y', 'b']);
  });

  void it('writes the exact document for a small success', () => {
    const body = success({ ip: '1.1.1.1', zipCode: null, bogon: false, n: -1.5, tags: ['a', 'b'], empty: {}, png: { '1000px': 'u' } });
    assert.equal(
      xml(body),
      `${PROLOG}<response><status>success</status><data><ip>1.1.1.1</ip><zipCode/><bogon>false</bogon><n>-1.5</n>` +
        '<tags><item>a</item><item>b</item></tags><empty/><png><field name="1000px">u</field></png></data>' +
        '<executionTime>7</executionTime></response>',
    );
  });

  void it('writes the exact document for an error', () => {
    assert.equal(
      xml(ERROR_BODY),
      `${PROLOG}<response><status>error</status><code>112</code><type>invalid_ip</type>` +
        `<description>${ERROR_BODY.description}</description></response>`,
    );
  });

  void it('writes string data as the text of <data>', () => {
    assert.equal(xml(success('203.0.113.9')), `${PROLOG}<response><status>success</status><data>203.0.113.9</data><executionTime>7</executionTime></response>`);
  });

  void it('writes an empty data object as <data/>', () => {
    assert.ok(xml(success({})).includes('<data/>'));
  });

  void it('writes a success without executionTime (user deletion)', () => {
    assert.deepEqual(readXml(xml({ data: { deleted: true }, status: 'success' })), { status: 'success', data: { deleted: 'true' } });
  });

  void it('escapes markup and quotes', () => {
    const out = xml(success({ s: `<a href="x">&'</a>` }));
    assert.ok(out.includes('<s>&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;</s>'), out);
  });

  void it('escapes markup in field names', () => {
    const out = xml(success({ '1<"&>': 'v' }));
    assert.ok(out.includes('<field name="1&lt;&quot;&amp;&gt;">v</field>'), out);
  });

  void it('removes characters XML 1.0 forbids, keeping TAB, LF and CR', () => {
    const out = xml(success({ s: '\u0000a\u0001b\u000Bc\u001Fd\uFFFEe\uD800f\t\n\rg😀' }));
    const back = readXml(out) as { data: { s: string } };
    assert.equal(back.data.s, 'abcdef\t\n\rg😀');
  });

  void it('keeps whitespace in field names through a parse', () => {
    const back = readXml(xml(success({ 'a\tb\nc\rd': 1 }))) as { data: Record<string, string> };
    assert.deepEqual(back.data, { 'a\tb\nc\rd': '1' });
  });

  void it('writes array items as <item>, nested arrays and null items included', () => {
    const out = xml(success({ a: [[1, 2], null, { k: 'v' }] }));
    assert.ok(out.includes('<a><item><item>1</item><item>2</item></item><item/><item><k>v</k></item></a>'), out);
  });

  void it('writes bulk addresses as <field name>', () => {
    const out = render(success(BULK_DATA), { format: 'XML', keyed: true }).body;
    assert.ok(out.includes('<field name="1.1.1.1"><ip>1.1.1.1</ip>'));
    assert.ok(out.includes('<field name="2001:db8::1">'));
    assert.deepEqual(readXml(out), xmlProjection(success(BULK_DATA)) as object);
  });

  const names: [string, boolean][] = [
    ['ip', true],
    ['IPNumber', true],
    ['_x', true],
    ['a-b.c_1', true],
    ['Ünïcode', true],
    ['東京', true],
    ['1000px', false],
    ['64bits_mode', false],
    ['-x', false],
    ['.x', false],
    ['', false],
    ['a b', false],
    ['ns:tag', false],
    ['xmlns', false],
    ['XMLthing', false],
    ['#text', false],
    [':@', false],
    ['😀', true], // U+1F600 is in the supplementary NameStartChar range
    ['×', false],
    ['a/b', false],
  ];
  for (const [name, valid] of names) {
    void it(`${valid ? 'accepts' : 'rejects'} ${JSON.stringify(name)} as an element name`, () => {
      assert.equal(isElementName(name), valid);
    });
  }

  void it('has the XML content type', () => {
    assert.equal(render(success({}), { format: 'XML' }).contentType, 'application/xml; charset=utf-8');
  });
});
