import type { Config } from '../config.ts';
import { datasetStatus, importDirectory, rollback } from '../data/import/index.ts';

export const DATA_USAGE = `  vigil data import DIR                         import DIR/dangerous-domains/* and DIR/disposable-domains/* (domain per line or hosts format)
  vigil data status                             the current version of each imported dataset
  vigil data rollback NAME                      make the previous version of a dataset current again`;

const print = (v: unknown): void => void process.stdout.write(JSON.stringify(v, null, 2) + '\n');

/** `vigil data ...`; returns the exit code, or null for an unknown sub-command (usage). */
export function dataCommand(config: Readonly<Config>, sub: string | undefined, rest: readonly string[]): number | null {
  if (sub === 'import') {
    const dir = rest[0];
    if (dir === undefined || rest.length > 1) return null;
    const reports = importDirectory(config.dataDir, dir);
    print(reports.map((r) => ({
      name: r.manifest.name,
      version: r.manifest.version,
      count: r.manifest.count,
      sha256: r.manifest.sha256,
      previous: r.manifest.previous,
      files: r.files,
      rejectedLines: r.rejected,
      ...(r.samples.length > 0 ? { rejectedSamples: r.samples } : {}),
    })));
    return 0;
  }
  if (sub === 'status' && rest.length === 0) {
    print(datasetStatus(config.dataDir));
    return 0;
  }
  if (sub === 'rollback' && rest.length === 1 && rest[0] !== undefined) {
    print(rollback(config.dataDir, rest[0]));
    return 0;
  }
  return null;
}
