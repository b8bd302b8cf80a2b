import type { Logger } from 'pino';
import type { DnsClient } from './dns.ts';

/**
 * Is the resolver telling the truth? A resolver that answers NXDOMAIN for every name (a captive
 * portal, a broken forwarder, a sandbox without DNS) would make every domain "without MX": issue
 * 25 saw jane.doe@gmail.com score 2 "no MX record". The canary asks for the MX records of a name
 * that must have them (DNS_CANARY_NAME, default gmail.com); while it fails, a negative DNS answer
 * ("no such record", "no such domain") is not evidence and the domain checks answer null
 * (unknown) instead of false.
 *
 * No timer: the verdict is checked when a domain check or /readyz needs it and is older than its
 * time to live (a passing verdict 60 s, a failing one 10 s, so recovery is seen soon); concurrent
 * callers share one check. Listeners (`onChange`) hear each change of state once: the log line.
 */
export type CanaryState = 'unchecked' | 'ok' | 'failing';

export interface CanaryStatus {
  state: CanaryState;
  /** The name asked for. */
  name: string;
  /** ISO time of the last check; null before the first. */
  checkedAt: string | null;
  /** Why it fails (`NXDOMAIN`, `no MX record`, `ETIMEOUT`, ...); null when it passes. */
  problem: string | null;
}

export interface DnsCanaryOptions {
  name: string;
  /** How long a passing verdict is trusted (default 60 s). */
  okTtlMs?: number;
  /** How long a failing verdict is kept before asking again (default 10 s). */
  failTtlMs?: number;
  /** Milliseconds clock for the times to live (tests). */
  clock?: () => number;
}

type CanaryListener = (now: CanaryStatus, before: CanaryStatus) => void;

export class DnsCanary {
  private current: CanaryStatus;
  private checkedAtMs = -Infinity;
  private running: Promise<CanaryStatus> | null = null;
  private readonly okTtlMs: number;
  private readonly failTtlMs: number;
  private readonly clock: () => number;
  private readonly listeners: CanaryListener[] = [];

  constructor(
    private readonly dns: DnsClient,
    private readonly opts: DnsCanaryOptions,
  ) {
    this.current = { state: 'unchecked', name: opts.name, checkedAt: null, problem: null };
    this.okTtlMs = opts.okTtlMs ?? 60_000;
    this.failTtlMs = opts.failTtlMs ?? 10_000;
    this.clock = opts.clock ?? Date.now;
  }

  /** Calls `listener` on every change of state from now on. */
  onChange(listener: CanaryListener): void {
    this.listeners.push(listener);
  }

  /** The last verdict, without asking (may be stale or unchecked). */
  peek(): CanaryStatus {
    return this.current;
  }

  /** The verdict, checked again first when stale; never rejects. */
  status(): Promise<CanaryStatus> {
    const ttl = this.current.state === 'ok' ? this.okTtlMs : this.failTtlMs;
    if (this.current.state !== 'unchecked' && this.clock() - this.checkedAtMs < ttl) return Promise.resolve(this.current);
    this.running ??= this.check().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** True when the resolver answered the canary (checked again when stale). */
  async healthy(): Promise<boolean> {
    return (await this.status()).state === 'ok';
  }

  private async check(): Promise<CanaryStatus> {
    const outcome = await this.dns.mx(this.opts.name);
    let problem: string | null;
    switch (outcome.kind) {
      case 'found':
        problem = outcome.value.some((r) => r.exchange !== '' && r.exchange !== '.') ? null : 'no MX record';
        break;
      case 'none':
        problem = outcome.nxdomain ? 'NXDOMAIN' : 'no MX record';
        break;
      case 'error':
        problem = outcome.code;
        break;
    }
    const before = this.current;
    this.checkedAtMs = this.clock();
    this.current = { state: problem === null ? 'ok' : 'failing', name: this.opts.name, checkedAt: new Date().toISOString(), problem };
    if (this.current.state !== before.state) for (const l of this.listeners) l(this.current, before);
    return this.current;
  }
}

/** Logs each change of the canary's state: a failing resolver once, its recovery once. */
export function logCanaryChanges(canary: DnsCanary, logger: Pick<Logger, 'warn' | 'info'>): void {
  canary.onChange((now, before) => {
    if (now.state === 'failing') {
      logger.warn({ dnsCanary: now }, `the DNS resolver fails the canary lookup (MX of ${now.name}: ${now.problem ?? 'failed'}); MX, SPF, DMARC, DKIM and BIMI facts answer null (unknown) instead of false until it passes`);
    } else if (before.state === 'failing') {
      logger.info({ dnsCanary: now }, `the DNS resolver passes the canary lookup again (MX of ${now.name}); DNS facts are answered again`);
    }
  });
}
