import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { normaliseDomain } from '../../intel/domain/name.ts';
import { DatasetError, writeDatasetVersion, type DatasetManifest } from './dataset-store.ts';

export const DANGEROUS_DOMAINS = 'dangerous-domains';
/** Updates to the npm-shipped disposable lists (new throwaway providers appear every week). */
export const DISPOSABLE_DOMAINS = 'disposable-domains';
/** Datasets that are plain domain lists, imported alike from DIR/<name>/*. */
export const DOMAIN_LIST_DATASETS = [DANGEROUS_DOMAINS, DISPOSABLE_DOMAINS] as const;
export type DomainListDataset = (typeof DOMAIN_LIST_DATASETS)[number];
export const DOMAIN_LIST_FILE = 'domains.txt';

/** Hosts-file sink addresses: `0.0.0.0 evil.example` blocks evil.example. */
const SINK = /^(?:0\.0\.0\.0|127\.0\.0\.1|::|::1|0:0:0:0:0:0:0:0|0:0:0:0:0:0:0:1)$/;
/** Names hosts files map for the machine itself, never a blocked domain. */
const HOSTS_NOISE: ReadonlySet<string> = new Set(['localhost', 'localhost.localdomain', 'local', 'broadcasthost', 'ip6-localhost', 'ip6-loopback', '0.0.0.0']);

export interface ParsedList {
  domains: string[];
  /** Lines that held something but no valid domain (first few kept for the report). */
  rejected: number;
  samples: string[];
}

/**
 * One list file: a domain per line, or hosts-file lines (`0.0.0.0 a.example b.example`); `#`
 * starts a comment; blank lines are skipped; every name is normalised (lower case, IDN to
 * punycode) and must be a valid FQDN.
 */
export function parseDomainList(text: string): ParsedList {
  const domains: string[] = [];
  const samples: string[] = [];
  let rejected = 0;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    if (line === '') continue;
    const tokens = line.split(/\s+/);
    const names = tokens.length > 1 && SINK.test(tokens[0] ?? '') ? tokens.slice(1) : tokens.length === 1 ? tokens : [];
    let kept = 0;
    for (const name of names) {
      if (HOSTS_NOISE.has(name.toLowerCase())) { kept++; continue; }
      const d = normaliseDomain(name);
      if (d !== null) { domains.push(d); kept++; }
    }
    if (kept === 0 || kept < names.length) {
      rejected++;
      if (samples.length < 5) samples.push(rawLine.slice(0, 120));
    }
  }
  return { domains, rejected, samples };
}

export interface ImportReport {
  manifest: DatasetManifest;
  files: string[];
  rejected: number;
  samples: string[];
}

/** Imports DIR/<name>/* (every regular, non-hidden file) as a new version of a domain-list dataset. */
export function importDomainList(name: DomainListDataset, dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = resolve(dir, name);
  let names: string[];
  try {
    names = readdirSync(src).filter((n) => !n.startsWith('.')).sort();
  } catch {
    throw new DatasetError(`${src} is not a readable directory`);
  }
  const files = names.filter((n) => statSync(join(src, n)).isFile());
  if (files.length === 0) throw new DatasetError(`${src} holds no files`);
  const all = new Set<string>();
  let rejected = 0;
  const samples: string[] = [];
  for (const f of files) {
    const parsed = parseDomainList(readFileSync(join(src, f), 'utf8'));
    for (const d of parsed.domains) all.add(d);
    rejected += parsed.rejected;
    for (const s of parsed.samples) if (samples.length < 5) samples.push(`${f}: ${s}`);
  }
  if (all.size === 0) throw new DatasetError(`${src}: no valid domain in ${files.length} file(s); nothing imported`);
  const sorted = [...all].sort();
  const manifest = writeDatasetVersion(dataDir, name, {
    file: DOMAIN_LIST_FILE,
    content: sorted.join('\n') + '\n',
    source: `${src} (${files.join(', ')})`,
    license: 'as supplied by the operator',
    count: sorted.length,
  }, now);
  return { manifest, files, rejected, samples };
}
