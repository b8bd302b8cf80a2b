import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachCsvRow } from './csv.ts';

/** Every row (header first) with all columns, or the picked ones. */
function rows(text: string, pick?: (header: string[]) => readonly number[] | null): { header: string[]; data: string[][]; lines: number[] } {
  let header: string[] = [];
  const data: string[][] = [];
  const lines: number[] = [];
  forEachCsvRow(
    text,
    (h) => {
      header = h;
      return pick ? pick(h) : h.map((_, i) => i);
    },
    (r, line) => {
      data.push(r);
      lines.push(line);
    },
  );
  return { header, data, lines };
}

describe('forEachCsvRow (RFC 4180)', () => {
  it('splits plain lines, LF or CRLF, with or without a final line end', () => {
    assert.deepEqual(rows('a,b,c\n1,2,3\n4,5,6').data, [['1', '2', '3'], ['4', '5', '6']]);
    assert.deepEqual(rows('a,b\r\n1,2\r\n').data, [['1', '2']]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const r = rows('a,b,c\n"x, y","say ""hi""",z\n"multi\nline",2,"3"\r\nlast,"",\n');
    assert.deepEqual(r.data, [['x, y', 'say "hi"', 'z'], ['multi\nline', '2', '3'], ['last', '', '']]);
    // The quoted line break counts as a line: error messages point at the right line.
    assert.deepEqual(r.lines, [2, 3, 5]);
  });

  it('drops a byte-order mark and skips blank lines', () => {
    const r = rows('\uFEFFcountry,zip\n\nDE,10117\r\n\r\nFR,75001\n');
    assert.deepEqual(r.header, ['country', 'zip']);
    assert.deepEqual(r.data, [['DE', '10117'], ['FR', '75001']]);
  });

  it('returns only the picked columns, in the picked order, and "" past the end of a short row', () => {
    const r = rows('a,b,c,d\n1,2,3,4\n"5,5",6\n7,8,"9",10\n', () => [3, 0]);
    assert.deepEqual(r.data, [['4', '1'], ['', '5,5'], ['10', '7']]);
  });

  it('returns the number of lines read, quoted line breaks and blank lines included', () => {
    assert.equal(forEachCsvRow('a\n1\n\n"x\ny"\n', (h) => h.map((_, i) => i), () => undefined), 5);
    assert.equal(forEachCsvRow('a\n1', (h) => h.map((_, i) => i), () => undefined), 2);
  });

  it('stops when the header pick returns null', () => {
    let called = 0;
    forEachCsvRow('x,y\n1,2\n', () => null, () => called++);
    assert.equal(called, 0);
  });

  it('is lenient with stray quotes and an unterminated quoted field', () => {
    assert.deepEqual(rows('a,b\nab"c,d\n').data, [['ab"c', 'd']]);
    assert.deepEqual(rows('a,b\n"x"y,z\n').data, [['xy', 'z']]);
    assert.deepEqual(rows('a,b\n1,"open\nrest').data, [['1', 'open\nrest']]);
  });

  it('keeps plain lines after a quoted one on the fast path', () => {
    const text = `h1,h2\n${Array.from({ length: 50 }, (_, i) => (i === 10 ? '"q,1",x' : `${i},y`)).join('\n')}\n`;
    const r = rows(text);
    assert.equal(r.data.length, 50);
    assert.deepEqual(r.data[10], ['q,1', 'x']);
    assert.deepEqual(r.data[49], ['49', 'y']);
  });
});
