import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { BULK_DATA, ERROR_BODY, IP_RESULT, success } from './fixtures.ts';
import { render, type Format } from './index.ts';
import { readCsv, readNewline, readXml } from './testkit.ts';

const FORMATS: Format[] = ['JSON', 'XML', 'CSV', 'Newline'];
const CONTENT_TYPES: Record<Format, string> = {
  JSON: 'application/json; charset=utf-8',
  XML: 'application/xml; charset=utf-8',
  CSV: 'text/csv; charset=utf-8',
  Newline: 'text/plain; charset=utf-8',
};

/** Runs a JSONP body and returns what the callback received. */
function runJsonp(body: string, callback: string): unknown {
  let received: unknown;
  const sandbox: Record<string, unknown> = {};
  const receive = (value: unknown): void => {
    received = value;
  };
  const parts = callback.split('.');
  let target = sandbox;
  parts.slice(0, -1).forEach((p) => {
    const next: Record<string, unknown> = {};
    target[p] = next;
    target = next;
  });
  target[parts.at(-1) ?? ''] = receive;
  runInNewContext(body, sandbox);
  // Cross-realm objects fail deepEqual's prototype check; JSON copies into this realm.
  return JSON.parse(JSON.stringify(received)) as unknown;
}

void describe('render', () => {
  void it('JSON is plain JSON.stringify', () => {
    const body = success(IP_RESULT);
    const out = render(body, { format: 'JSON' });
    assert.deepEqual(out, { contentType: CONTENT_TYPES.JSON, body: JSON.stringify(body) });
  });

  void it('JSON ignores an empty callback', () => {
    assert.equal(render(success('x'), { format: 'JSON', callback: '' }).body, JSON.stringify(success('x')));
  });

  void it('JSONP wraps the JSON exactly', () => {
    const body = success({ a: 1 });
    const out = render(body, { format: 'JSON', callback: 'cb' });
    assert.deepEqual(out, {
      contentType: 'application/javascript; charset=utf-8',
      body: `/**/ cb(${JSON.stringify(body)});`,
      headers: { 'X-Content-Type-Options': 'nosniff' },
    });
  });

  void it('JSONP escapes U+2028 and U+2029 and still delivers them', () => {
    const body = success({ s: 'a\u2028b\u2029c', emoji: '😀', rtl: 'שלום' });
    const out = render(body, { format: 'JSON', callback: 'ns.sub.cb' });
    assert.ok(!/[\u2028\u2029]/.test(out.body));
    assert.ok(out.body.includes('a\\u2028b\\u2029c'));
    assert.deepEqual(runJsonp(out.body, 'ns.sub.cb'), body);
  });

  void it('JSONP delivers an error body', () => {
    const out = render(ERROR_BODY, { format: 'JSON', callback: '$_cb1' });
    assert.deepEqual(runJsonp(out.body, '$_cb1'), ERROR_BODY);
  });

  void it('JSONP refuses a callback the API would reject', () => {
    for (const bad of ['alert(1)//', '1cb', 'a.b.c.d.e', 'a-b', `a${'b'.repeat(64)}`, 'cb\n']) {
      assert.throws(() => render(success(1), { format: 'JSON', callback: bad }), TypeError, bad);
    }
  });

  for (const format of FORMATS.slice(1)) {
    void it(`${format} ignores a callback (109 is rendered in the format asked)`, () => {
      const out = render(ERROR_BODY, { format, callback: 'cb' });
      assert.equal(out.contentType, CONTENT_TYPES[format]);
      assert.equal(out.headers, undefined);
      assert.ok(!out.body.includes('cb('));
    });
  }

  for (const format of FORMATS) {
    void it(`${format} carries string data (GET /ip)`, () => {
      const out = render(success('2001:db8::1'), { format });
      assert.equal(out.contentType, CONTENT_TYPES[format]);
      const values: Record<Format, () => unknown> = {
        JSON: () => (JSON.parse(out.body) as { data: unknown }).data,
        XML: () => (readXml(out.body) as { data: unknown }).data,
        CSV: () => readCsv(out.body)[1]?.[0],
        Newline: () => readNewline(out.body)[0]?.[1],
      };
      assert.equal(values[format](), '2001:db8::1');
    });

    void it(`${format} carries the error fields`, () => {
      const out = render(ERROR_BODY, { format });
      const fields: Record<Format, () => unknown> = {
        JSON: () => JSON.parse(out.body) as unknown,
        XML: () => readXml(out.body),
        CSV: () => {
          const [header = [], row = []] = readCsv(out.body);
          return Object.fromEntries(header.map((h, i) => [h, row[i]]));
        },
        Newline: () => Object.fromEntries(readNewline(out.body)),
      };
      assert.deepEqual(fields[format](), { ...ERROR_BODY, code: format === 'JSON' ? 112 : '112' });
    });
  }

  for (const format of ['JSON', 'XML'] as const) {
    void it(`${format} is unchanged by keyed`, () => {
      assert.deepEqual(render(success(BULK_DATA), { format, keyed: true }), render(success(BULK_DATA), { format }));
    });
  }
});
