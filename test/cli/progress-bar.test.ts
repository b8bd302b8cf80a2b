/** Progress of imports and updates: a bar redrawn in place on a terminal, lines on a pipe or in a log. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliProgress } from '../../src/cli/progress-bar.ts';
import { steppedLines } from '../../src/data/import/progress.ts';

/** A stand-in for process.stderr: records what is written; a terminal or not. */
function stream(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  let out = '';
  return { isTTY, columns: 100, write: (s: string) => ((out += s), true), text: () => out } as unknown as NodeJS.WriteStream & { text: () => string };
}

describe('cliProgress', () => {
  it('on a terminal draws one bar in place and clears it when done, keeping step lines', () => {
    const s = stream(true);
    const p = cliProgress(s);
    p('importing geonames-postal (1 of 1)');
    for (let done = 0; done <= 100; done += 10) p.step?.('reading postal_codes.csv.gz', done * 1_048_576, 100 * 1_048_576);
    p('geonames-postal: 1201080 records');
    const text = s.text();
    assert.match(text, /^vigil: importing geonames-postal \(1 of 1\)\n/);
    const ESC = '\u001b';
    assert.ok(text.includes(`\r${ESC}[2Kvigil: reading postal_codes.csv.gz [${'#'.repeat(15)}${'-'.repeat(15)}]  50% 50.0 MB of 100.0 MB`), text);
    assert.match(text, /\[#{30}\] 100%/);
    assert.ok(text.endsWith(`\r${ESC}[2Kvigil: geonames-postal: 1201080 records\n`), text);
    assert.equal(text.split('\n').length, 3, 'the bar adds no lines');
  });

  it('on a pipe writes a line at each quarter, never a carriage return', () => {
    const s = stream(false);
    const p = cliProgress(s);
    for (let done = 0; done <= 1000; done += 10) p.step?.('downloading GeoLite2-City', done, 1000);
    assert.doesNotMatch(s.text(), /\r/);
    assert.deepEqual(s.text().trim().split('\n').map((l) => /(\d+)%/.exec(l)?.[1]), ['25', '50', '75', '100']);
  });
});

describe('steppedLines (the server log)', () => {
  it('without a total, a line every 16 MB', () => {
    const lines: string[] = [];
    const p = steppedLines((l) => lines.push(l));
    for (let mb = 0; mb <= 40; mb++) p.step?.('downloading x', mb * 1_048_576, 0);
    assert.deepEqual(lines, ['downloading x: 16.0 MB', 'downloading x: 32.0 MB']);
  });
});
