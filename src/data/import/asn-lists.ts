import { basename, join } from 'node:path';
import type { ImportReport } from './dangerous-domains.ts';
import { DatasetError, writeDatasetVersion } from './dataset-store.ts';
import { cleanField, linesOf, listSourceFiles, parseAsn, parseCsvLine, readSourceText, Rejects, sourceDir } from './source-files.ts';

/**
 * Importers of ASN metadata: bgp.tools' ASN table and tag lists (asn-bgptools) and asn2org's
 * organisation names (asn-names-asn2org). Both store one record per ASN, sorted by number, in a
 * tab-separated file; see ip-lists.ts for the shared rules (layouts accepted, rejects, refusal).
 */

export const ASN_BGPTOOLS = 'asn-bgptools';
export const ASN_NAMES_ASN2ORG = 'asn-names-asn2org';
export const ASN_BGPTOOLS_FILE = 'asns.tsv';
export const ASN_NAMES_ASN2ORG_FILE = 'asns.tsv';

/** The main table (`asns.csv` on bgp.tools and in its mirror, gzipped or not). */
const MAIN_TABLE = /^asns\.csv(?:\.gz)?$/i;
/** A tag list: `tags-vpn.csv` (mirror) or `vpn.csv` (https://bgp.tools/tags/vpn.csv). */
const TAG_FILE = /^(?:tags-)?([a-z0-9]{1,24})\.csv(?:\.gz)?$/i;

export interface BgpToolsRecord {
  asn: number;
  name: string;
  /** bgp.tools class (Eyeball, Content, Carrier, T1, Unknown), as published. */
  bgpClass: string;
  /** ISO 3166 alpha-2, or ''. */
  cc: string;
  tags: string[];
}

/** Where the columns are: from a header naming `asn`, else bgp.tools' order asn,name,class,cc. */
function columnsOf(row: readonly string[] | null): Record<'asn' | 'name' | 'class' | 'cc', number> | null {
  const header = row?.map((c) => c.trim().toLowerCase());
  if (header === undefined || !header.includes('asn')) return null;
  return { asn: header.indexOf('asn'), name: header.indexOf('name'), class: header.indexOf('class'), cc: header.indexOf('cc') };
}

const country = (s: string | undefined): string => {
  const c = cleanField(s).toUpperCase();
  return /^[A-Z]{2}$/.test(c) ? c : '';
};

/**
 * DIR/asn-bgptools/: `asns.csv[.gz]` (`asn,name,class,cc`, asn as `AS13335`, names with commas
 * quoted) plus every tag list (`tags/tags-<tag>.csv`, `tags-<tag>.csv` or `<tag>.csv`, rows
 * `AS<n>,<name>`), merged into one record per ASN: `asn<TAB>name<TAB>class<TAB>cc<TAB>tag1,tag2`.
 * An ASN only in tag lists keeps the tag list's name; without the main table the import still
 * works (tags only), since tags are what the classifier needs most.
 */
export function importBgpTools(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, ASN_BGPTOOLS);
  const records = new Map<number, BgpToolsRecord>();
  const rejects = new Rejects();
  const files: string[] = [];
  const all = listSourceFiles(src);
  const mains = all.filter((f) => MAIN_TABLE.test(basename(f)));
  const tagFiles = all.filter((f) => !MAIN_TABLE.test(basename(f)) && TAG_FILE.test(basename(f)));
  // tags.txt / tags-counts.txt is the mirror's index of tag counts, not a list.
  for (const f of all) if (!mains.includes(f) && !tagFiles.includes(f) && !/^tags(?:-counts)?\.txt$/i.test(basename(f))) rejects.note(`${f}: neither asns.csv nor a tags-<tag>.csv list; skipped`);
  for (const rel of mains) {
    files.push(rel);
    let cols: ReturnType<typeof columnsOf> = { asn: 0, name: 1, class: 2, cc: 3 };
    let first = true;
    for (const raw of linesOf(readSourceText(join(src, rel)))) {
      if (raw.trim() === '') continue;
      const row = parseCsvLine(raw);
      if (first) {
        first = false;
        const header = columnsOf(row);
        if (header !== null) {
          cols = header;
          continue;
        }
      }
      const asn = row === null ? null : parseAsn(row[cols.asn]);
      if (row === null || asn === null) {
        rejects.add(rel, raw);
        continue;
      }
      if (!records.has(asn)) records.set(asn, { asn, name: cleanField(row[cols.name]), bgpClass: cleanField(row[cols.class]), cc: country(row[cols.cc]), tags: [] });
    }
  }
  for (const rel of tagFiles) {
    const tag = (TAG_FILE.exec(basename(rel))?.[1] ?? '').toLowerCase();
    files.push(rel);
    for (const raw of linesOf(readSourceText(join(src, rel)))) {
      if (raw.trim() === '') continue;
      // Only the ASN matters here, and it is never quoted; the name after it is read leniently
      // because bgp.tools writes names holding quotes unescaped (`AS56201,"""Zoho ...",`) in
      // about 90 tag rows, which a strict CSV reader would drop with their tags.
      const comma = raw.indexOf(',');
      const asn = parseAsn(comma < 0 ? raw : raw.slice(0, comma));
      if (asn === null) {
        // A header line is not data, but not an error either.
        if (!/^"?asn"?\s*(,|$)/i.test(raw)) rejects.add(rel, raw);
        continue;
      }
      let r = records.get(asn);
      if (r === undefined) {
        const rest = comma < 0 ? '' : raw.slice(comma + 1);
        const name = parseCsvLine(rest)?.[0] ?? rest.replace(/^"+|"+,?$/g, '');
        records.set(asn, (r = { asn, name: cleanField(name), bgpClass: '', cc: '', tags: [] }));
      }
      if (!r.tags.includes(tag)) r.tags.push(tag);
    }
  }
  if (files.length === 0) throw new DatasetError(`${src} holds neither asns.csv[.gz] nor tags-<tag>.csv files; nothing imported`);
  if (records.size === 0) throw new DatasetError(`${src}: no valid ASN in ${files.join(', ')}; nothing imported`);
  const lines = [...records.values()]
    .sort((a, b) => a.asn - b.asn)
    .map((r) => `${r.asn}\t${r.name}\t${r.bgpClass}\t${r.cc}\t${r.tags.sort().join(',')}`);
  const manifest = writeDatasetVersion(dataDir, ASN_BGPTOOLS, {
    file: ASN_BGPTOOLS_FILE,
    content: lines.join('\n') + '\n',
    source: `${src} (${files.length > 6 ? `${files.slice(0, 6).join(', ')} and ${files.length - 6} more` : files.join(', ')})`,
    license: "bgp.tools data (https://bgp.tools/asns.csv, /tags/*.csv) via Alice39s/BGP.Tools-OpenDB (code MIT); bgp.tools' terms apply, no separate data licence; or as supplied by the operator",
    count: records.size,
  }, now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}

/**
 * DIR/asn-names-asn2org/*.csv[.gz]: `"asn","name","source"` (asn a bare number; `AS` accepted)
 * stored as `asn<TAB>org<TAB>source`. A row without a name is rejected: the name is the record.
 */
export function importAsn2org(dataDir: string, dir: string, now: Date = new Date()): ImportReport {
  const src = sourceDir(dir, ASN_NAMES_ASN2ORG);
  const files = listSourceFiles(src).filter((f) => /\.csv(?:\.gz)?$/i.test(f));
  if (files.length === 0) throw new DatasetError(`${src} holds no .csv or .csv.gz file; nothing imported`);
  const records = new Map<number, [string, string]>();
  const rejects = new Rejects();
  for (const rel of files) {
    let at = { asn: 0, name: 1, source: 2 };
    let first = true;
    for (const raw of linesOf(readSourceText(join(src, rel)))) {
      if (raw.trim() === '') continue;
      const row = parseCsvLine(raw);
      if (first) {
        first = false;
        const header = row?.map((c) => c.trim().toLowerCase());
        if (header?.includes('asn')) {
          at = { asn: header.indexOf('asn'), name: header.indexOf('name'), source: header.indexOf('source') };
          continue;
        }
      }
      const asn = row === null ? null : parseAsn(row[at.asn]);
      const org = cleanField(row?.[at.name]);
      if (asn === null || org === '') {
        rejects.add(rel, raw);
        continue;
      }
      if (!records.has(asn)) records.set(asn, [org, cleanField(row?.[at.source])]);
    }
  }
  if (records.size === 0) throw new DatasetError(`${src}: no valid ASN in ${files.join(', ')}; nothing imported`);
  const lines = [...records].sort((a, b) => a[0] - b[0]).map(([asn, [org, source]]) => `${asn}\t${org}\t${source}`);
  const manifest = writeDatasetVersion(dataDir, ASN_NAMES_ASN2ORG, {
    file: ASN_NAMES_ASN2ORG_FILE,
    content: lines.join('\n') + '\n',
    source: `${src} (${files.join(', ')})`,
    license: 'CC0-1.0 (vincentbernat/asn2org); inputs PeeringDB, RIR IRR databases and DB-IP IP-to-ASN Lite (CC BY 4.0, attribution: DB-IP); or as supplied by the operator',
    count: records.size,
  }, now);
  return { manifest, files, rejected: rejects.count, samples: rejects.samples };
}
