import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atThreshold, calibration, rocAuc, summarize, type Scored } from '../../scripts/eval/metrics.ts';
import { csvLine, parseCsv, parseCsvRecords } from '../../scripts/eval/csv.ts';

const rows = (pairs: ReadonlyArray<[number, 0 | 1]>): Scored[] => pairs.map(([score, y]) => ({ score, fraud: y === 1 }));

/** AUC by brute force over every fraud/legit pair, ties one half: the definition the fast formula must match. */
function pairwiseAuc(xs: readonly Scored[]): number {
  const pos = xs.filter((r) => r.fraud);
  const neg = xs.filter((r) => !r.fraud);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

describe('rocAuc', () => {
  const cases: Array<[string, Scored[], number | null]> = [
    ['perfect separation', rows([[10, 0], [20, 0], [80, 1], [90, 1]]), 1],
    ['inverted', rows([[90, 0], [80, 0], [20, 1], [10, 1]]), 0],
    ['every score tied', rows([[5, 0], [5, 1], [5, 0], [5, 1]]), 0.5],
    ['one tie across classes', rows([[10, 0], [50, 0], [50, 1], [90, 1]]), 0.875],
    ['three by three: 8 of 9 pairs ordered', rows([[0.1, 0], [0.4, 1], [0.35, 0], [0.8, 1], [0.7, 0], [0.9, 1]]), 8 / 9],
    ['no fraud', rows([[10, 0], [20, 0]]), null],
    ['no legit', rows([[10, 1]]), null],
    ['empty', [], null],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      const got = rocAuc(input);
      if (want === null) assert.equal(got, null);
      else assert.ok(got !== null && Math.abs(got - want) < 1e-12, `${got} != ${want}`);
    });
  }

  it('matches the pairwise definition on random data with many ties, whatever the input order', () => {
    let s = 7;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const xs = Array.from({ length: 500 }, () => ({ score: Math.floor(rnd() * 12) * 5, fraud: rnd() < 0.2 }));
    const want = pairwiseAuc(xs);
    assert.ok(Math.abs(rocAuc(xs)! - want) < 1e-12);
    assert.ok(Math.abs(rocAuc([...xs].reverse())! - want) < 1e-12);
  });
});

describe('atThreshold', () => {
  const xs = rows([[10, 0], [30, 0], [50, 1], [60, 0], [70, 1], [20, 1]]);
  const cases: Array<[number, { flagged: number; tp: number; fp: number; precision: number | null; recall: number | null }]> = [
    [30, { flagged: 4, tp: 2, fp: 2, precision: 0.5, recall: 2 / 3 }],
    [50, { flagged: 3, tp: 2, fp: 1, precision: 2 / 3, recall: 2 / 3 }],
    [60, { flagged: 2, tp: 1, fp: 1, precision: 0.5, recall: 1 / 3 }],
    [71, { flagged: 0, tp: 0, fp: 0, precision: null, recall: 0 }],
    [0, { flagged: 6, tp: 3, fp: 3, precision: 0.5, recall: 1 }],
  ];
  for (const [t, want] of cases) {
    it(`score >= ${t} (the threshold itself is flagged)`, () => {
      const got = atThreshold(xs, t);
      assert.deepEqual(
        { flagged: got.flagged, tp: got.truePositives, fp: got.falsePositives, precision: got.precision, recall: got.recall },
        want,
      );
      assert.equal(got.flaggedShare, want.flagged / xs.length);
    });
  }
  it('recall is null without fraud rows', () => {
    assert.equal(atThreshold(rows([[90, 0]]), 50).recall, null);
  });
});

describe('calibration', () => {
  it('puts scores in ten bands, 100 in the last, and averages score/100 and fraud per band', () => {
    const bands = calibration(rows([[0, 0], [9.99, 1], [10, 0], [55, 1], [55, 0], [100, 1], [90, 1]]));
    assert.equal(bands.length, 10);
    assert.deepEqual(bands.map((b) => [b.from, b.to, b.count]), [
      [0, 10, 2], [10, 20, 1], [20, 30, 0], [30, 40, 0], [40, 50, 0], [50, 60, 2], [60, 70, 0], [70, 80, 0], [80, 90, 0], [90, 100, 2],
    ]);
    assert.ok(Math.abs(bands[0]!.meanScore! - 0.04995) < 1e-12);
    assert.equal(bands[0]!.fraudRate, 0.5);
    assert.equal(bands[2]!.meanScore, null);
    assert.equal(bands[2]!.fraudRate, null);
    assert.equal(bands[9]!.meanScore, 0.95);
    assert.equal(bands[9]!.fraudRate, 1);
  });
  it('clamps scores outside 0-100 into the end bands', () => {
    const bands = calibration(rows([[-3, 0], [140, 1]]));
    assert.equal(bands[0]!.count, 1);
    assert.equal(bands[9]!.count, 1);
  });
});

describe('summarize', () => {
  it('counts rows and fraud and gives each threshold', () => {
    const s = summarize(rows([[10, 0], [80, 1], [40, 0], [60, 1]]), [30, 50]);
    assert.equal(s.rows, 4);
    assert.equal(s.fraud, 2);
    assert.equal(s.fraudRate, 0.5);
    assert.equal(s.auc, 1);
    assert.deepEqual(s.thresholds.map((t) => t.flagged), [3, 2]);
  });
  it('has no rates for no rows', () => {
    const s = summarize([], [50]);
    assert.equal(s.fraudRate, null);
    assert.equal(s.auc, null);
  });
});

describe('csv', () => {
  const cases: Array<[string, string, string[][]]> = [
    ['plain', 'a,b\n1,2\n', [['a', 'b'], ['1', '2']]],
    ['CRLF, no final newline', 'a,b\r\n1,2', [['a', 'b'], ['1', '2']]],
    ['quoted comma, quote and newline', 'a,b\n"x,y","he said ""hi""\nok"\n', [['a', 'b'], ['x,y', 'he said "hi"\nok']]],
    ['empty cells and blank lines', 'a,b,c\n,,\n\n1,,3\n', [['a', 'b', 'c'], ['', '', ''], ['1', '', '3']]],
    ['byte-order mark', '\ufeffa\n1\n', [['a'], ['1']]],
  ];
  for (const [name, text, want] of cases) it(name, () => assert.deepEqual(parseCsv(text), want));

  it('round-trips what csvLine writes', () => {
    const values = ['plain', 'with,comma', 'with "quote"', 'two\nlines', ''];
    assert.deepEqual(parseCsv(csvLine(values) + '\n'), [values]);
  });

  it('reads records by trimmed header names, short rows padded with empty cells', () => {
    assert.deepEqual(parseCsvRecords(' a ,b\n1\n'), { header: ['a', 'b'], records: [{ a: '1', b: '' }] });
  });
});
