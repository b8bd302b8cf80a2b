import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardCell } from './csv.ts';
import { BULK_DATA, DATA_CASES, ERROR_BODY, success } from './fixtures.ts';
import { render } from './index.ts';
import { leaves } from './leaves.ts';
import { readCsv, unguard } from './testkit.ts';

const csv = (body: Record<string, unknown>, keyed = false): string => render(body, { format: 'CSV', keyed }).body;

void describe('CSV', () => {
  for (const c of DATA_CASES) {
    void it(`round-trips ${c.name}`, () => {
      const records = readCsv(csv(success(c.data)));
      const want = leaves(c.data);
      assert.equal(records.length, 2);
      const [header = [], row = []] = records;
      assert.deepEqual(header.map(unguard), want.map((l) => l.path));
      assert.deepEqual(row.map(unguard), want.map((l) => l.value));
      // Guarded exactly when the cell begins with a formula character.
      for (const cell of [...header, ...row]) assert.ok(!/^[=+\-@]/.test(cell), `unguarded ${cell}`);
    });
  }

  void it('writes the exact RFC 4180 text', () => {
    const body = success({ a: 1, b: 'x,y', c: null, d: true, e: 'say "hi"', f: 'l1\nl2', g: 'c\rr' });
    assert.equal(csv(body), 'a,b,c,d,e,f,g\r\n1,"x,y",,true,"say ""hi""","l1\nl2","c\rr"\r\n');
  });

  void it('leaves status and executionTime out of a success', () => {
    assert.equal(csv(success({ ip: '1.1.1.1' })), 'ip\r\n1.1.1.1\r\n');
  });

  void it('guards formula prefixes in every cell, numbers and headers included', () => {
    const body = success({ eq: '=SUM(A1)', plus: '+1', minus: '-cmd', at: '@x', num: -33.86, safe: 'a=b', '-key': 'v', tab: '\t=x' });
    assert.equal(csv(body), "eq,plus,minus,at,num,safe,'-key,tab\r\n'=SUM(A1),'+1,'-cmd,'@x,'-33.86,a=b,v,\t=x\r\n");
  });

  void it('guardCell leaves other cells alone', () => {
    assert.equal(guardCell(''), '');
    assert.equal(guardCell('a-b'), 'a-b');
    assert.equal(guardCell(' =x'), ' =x');
    assert.equal(guardCell('=x'), "'=x");
  });

  void it('writes string data as the column data', () => {
    assert.equal(csv(success('203.0.113.9')), 'data\r\n203.0.113.9\r\n');
  });

  void it('writes nothing for an empty data object', () => {
    assert.equal(csv(success({})), '');
    assert.equal(csv(success({}), true), '');
  });

  void it('writes the error fields of an error', () => {
    assert.deepEqual(readCsv(csv(ERROR_BODY)), [
      ['status', 'code', 'type', 'description'],
      ['error', '112', 'invalid_ip', ERROR_BODY.description],
    ]);
    assert.equal(csv(ERROR_BODY, true), csv(ERROR_BODY));
  });

  void it('writes one row per key of bulk data, key column query first', () => {
    const records = readCsv(csv(success(BULK_DATA), true));
    const [header = [], ...rows] = records;
    assert.equal(header[0], 'query');
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((r) => unguard(r[0] ?? '')), Object.keys(BULK_DATA));
    assert.equal(rows[2]?.[0], "'=cmd");
    for (const row of rows) assert.equal(row.length, header.length);
    // Union of paths in first-seen order: the first entry's, then `extra`.
    assert.deepEqual(header.slice(1), [...leaves(BULK_DATA['1.1.1.1']).map((l) => l.path), 'extra']);
    const col = (name: string): number => header.indexOf(name);
    assert.equal(rows[1]?.[col('ipType')], 'IPv6');
    assert.equal(rows[1]?.[col('location.capital')], '');
    assert.equal(rows[2]?.[col('extra')], 'only here');
    assert.equal(rows[0]?.[col('extra')], '');
  });

  void it('gives a leaf named query its own column in bulk output', () => {
    assert.equal(csv(success({ k: { query: 'q', a: 1 } }), true), 'query,query,a\r\nk,q,1\r\n');
  });

  void it('treats keyed string data as a single value', () => {
    assert.equal(csv(success('x'), true), 'data\r\nx\r\n');
  });

  void it('has the CSV content type and no extra headers', () => {
    const out = render(success({ a: 1 }), { format: 'CSV' });
    assert.equal(out.contentType, 'text/csv; charset=utf-8');
    assert.equal(out.headers, undefined);
  });
});

void describe('readCsv (test helper)', () => {
  void it('rejects malformed input', () => {
    assert.throws(() => readCsv('a\nb\r\n'));
    assert.throws(() => readCsv('"a\r\n'));
    assert.throws(() => readCsv('a'));
    assert.throws(() => readCsv('a"b\r\n'));
  });
});
