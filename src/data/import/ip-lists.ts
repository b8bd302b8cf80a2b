import { basename, join } from 'node:path';
import { formatNetwork, parseNetwork } from '../../policy/blacklists/ip-parse.ts';
import { rangeToCidrs } from '../ip-range.ts';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';
import { cleanField, linesOf, listSourceFiles, parseAsn, parseCsvLine, readSourceText, Rejects, sourceDir } from './source-files.ts';

/**
 * Importers of the public IP threat lists (Tor, VPN, datacenter, cloud, iCloud Private Relay).
 * Each reads DIR/<dataset>/ in the shared layout, in the upstream repository's layout, or as the
 * single file `vigil data update NAME --from URL` drops there, and stores ONE normalised,
 * tab-separated file per version. Addresses and CIDRs are stored in canonical text (formatNetwork),
 * host bits cleared, de-duplicated and sorted, so two imports of the same data are byte-identical.
 * Malformed lines are skipped and counted; an import with nothing valid is refused and the current
 * version stays.
 */

export const TOR_EXIT_NODES = 'tor-exit-nodes';
export const VPN_DATACENTER_X4BNET = 'vpn-datacenter-x4bnet';
export const CLOUD_RANGES_JHASSINE = 'cloud-ranges-jhassine';
export const DATACENTER_IPCAT = 'datacenter-ipcat';
export const ICLOUD_PRIVATE_RELAY = 'icloud-private-relay';

/** Stored file of each dataset. */
export const IP_LIST_FILES = {
  [TOR_EXIT_NODES]: 'tor.tsv',
  [VPN_DATACENTER_X4BNET]: 'lists.tsv',
  [CLOUD_RANGES_JHASSINE]: 'ranges.tsv',
  [DATACENTER_IPCAT]: 'ranges.tsv',
  [ICLOUD_PRIVATE_RELAY]: 'ranges.txt',
} as const;

/** An address or CIDR in canonical text, null when the text is neither. */
export function canonicalNetwork(text: string): string | null {
  const n = parseNetwork(text.trim());
  return n === null ? null : formatNetwork(n);
}

/** Text before a `#` comment, trimmed. */
const uncomment = (line: string): string => {
  const hash = line.indexOf('#');
  return (hash < 0 ? line : line.slice(0, hash)).trim();
};

/** One address or CIDR per line (`#` comments, blank lines skipped) into `into`; bad lines counted. */
function readNetworkLines(text: string, file: string, into: Set<string>, rejects: Rejects): void {
  for (const raw of linesOf(text)) {
    const line = uncomment(raw);
    if (line === '') continue;
    const net = canonicalNetwork(line);
    if (net === null) rejects.add(file, raw);
    else into.add(net);
  }
}

const sorted = (s: Iterable<string>): string[] => [...s].sort();

function store(dataDir: string, name: keyof typeof IP_LIST_FILES, src: string, files: string[], lines: string[], count: number, license: string, now: Date): ImportReport['manifest'] {
  return writeDatasetVersion(dataDir, name, { file: IP_LIST_FILES[name], content: lines.join('\n') + '\n', source: `${src} (${files.join(', ')})`, license, count }, now);
}

function noFiles(src: string, what: string): DatasetError {
  return new DatasetError(`${src} holds no ${what}; nothing imported`);
}

// --- tor-exit-nodes ---------------------------------------------------------------------------

/**
 * Which Tor list a file is, by name: exits (idleadmin `tor-exit-nodes.list`, Check Point
 * `cptorlist.list`, the Tor Project's `torbulkexitlist`) or all relays (`tor-nodes.lst`,
 * `tor-all-relays-*.txt`). Exit names are tested first: `tor-exit-nodes` also says "nodes".
 */
export function torListKind(path: string): 'exit' | 'relay' | null {
  const f = basename(path).toLowerCase();
  if (/exit|cptor|checkpoint/.test(f)) return 'exit';
  if (/relay|nodes|all/.test(f)) return 'relay';
  return null;
}

/**
 * DIR/tor-exit-nodes/: exit addresses = the union of every exit list; all relays as a separate
 * section. Stored as `exit<TAB>ip` and `relay<TAB>ip` lines. Refused without any exit address:
 * a relay-only import would silently turn `isTor` off for every address.
 */
export function importTorExitNodes(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, TOR_EXIT_NODES);
  const exits = new Set<string>();
  const relays = new Set<string>();
  const rejects = new Rejects();
  const files: string[] = [];
  for (const rel of listSourceFiles(src)) {
    const kind = torListKind(rel);
    if (kind === null) {
      rejects.note(`${rel}: not a known Tor list name (tor-exit-nodes, cptorlist, torbulkexitlist, tor-nodes, tor-all-relays); skipped`);
      continue;
    }
    files.push(rel);
    readNetworkLines(readSourceText(join(src, rel)), rel, kind === 'exit' ? exits : relays, rejects);
  }
  if (files.length === 0) throw noFiles(src, 'Tor list file');
  if (exits.size === 0) throw new DatasetError(`${src}: no valid Tor exit address in ${files.join(', ')}; nothing imported`);
  const lines = [...sorted(exits).map((ip) => `exit\t${ip}`), ...sorted(relays).map((ip) => `relay\t${ip}`)];
  const license = 'Tor Project exit lists via idleadmin/ThreatFeed (repository Apache-2.0; data belongs to the original sources); relays: SecOps-Institute/Tor-IP-Addresses (MIT); or as supplied by the operator';
  const manifest = store(dataDir, TOR_EXIT_NODES, src, files, lines, lines.length, license, now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}

// --- vpn-datacenter-x4bnet --------------------------------------------------------------------

export type X4bSection = 'vpn' | 'datacenter' | 'vpn-asn' | 'datacenter-asn';

/**
 * Which X4BNet list a file is, from its path: shared names (`vpn-ipv4.txt`, `datacenter-asn.txt`)
 * or the repository's (`output/vpn/ipv4.txt`, `input/datacenter/ASN.txt`). "datacenter" is tested
 * first because the repository itself is called lists_vpn. A bare `ipv4.txt` or `ASN.txt` (what
 * `--from URL` keeps of an upstream path) is ambiguous and null: guessing "vpn" for the
 * datacenter list would flag 42,000 hosting ranges as VPNs.
 */
export function x4bSection(path: string): X4bSection | null {
  const p = path.toLowerCase();
  const group = /datacenter|hosting/.test(p) ? 'datacenter' : /vpn/.test(p) ? 'vpn' : null;
  if (group === null) return null;
  return /asn/.test(basename(p)) ? `${group}-asn` : group;
}

/** `AS9009 # M247, GB (NordVPN)` as [asn, comment]; null for a malformed line. Blank and comment-only lines are the caller's. */
export function parseAsnLine(line: string): [number, string] | null {
  const hash = line.indexOf('#');
  const head = (hash < 0 ? line : line.slice(0, hash)).trim();
  const asn = parseAsn(head);
  return asn === null ? null : [asn, hash < 0 ? '' : cleanField(line.slice(hash + 1))];
}

/**
 * DIR/vpn-datacenter-x4bnet/: VPN and datacenter CIDRs (IPv4 and IPv6 files of each merged) and
 * the VPN-operator and hosting ASN lists. Stored as `vpn<TAB>cidr`, `datacenter<TAB>cidr`,
 * `vpn-asn<TAB>n<TAB>comment`, `datacenter-asn<TAB>n<TAB>comment`.
 */
export function importX4bnet(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, VPN_DATACENTER_X4BNET);
  const ranges = { vpn: new Set<string>(), datacenter: new Set<string>() };
  const asns = { 'vpn-asn': new Map<number, string>(), 'datacenter-asn': new Map<number, string>() };
  const rejects = new Rejects();
  const files: string[] = [];
  for (const rel of listSourceFiles(src)) {
    const section = x4bSection(rel);
    if (section === null) {
      rejects.note(`${rel}: cannot tell the VPN list from the datacenter list by its name (use vpn-ipv4.txt, datacenter-asn.txt, output/vpn/ipv4.txt, ...); skipped`);
      continue;
    }
    files.push(rel);
    const text = readSourceText(join(src, rel));
    if (section === 'vpn' || section === 'datacenter') {
      readNetworkLines(text, rel, ranges[section], rejects);
      continue;
    }
    const into = asns[section];
    for (const raw of linesOf(text)) {
      if (uncomment(raw) === '') continue;
      const parsed = parseAsnLine(raw);
      if (parsed === null) rejects.add(rel, raw);
      else if (!into.has(parsed[0])) into.set(parsed[0], parsed[1]);
    }
  }
  if (files.length === 0) {
    throw noFiles(src, `VPN or datacenter list (names must say which: vpn-ipv4.txt, datacenter-asn.txt, output/vpn/ipv4.txt; \`vigil data update ${VPN_DATACENTER_X4BNET}\` without --from fetches all six)`);
  }
  const lines: string[] = [];
  for (const section of ['vpn', 'datacenter'] as const) for (const cidr of sorted(ranges[section])) lines.push(`${section}\t${cidr}`);
  for (const section of ['vpn-asn', 'datacenter-asn'] as const) {
    for (const [asn, comment] of [...asns[section]].sort((a, b) => a[0] - b[0])) lines.push(`${section}\t${asn}\t${comment}`);
  }
  if (lines.length === 0) throw new DatasetError(`${src}: no valid CIDR or ASN in ${files.join(', ')}; nothing imported`);
  const manifest = store(dataDir, VPN_DATACENTER_X4BNET, src, files, lines, lines.length, 'MIT (X4BNet/lists_vpn, Copyright (c) 2024 X4B) or as supplied by the operator', now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}

// --- cloud-ranges-jhassine --------------------------------------------------------------------

const CSV_FILE = /\.csv(?:\.gz)?$/i;

/**
 * Labelled ranges from CSV files into `into` (cidr -> label, first label kept). `columns` says
 * where the CIDR and label are when there is no header; a header naming `cidr` (and `vendor`)
 * overrides it.
 */
function readLabelledCsv(text: string, file: string, into: Map<string, string>, rejects: Rejects): void {
  let cidrAt = 0;
  let labelAt = 3;
  let first = true;
  for (const raw of linesOf(text)) {
    if (raw.trim() === '') continue;
    const row = parseCsvLine(raw);
    if (first) {
      first = false;
      const header = row?.map((c) => c.trim().toLowerCase());
      if (header?.includes('cidr')) {
        cidrAt = header.indexOf('cidr');
        labelAt = header.indexOf('vendor');
        continue;
      }
    }
    const cidr = row === null ? null : canonicalNetwork(row[cidrAt] ?? '');
    if (row === null || cidr === null) {
      rejects.add(file, raw);
      continue;
    }
    if (!into.has(cidr)) into.set(cidr, labelAt < 0 ? '' : cleanField(row[labelAt]));
  }
}

function labelledLines(m: Map<string, string>): string[] {
  return sorted(m.keys()).map((cidr) => `${cidr}\t${m.get(cidr) ?? ''}`);
}

/**
 * DIR/cloud-ranges-jhassine/*.csv[.gz]: `cidr,hostmin,hostmax,vendor` (vendor AWS, Azure, GCP,
 * CloudFlare) stored as `cidr<TAB>vendor`.
 */
export function importJhassine(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, CLOUD_RANGES_JHASSINE);
  const files = listSourceFiles(src).filter((f) => CSV_FILE.test(f));
  if (files.length === 0) throw noFiles(src, '.csv or .csv.gz file');
  const ranges = new Map<string, string>();
  const rejects = new Rejects();
  for (const rel of files) readLabelledCsv(readSourceText(join(src, rel)), rel, ranges, rejects);
  if (ranges.size === 0) throw new DatasetError(`${src}: no valid CIDR in ${files.join(', ')}; nothing imported`);
  const license = "none stated (jhassine/server-ip-addresses; the ranges are the providers' published feeds) or as supplied by the operator";
  const manifest = store(dataDir, CLOUD_RANGES_JHASSINE, src, files, labelledLines(ranges), ranges.size, license, now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}

// --- datacenter-ipcat -------------------------------------------------------------------------

/**
 * DIR/datacenter-ipcat/*.csv: `start_ip,end_ip,provider_name,provider_url` ranges, each turned
 * into the fewest CIDRs covering it, stored as `cidr<TAB>provider`. A CIDR listed twice keeps the
 * first provider.
 */
export function importIpcat(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, DATACENTER_IPCAT);
  const files = listSourceFiles(src).filter((f) => CSV_FILE.test(f));
  if (files.length === 0) throw noFiles(src, '.csv file');
  const ranges = new Map<string, string>();
  const rejects = new Rejects();
  for (const rel of files) {
    for (const raw of linesOf(readSourceText(join(src, rel)))) {
      if (raw.trim() === '' || raw.startsWith('#')) continue;
      const row = parseCsvLine(raw);
      const cidrs = row !== null && row.length >= 3 ? rangeToCidrs(row[0] ?? '', row[1] ?? '') : null;
      const provider = cleanField(row?.[2]);
      if (cidrs === null || provider === '') {
        rejects.add(rel, raw);
        continue;
      }
      for (const c of cidrs) if (!ranges.has(c)) ranges.set(c, provider);
    }
  }
  if (ranges.size === 0) throw new DatasetError(`${src}: no valid range in ${files.join(', ')}; nothing imported`);
  const manifest = store(dataDir, DATACENTER_IPCAT, src, files, labelledLines(ranges), ranges.size, 'MIT (client9/ipcat, Copyright (c) 2023 Nick Galbreath) or as supplied by the operator', now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}

// --- icloud-private-relay ---------------------------------------------------------------------

/**
 * DIR/icloud-private-relay/: every file, one CIDR or bare address per line (bare = /32 or /128).
 * Only the first comma-separated field is read, so Apple's own `egress-ip-ranges.csv`
 * (`prefix,country,region,city,`) imports as well. Stored as one CIDR per line.
 */
export function importIcloudRelay(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, ICLOUD_PRIVATE_RELAY);
  const files = listSourceFiles(src);
  if (files.length === 0) throw noFiles(src, 'file');
  const ranges = new Set<string>();
  const rejects = new Rejects();
  for (const rel of files) {
    for (const raw of linesOf(readSourceText(join(src, rel)))) {
      const line = uncomment(raw);
      if (line === '') continue;
      const comma = line.indexOf(',');
      const net = canonicalNetwork(comma < 0 ? line : line.slice(0, comma));
      if (net === null) rejects.add(rel, raw);
      else ranges.add(net);
    }
  }
  if (ranges.size === 0) throw new DatasetError(`${src}: no valid CIDR in ${files.join(', ')}; nothing imported`);
  const manifest = store(dataDir, ICLOUD_PRIVATE_RELAY, src, files, sorted(ranges), ranges.size, 'MIT (hroost/icloud-private-relay-iplist; feed published by Apple) or as supplied by the operator', now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}
