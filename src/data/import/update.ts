import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { DatasetError } from './dataset-store.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { IMPORTERS } from './index.ts';

/** Largest download accepted (the biggest public BIN list is about 40 MB). */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

export interface UpdateOptions {
  /** http(s) URL or a local file path. */
  from: string;
  /** Expected SHA-256 (hex) of the file; the import is refused when it differs. */
  sha256?: string | undefined;
  now?: Date;
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
}

function fileName(from: string, isUrl: boolean): string {
  const raw = isUrl ? decodeURIComponent(new URL(from).pathname.split('/').pop() ?? '') : basename(from);
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(raw) ? raw : 'download';
}

async function download(url: string, dest: string, progress: (line: string) => void): Promise<number> {
  const res = await fetch(url, { redirect: 'follow' }).catch((err: unknown) => {
    throw new DatasetError(`cannot download ${url}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (!res.ok || res.body === null) throw new DatasetError(`cannot download ${url}: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  const chunks: Buffer[] = [];
  let size = 0;
  let shown = 0;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_DOWNLOAD_BYTES) {
      await reader.cancel();
      throw new DatasetError(`${url} is larger than ${MAX_DOWNLOAD_BYTES} bytes; refused`);
    }
    chunks.push(Buffer.from(value));
    if (size - shown >= 4 * 1024 * 1024) {
      shown = size;
      progress(`downloaded ${(size / 1048576).toFixed(1)} MB${total > 0 ? ` of ${(total / 1048576).toFixed(1)} MB` : ''}`);
    }
  }
  writeFileSync(dest, Buffer.concat(chunks));
  return size;
}

/**
 * `vigil data update NAME --from URL|FILE [--sha256 HEX]`: fetches one file into a temp directory
 * laid out as DIR/NAME/<file>, checks its SHA-256 when given, and runs NAME's importer on it. The
 * dataset store writes a new version atomically and keeps the previous one for rollback.
 */
export async function updateDataset(dataDir: string, name: string, opts: UpdateOptions): Promise<ImportReport> {
  const importer = IMPORTERS[name];
  if (importer === undefined) throw new DatasetError(`unknown dataset "${name}" (known: ${Object.keys(IMPORTERS).join(', ')})`);
  const progress = opts.progress ?? (() => undefined);
  const isUrl = /^https?:\/\//i.test(opts.from);
  if (!isUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(opts.from)) throw new DatasetError(`--from must be an http(s) URL or a file path, not ${opts.from}`);
  const expected = opts.sha256?.trim().toLowerCase();
  if (expected !== undefined && !/^[0-9a-f]{64}$/.test(expected)) throw new DatasetError('--sha256 must be 64 hexadecimal digits');
  const tmp = mkdtempSync(join(tmpdir(), 'vigil-update-'));
  try {
    const dir = join(tmp, name);
    mkdirSync(dir);
    const dest = join(dir, fileName(opts.from, isUrl));
    if (isUrl) {
      progress(`downloading ${opts.from}`);
      const bytes = await download(opts.from, dest, progress);
      progress(`downloaded ${bytes} bytes`);
    } else {
      const src = resolve(opts.from);
      if (!existsSync(src) || !statSync(src).isFile()) throw new DatasetError(`${src} is not a file`);
      copyFileSync(src, dest);
    }
    if (expected !== undefined) {
      const got = createHash('sha256').update(readFileSync(dest)).digest('hex');
      if (got !== expected) throw new DatasetError(`sha256 mismatch: expected ${expected}, got ${got}; nothing imported`);
      progress('sha256 verified');
    }
    progress(`importing ${name}`);
    const report = importer(dataDir, tmp, opts.now);
    progress(`${name} ${report.manifest.version}: ${report.manifest.count} records (previous ${report.manifest.previous ?? 'none'})`);
    return report;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
