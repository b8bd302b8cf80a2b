import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { ASN_BGPTOOLS, ASN_NAMES_ASN2ORG } from './asn-lists.ts';
import { DatasetError } from './dataset-store.ts';
import { CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, TOR_EXIT_NODES, VPN_DATACENTER_X4BNET } from './ip-lists.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { IMPORTERS } from './index.ts';
import { downloadTo } from './download.ts';
import { downloadGeoLite2, MAXMIND_EDITIONS, type MaxmindCredentials } from './maxmind-download.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';

export { MAX_DOWNLOAD_BYTES } from './download.ts';

/** One file of a dataset's default sources: where to fetch it, and the name it gets in DIR/NAME/. */
export interface SourceFile {
  /** http(s) URL or a local file path. */
  url: string;
  file: string;
}

const GH = 'https://raw.githubusercontent.com';
/** bgp.tools tag lists the ASN classifier and the threat flags read (the mirror has a few more). */
const BGP_TOOLS_TAGS = ['vpn', 'vpsh', 'tor', 'dsl', 'mobile', 'perso', 'satnet', 'biznet', 'corp', 'uni', 'gov', 'cdn', 'anycast'] as const;

/**
 * Where `vigil data update NAME` (without --from) fetches each dataset: the public upstream
 * files named in the shared data's SOURCE.md, each saved under the file name the importer
 * recognises. Branches rather than commits, so an update gets the current data; the operator
 * can pin commits or use mirrors with DATA_SOURCES_FILE.
 */
export const DEFAULT_SOURCES: Readonly<Record<string, readonly SourceFile[]>> = {
  [TOR_EXIT_NODES]: [
    { url: `${GH}/idleadmin/ThreatFeed/main/tor-exit-nodes.list`, file: 'tor-exit-nodes.txt' },
    { url: `${GH}/idleadmin/ThreatFeed/main/cptorlist.list`, file: 'checkpoint-tor-ips.txt' },
    { url: `${GH}/SecOps-Institute/Tor-IP-Addresses/master/tor-nodes.lst`, file: 'tor-all-relays.txt' },
  ],
  [VPN_DATACENTER_X4BNET]: [
    { url: `${GH}/X4BNet/lists_vpn/main/output/vpn/ipv4.txt`, file: 'vpn-ipv4.txt' },
    { url: `${GH}/X4BNet/lists_vpn/main/output/vpn/ipv6.txt`, file: 'vpn-ipv6.txt' },
    { url: `${GH}/X4BNet/lists_vpn/main/output/datacenter/ipv4.txt`, file: 'datacenter-ipv4.txt' },
    { url: `${GH}/X4BNet/lists_vpn/main/output/datacenter/ipv6.txt`, file: 'datacenter-ipv6.txt' },
    { url: `${GH}/X4BNet/lists_vpn/main/input/vpn/ASN.txt`, file: 'vpn-asn.txt' },
    { url: `${GH}/X4BNet/lists_vpn/main/input/datacenter/ASN.txt`, file: 'datacenter-asn.txt' },
  ],
  [CLOUD_RANGES_JHASSINE]: [{ url: `${GH}/jhassine/server-ip-addresses/master/data/datacenters.csv`, file: 'datacenters.csv' }],
  [DATACENTER_IPCAT]: [{ url: `${GH}/client9/ipcat/master/datacenters.csv`, file: 'datacenters.csv' }],
  [ICLOUD_PRIVATE_RELAY]: [
    { url: `${GH}/hroost/icloud-private-relay-iplist/main/ipv4/ipv4-ranges.txt`, file: 'ipv4-ranges.txt' },
    { url: `${GH}/hroost/icloud-private-relay-iplist/main/ipv6/ipv6-ranges.txt`, file: 'ipv6-ranges.txt' },
  ],
  [ASN_BGPTOOLS]: [
    { url: `${GH}/Alice39s/BGP.Tools-OpenDB/auto-update/asns/asns.csv.gz`, file: 'asns.csv.gz' },
    ...BGP_TOOLS_TAGS.map((t) => ({ url: `${GH}/Alice39s/BGP.Tools-OpenDB/auto-update/tags/${t}/tags-${t}.csv`, file: `tags-${t}.csv` })),
  ],
  [ASN_NAMES_ASN2ORG]: [{ url: `${GH}/vincentbernat/asn2org/gh-pages/asns.csv`, file: 'asns.csv' }],
};

/** A file name safe inside DIR/NAME/ (no separators, no leading dot). */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const NOT_URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

const SourcesFileSchema = z.record(
  z.string(),
  z
    .array(
      z.object({
        url: z.string().min(1).refine((u) => /^https?:\/\//i.test(u) || !NOT_URL_SCHEME.test(u), 'must be an http(s) URL or a file path'),
        file: z.string().regex(FILE_NAME, 'must be a plain file name (letters, digits, . _ -)'),
      }).strict(),
    )
    .min(1, 'must list at least one file')
    .refine((files) => new Set(files.map((f) => f.file)).size === files.length, 'file names must be unique'),
);

/**
 * The sources of every dataset: DEFAULT_SOURCES, with the datasets listed in the JSON file
 * `sourcesFile` replacing theirs (`{"tor-exit-nodes": [{"url": "...", "file": "tor-exit-nodes.txt"}]}`).
 * A DatasetError naming the file and the offending entry when it is unreadable or malformed.
 */
export function loadSources(sourcesFile: string | undefined): Readonly<Record<string, readonly SourceFile[]>> {
  if (sourcesFile === undefined || sourcesFile.trim() === '') return DEFAULT_SOURCES;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(sourcesFile, 'utf8'));
  } catch (err) {
    throw new DatasetError(`DATA_SOURCES_FILE ${sourcesFile}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = SourcesFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new DatasetError(`DATA_SOURCES_FILE ${sourcesFile}: ${where}: ${issue?.message ?? 'invalid'} (expected {"<dataset>": [{"url": "https://...", "file": "name.txt"}]})`);
  }
  // A misspelt dataset would otherwise be ignored without a word and the defaults used.
  const unknown = Object.keys(parsed.data).filter((name) => IMPORTERS[name] === undefined);
  if (unknown.length > 0) throw new DatasetError(`DATA_SOURCES_FILE ${sourcesFile}: unknown dataset "${unknown[0]}" (known: ${Object.keys(IMPORTERS).join(', ')})`);
  return { ...DEFAULT_SOURCES, ...parsed.data };
}

/** The files `vigil data update NAME` fetches without --from; null when the dataset has none. */
export function datasetSources(name: string, sourcesFile: string | undefined): readonly SourceFile[] | null {
  return loadSources(sourcesFile)[name] ?? null;
}

export interface UpdateOptions {
  /** http(s) URL or a local file path; without it, every file of the dataset's sources (DEFAULT_SOURCES or DATA_SOURCES_FILE). */
  from?: string | undefined;
  /** JSON file overriding DEFAULT_SOURCES (Config `dataSourcesFile`, from DATA_SOURCES_FILE). */
  sourcesFile?: string | undefined;
  /** Expected SHA-256 (hex) of the file; the import is refused when it differs. Only for a single file. */
  sha256?: string | undefined;
  now?: Date;
  /** Progress lines (stderr in the CLI, a bar on a terminal; the log in a server). */
  progress?: Progress;
  /** MaxMind credentials: without --from, geolite2-city and geolite2-asn download from MaxMind. */
  maxmind?: MaxmindCredentials | undefined;
}

function fileName(from: string, isUrl: boolean): string {
  const raw = isUrl ? decodeURIComponent(new URL(from).pathname.split('/').pop() ?? '') : basename(from);
  return FILE_NAME.test(raw) ? raw : 'download';
}

/** Copies or downloads one source into `dest`. */
async function fetchOne(from: string, dest: string, progress: Progress): Promise<void> {
  const isUrl = /^https?:\/\//i.test(from);
  if (isUrl) {
    progress(`downloading ${from}`);
    const bytes = await downloadTo(from, dest, { progress, label: `downloading ${basename(dest)}` });
    progress(`downloaded ${bytes} bytes`);
    return;
  }
  if (NOT_URL_SCHEME.test(from)) throw new DatasetError(`--from must be an http(s) URL or a file path, not ${from}`);
  const src = resolve(from);
  if (!existsSync(src) || !statSync(src).isFile()) throw new DatasetError(`${src} is not a file`);
  copyFileSync(src, dest);
}

/**
 * `vigil data update NAME [--from URL|FILE] [--sha256 HEX]`: fetches the file given by --from, or
 * without it every file of the dataset's sources (DEFAULT_SOURCES, or DATA_SOURCES_FILE), into a
 * temp directory laid out as DIR/NAME/<file>, checks the SHA-256 when given (single file only:
 * one hash cannot vouch for several files), and runs NAME's importer on it. All files must arrive
 * before anything is imported, so a failed download leaves the current version in place. The
 * dataset store writes a new version atomically and keeps the previous one for rollback.
 */
export async function updateDataset(dataDir: string, name: string, opts: UpdateOptions = {}): Promise<ImportReport> {
  const importer = IMPORTERS[name];
  if (importer === undefined) throw new DatasetError(`unknown dataset "${name}" (known: ${Object.keys(IMPORTERS).join(', ')})`);
  const progress = opts.progress ?? NO_PROGRESS;
  if (opts.from === undefined && opts.maxmind !== undefined && MAXMIND_EDITIONS[name] !== undefined) return updateFromMaxmind(dataDir, name, opts.maxmind, opts, progress);
  let files: readonly SourceFile[];
  if (opts.from !== undefined) {
    const isUrl = /^https?:\/\//i.test(opts.from);
    if (!isUrl && NOT_URL_SCHEME.test(opts.from)) throw new DatasetError(`--from must be an http(s) URL or a file path, not ${opts.from}`);
    files = [{ url: opts.from, file: fileName(opts.from, isUrl) }];
  } else {
    const sources = datasetSources(name, opts.sourcesFile);
    if (sources === null) {
      const maxmind = MAXMIND_EDITIONS[name] !== undefined ? ' or set MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY' : '';
      throw new DatasetError(`${name} has no default sources; give --from URL|FILE (or list its files in DATA_SOURCES_FILE${maxmind})`);
    }
    files = sources;
  }
  const expected = opts.sha256?.trim().toLowerCase();
  if (expected !== undefined && !/^[0-9a-f]{64}$/.test(expected)) throw new DatasetError('--sha256 must be 64 hexadecimal digits');
  if (expected !== undefined && files.length !== 1) throw new DatasetError(`--sha256 needs a single file, but ${name} has ${files.length} sources; use --from with --sha256`);
  const tmp = mkdtempSync(join(tmpdir(), 'vigil-update-'));
  try {
    const dir = join(tmp, name);
    mkdirSync(dir);
    for (const [i, f] of files.entries()) {
      if (files.length > 1) progress(`file ${i + 1} of ${files.length}: ${f.file}`);
      await fetchOne(f.url, join(dir, f.file), progress);
    }
    if (expected !== undefined) {
      const got = createHash('sha256').update(readFileSync(join(dir, files[0]?.file ?? ''))).digest('hex');
      if (got !== expected) throw new DatasetError(`sha256 mismatch: expected ${expected}, got ${got}; nothing imported`);
      progress('sha256 verified');
    }
    return importFrom(dataDir, name, tmp, opts.now, progress);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function importFrom(dataDir: string, name: string, dir: string, now: Date | undefined, progress: Progress): ImportReport {
  const importer = IMPORTERS[name];
  if (importer === undefined) throw new DatasetError(`unknown dataset "${name}"`);
  progress(`importing ${name}`);
  const report = importer(dataDir, dir, now, progress);
  progress(`${name} ${report.manifest.version}: ${report.manifest.count} records (previous ${report.manifest.previous ?? 'none'})`);
  return report;
}

/** geolite2-city or geolite2-asn from MaxMind (MAXMIND_ACCOUNT_ID, MAXMIND_LICENSE_KEY), checked and imported like a local .mmdb. */
async function updateFromMaxmind(dataDir: string, name: string, creds: MaxmindCredentials, opts: UpdateOptions, progress: Progress): Promise<ImportReport> {
  const tmp = mkdtempSync(join(tmpdir(), 'vigil-update-'));
  try {
    await downloadGeoLite2(name, creds, join(tmp, name), join(tmp, '.work'), progress);
    return importFrom(dataDir, name, tmp, opts.now, progress);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The datasets `vigil data update --all` updates: those with sources (DEFAULT_SOURCES or DATA_SOURCES_FILE), and GeoLite2 with MaxMind credentials. */
export function updatableDatasets(sourcesFile: string | undefined, maxmind: MaxmindCredentials | undefined): string[] {
  const names = Object.keys(IMPORTERS).filter((name) => datasetSources(name, sourcesFile) !== null || (maxmind !== undefined && MAXMIND_EDITIONS[name] !== undefined));
  return names;
}

/** One dataset's outcome in `vigil data update --all`. */
export type UpdateOutcome =
  | { name: string; status: 'updated'; version: string; count: number; previous: string | null; seconds: number }
  | { name: string; status: 'failed'; error: string; seconds: number };

/**
 * `vigil data update --all` (and the DATA_UPDATE_INTERVAL schedule): updates every updatable
 * dataset one after the other; a failure is recorded and the others still update (each keeps its
 * current version when its own update fails).
 */
export async function updateAll(dataDir: string, opts: Omit<UpdateOptions, 'from' | 'sha256'> = {}): Promise<UpdateOutcome[]> {
  const progress = opts.progress ?? NO_PROGRESS;
  const names = updatableDatasets(opts.sourcesFile, opts.maxmind);
  const out: UpdateOutcome[] = [];
  for (const [i, name] of names.entries()) {
    progress(`dataset ${i + 1} of ${names.length}: ${name}`);
    const started = Date.now();
    const seconds = (): number => Math.round((Date.now() - started) / 100) / 10;
    try {
      const r = await updateDataset(dataDir, name, opts);
      out.push({ name, status: 'updated', version: r.manifest.version, count: r.manifest.count, previous: r.manifest.previous, seconds: seconds() });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      progress(`${name} failed: ${error}`);
      out.push({ name, status: 'failed', error, seconds: seconds() });
    }
  }
  return out;
}
