/**
 * Known crawler networks: is this IP inside a range that a search-engine operator publishes for its
 * crawler (Googlebot, Bingbot, Applebot)? A request whose UA says "Googlebot" from outside
 * Google's ranges is an impostor; one from inside is the real crawler.
 *
 * The shipped list is src/data/crawler-ranges.json, copied from the operators' own files (see its
 * description for what is left out and why). Operators refresh it from the same files, which all
 * use Google's layout ({"creationTime", "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]}):
 * parsePublishedRanges() reads that layout, and a crawler entry in our file may hold those objects
 * as they are, so a fresh download can be pasted in.
 *
 * Matching reuses the blacklists' IpSet (one per crawler): a binary search per crawler, both
 * families, IPv4-mapped IPv6 folded to IPv4.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { DatasetInfo } from '../country/facts.ts';
import { formatNetwork, parseNetwork } from '../../policy/blacklists/ip-parse.ts';
import { IpSet } from '../../policy/blacklists/ip-set.ts';

export const DEFAULT_CRAWLER_RANGES_FILE = fileURLToPath(new URL('../../data/crawler-ranges.json', import.meta.url));

/**
 * Shortest prefixes accepted. The widest published today are a /22 (Bing) and /64 (Google); a
 * much wider one is a broken or hostile file, and would label a whole provider's customers as a
 * trusted crawler, so it is refused rather than loaded.
 */
export const MIN_PREFIX_V4 = 16;
export const MIN_PREFIX_V6 = 32;

/** One entry of an operator's file: {"ipv4Prefix": "..."} or {"ipv6Prefix": "..."} (other keys are dropped). */
const PublishedPrefix = z.union([z.object({ ipv4Prefix: z.string() }), z.object({ ipv6Prefix: z.string() })]);

const PublishedSchema = z
  .object({
    creationTime: z.string().optional(),
    prefixes: z.array(PublishedPrefix),
  })
  .loose();

const CuratedSchema = z
  .object({
    source: z.string().min(1),
    published: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'published must be YYYY-MM-DD'),
    crawlers: z
      .array(
        z
          .object({
            name: z.string().min(1),
            prefixes: z.array(z.union([z.string(), PublishedPrefix])).min(1),
          })
          .loose(),
      )
      .min(1),
  })
  .loose();

export interface PublishedRanges {
  /** The file's creationTime as written, or null. */
  creationTime: string | null;
  /** Canonical CIDR text, in file order, duplicates removed. */
  prefixes: string[];
}

export interface CrawlerRanges {
  /** The crawler whose published ranges hold the address, or null (also for non-addresses). */
  match(ip: string): string | null;
  /** Crawler names in file order. */
  readonly names: readonly string[];
  /** Prefixes loaded, all crawlers. */
  readonly prefixCount: number;
  readonly info: DatasetInfo;
}

function prefixText(entry: string | z.infer<typeof PublishedPrefix>): string {
  if (typeof entry === 'string') return entry;
  return 'ipv4Prefix' in entry ? entry.ipv4Prefix : entry.ipv6Prefix;
}

/** Canonical text of a published prefix; throws naming the entry when it is invalid or too wide. */
function checkPrefix(text: string, where: string): string {
  const net = parseNetwork(text.trim());
  if (net === null || !text.includes('/')) throw new Error(`${where}: "${text}" is not a CIDR prefix`);
  const min = net.family === 4 ? MIN_PREFIX_V4 : MIN_PREFIX_V6;
  if (net.prefix < min) throw new Error(`${where}: "${text}" is wider than /${min}; refused as too broad for a crawler range`);
  // formatNetwork leaves the length off a single address; a range file always states it.
  const canon = formatNetwork(net);
  return canon.includes('/') ? canon : `${canon}/${net.prefix}`;
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * Reads an operator's published file (Google's layout: googlebot.json, bingbot.json,
 * applebot.json). Throws on another shape, an invalid prefix or one too wide to be a crawler's.
 */
export function parsePublishedRanges(doc: unknown): PublishedRanges {
  const parsed = PublishedSchema.safeParse(doc);
  if (!parsed.success) throw new Error(`crawler ranges: not a published range file (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  const prefixes = dedupe(parsed.data.prefixes.map((p, i) => checkPrefix(prefixText(p), `prefixes[${i}]`)));
  if (prefixes.length === 0) throw new Error('crawler ranges: the file lists no prefixes');
  return { creationTime: parsed.data.creationTime ?? null, prefixes };
}

class Ranges implements CrawlerRanges {
  readonly names: readonly string[];
  readonly prefixCount: number;

  constructor(
    private readonly sets: ReadonlyArray<readonly [string, IpSet]>,
    readonly info: DatasetInfo,
  ) {
    this.names = sets.map(([name]) => name);
    this.prefixCount = sets.reduce((n, [, set]) => n + set.size, 0);
  }

  match(ip: string): string | null {
    for (const [name, set] of this.sets) if (set.has(ip)) return name;
    return null;
  }
}

/**
 * Builds the matcher from crawler names and their prefixes (any valid CIDR spelling). The first
 * crawler listed wins where ranges overlap. Throws on an invalid or too-wide prefix.
 */
export function buildCrawlerRanges(crawlers: ReadonlyArray<{ name: string; prefixes: readonly string[] }>, info: DatasetInfo): CrawlerRanges {
  const sets = crawlers.map(({ name, prefixes }) => {
    const canon = dedupe(prefixes.map((p, i) => checkPrefix(p, `${name}.prefixes[${i}]`)));
    return [name, IpSet.build(canon)] as const;
  });
  return new Ranges(sets, info);
}

/** Validates a parsed crawler-ranges document (our format) and builds the matcher. */
export function crawlerRangesFromJson(doc: unknown, origin = 'crawler-ranges.json'): CrawlerRanges {
  const parsed = CuratedSchema.safeParse(doc);
  if (!parsed.success) {
    const hint = PublishedSchema.safeParse(doc).success ? ': this is an operator file; read it with parsePublishedRanges and name its crawler' : '';
    throw new Error(`crawler ranges (${origin}): not a {source, published, crawlers} document (${parsed.error.issues[0]?.message ?? 'invalid'})${hint}`);
  }
  const { source, published, crawlers } = parsed.data;
  return buildCrawlerRanges(
    crawlers.map((c) => ({ name: c.name, prefixes: c.prefixes.map(prefixText) })),
    {
      name: 'crawler-ranges',
      version: published,
      source,
      // Facts (address ranges) published by the operators for verification by anyone.
      license: 'public facts from the crawler operators\' published range files',
    },
  );
}

/** Loads the crawler ranges file (default: the shipped src/data/crawler-ranges.json). Throws when unreadable or invalid. */
export function loadCrawlerRanges(file: string = DEFAULT_CRAWLER_RANGES_FILE): CrawlerRanges {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (err) {
    throw new Error(`crawler ranges: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
  return crawlerRangesFromJson(doc, file);
}
