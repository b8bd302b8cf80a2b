import { randomBytes } from 'node:crypto';
import type { Delivery, DeliveryAttempt, Store, Webhook } from '../../store/ports.ts';
import { sealSecret } from './seal.ts';
import { NO_PRIVATE_TARGETS, urlRefusal, type AllowedTargets } from './targets.ts';

/** An operator's mistake with webhooks (unknown webhook or event, bad URL); the admin API maps `kind` to 404/400. */
export class WebhookError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

/** A webhook as shown to operators: never with its secret. */
export interface WebhookView {
  id: string;
  accountId: string;
  url: string;
  createdAt: string;
}

/** Returned once, when a webhook is added or its secret rotated: the plaintext secret is not shown again. */
export interface WebhookWithSecret extends WebhookView {
  secret: string;
}

export const MAX_URL_LENGTH = 2048;
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
const MAX_SECRET_LENGTH = 256;

/**
 * The URL a webhook may POST to: absolute http(s), a host, no user:password part (fetch refuses those),
 * at most 2048 characters. Returns the normalised form that is stored.
 */
export function webhookUrl(raw: string): string {
  if (raw.length > MAX_URL_LENGTH) throw new WebhookError('invalid', `webhook URLs are at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookError('invalid', 'the webhook URL is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookError('invalid', `webhook URLs must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  if (url.hostname === '') throw new WebhookError('invalid', 'the webhook URL has no host');
  if (url.username !== '' || url.password !== '') throw new WebhookError('invalid', 'webhook URLs may not carry a user name or password');
  url.hash = '';
  if (url.href.length > MAX_URL_LENGTH) throw new WebhookError('invalid', `webhook URLs are at most ${MAX_URL_LENGTH} characters`);
  return url.href;
}

/** A signing secret: `whsec_` and 32 random base64url characters (192 bits). */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

function checkedSecret(secret: string): string {
  if (secret.length === 0 || secret.length > MAX_SECRET_LENGTH || !/^[\x21-\x7e]+$/.test(secret)) {
    throw new WebhookError('invalid', `a webhook secret is 1 to ${MAX_SECRET_LENGTH} printable ASCII characters without spaces`);
  }
  return secret;
}

function view(webhook: Webhook): WebhookView {
  return { id: webhook.id, accountId: webhook.accountId, url: webhook.url, createdAt: webhook.createdAt };
}

/**
 * Webhooks of an account for the admin API, CLI and seed. Secrets are sealed with the server secret
 * before they reach the store and shown in plaintext only by add() and rotateSecret(). Callers check
 * that the account exists. `onQueued` is called after redeliver() queued jobs (to wake the worker),
 * `onChanged` after the account's webhooks were added or removed.
 */
export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly serverSecret: string,
    private readonly clock: () => Date = () => new Date(),
    private readonly onQueued: () => void = () => undefined,
    /** Called after the account's webhooks were added or removed here. */
    private readonly onChanged: (accountId: string) => void = () => undefined,
    /** Private targets allowed (WEBHOOK_ALLOW_PRIVATE): a literal private address is refused at once. */
    private readonly targets: AllowedTargets = NO_PRIVATE_TARGETS,
  ) {}

  /** Adds a webhook; without `secret` one is generated. Returns the plaintext secret, this once. */
  async add(accountId: string, url: string, secret?: string): Promise<WebhookWithSecret> {
    const target = webhookUrl(url);
    const refusal = urlRefusal(this.targets, new URL(target));
    if (refusal !== null) throw new WebhookError('invalid', refusal);
    const plain = secret === undefined ? generateSecret() : checkedSecret(secret);
    const existing = await this.store.events.listWebhooks(accountId);
    if (existing.length >= MAX_WEBHOOKS_PER_ACCOUNT) throw new WebhookError('invalid', `an account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks`);
    const webhook: Webhook = {
      id: `wh_${randomBytes(12).toString('hex')}`,
      accountId,
      url: target,
      secret: sealSecret(this.serverSecret, plain),
      createdAt: this.clock().toISOString(),
    };
    await this.store.events.addWebhook(webhook);
    this.onChanged(accountId);
    return { ...view(webhook), secret: plain };
  }

  /** The account's webhooks, oldest first, without secrets. */
  async list(accountId: string): Promise<WebhookView[]> {
    return (await this.store.events.listWebhooks(accountId)).map(view);
  }

  async get(accountId: string, id: string): Promise<WebhookView> {
    return view(await this.webhook(accountId, id));
  }

  /** Removes the webhook with its queued and past deliveries (and their attempts). */
  async remove(accountId: string, id: string): Promise<void> {
    if (!(await this.store.events.removeWebhook(accountId, id))) throw notFound(accountId, id);
    this.onChanged(accountId);
  }

  /** Replaces the signing secret (generated unless given); deliveries from now on are signed with it. */
  async rotateSecret(accountId: string, id: string, secret?: string): Promise<WebhookWithSecret> {
    const plain = secret === undefined ? generateSecret() : checkedSecret(secret);
    const webhook = await this.webhook(accountId, id);
    if (!(await this.store.events.setWebhookSecret(accountId, id, sealSecret(this.serverSecret, plain)))) throw notFound(accountId, id);
    return { ...view(webhook), secret: plain };
  }

  /** Queues an event again for one webhook or all of the account's; returns the new jobs (none without webhooks). */
  async redeliver(accountId: string, eventId: number, webhookId?: string): Promise<Delivery[]> {
    if (webhookId !== undefined) await this.webhook(accountId, webhookId);
    if (!(await this.store.events.getEvent(accountId, eventId))) throw new WebhookError('not_found', `account "${accountId}" has no event ${eventId}`);
    const jobs = await this.store.events.redeliver(accountId, eventId, webhookId);
    if (jobs.length > 0) this.onQueued();
    return jobs;
  }

  /** Delivery jobs, newest first. */
  deliveries(accountId: string, filter: { eventId?: number; webhookId?: string; limit?: number } = {}): Promise<Delivery[]> {
    return this.store.events.listDeliveries(accountId, filter);
  }

  /** Attempts of one job or of every job of one event, oldest first. */
  attempts(accountId: string, filter: { deliveryId?: number; eventId?: number }): Promise<DeliveryAttempt[]> {
    if (filter.deliveryId === undefined && filter.eventId === undefined) {
      return Promise.reject(new WebhookError('invalid', 'name a delivery or an event to list its attempts'));
    }
    return this.store.events.listAttempts(accountId, filter);
  }

  private async webhook(accountId: string, id: string): Promise<Webhook> {
    const webhook = await this.store.events.getWebhook(accountId, id);
    if (!webhook) throw notFound(accountId, id);
    return webhook;
  }
}

function notFound(accountId: string, id: string): WebhookError {
  return new WebhookError('not_found', `account "${accountId}" has no webhook "${id}"`);
}
