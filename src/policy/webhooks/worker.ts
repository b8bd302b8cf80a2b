import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ClaimedDelivery, DeliveryStatus, Store } from '../../store/ports.ts';
import { payloadBody } from './payload.ts';
import { postOnce, TargetRefused, type Resolve } from './post.ts';
import { NO_PRIVATE_TARGETS, type AllowedTargets } from './targets.ts';
import { openSecret } from './seal.ts';
import { SIGNATURE_HEADER, signPayload } from './sign.ts';

export interface WebhookWorkerOptions {
  /** Longest sleep between two looks at the outbox when nothing is due (another instance may queue work). */
  pollMs: number;
  /** How long a claimed job stays reserved for this worker; must exceed timeoutMs. */
  leaseMs: number;
  /** Timeout of one POST, answer included. */
  timeoutMs: number;
  /** First retry delay; doubled at each failed attempt... */
  backoffBaseMs: number;
  /** ...up to this. */
  backoffMaxMs: number;
  /** A job that still fails this long after it was queued is marked failed, and the webhook's next job proceeds. */
  giveUpAfterMs: number;
  /** Sends in flight at once (at most one per webhook: its queue is delivered in order). */
  concurrency: number;
}

export const DEFAULT_WORKER_OPTIONS: Readonly<WebhookWorkerOptions> = {
  pollMs: 1000,
  leaseMs: 30_000,
  timeoutMs: 10_000,
  backoffBaseMs: 10_000,
  backoffMaxMs: 3_600_000,
  // decisions.md promises retries for at least 24 hours.
  giveUpAfterMs: 72 * 3_600_000,
  concurrency: 8,
};

export interface WebhookWorkerDeps {
  store: Store;
  /** SECRET_KEY, to open the sealed webhook secrets. */
  serverSecret: string;
  logger: Logger;
  clock?: () => Date;
  options?: Partial<WebhookWorkerOptions>;
  /** Private targets allowed (WEBHOOK_ALLOW_PRIVATE); none by default. */
  targets?: AllowedTargets;
  /** How target names resolve (the system resolver unless a test gives its own). */
  resolve?: Resolve;
  /** Told of every failed attempt: `givenUp` when it was the last one (for /metrics). */
  onFailure?: (givenUp: boolean) => void;
}

/** Sleep floor when nothing could be claimed, so a head that is due but not yet claimable cannot spin the loop. */
const MIN_IDLE_MS = 10;
const MAX_ERROR_LENGTH = 300;

/**
 * The delay before attempt `attempts + 1`, after `attempts` failed ones: base * 2^(attempts-1), capped,
 * less up to 10% jitter so retries of many jobs spread out.
 */
export function backoffMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 50));
  const capped = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.round(capped * (1 - 0.1 * random()));
}

/** A short, secret-free description of why a POST got no usable answer. */
function describeFailure(err: unknown, timeoutMs: number): string {
  let text: string;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) text = `timeout after ${timeoutMs} ms`;
  else if (err instanceof Error) {
    const cause: unknown = err.cause;
    const detail =
      cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : typeof cause === 'string' ? cause : undefined;
    text = detail === undefined ? err.message : `${err.message}: ${detail}`;
  } else text = String(err);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
}

/**
 * Sends queued deliveries: claims due jobs (each webhook's oldest pending one, under a lease, so several
 * instances may run workers on one store), POSTs them signed, and records each attempt with its outcome.
 * 2xx is delivered; anything else (3xx included: redirects are not followed), a timeout or a network error is
 * retried with exponential backoff until the job is older than `giveUpAfterMs`, then marked failed. A target
 * address WEBHOOK_ALLOW_PRIVATE does not allow (checked on the addresses connected to, at every send) fails
 * the job at once with the reason. A worker
 * killed mid-send leaves its jobs leased; they are sent again when the lease ends (at least once).
 * Never logs secrets or bodies.
 */
export class WebhookWorker {
  readonly options: Readonly<WebhookWorkerOptions>;
  readonly #store: Store;
  readonly #serverSecret: string;
  readonly #logger: Logger;
  readonly #clock: () => Date;
  readonly #targets: AllowedTargets;
  readonly #resolve: Resolve | undefined;
  readonly #onFailure: ((givenUp: boolean) => void) | undefined;
  readonly #inFlight = new Set<Promise<void>>();
  #loop: Promise<void> | undefined;
  #stopping = false;
  #woken = false;
  #wakeQueued = false;
  #timer: NodeJS.Timeout | undefined;
  #resolveSleep: (() => void) | undefined;

  constructor(deps: WebhookWorkerDeps) {
    this.#store = deps.store;
    this.#serverSecret = deps.serverSecret;
    this.#logger = deps.logger;
    this.#onFailure = deps.onFailure;
    this.#clock = deps.clock ?? (() => new Date());
    this.#targets = deps.targets ?? NO_PRIVATE_TARGETS;
    this.#resolve = deps.resolve;
    const options = { ...DEFAULT_WORKER_OPTIONS, ...stripUndefined(deps.options ?? {}) };
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isFinite(value) || value < 0) throw new RangeError(`webhook worker option ${name} must be a non-negative number, got ${value}`);
    }
    if (options.concurrency < 1 || !Number.isInteger(options.concurrency)) throw new RangeError('webhook worker concurrency must be a positive integer');
    if (options.leaseMs <= options.timeoutMs) throw new RangeError('webhook worker leaseMs must exceed timeoutMs, or a slow send could be claimed twice');
    this.options = options;
  }

  /** Starts the loop (idempotent). */
  start(): void {
    if (this.#loop) return;
    this.#stopping = false;
    this.#loop = this.#run();
  }

  /** Stops claiming and waits for the sends in flight to finish and be recorded. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#interruptSleep();
    await this.#loop;
    this.#loop = undefined;
    await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Looks at the outbox soon (a new event was stored), instead of at the next poll: in the check
   * phase of the event loop's next turn, so the call that stored the event answers first, and wakes
   * within one turn make one read. API answers are written in the check phase of the turn that
   * computed them (src/http/write-turn.ts); a callback queued from that phase runs in the next one,
   * hence the two hops (one hop ran the outbox read before the answers when it was queued first).
   */
  wake(): void {
    this.#woken = true;
    if (this.#wakeQueued) return;
    this.#wakeQueued = true;
    setImmediate(() =>
      setImmediate(() => {
        this.#wakeQueued = false;
        this.#interruptSleep();
      }),
    );
  }

  /** Sends in flight right now. */
  get busy(): number {
    return this.#inFlight.size;
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      let delay = this.options.pollMs;
      try {
        delay = await this.#tick();
      } catch (err) {
        this.#logger.error({ err }, 'webhook worker: reading the outbox failed');
      }
      if (this.#stopping) break;
      await this.#sleep(delay);
    }
  }

  /** One look at the outbox; returns how long to sleep before the next. */
  async #tick(): Promise<number> {
    const free = this.options.concurrency - this.#inFlight.size;
    // A send finishing wakes the loop.
    if (free <= 0) return this.options.pollMs;
    const now = this.#clock().getTime();
    const jobs = await this.#store.events.claimDue(new Date(now).toISOString(), new Date(now + this.options.leaseMs).toISOString(), free);
    for (const job of jobs) this.#launch(job);
    if (jobs.length === free) return 0;
    const due = await this.#store.events.nextDue();
    if (due === null) return this.options.pollMs;
    const wait = Date.parse(due) - this.#clock().getTime();
    return Math.min(this.options.pollMs, Math.max(jobs.length === 0 ? MIN_IDLE_MS : 0, wait));
  }

  #launch(job: ClaimedDelivery): void {
    const sending: Promise<void> = this.#deliver(job)
      .catch((err: unknown) => {
        // The job stays leased and is retried when the lease ends.
        this.#logger.error({ err, deliveryId: job.delivery.id, webhookId: job.webhook.id }, 'webhook worker: recording an attempt failed');
      })
      .finally(() => {
        this.#inFlight.delete(sending);
        // The webhook's next job may now be claimed.
        if (!this.#stopping) this.wake();
      });
    this.#inFlight.add(sending);
  }

  async #deliver({ delivery, webhook, event }: ClaimedDelivery): Promise<void> {
    const body = payloadBody(event);
    const attemptedAt = this.#clock();
    const started = performance.now();
    let httpStatus: number | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      const secret = openSecret(this.#serverSecret, webhook.secret);
      httpStatus = await postOnce(
        new URL(webhook.url),
        {
          'Content-Type': 'application/json',
          'User-Agent': 'vigil-webhooks/1',
          'X-Webhook-Id': webhook.id,
          [SIGNATURE_HEADER]: signPayload(secret, body, Math.floor(attemptedAt.getTime() / 1000)),
        },
        body,
        this.options.timeoutMs,
        this.#targets,
        this.#resolve,
      );
      if (httpStatus < 200 || httpStatus > 299) error = `HTTP ${httpStatus}`;
    } catch (err) {
      refused = err instanceof TargetRefused;
      error = refused ? `refused: ${(err as Error).message}` : err instanceof Error && err.message.startsWith('sealed webhook secret') ? `${err.message}; rotate the webhook secret` : describeFailure(err, this.options.timeoutMs);
    }
    const latencyMs = Math.round(performance.now() - started);
    const finished = this.#clock().getTime();
    const attempts = delivery.attempts + 1;
    let status: DeliveryStatus = 'delivered';
    let next = finished;
    if (error !== null) {
      const age = finished - Date.parse(delivery.createdAt);
      // A refused target is not retried: the address is the operator's choice, not a passing failure.
      if (refused || age >= this.options.giveUpAfterMs) status = 'failed';
      else {
        status = 'pending';
        next = finished + backoffMs(attempts, this.options.backoffBaseMs, this.options.backoffMaxMs);
      }
    }
    await this.#store.events.recordAttempt(
      { deliveryId: delivery.id, webhookId: webhook.id, eventId: event.eventId, attemptedAt: attemptedAt.toISOString(), httpStatus, latencyMs, error },
      { status, nextAttemptAt: new Date(next).toISOString() },
    );
    const fields = {
      accountId: delivery.accountId,
      webhookId: webhook.id,
      host: hostOf(webhook.url),
      deliveryId: delivery.id,
      eventId: event.eventId,
      attempt: attempts,
      httpStatus,
      latencyMs,
      status,
      ...(error === null ? {} : { error }),
    };
    if (status !== 'delivered') this.#onFailure?.(status === 'failed');
    if (status === 'delivered') this.#logger.debug(fields, 'webhook delivered');
    else if (status === 'failed') this.#logger.warn(fields, 'webhook delivery given up');
    else this.#logger.info({ ...fields, nextAttemptAt: new Date(next).toISOString() }, 'webhook delivery failed; will retry');
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken || ms <= 0 || this.#stopping) {
      this.#woken = false;
      // Yield to the event loop so a steady stream of work cannot starve other callbacks.
      return new Promise((resolve) => setImmediate(resolve));
    }
    return new Promise((resolve) => {
      this.#resolveSleep = resolve;
      this.#timer = setTimeout(() => this.#interruptSleep(), ms);
    });
  }

  #interruptSleep(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const resolve = this.#resolveSleep;
    this.#resolveSleep = undefined;
    if (resolve) {
      this.#woken = false;
      resolve();
    }
  }
}

function stripUndefined(options: Partial<WebhookWorkerOptions>): Partial<WebhookWorkerOptions> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
