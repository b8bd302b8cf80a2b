import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** IANA's RDAP bootstrap for DNS (RFC 9224), shipped because a server may have no internet at start. */
export const DEFAULT_RDAP_BOOTSTRAP_FILE = fileURLToPath(new URL('../data/rdap-bootstrap.json', import.meta.url));

const BootstrapSchema = z.object({
  description: z.string().optional(),
  publication: z.string().optional(),
  version: z.string().optional(),
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())])),
});

export type RdapBootstrapJson = z.infer<typeof BootstrapSchema>;

/** Which RDAP base URL serves which TLD (or longer suffix), per the bootstrap's `services`. */
export class RdapBootstrap {
  private constructor(
    private readonly bases: ReadonlyMap<string, string>,
    /** The file's `publication` timestamp (its version), or null. */
    readonly publication: string | null,
  ) {}

  /** Validates a parsed bootstrap document; throws naming what is wrong. */
  static fromJson(doc: unknown): RdapBootstrap {
    const parsed = BootstrapSchema.safeParse(doc);
    if (!parsed.success) throw new Error(`RDAP bootstrap: not an RFC 9224 "services" document (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const bases = new Map<string, string>();
    for (const [suffixes, urls] of parsed.data.services) {
      // RFC 9224 section 3: prefer an https base; a base URL must end with "/".
      const base = urls.find((u) => u.startsWith('https://')) ?? urls.find((u) => u.startsWith('http://'));
      if (base === undefined) continue;
      for (const suffix of suffixes) bases.set(suffix.toLowerCase().replace(/^\.+|\.+$/g, ''), base.endsWith('/') ? base : `${base}/`);
    }
    return new RdapBootstrap(bases, parsed.data.publication ?? null);
  }

  /** Reads a bootstrap file (IANA's dns.json format). */
  static fromFile(path: string): RdapBootstrap {
    return RdapBootstrap.fromJson(JSON.parse(readFileSync(path, 'utf8')) as unknown);
  }

  get size(): number {
    return this.bases.size;
  }

  /** The base URL for a domain: the longest matching suffix wins (RFC 9224 section 4). */
  baseUrlFor(domain: string): string | null {
    const labels = domain.toLowerCase().split('.');
    for (let i = 0; i < labels.length; i++) {
      const base = this.bases.get(labels.slice(i).join('.'));
      if (base !== undefined) return base;
    }
    return null;
  }
}

/**
 * A domain's RDAP answer: `found` with its registration date (null when the record has none),
 * `none` when the registry says there is no such domain (404) or no RDAP server is known for the
 * TLD, `error` when no answer could be had (timeout, 5xx, malformed JSON).
 */
export type RdapOutcome =
  | { kind: 'found'; registeredAt: string | null }
  | { kind: 'none'; reason: 'not_found' | 'no_server' }
  | { kind: 'error'; code: string };

export interface RdapClientOptions {
  bootstrap: RdapBootstrap;
  /** Whole-request timeout, redirects and body included. */
  timeoutMs: number;
  /** Larger bodies are abandoned (an RDAP domain answer is a few kilobytes). */
  maxBytes?: number;
}

const EventsSchema = z.object({
  events: z.array(z.object({ eventAction: z.string(), eventDate: z.string().optional() }).loose()).optional(),
}).loose();

/** An ISO 8601 UTC timestamp without milliseconds, or null when the text is not a date. */
export function isoDate(text: string): string | null {
  const t = Date.parse(text);
  if (!Number.isFinite(t)) return null;
  return new Date(t).toISOString().replace('.000Z', 'Z');
}

/** The `registration` event's date of an RDAP domain object (RFC 9083 section 4.5). */
export function registrationDate(doc: unknown): string | null {
  const parsed = EventsSchema.safeParse(doc);
  if (!parsed.success) return null;
  const event = parsed.data.events?.find((e) => e.eventAction.toLowerCase() === 'registration');
  return event?.eventDate === undefined ? null : isoDate(event.eventDate);
}

/** Reads a body up to maxBytes; null when it is larger (the rest is abandoned). */
export async function readCapped(res: Response, maxBytes: number): Promise<string | null> {
  if (!res.body) return '';
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body.cancel();
    return null;
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Asks the TLD's RDAP server (from the bootstrap) for a domain's registration date; never throws. */
export class RdapClient {
  private readonly maxBytes: number;

  constructor(private readonly opts: RdapClientOptions) {
    this.maxBytes = opts.maxBytes ?? 512 * 1024;
  }

  async domain(name: string): Promise<RdapOutcome> {
    const base = this.opts.bootstrap.baseUrlFor(name);
    if (base === null) return { kind: 'none', reason: 'no_server' };
    try {
      const res = await fetch(`${base}domain/${encodeURIComponent(name)}`, {
        headers: { accept: 'application/rdap+json, application/json' },
        redirect: 'follow',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      if (res.status === 404) {
        await res.body?.cancel();
        return { kind: 'none', reason: 'not_found' };
      }
      if (!res.ok) {
        await res.body?.cancel();
        return { kind: 'error', code: `HTTP_${res.status}` };
      }
      const text = await readCapped(res, this.maxBytes);
      if (text === null) return { kind: 'error', code: 'TOO_LARGE' };
      return { kind: 'found', registeredAt: registrationDate(JSON.parse(text) as unknown) };
    } catch (err) {
      const code = err instanceof Error ? (err.name === 'TimeoutError' ? 'ETIMEOUT' : err.name) : 'EUNKNOWN';
      return { kind: 'error', code };
    }
  }
}
