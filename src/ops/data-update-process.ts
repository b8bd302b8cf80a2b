import { spawn } from 'node:child_process';
import type { UpdateOutcome } from '../data/import/update.ts';
import type { Progress } from '../data/import/progress.ts';

export interface UpdateProcessOptions {
  /** Node flags of the command (the server's own `process.execArgv`: the TypeScript loader when it runs from source). */
  execArgv: readonly string[];
  /** The `vigil` entry script (the server's own `process.argv[1]`). */
  entry: string;
  /** The child's environment; default the server's own (so it reads the same configuration). */
  env?: Record<string, string>;
  cwd?: string;
  progress: Progress;
}

/**
 * Runs `vigil data update --all` as a child process of the same command the server runs as: the
 * same update code, but its downloads, parsing and index building (seconds of CPU and a few
 * hundred MB for the larger lists) never stall the server's event loop or grow its heap. Progress
 * lines (the child's stderr, one per line since it is a pipe) go to `progress`; the outcomes are
 * the JSON summary it prints. The server picks the new versions up by its usual reload.
 */
export function updateInChildProcess(opts: UpdateProcessOptions): Promise<UpdateOutcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...opts.execArgv, opts.entry, 'data', 'update', '--all'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.env !== undefined && { env: opts.env }),
      ...(opts.cwd !== undefined && { cwd: opts.cwd }),
    });
    let stdout = '';
    let pending = '';
    const tail: string[] = [];
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      pending += b.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        tail.push(line);
        if (tail.length > 5) tail.shift();
        opts.progress(line.replace(/^vigil: /, ''));
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        const summary = JSON.parse(stdout) as { datasets: UpdateOutcome[] };
        if (!Array.isArray(summary.datasets)) throw new Error('no datasets in the summary');
        resolve(summary.datasets);
      } catch {
        reject(new Error(`vigil data update --all exited ${code ?? 'by a signal'} without a summary: ${[...tail, pending].filter(Boolean).join(' | ').slice(0, 500)}`));
      }
    });
  });
}
