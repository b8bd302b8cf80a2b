import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BULK_DATA, DATA_CASES, ERROR_BODY, success } from './fixtures.ts';
import { render } from './index.ts';
import { leaves } from './leaves.ts';
import { escapeLine } from './newline.ts';
import { readNewline } from './testkit.ts';

const nl = (body: Record<string, unknown>, keyed = false): string => render(body, { format: 'Newline', keyed }).body;

void describe('Newline', () => {
  for (const c of DATA_CASES) {
    void it(`round-trips ${c.name}`, () => {
      const text = nl(success(c.data));
      assert.deepEqual(readNewline(text), leaves(c.data).map((l) => [l.path, l.value]));
      assert.equal(text.split('\n').length - 1, leaves(c.data).length, 'one line per leaf');
      assert.ok(!text.includes('\r'));
    });
  }

  void it('writes the exact lines', () => {
    const body = success({ ip: '1.1.1.1', zipCode: null, bogon: false, geo: { lat: -33.86 }, tags: ['a', 'b'], note: 'x\ny\\z' });
    assert.equal(nl(body), 'ip: 1.1.1.1\nzipCode: \nbogon: false\ngeo.lat: -33.86\ntags: a|b\nnote: x\\ny\\\\z\n');
  });

  void it('escapes backslash, LF and CR only', () => {
    assert.equal(escapeLine('plain: text'), 'plain: text');
    assert.equal(escapeLine('a\r\nb\\'), 'a\\r\\nb\\\\');
  });

  void it('writes string data as the leaf data', () => {
    assert.equal(nl(success('2001:db8::1')), 'data: 2001:db8::1\n');
  });

  void it('writes nothing for an empty data object', () => {
    assert.equal(nl(success({})), '');
  });

  void it('writes the error fields of an error', () => {
    assert.equal(nl(ERROR_BODY), `status: error\ncode: 112\ntype: invalid_ip\ndescription: ${ERROR_BODY.description}\n`);
    assert.equal(nl(ERROR_BODY, true), nl(ERROR_BODY));
  });

  void it('separates bulk addresses with a blank line, each block led by its query', () => {
    const text = nl(success(BULK_DATA), true);
    const blocks = text.split('\n\n');
    assert.equal(blocks.length, 3);
    const keys = Object.keys(BULK_DATA);
    blocks.forEach((block, i) => {
      const pairs = readNewline(block.endsWith('\n') ? block : `${block}\n`);
      assert.deepEqual(pairs[0], ['query', keys[i]]);
      assert.deepEqual(pairs.slice(1), leaves(Object.values(BULK_DATA)[i]).map((l) => [l.path, l.value]));
    });
    assert.ok(text.endsWith('\n') && !text.endsWith('\n\n'));
  });

  void it('has the plain text content type', () => {
    assert.equal(render(success({ a: 1 }), { format: 'Newline' }).contentType, 'text/plain; charset=utf-8');
  });
});
