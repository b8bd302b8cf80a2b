import { createRequire } from 'node:module';
import { DnsClient, type DnsOutcome } from '../../net/dns.ts';
import { DnsCanary } from '../../net/dns-canary.ts';
import { DEFAULT_RDAP_BOOTSTRAP_FILE, RdapBootstrap, RdapClient, type RdapBootstrapJson } from '../../net/rdap.ts';
import { TtlCache } from '../../net/ttl-cache.ts';
import { isNewDomain } from './age.ts';
import { normaliseDomain } from './name.ts';
import type { DomainNetwork, DomainNetworkFacts } from './types.ts';

export { isNewDomain, NEW_DOMAIN_DAYS } from './age.ts';

/**
 * DKIM has no discovery: a key is published under `<selector>._domainkey.<domain>` and only the
 * sender knows the selector. These are the selectors of the big providers and common defaults
 * (Google Workspace, Microsoft 365, cPanel/Plesk, Mailchimp/Mandrill, Amazon SES-style `s1`/`s2`,
 * generic `dkim`, `mail`); a domain using another selector answers is_dkim false.
 */
export const DKIM_SELECTORS: readonly string[] = ['google', 'selector1', 'selector2', 'default', 'k1', 'dkim', 'mail', 's1', 's2'];

/** The answer when a check cannot run (network off, invalid name) or has not settled in time. */
export const UNKNOWN_FACTS: Readonly<DomainNetworkFacts> = Object.freeze({
  is_mx: null, is_spf: null, is_dmarc: null, is_dkim: null, is_bimi: null, created_at: null, is_new: null,
});


export interface DnsDomainNetworkOptions {
  /** false (`NETWORK=off`): every fact is null at once and nothing is sent. */
  network: boolean;
  /** DNS resolvers (`ip`, `ip:port`, `[v6]:port`); absent or empty: the system's. */
  servers?: readonly string[];
  /** Default budget for callers that have none of their own (the facts() option wins). */
  budgetMs: number;
  /** One DNS query's timeout; the lookup goes on in the background past the budget up to this. */
  timeoutMs: number;
  /** One RDAP request's timeout (default: 4 x timeoutMs). */
  rdapTimeoutMs?: number;
  /** IANA-format RDAP bootstrap: a parsed document, a file path, or a loaded RdapBootstrap (default: the shipped file). */
  rdapBootstrap?: RdapBootstrap | RdapBootstrapJson | string;
  /** How long a found record is trusted (default 1 h; `node:dns` does not expose MX/TXT TTLs). */
  positiveTtlMs?: number;
  /** How long "no such record" / "no such domain" is trusted (default 5 min). */
  negativeTtlMs?: number;
  /** How long a failed lookup (timeout, SERVFAIL) answers null before it is tried again (default 30 s). */
  errorTtlMs?: number;
  /** Entries per cache (one cache of all facts; default 50,000). */
  maxEntries?: number;
  /**
   * Lookups running at once (default 1,000; each is 1 to 20 DNS queries or one RDAP request).
   * Past it a new fact answers null without a lookup, so a flood of unique names cannot queue
   * unbounded work on the resolver; it is tried again by a later call.
   */
  maxInFlight?: number;
  dkimSelectors?: readonly string[];
  /**
   * A name whose MX records must resolve (DNS_CANARY_NAME); while the resolver fails it, a negative
   * answer is unknown (null), not false (net/dns-canary.ts). Null or absent: no canary.
   */
  canaryName?: string | null;
  /** Times to live of the canary's passing and failing verdicts (tests; defaults 60 s and 10 s). */
  canaryTtlMs?: { ok: number; failing: number };
  /** Monotonic-enough milliseconds for cache expiry (tests). */
  clock?: () => number;
}

type Fact = 'mx' | 'spf' | 'dmarc' | 'dkim' | 'bimi' | 'rdap';
/** A settled lookup: the value (null = unknown) and how long to keep it. */
interface Settled<T> { value: T | null; ttlMs: number }

/** Registrable domain (public-suffix aware), where RDAP has the registration record. */
interface Tldjs { getDomain(host: string): string | null }
const tldjs = createRequire(import.meta.url)('tldjs') as Tldjs;

const SPF = /^v=spf1(?:\s|$)/i;
const DMARC = /^v=DMARC1\s*(?:;|$)/i;
const BIMI = /^v=BIMI1\s*(?:;|$)/i;
/** RFC 6376 3.6.1: `v=DKIM1` is optional, `p=` is required. */
const DKIM = /(?:^|;)\s*(?:v\s*=\s*DKIM1|p\s*=)/i;

function loadBootstrap(src: DnsDomainNetworkOptions['rdapBootstrap']): RdapBootstrap {
  if (src instanceof RdapBootstrap) return src;
  if (typeof src === 'string') return RdapBootstrap.fromFile(src);
  if (src !== undefined) return RdapBootstrap.fromJson(src);
  return RdapBootstrap.fromFile(DEFAULT_RDAP_BOOTSTRAP_FILE);
}

/**
 * DNS (MX, SPF, DMARC, DKIM, BIMI) and RDAP (registration date) facts of a domain, each cached on
 * its own, each lookup shared by concurrent callers, answered within a budget: a fact not settled
 * in time is null and its lookup completes into the cache for later calls.
 */
export class DnsDomainNetwork implements DomainNetwork {
  readonly network: boolean;
  readonly budgetMs: number;
  readonly rdapBootstrap: RdapBootstrap | null;
  /** The resolver's canary; null with the network off or no canary name. */
  readonly canary: DnsCanary | null;
  private readonly dns: DnsClient | null;
  private readonly rdap: RdapClient | null;
  private readonly cache: TtlCache<unknown>;
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly positiveTtlMs: number;
  private readonly negativeTtlMs: number;
  private readonly errorTtlMs: number;
  private readonly selectors: readonly string[];
  private readonly maxInFlight: number;

  constructor(opts: DnsDomainNetworkOptions) {
    this.network = opts.network;
    this.budgetMs = opts.budgetMs;
    this.positiveTtlMs = opts.positiveTtlMs ?? 3_600_000;
    this.negativeTtlMs = opts.negativeTtlMs ?? 300_000;
    this.errorTtlMs = opts.errorTtlMs ?? 30_000;
    this.selectors = opts.dkimSelectors ?? DKIM_SELECTORS;
    this.maxInFlight = opts.maxInFlight ?? 1000;
    this.cache = new TtlCache(opts.maxEntries ?? 50_000, opts.clock ?? Date.now);
    if (opts.network) {
      this.dns = new DnsClient({ servers: opts.servers, timeoutMs: opts.timeoutMs });
      this.rdapBootstrap = loadBootstrap(opts.rdapBootstrap);
      this.rdap = new RdapClient({ bootstrap: this.rdapBootstrap, timeoutMs: opts.rdapTimeoutMs ?? 4 * opts.timeoutMs });
      this.canary = opts.canaryName
        ? new DnsCanary(this.dns, {
          name: opts.canaryName,
          ...(opts.canaryTtlMs && { okTtlMs: opts.canaryTtlMs.ok, failTtlMs: opts.canaryTtlMs.failing }),
          ...(opts.clock && { clock: opts.clock }),
        })
        : null;
    } else {
      this.dns = null;
      this.rdap = null;
      this.rdapBootstrap = null;
      this.canary = null;
    }
  }

  /** The domain's facts within `budgetMs`; unsettled facts are null (their lookups go on into the cache). */
  async facts(domain: string, opts: { budgetMs: number; now: Date }): Promise<DomainNetworkFacts> {
    const name = normaliseDomain(domain);
    const { dns, rdap } = this;
    if (name === null || dns === null || rdap === null) return { ...UNKNOWN_FACTS };
    const registrable = tldjs.getDomain(name) ?? name;
    // Asked beside the facts, so a negative answer finds the verdict ready (shared, cached).
    void this.canary?.status();

    const out: { mx: boolean | null; spf: boolean | null; dmarc: boolean | null; dkim: boolean | null; bimi: boolean | null; rdap: string | null } =
      { mx: null, spf: null, dmarc: null, dkim: null, bimi: null, rdap: null };
    const pending: Promise<void>[] = [];
    const take = <K extends keyof typeof out>(key: K, fact: Fact, subject: string, run: () => Promise<Settled<(typeof out)[K]>>): void => {
      const got = this.fact(fact, subject, run);
      if (got instanceof Promise) pending.push(got.then((v) => { out[key] = v; }));
      else out[key] = got.value;
    };
    take('mx', 'mx', name, () => this.mx(dns, name));
    take('spf', 'spf', name, () => this.txtFlag(dns, name, SPF));
    take('dmarc', 'dmarc', name, () => this.dmarc(dns, name, registrable));
    take('dkim', 'dkim', name, () => this.dkim(dns, name));
    take('bimi', 'bimi', name, () => this.txtFlag(dns, `default._bimi.${name}`, BIMI));
    take('rdap', 'rdap', registrable, () => this.registration(rdap, registrable));

    if (pending.length > 0) await settleWithin(Promise.all(pending), opts.budgetMs);
    // A snapshot: lookups that settle later must not change an answer already given.
    const { mx, spf, dmarc, dkim, bimi, rdap: createdAt } = out;
    return { is_mx: mx, is_spf: spf, is_dmarc: dmarc, is_dkim: dkim, is_bimi: bimi, created_at: createdAt, is_new: isNewDomain(createdAt, opts.now) };
  }

  /** Forgets every cached fact (tests, and an operator's "retry now"). */
  clearCache(): void {
    this.cache.clear();
  }

  /** A cached value, or the (shared) lookup that will settle it and fill the cache. */
  private fact<T>(fact: Fact, subject: string, run: () => Promise<Settled<T>>): { value: T | null } | Promise<T | null> {
    const key = `${fact}:${subject}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return { value: hit.value as T | null };
    const running = this.inflight.get(key);
    if (running !== undefined) return running as Promise<T | null>;
    if (this.inflight.size >= this.maxInFlight) return { value: null };
    const started = run()
      .then((s) => this.believed(s))
      .catch((): Settled<T> => ({ value: null, ttlMs: this.errorTtlMs }))
      .then((s) => {
        this.cache.set(key, s.value, s.ttlMs);
        return s.value;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, started);
    return started;
  }

  /**
   * A negative answer (false) counts only while the resolver passes its canary; from a resolver
   * that fails it (NXDOMAIN for every name, say) it is unknown, kept as briefly as a failure.
   */
  private async believed<T>(s: Settled<T>): Promise<Settled<T>> {
    if (s.value !== false || this.canary === null || (await this.canary.healthy())) return s;
    return { value: null, ttlMs: this.errorTtlMs };
  }

  private settle<T>(outcome: DnsOutcome<T>, found: (value: T) => boolean): Settled<boolean> {
    switch (outcome.kind) {
      case 'found': return { value: found(outcome.value), ttlMs: this.positiveTtlMs };
      case 'none': return { value: false, ttlMs: this.negativeTtlMs };
      case 'error': return { value: null, ttlMs: this.errorTtlMs };
    }
  }

  private async mx(dns: DnsClient, name: string): Promise<Settled<boolean>> {
    // RFC 7505 "null MX" (`0 .`): the domain says it accepts no mail.
    return this.settle(await dns.mx(name), (rs) => rs.some((r) => r.exchange !== '' && r.exchange !== '.'));
  }

  private async txtFlag(dns: DnsClient, name: string, pattern: RegExp): Promise<Settled<boolean>> {
    return this.settle(await dns.txt(name), (ts) => ts.some((t) => pattern.test(t.trim())));
  }

  /** RFC 7489 6.6.3: no record at the name itself falls back to the organisational domain's. */
  private async dmarc(dns: DnsClient, name: string, registrable: string): Promise<Settled<boolean>> {
    const own = await this.txtFlag(dns, `_dmarc.${name}`, DMARC);
    if (own.value !== false || registrable === name) return own;
    return this.txtFlag(dns, `_dmarc.${registrable}`, DMARC);
  }

  /** True when any common selector has a key (a TXT with `p=`, or a CNAME to a provider's key). */
  private async dkim(dns: DnsClient, name: string): Promise<Settled<boolean>> {
    const one = async (selector: string): Promise<Settled<boolean>> => {
      const host = `${selector}._domainkey.${name}`;
      const txt = await dns.txt(host);
      if (txt.kind === 'found' && txt.value.some((t) => DKIM.test(t))) return { value: true, ttlMs: this.positiveTtlMs };
      // The name exists without a key in TXT: a CNAME to the provider's key the resolver did not
      // follow (c-ares answers NODATA or an empty TXT set then). NXDOMAIN: nothing there at all.
      if ((txt.kind === 'none' && !txt.nxdomain) || (txt.kind === 'found' && txt.value.length === 0)) {
        return this.settle(await dns.cname(host), (cs) => cs.length > 0);
      }
      return this.settle(txt, () => false);
    };
    const all = await Promise.all(this.selectors.map(one));
    if (all.some((s) => s.value === true)) return { value: true, ttlMs: this.positiveTtlMs };
    if (all.some((s) => s.value === null)) return { value: null, ttlMs: this.errorTtlMs };
    return { value: false, ttlMs: this.negativeTtlMs };
  }

  private async registration(rdap: RdapClient, registrable: string): Promise<Settled<string>> {
    const r = await rdap.domain(registrable);
    switch (r.kind) {
      case 'found': return { value: r.registeredAt, ttlMs: r.registeredAt === null ? this.negativeTtlMs : this.positiveTtlMs };
      case 'none': return { value: null, ttlMs: this.negativeTtlMs };
      case 'error': return { value: null, ttlMs: this.errorTtlMs };
    }
  }
}

/** Waits for `work` at most `ms` milliseconds; never rejects. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => { timer = setTimeout(resolve, Math.max(0, ms)); });
  try {
    await Promise.race([work.then(() => undefined, () => undefined), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
