import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { DatasetError } from './dataset-store.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';

/** Largest download accepted (the biggest public BIN list is about 40 MB, GeoLite2 City about 60 MB). */
export const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

export interface DownloadOptions {
  headers?: Record<string, string>;
  /** The progress step's label (`downloading FILE`). */
  label?: string;
  progress?: Progress;
  /** Extra words for an HTTP error status (what to check). */
  hint?: (status: number) => string;
}

/**
 * Streams an http(s) URL into `dest` (never the whole body in memory), following redirects,
 * refusing bodies over MAX_DOWNLOAD_BYTES, reporting bytes as a progress step (a bar on a
 * terminal, a line every quarter in logs). Returns the size. Messages name the URL without its
 * query string (a storage host's presigned URL carries a signature).
 */
export async function downloadTo(url: string, dest: string, opts: DownloadOptions = {}): Promise<number> {
  const shown = url.replace(/\?.*$/, '');
  const progress = opts.progress ?? NO_PROGRESS;
  const res = await fetch(url, { redirect: 'follow', ...(opts.headers && { headers: opts.headers }) }).catch((err: unknown) => {
    throw new DatasetError(`cannot download ${shown}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (!res.ok || res.body === null) throw new DatasetError(`cannot download ${shown}: HTTP ${res.status}${opts.hint?.(res.status) ?? ''}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  if (total > MAX_DOWNLOAD_BYTES) throw new DatasetError(`${shown} is larger than ${MAX_DOWNLOAD_BYTES} bytes; refused`);
  const label = opts.label ?? `downloading ${shown}`;
  const out = createWriteStream(dest);
  let size = 0;
  try {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_DOWNLOAD_BYTES) {
        await reader.cancel();
        throw new DatasetError(`${shown} is larger than ${MAX_DOWNLOAD_BYTES} bytes; refused`);
      }
      if (!out.write(value)) await once(out, 'drain');
      progress.step?.(label, size, total);
    }
  } catch (err) {
    out.destroy();
    if (err instanceof DatasetError) throw err;
    throw new DatasetError(`cannot download ${shown}: ${err instanceof Error ? err.message : String(err)}`);
  }
  out.end();
  await once(out, 'finish');
  // A bar for a body without Content-Length never reached 100%: close it.
  if (total === 0) progress.step?.(label, size, size);
  return size;
}
