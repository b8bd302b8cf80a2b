import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EvidencePort, LearningWriter, ModelPort, OutcomesPort, ScoringsPort } from '../learning-ports.ts';
import type { AccountsPort, DecisionLogPort, EventsPort, PolicyPort, RequestLogPort, Store, UsagePort } from '../ports.ts';
import { SqliteAccounts } from './accounts.ts';
import { SqliteDecisionLog } from './decisions.ts';
import { SqliteEvents } from './events.ts';
import { SqliteEvidence, SqliteModel, SqliteOutcomes } from './learning.ts';
import { SqliteLearningWriter } from './learning-writer.ts';
import { SqlitePolicy } from './policy.ts';
import { applyMigrations } from './migrate.ts';
import { SqliteRequestLog } from './request-log.ts';
import { SqliteScorings } from './scorings.ts';
import { SqliteUsage } from './usage.ts';
import { settle } from './values.ts';

export interface SqliteStoreOptions {
  /** Database file (its directory is created), or `':memory:'`. */
  path: string;
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
}

/** Store on one local SQLite file (better-sqlite3): synchronous calls behind the async ports. */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
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
  readonly #db: Database.Database;

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new Database(options.path);
    // WAL lets readers run during a write; NORMAL is durable across process crashes in WAL mode
    // (only an OS crash can lose the last commits), at a fraction of FULL's fsyncs.
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    this.#db.pragma('foreign_keys = ON');
    this.accounts = new SqliteAccounts(this.#db);
    this.usage = new SqliteUsage(this.#db);
    this.requestLog = new SqliteRequestLog(this.#db);
    this.policy = new SqlitePolicy(this.#db);
    this.events = new SqliteEvents(this.#db);
    this.decisions = new SqliteDecisionLog(this.#db);
    this.scorings = new SqliteScorings(this.#db);
    this.outcomes = new SqliteOutcomes(this.#db);
    this.evidence = new SqliteEvidence(this.#db);
    this.model = new SqliteModel(this.#db);
    this.learning = new SqliteLearningWriter(this.#db);
  }

  migrate(): Promise<void> {
    return settle(() => {
      applyMigrations(this.#db);
    });
  }

  ping(): Promise<void> {
    return settle(() => {
      this.#db.prepare('SELECT 1').get();
    });
  }

  close(): Promise<void> {
    return settle(() => {
      if (this.#db.open) this.#db.close();
    });
  }
}
