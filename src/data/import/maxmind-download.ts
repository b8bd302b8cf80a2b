import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from 'tar';
import { DatasetError } from './dataset-store.ts';
import { GEOLITE2_ASN, GEOLITE2_CITY } from './maxmind-db.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';
import { downloadTo } from './download.ts';

/** MaxMind account and licence key (MAXMIND_ACCOUNT_ID, MAXMIND_LICENSE_KEY) and where to download from. */
export interface MaxmindCredentials {
  accountId: string;
  licenseKey: string;
  /** https://download.maxmind.com unless MAXMIND_BASE_URL says otherwise. */
  baseUrl: string;
}

/** MaxMind's edition id of each dataset Vigil can download (geoipupdate's EditionIDs). */
export const MAXMIND_EDITIONS: Readonly<Record<string, string>> = {
  [GEOLITE2_CITY]: 'GeoLite2-City',
  [GEOLITE2_ASN]: 'GeoLite2-ASN',
};

const editionUrl = (c: MaxmindCredentials, edition: string, suffix: string): string =>
  `${c.baseUrl}/geoip/databases/${encodeURIComponent(edition)}/download?suffix=${suffix}`;

/**
 * Downloads one GeoLite2 edition the way geoipupdate does: HTTPS with basic authentication (account
 * id, licence key) to /geoip/databases/{edition}/download?suffix=tar.gz, following the redirect to
 * the storage host (fetch drops the Authorization header on a cross-origin redirect), checks the
 * archive against the published `suffix=tar.gz.sha256`, and extracts the one .mmdb file into
 * `destDir` (where importMaxmindDb reads it). tar refuses absolute paths and `..` in entries.
 */
export async function downloadGeoLite2(name: string, creds: MaxmindCredentials, destDir: string, workDir: string, progress: Progress = NO_PROGRESS): Promise<string> {
  const edition = MAXMIND_EDITIONS[name];
  if (edition === undefined) throw new DatasetError(`${name} is not a MaxMind edition (known: ${Object.keys(MAXMIND_EDITIONS).join(', ')})`);
  const headers = { authorization: `Basic ${Buffer.from(`${creds.accountId}:${creds.licenseKey}`).toString('base64')}` };
  const hint = (status: number): string => (status === 401 ? ' (check MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY)' : '');

  progress(`downloading ${edition} from ${creds.baseUrl}`);
  const sumText = await fetchText(editionUrl(creds, edition, 'tar.gz.sha256'), headers, hint);
  const expected = /^([0-9a-f]{64})\b/i.exec(sumText.trim())?.[1]?.toLowerCase();
  if (expected === undefined) throw new DatasetError(`${edition}: the published sha256 is not a SHA-256 digest ("${sumText.slice(0, 80)}")`);

  mkdirSync(workDir, { recursive: true });
  const archive = join(workDir, `${edition}.tar.gz`);
  await downloadTo(editionUrl(creds, edition, 'tar.gz'), archive, { headers, label: `downloading ${edition}`, progress, hint });
  const got = await fileSha256(archive);
  if (got !== expected) throw new DatasetError(`${edition}: sha256 mismatch (published ${expected}, downloaded ${got}); nothing imported`);
  progress(`${edition}: sha256 verified`);

  const out = join(workDir, `${edition}-extracted`);
  mkdirSync(out, { recursive: true });
  try {
    await extract({ file: archive, cwd: out, filter: (path) => /\.mmdb$/i.test(path), strict: true });
  } catch (err) {
    throw new DatasetError(`${edition}: not a tar.gz archive (${err instanceof Error ? err.message : String(err)})`);
  }
  const found = findFiles(out, /\.mmdb$/i);
  if (found.length !== 1) throw new DatasetError(`${edition}: the archive holds ${found.length} .mmdb files; expected one`);
  mkdirSync(destDir, { recursive: true });
  const dest = join(destDir, `${edition}.mmdb`);
  renameSync(found[0] as string, dest);
  return dest;
}

async function fetchText(url: string, headers: Record<string, string>, hint: (status: number) => string): Promise<string> {
  const res = await fetch(url, { headers, redirect: 'follow' }).catch((err: unknown) => {
    throw new DatasetError(`cannot download ${redact(url)}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (!res.ok) throw new DatasetError(`cannot download ${redact(url)}: HTTP ${res.status}${hint(res.status)}`);
  return (await res.text()).slice(0, 1000);
}

/** URLs in messages without a query string (a presigned storage URL carries a signature). */
const redact = (url: string): string => url.replace(/\?.*$/, '');

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function findFiles(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...findFiles(p, pattern));
    else if (pattern.test(entry)) out.push(p);
  }
  return out;
}
