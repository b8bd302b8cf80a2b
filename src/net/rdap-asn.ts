/**
 * Registry contacts of an autonomous system from RDAP (RFC 9083 `autnum` objects): the abuse (or
 * else technical, NOC, administrative, registrant) phone and e-mail, the registration date, the
 * registry and the status, for the `asn` block of the IP answers.
 *
 * The IP endpoints must not wait on a registry across the internet, so AsnRegistry answers from a
 * cache: `peek` returns what is known now and starts one background lookup on a miss; the next
 * request for the same ASN gets the answer. /lookup/asn may wait a little: `lookupWithin` waits up
 * to a budget and otherwise answers from the cache while the lookup goes on and fills it.
 *
 * Which server to ask comes from IANA's RDAP bootstrap for ASNs (RFC 9224, asn.json); a copy ships
 * as src/data/rdap-asn-bootstrap.json because a server may start without internet access.
 *
 * src/net/rdap.ts (domains) is left as it is; its isoDate is reused, and the small capped body
 * reader is repeated here because that one is private.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isoDate, readCapped } from './rdap.ts';
import { TtlCache } from './ttl-cache.ts';

export const DEFAULT_RDAP_ASN_BOOTSTRAP_FILE = fileURLToPath(new URL('../data/rdap-asn-bootstrap.json', import.meta.url));

export interface AsnContacts {
  /** Phone of the preferred contact, as the registry writes it (`tel:` scheme removed). */
  readonly phone: string | null;
  /** E-mail of the preferred contact (`mailto:` removed). */
  readonly email: string | null;
  /** Registration date, YYYY-MM-DD (UTC). */
  readonly created: string | null;
  /** Registry short name: ARIN, RIPE, APNIC, LACNIC, AFRINIC, or a national registry (JPNIC, ...). */
  readonly registry: string | null;
  /** The object's RDAP status values joined with ", " (usually "active"). */
  readonly status: string | null;
}

/** The answer when nothing is known: lookups off, failed, or no server for the ASN. */
export const NO_CONTACTS: AsnContacts = Object.freeze({ phone: null, email: null, created: null, registry: null, status: null });

const MAX_ASN = 0xffffffff;

function isAsn(asn: number): boolean {
  return Number.isInteger(asn) && asn >= 0 && asn <= MAX_ASN;
}

const BootstrapSchema = z.object({
  description: z.string().optional(),
  publication: z.string().optional(),
  version: z.string().optional(),
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())])),
});

/** Which RDAP base URL serves which ASN range, per an IANA asn.json `services` list. */
export class AsnBootstrap {
  private constructor(
    /** Range i is starts[i]..ends[i] (sorted, disjoint), served by bases[baseIndex[i]]. */
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    private readonly baseIndex: Uint16Array,
    private readonly bases: readonly string[],
    /** The file's `publication` timestamp, or null. */
    readonly publication: string | null,
  ) {}

  /** Validates a parsed bootstrap document; throws naming what is wrong. */
  static fromJson(doc: unknown): AsnBootstrap {
    const parsed = BootstrapSchema.safeParse(doc);
    if (!parsed.success) throw new Error(`RDAP ASN bootstrap: not an RFC 9224 "services" document (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const ranges: Array<[number, number, number]> = [];
    const bases: string[] = [];
    for (const [entries, urls] of parsed.data.services) {
      // RFC 9224 section 3: prefer an https base; a base URL must end with "/".
      const url = urls.find((u) => u.startsWith('https://')) ?? urls.find((u) => u.startsWith('http://'));
      if (url === undefined) continue;
      bases.push(url.endsWith('/') ? url : `${url}/`);
      for (const entry of entries) {
        // RFC 9224 section 5.3: "first-last" or a single number.
        const m = /^\s*(\d{1,10})\s*(?:-\s*(\d{1,10})\s*)?$/.exec(entry);
        if (!m) throw new Error(`RDAP ASN bootstrap: "${entry}" is not an ASN range`);
        const first = Number(m[1]);
        const last = m[2] === undefined ? first : Number(m[2]);
        if (first > last || last > MAX_ASN) throw new Error(`RDAP ASN bootstrap: "${entry}" is not an ASN range`);
        ranges.push([first, last, bases.length - 1]);
      }
    }
    ranges.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i++) {
      if (ranges[i]![0] <= ranges[i - 1]![1]) throw new Error(`RDAP ASN bootstrap: ranges ${ranges[i - 1]![0]}-${ranges[i - 1]![1]} and ${ranges[i]![0]}-${ranges[i]![1]} overlap`);
    }
    return new AsnBootstrap(
      Float64Array.from(ranges, (r) => r[0]),
      Float64Array.from(ranges, (r) => r[1]),
      Uint16Array.from(ranges, (r) => r[2]),
      bases,
      parsed.data.publication ?? null,
    );
  }

  /** Reads a bootstrap file (IANA's asn.json format). */
  static fromFile(path: string): AsnBootstrap {
    return AsnBootstrap.fromJson(JSON.parse(readFileSync(path, 'utf8')) as unknown);
  }

  /** Ranges listed. */
  get size(): number {
    return this.starts.length;
  }

  /** The base URL (ending in "/") of the RDAP server for an ASN, or null when none is listed. */
  baseUrlFor(asn: number): string | null {
    if (!isAsn(asn)) return null;
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! <= asn) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0 || this.ends[lo - 1]! < asn) return null;
    return this.bases[this.baseIndex[lo - 1]!] ?? null;
  }
}

/** Host suffix -> registry short name: the five RIRs and the national registries under APNIC and LACNIC. */
const REGISTRIES: ReadonlyArray<[string, string]> = [
  ['arin.net', 'ARIN'],
  ['ripe.net', 'RIPE'],
  ['apnic.net', 'APNIC'],
  ['lacnic.net', 'LACNIC'],
  ['afrinic.net', 'AFRINIC'],
  ['nic.ad.jp', 'JPNIC'],
  ['jpnic.net', 'JPNIC'],
  ['twnic.net', 'TWNIC'],
  ['twnic.net.tw', 'TWNIC'],
  ['nic.or.kr', 'KRNIC'],
  ['kisa.or.kr', 'KRNIC'],
  ['cnnic.cn', 'CNNIC'],
  ['cnnic.net.cn', 'CNNIC'],
  ['idnic.net', 'IDNIC'],
  ['irinn.in', 'IRINN'],
  ['vnnic.vn', 'VNNIC'],
  ['registro.br', 'NIC.br'],
  ['nic.br', 'NIC.br'],
  ['nic.mx', 'NIC Mexico'],
];

/** The registry a host name (or URL, or port43 "whois.x" name) belongs to, or null. */
export function registryName(hostOrUrl: string): string | null {
  let host = hostOrUrl.trim().toLowerCase();
  if (host.includes('://')) {
    try {
      host = new URL(host).hostname;
    } catch {
      return null;
    }
  }
  host = host.replace(/\.$/, '');
  for (const [suffix, name] of REGISTRIES) if (host === suffix || host.endsWith(`.${suffix}`)) return name;
  return null;
}

/* RDAP JSON is read as `unknown` and narrowed field by field: registries differ in what they send. */

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Contact roles in order of preference (RFC 9083 section 10.2.4); other roles are not used. */
const ROLE_RANK: Readonly<Record<string, number>> = { abuse: 0, technical: 1, noc: 2, administrative: 3, registrant: 4 };
/** Nested entities deeper than this are ignored: real answers nest 2-3 levels. */
const MAX_ENTITY_DEPTH = 6;
const MAX_ENTITIES = 200;

interface Contact {
  rank: number;
  depth: number;
  order: number;
  phone: string | null;
  email: string | null;
}

/** A jCard property's text value (RFC 7095: [name, params, type, value, ...]). */
function jcardValue(prop: unknown[]): string | null {
  const v = prop[3];
  if (typeof v === 'string') return v.trim() || null;
  // Structured values (rare for tel/email) are arrays of strings; join what is there.
  const parts = strings(v).filter((s) => s.trim() !== '');
  return parts.length > 0 ? parts.join(' ') : null;
}

/** Phone and e-mail of one entity's vCard; a voice number is preferred over a fax. */
function vcardContacts(vcardArray: unknown): { phone: string | null; email: string | null } {
  let phone: string | null = null;
  let fax: string | null = null;
  let email: string | null = null;
  if (!Array.isArray(vcardArray) || vcardArray[0] !== 'vcard' || !Array.isArray(vcardArray[1])) return { phone, email };
  for (const prop of vcardArray[1] as unknown[]) {
    if (!Array.isArray(prop) || typeof prop[0] !== 'string') continue;
    const name = prop[0].toLowerCase();
    const value = jcardValue(prop);
    if (value === null) continue;
    if (name === 'email' && email === null) email = value.replace(/^mailto:/i, '');
    if (name === 'tel') {
      const types = isRecord(prop[1]) ? strings(prop[1].type).map((t) => t.toLowerCase()) : [];
      const number = value.replace(/^tel:/i, '');
      if (types.includes('fax') && !types.includes('voice')) fax ??= number;
      else phone ??= number;
    }
  }
  return { phone: phone ?? fax, email };
}

function collectContacts(entities: unknown, depth: number, out: Contact[]): void {
  if (!Array.isArray(entities) || depth > MAX_ENTITY_DEPTH) return;
  for (const e of entities) {
    if (out.length >= MAX_ENTITIES) return;
    if (!isRecord(e)) continue;
    const ranks = strings(e.roles)
      .map((r) => ROLE_RANK[r.toLowerCase()])
      .filter((r): r is number => r !== undefined);
    if (ranks.length > 0) {
      const { phone, email } = vcardContacts(e.vcardArray);
      if (phone !== null || email !== null) out.push({ rank: Math.min(...ranks), depth, order: out.length, phone, email });
    }
    collectContacts(e.entities, depth + 1, out);
  }
}

/**
 * Reads an RDAP autnum object. Phone and e-mail are each taken from the most preferred contact
 * that has one (abuse, then technical, NOC, administrative, registrant; shallower entities first),
 * so an abuse mailbox without a phone still pairs with the technical contact's phone.
 * `fallbackRegistry` names the registry when the object does not (port43 or self link).
 */
export function contactsFromAutnum(doc: unknown, fallbackRegistry: string | null = null): AsnContacts {
  if (!isRecord(doc)) return NO_CONTACTS;
  const contacts: Contact[] = [];
  collectContacts(doc.entities, 0, contacts);
  contacts.sort((a, b) => a.rank - b.rank || a.depth - b.depth || a.order - b.order);

  let created: string | null = null;
  if (Array.isArray(doc.events)) {
    for (const ev of doc.events) {
      if (isRecord(ev) && typeof ev.eventAction === 'string' && ev.eventAction.toLowerCase() === 'registration' && typeof ev.eventDate === 'string') {
        created = isoDate(ev.eventDate)?.slice(0, 10) ?? null;
        break;
      }
    }
  }

  let registry = typeof doc.port43 === 'string' ? registryName(doc.port43) : null;
  if (registry === null && Array.isArray(doc.links)) {
    for (const link of doc.links) {
      if (isRecord(link) && link.rel === 'self' && typeof link.href === 'string') registry ??= registryName(link.href);
    }
  }

  const status = strings(doc.status)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return Object.freeze({
    phone: contacts.find((c) => c.phone !== null)?.phone ?? null,
    email: contacts.find((c) => c.email !== null)?.email ?? null,
    created,
    registry: registry ?? fallbackRegistry,
    status: status.length > 0 ? status.join(', ') : null,
  });
}

export interface AsnRegistryOptions {
  /** A parsed bootstrap; else `bootstrapFile`, else the shipped copy. */
  bootstrap?: AsnBootstrap;
  bootstrapFile?: string;
  /** False: never ask a registry; every answer is NO_CONTACTS. Default true. */
  network?: boolean;
  /** Whole-request timeout, redirects and body included. Default 5 s. */
  timeoutMs?: number;
  /** Larger bodies are abandoned. Default 256 KiB (an autnum answer is a few kilobytes). */
  maxBytes?: number;
  /** How long an answer is kept. Default 24 h. */
  successTtlMs?: number;
  /** How long a failure (timeout, 404, 5xx, bad JSON, too large, no server) is kept. Default 10 min. */
  failureTtlMs?: number;
  /** Cached ASNs at most; the oldest goes first. Default 10,000. */
  maxEntries?: number;
  /** Lookups under way at most; past it a miss answers nulls without asking (and is not cached). Default 32. */
  maxInFlight?: number;
  /** Told of each failed lookup (for logs and metrics); must not throw. */
  onFailure?: (asn: number, code: string) => void;
  now?: () => number;
}

/**
 * Cached, deduplicated RDAP lookups of ASN contacts. No method throws or rejects, and no promise
 * it creates can reject: each lookup catches everything and resolves to contacts or NO_CONTACTS.
 */
export class AsnRegistry {
  private readonly bootstrap: AsnBootstrap;
  private readonly cache: TtlCache<AsnContacts>;
  private readonly inFlight = new Map<number, Promise<AsnContacts>>();
  private readonly network: boolean;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly successTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxInFlight: number;
  private readonly onFailure: ((asn: number, code: string) => void) | undefined;

  constructor(opts: AsnRegistryOptions = {}) {
    this.bootstrap = opts.bootstrap ?? AsnBootstrap.fromFile(opts.bootstrapFile ?? DEFAULT_RDAP_ASN_BOOTSTRAP_FILE);
    this.network = opts.network ?? true;
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.maxBytes = opts.maxBytes ?? 256 * 1024;
    this.successTtlMs = opts.successTtlMs ?? 24 * 3600_000;
    this.failureTtlMs = opts.failureTtlMs ?? 10 * 60_000;
    this.maxInFlight = opts.maxInFlight ?? 32;
    this.onFailure = opts.onFailure;
    this.cache = new TtlCache<AsnContacts>(opts.maxEntries ?? 10_000, opts.now);
  }

  /**
   * The cached contacts, at once. On a miss: undefined, and one background lookup starts (joined
   * by later peeks and lookups of the same ASN until it ends). NO_CONTACTS, never undefined, when
   * the answer cannot come: lookups disabled, an invalid ASN, or no RDAP server for it.
   */
  peek(asn: number): AsnContacts | undefined {
    if (!this.network || !isAsn(asn)) return NO_CONTACTS;
    const hit = this.cache.get(String(asn));
    if (hit !== undefined) return hit.value;
    if (this.bootstrap.baseUrlFor(asn) === null) {
      this.fail(asn, 'NO_SERVER');
      return NO_CONTACTS;
    }
    // Fire and forget is safe: start() resolves, never rejects; the answer lands in the cache.
    void this.start(asn);
    return undefined;
  }

  /** The contacts, looking them up when not cached. Resolves to NO_CONTACTS on any failure. */
  lookup(asn: number): Promise<AsnContacts> {
    if (!this.network || !isAsn(asn)) return Promise.resolve(NO_CONTACTS);
    const hit = this.cache.get(String(asn));
    if (hit !== undefined) return Promise.resolve(hit.value);
    return this.start(asn);
  }

  /**
   * Like lookup, but waits at most `budgetMs`: past it, answers from the cache (NO_CONTACTS on a
   * miss) while the lookup goes on and fills the cache for the next request.
   */
  async lookupWithin(asn: number, budgetMs: number): Promise<AsnContacts> {
    const pending = this.lookup(asn);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<AsnContacts>((resolve) => {
      timer = setTimeout(() => resolve(this.cache.get(String(asn))?.value ?? NO_CONTACTS), Math.max(0, budgetMs));
    });
    try {
      return await Promise.race([pending, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The registry the bootstrap sends the ASN to (ARIN, RIPE, ...), or null: known offline, even
   * with lookups disabled. An ASN transferred to another RIR is still named by its IANA block here.
   */
  registryOf(asn: number): string | null {
    const base = this.bootstrap.baseUrlFor(asn);
    return base === null ? null : registryName(base);
  }

  /** Lookups under way. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Cached ASNs (answers and failures). */
  get cached(): number {
    return this.cache.size;
  }

  private start(asn: number): Promise<AsnContacts> {
    const running = this.inFlight.get(asn);
    if (running !== undefined) return running;
    if (this.inFlight.size >= this.maxInFlight) return Promise.resolve(NO_CONTACTS);
    // fetchAndCache never rejects, so neither does this chain; `finally` runs after the set below
    // (it is always asynchronous), so the entry cannot be removed before it is added.
    const p = this.fetchAndCache(asn).finally(() => this.inFlight.delete(asn));
    this.inFlight.set(asn, p);
    return p;
  }

  private fail(asn: number, code: string): AsnContacts {
    this.cache.set(String(asn), NO_CONTACTS, this.failureTtlMs);
    try {
      this.onFailure?.(asn, code);
    } catch {
      // A failing observer must not turn a lookup into a rejection.
    }
    return NO_CONTACTS;
  }

  private async fetchAndCache(asn: number): Promise<AsnContacts> {
    try {
      const base = this.bootstrap.baseUrlFor(asn);
      if (base === null) return this.fail(asn, 'NO_SERVER');
      const res = await fetch(`${base}autnum/${asn}`, {
        headers: { accept: 'application/rdap+json, application/json' },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return this.fail(asn, res.status === 404 ? 'NOT_FOUND' : `HTTP_${res.status}`);
      }
      const text = await readCapped(res, this.maxBytes);
      if (text === null) return this.fail(asn, 'TOO_LARGE');
      let doc: unknown;
      try {
        doc = JSON.parse(text) as unknown;
      } catch {
        return this.fail(asn, 'BAD_JSON');
      }
      if (!isRecord(doc)) return this.fail(asn, 'BAD_JSON');
      // The registry that answered: after a redirect (an ASN transferred between RIRs) that is
      // the final URL's, else the bootstrap's; the object's own port43/self link wins over both.
      const answeredBy = registryName(res.url || base) ?? registryName(base);
      const contacts = contactsFromAutnum(doc, answeredBy);
      this.cache.set(String(asn), contacts, this.successTtlMs);
      return contacts;
    } catch (err) {
      const code = err instanceof Error ? (err.name === 'TimeoutError' ? 'ETIMEOUT' : err.name) : 'EUNKNOWN';
      return this.fail(asn, code);
    }
  }
}
