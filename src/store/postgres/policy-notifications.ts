import pg from 'pg';
import type { PolicyChanges } from '../ports.ts';
import { POLICY_CHANNEL } from './policy.ts';

const RECONNECT_MS = 1000;

/**
 * LISTEN on the policy channel over a connection of its own (a pooled one would be handed to other work).
 * Every committed policy change of any instance arrives as the account id (policy.ts queues the NOTIFY with
 * the version bump). When the connection drops, notifications may have been missed: the listener is told
 * `null` (compare every copy's version again) and the connection is opened again every second until it
 * works; meanwhile the version check every POLICY_REFRESH_MS still bounds how stale a copy can be.
 */
export class PostgresPolicyNotifications implements PolicyChanges {
  #client: pg.Client | undefined;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #listeners = new Set<(accountId: string | null) => void>();
  #connecting: Promise<void> | undefined;

  constructor(private readonly connectionString: string) {}

  /** Several apps on one store (tests) each add a listener; one connection serves them all. */
  listen(onChange: (accountId: string | null) => void): Promise<void> {
    this.#listeners.add(onChange);
    this.#connecting ??= this.#connect();
    return this.#connecting;
  }

  #tell(accountId: string | null): void {
    for (const listener of this.#listeners) listener(accountId);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'vigil-policy-listener', connectionTimeoutMillis: 5000 });
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      if (this.#closed) return;
      this.#tell(null);
      this.#timer = setTimeout(() => void this.#connect().catch(() => undefined), RECONNECT_MS);
      this.#timer.unref();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (msg) => {
      if (msg.channel === POLICY_CHANNEL && msg.payload) this.#tell(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${POLICY_CHANNEL}`);
    } catch (err) {
      onLost();
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    // Changes committed while this connection was being opened were not heard: compare versions again.
    this.#tell(null);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
