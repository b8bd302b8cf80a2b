import type { WriteStream } from 'node:tty';
import { amount, steppedLines, type Progress } from '../data/import/progress.ts';

const WIDTH = 30;

/**
 * Progress of `vigil data import|update` on stderr: a bar redrawn in place on a terminal, plain
 * `vigil: ...` lines otherwise (a pipe or a log file must not fill with carriage returns).
 * Hand-written: a dozen lines over node:tty, where the usual packages are unmaintained or untyped.
 */
export function cliProgress(stream: NodeJS.WriteStream | WriteStream = process.stderr): Progress {
  if (stream.isTTY !== true) return steppedLines((line) => void stream.write(`vigil: ${line}\n`));
  let drawn = false;
  const clear = (): void => {
    if (drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  const progress: Progress = (line) => {
    clear();
    stream.write(`vigil: ${line}\n`);
  };
  progress.step = (label, done, total, unit) => {
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(frac * WIDTH);
    const bar = total > 0 ? `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(frac * 100)).padStart(3)}% ${amount(done, total, unit)}` : amount(done, total, unit);
    const cols = typeof stream.columns === 'number' && stream.columns > 20 ? stream.columns : 80;
    stream.write(`\r\x1b[2K${`vigil: ${label} ${bar}`.slice(0, cols - 1)}`);
    drawn = true;
    if (total > 0 && done >= total) clear();
  };
  return progress;
}
