import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Imported datasets live under DATA_DIR/datasets/<name>/:
 *
 *     <version>/<file>        the normalised data of one import (never changed after writing)
 *     manifest.json           which version is current, plus the one before it (for rollback)
 *
 * The manifest is replaced atomically (write a temp file, rename), so a reader sees the old
 * version or the new one, never half of either. Versions other than current and previous are
 * removed after a successful import.
 */

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

const ManifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  source: z.string(),
  license: z.string(),
  count: z.number().int().min(0),
  sha256: z.string(),
  file: z.string(),
  importedAt: z.string(),
  /** When the publisher built the data, where the file says so (a MaxMind database's build epoch); absent in older manifests. */
  builtAt: z.string().nullable().optional(),
  previous: z.string().nullable(),
});

export type DatasetManifest = z.infer<typeof ManifestSchema>;

export class DatasetError extends Error {}

export function datasetDir(dataDir: string, name: string): string {
  if (!NAME.test(name)) throw new DatasetError(`"${name}" is not a dataset name`);
  return join(dataDir, 'datasets', name);
}

export function manifestPath(dataDir: string, name: string): string {
  return join(datasetDir(dataDir, name), 'manifest.json');
}

/** The current manifest, or null when the dataset was never imported; throws on a corrupt manifest. */
export function readManifest(dataDir: string, name: string): DatasetManifest | null {
  const path = manifestPath(dataDir, name);
  if (!existsSync(path)) return null;
  const parsed = ManifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new DatasetError(`${path}: not a dataset manifest`);
  return parsed.data;
}

export const sha256 = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex');

/** The current version's data file, checked against the manifest's sha256. */
export function readCurrent(dataDir: string, name: string): { manifest: DatasetManifest; content: string } | null {
  const current = readCurrentBytes(dataDir, name);
  return current && { manifest: current.manifest, content: current.content.toString('utf8') };
}

/** The current version's data file as bytes (binary datasets such as MaxMind databases). */
export function readCurrentBytes(dataDir: string, name: string): { manifest: DatasetManifest; content: Buffer } | null {
  const manifest = readManifest(dataDir, name);
  if (manifest === null) return null;
  const content = readFileSync(join(datasetDir(dataDir, name), manifest.version, manifest.file));
  if (sha256(content) !== manifest.sha256) throw new DatasetError(`${name} ${manifest.version}: ${manifest.file} does not match the manifest's sha256`);
  return { manifest, content };
}

function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** A version id that sorts by time and is safe as a directory name: 20261122T185500123Z. */
export function versionId(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/** Writes a new version and makes it current; the old current becomes `previous`. */
export function writeDatasetVersion(
  dataDir: string,
  name: string,
  data: { file: string; content: string | Buffer; source: string; license: string; count: number; builtAt?: string | null },
  now: Date = new Date(),
): DatasetManifest {
  return commitVersion(dataDir, name, data, (staging) => writeFileSync(join(staging, data.file), data.content), sha256(data.content), now);
}

function commitVersion(
  dataDir: string,
  name: string,
  data: { file: string; source: string; license: string; count: number; builtAt?: string | null },
  place: (staging: string) => void,
  digest: string,
  now: Date,
): DatasetManifest {
  const dir = datasetDir(dataDir, name);
  mkdirSync(dir, { recursive: true });
  const before = readManifest(dataDir, name);
  let version = versionId(now);
  for (let n = 1; existsSync(join(dir, version)); n++) version = `${versionId(now)}-${n}`;
  const staging = join(dir, `.${version}.staging`);
  mkdirSync(staging, { recursive: true });
  place(staging);
  const manifest: DatasetManifest = {
    name, version, source: data.source, license: data.license, count: data.count, sha256: digest,
    file: data.file, importedAt: now.toISOString(), builtAt: data.builtAt ?? null, previous: before?.version ?? null,
  };
  writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  renameSync(staging, join(dir, version));
  writeAtomic(manifestPath(dataDir, name), JSON.stringify(manifest, null, 2) + '\n');
  prune(dir, new Set([manifest.version, ...(manifest.previous ? [manifest.previous] : [])]));
  return manifest;
}

/**
 * writeDatasetVersion for a data file already on disk (large imports that write as they go): the
 * file at `path` (on DATA_DIR's file system, so it can be renamed) is moved into the new version.
 */
export function writeDatasetVersionFile(
  dataDir: string,
  name: string,
  data: { file: string; path: string; sha256: string; source: string; license: string; count: number; builtAt?: string | null },
  now: Date = new Date(),
): DatasetManifest {
  return commitVersion(dataDir, name, data, (staging) => renameSync(data.path, join(staging, data.file)), data.sha256, now);
}

/** Makes the previous version current again (and the current one its `previous`). */
export function rollbackDataset(dataDir: string, name: string): DatasetManifest {
  const current = readManifest(dataDir, name);
  if (current === null) throw new DatasetError(`${name} has never been imported`);
  if (current.previous === null) throw new DatasetError(`${name} has no previous version to roll back to`);
  const dir = datasetDir(dataDir, name);
  const path = join(dir, current.previous, 'manifest.json');
  if (!existsSync(path)) throw new DatasetError(`${name}: version ${current.previous} is gone`);
  const prev = ManifestSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const manifest: DatasetManifest = { ...prev, previous: current.version };
  writeAtomic(manifestPath(dataDir, name), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

function prune(dir: string, keep: ReadonlySet<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !keep.has(entry.name)) rmSync(join(dir, entry.name), { recursive: true, force: true });
  }
}
