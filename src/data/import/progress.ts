/**
 * What an import or an update reports while it runs: a line per step, and optionally how far a
 * long step is (bytes downloaded or read). The CLI draws a bar on a terminal (src/cli/progress-bar.ts);
 * elsewhere (a pipe, the server's log) `steppedLines` turns the fractions into a line every 25%.
 */
export interface Progress {
  (line: string): void;
  /** How far a long step is: bytes unless `unit` names what is counted (`countries`). */
  step?: (label: string, done: number, total: number, unit?: string) => void;
}

/** "12.3 MB of 40.0 MB", or "12 of 118 countries". */
export const amount = (done: number, total: number, unit?: string): string =>
  unit === undefined ? (total > 0 ? `${megabytes(done)} of ${megabytes(total)}` : megabytes(done)) : `${done} of ${total} ${unit}`;

export const NO_PROGRESS: Progress = () => undefined;

/** "12.3 MB" */
export const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * A Progress that writes lines only: each step's fraction as a line when it passes a quarter
 * (25%, 50%, 75%, 100%), or every 16 MB when the total is unknown (0).
 */
export function steppedLines(write: (line: string) => void): Progress {
  let label = '';
  let shown = -1;
  const progress: Progress = (line) => write(line);
  progress.step = (l, done, total, unit) => {
    if (l !== label) {
      label = l;
      shown = -1;
    }
    const mark = total > 0 ? Math.floor((Math.min(done, total) / total) * 4) : Math.floor(done / (16 * 1_048_576));
    if (mark <= shown || mark === 0) return;
    shown = mark;
    write(total > 0 ? `${label}: ${mark * 25}% (${amount(done, total, unit)})` : `${label}: ${amount(done, total, unit)}`);
  };
  return progress;
}
