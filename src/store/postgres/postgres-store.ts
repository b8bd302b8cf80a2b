import pg from 'pg';
import type { EvidencePort, LearningWriter, ModelPort, OutcomesPort, ScoringsPort } from '../learning-ports.ts';
import type { AccountLocks, AccountsPort, DeletedUsersPort, PolicyChanges, DecisionLogPort, EventsPort, PolicyPort, RequestLogPort, Store, UsagePort } from '../ports.ts';
import { PostgresAccountLocks } from './account-locks.ts';
import { PostgresDeletedUsers } from './deleted-users.ts';
import { PostgresPolicyNotifications } from './policy-notifications.ts';
import { PostgresAccounts } from './accounts.ts';
import { PostgresDecisionLog } from './decisions.ts';
import { PostgresEvents } from './events.ts';
import { PostgresEvidence, PostgresModel, PostgresOutcomes } from './learning.ts';
import { PostgresLearningWriter } from './learning-writer.ts';
import { PostgresPolicy } from './policy.ts';
import { PostgresConsole } from './console.ts';
import type { ConsolePort } from '../console-port.ts';
import { applyMigrations } from './migrate.ts';
import { rekeyPostgresCards } from './card-rekey.ts';
import type { CardRekey } from '../card-rekey.ts';
import { PostgresRequestLog } from './request-log.ts';
import { PostgresScorings } from './scorings.ts';
import { PostgresUsage } from './usage.ts';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Pool size (default 10; DATABASE_POOL_SIZE). Advisory locks of feedback use one more connection of their own. */
  max?: number;
  /** How long to wait for a connection before a call rejects (ms, default 5000); without it a dead server hangs calls. */
  connectionTimeoutMillis?: number;
}

/** Store on a PostgreSQL database through a connection pool; several Vigil instances may share it. */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly accounts: AccountsPort;
  readonly usage: UsagePort;
  readonly requestLog: RequestLogPort;
  readonly policy: PolicyPort;
  readonly events: EventsPort;
  readonly decisions: DecisionLogPort;
  readonly scorings: ScoringsPort;
  readonly outcomes: OutcomesPort;
  readonly evidence: EvidencePort;
  readonly model: ModelPort;
  readonly learning: LearningWriter;
  readonly locks: AccountLocks;
  readonly #locks: PostgresAccountLocks;
  readonly policyChanges: PolicyChanges;
  readonly deletedUsers: DeletedUsersPort;
  readonly #notifications: PostgresPolicyNotifications;
  readonly console: ConsolePort;
  readonly #pool: pg.Pool;
  #closing: Promise<void> | undefined;

  constructor(options: PostgresStoreOptions) {
    this.#pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
      application_name: 'vigil',
    });
    // An idle connection that dies (server restart, network cut) is emitted here and dropped by the pool; without
    // a listener Node would crash the process. The next query opens a fresh connection or rejects, so nothing is lost.
    this.#pool.on('error', () => undefined);
    this.accounts = new PostgresAccounts(this.#pool);
    this.usage = new PostgresUsage(this.#pool);
    this.requestLog = new PostgresRequestLog(this.#pool);
    this.policy = new PostgresPolicy(this.#pool);
    this.events = new PostgresEvents(this.#pool);
    this.decisions = new PostgresDecisionLog(this.#pool);
    this.scorings = new PostgresScorings(this.#pool);
    this.outcomes = new PostgresOutcomes(this.#pool);
    this.evidence = new PostgresEvidence(this.#pool);
    this.model = new PostgresModel(this.#pool);
    this.learning = new PostgresLearningWriter(this.#pool);
    this.locks = this.#locks = new PostgresAccountLocks(options.connectionString);
    this.deletedUsers = new PostgresDeletedUsers(this.#pool);
    this.policyChanges = this.#notifications = new PostgresPolicyNotifications(options.connectionString);
    this.console = new PostgresConsole(this.#pool);
  }

  migrate(): Promise<void> {
    return applyMigrations(this.#pool);
  }

  rekeyCardIdentities(rekey: CardRekey): Promise<number | null> {
    return rekeyPostgresCards(this.#pool, rekey);
  }

  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  /** Idempotent: pg's Pool.end() throws when called twice. */
  close(): Promise<void> {
    this.#closing ??= Promise.all([this.#locks.close(), this.#notifications.close()]).then(() => this.#pool.end());
    return this.#closing;
  }
}
