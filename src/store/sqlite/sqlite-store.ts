import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { EvidencePort, LearningWriter, ModelPort, OutcomesPort, ScoringsPort } from '../learning-ports.ts';
import type { AccountLocks, AccountsPort, DeletedUsersPort, PolicyChanges, DecisionLogPort, EventsPort, PolicyPort, RequestLogPort, Store, UsagePort } from '../ports.ts';
import { SqliteAccounts } from './accounts.ts';
import { DECISION_STATEMENTS, SqliteDecisionLog, decisionLogSchema, moveDecisionLog } from './decisions.ts';
import { SqliteEvents } from './events.ts';
import { SqliteEvidence, SqliteModel, SqliteOutcomes } from './learning.ts';
import { SqliteLearningWriter } from './learning-writer.ts';
import { SqlitePolicy } from './policy.ts';
import { WalCheckpointer } from './checkpointer.ts';
import { SqliteConsole } from './console.ts';
import type { ConsolePort } from '../console-port.ts';
import { applyMigrations } from './migrate.ts';
import { LocalReader, type SnapshotReader, LoadReader, WorkerReader } from './read-worker.ts';
import { SqliteRequestLog } from './request-log.ts';
import { SqliteScorings } from './scorings.ts';
import { SqliteUsage } from './usage.ts';
import { settle } from './values.ts';
import { preparePrivateFile } from './private-file.ts';
import { LocalStatements, type StatementRunner, WorkerConnection } from './worker-connection.ts';
import { rekeySqliteCards } from './card-rekey.ts';
import { InProcessDeletedUsers } from '../memory/deleted-users.ts';
import type { CardRekey } from '../card-rekey.ts';

/** The decision log's own file beside the database file: `vigil.db` → `vigil-decisions.db`. */
export function decisionLogPath(path: string): string {
  return join(dirname(path), `${basename(path, '.db')}-decisions.db`);
}

export interface SqliteStoreOptions {
  /** Database file (its directory is created), or `':memory:'`. */
  path: string;
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
  /**
   * WAL checkpoints on a worker thread instead of inside commits (checkpointer.ts), so no request
   * waits for one. On for the server; off by default (commands, tests).
   */
  backgroundCheckpoint?: boolean;
  /** Milliseconds between background checkpoints (default 200). */
  checkpointIntervalMs?: number;
  /** With background checkpoints, the WAL size (4 KiB pages) at which a commit checkpoints anyway (default 10,000, ~40 MB). */
  inlineCheckpointPages?: number;
  /** Told when the checkpoint worker failed and commits checkpoint again. */
  onCheckpointFailure?: (err: Error) => void;
  /**
   * Where a file store reads a payment scoring's history: on the worker thread while the event loop is
   * saturated (`load`, the default, read-worker.ts), or always there (`worker`: tests of that path).
   */
  historyReads?: 'load' | 'worker';
  /**
   * Told when buffered payment scorings could not be written (they are tried again) or one was refused
   * and dropped (sqlite/scoring-buffer.ts); default: a JSON line on stderr.
   */
  onScoringWriteFailure?: (err: unknown, detail: { rows: number; dropped: boolean }) => void;
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
  /**
   * One process writes a SQLite file (its single connection serialises writes; the CLI's short commands are
   * the only other writers), and each service already runs an account's read-decide-write work one call at
   * a time in process: nothing more to exclude.
   */
  readonly locks: AccountLocks = { withAccountLock: (_scope, _accountId, work) => work() };
  /** Changes come through this process (or the CLI, seen by the version check every POLICY_REFRESH_MS). */
  readonly policyChanges: PolicyChanges = { listen: () => Promise.resolve() };
  /** One process: a deletion flushes this process's buffers first, and events are written before it runs. */
  readonly deletedUsers: DeletedUsersPort;
  readonly #deleted = new InProcessDeletedUsers();
  readonly console: ConsolePort;
  /** The background checkpointer, when `backgroundCheckpoint` is on. */
  readonly checkpointer: WalCheckpointer | undefined;
  readonly #db: Database.Database;
  /** The decision log's file and its worker-thread connection (file stores only). */
  readonly #decisionFile: { path: string; connection: WorkerConnection } | undefined;
  /** The decision log's statements, on its own file's connection or on the serving one. */
  readonly #decisionStatements: StatementRunner;
  /** Where the reads of a scoring's history run. */
  readonly #reader: SnapshotReader;
  readonly #scorings: SqliteScorings;

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ':memory:') preparePrivateFile(options.path);
    this.#db = new Database(options.path);
    // WAL lets readers run during a write; NORMAL is durable across process crashes in WAL mode
    // (only an OS crash can lose the last commits), at a fraction of FULL's fsyncs.
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    const busyTimeoutMs = Math.trunc(options.busyTimeoutMs ?? 5000);
    this.#db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    this.#db.pragma('foreign_keys = ON');
    // Deleted rows are overwritten with zeros, not left in free pages: a user's deletion erases their values from
    // the file (docs/operations.md, "Deleted data on disk").
    this.#db.pragma('secure_delete = ON');
    if (options.backgroundCheckpoint && options.path !== ':memory:') {
      // A commit still checkpoints if the WAL reaches this size: a worker that cannot finish under constant writes
      // (SQLite restarts the WAL only once all of it is copied) never lets it grow without bound.
      this.#db.pragma(`wal_autocheckpoint = ${Math.trunc(options.inlineCheckpointPages ?? 10_000)}`);
      this.checkpointer = new WalCheckpointer(options.path, options.checkpointIntervalMs ?? 200, (err) => {
        // Never let the WAL grow without bound: checkpoint in the commits again, as SQLite does by default.
        if (this.#db.open) this.#db.pragma('wal_autocheckpoint = 1000');
        options.onCheckpointFailure?.(err);
      });
    }
    this.accounts = new SqliteAccounts(this.#db);
    this.usage = new SqliteUsage(this.#db);
    this.requestLog = new SqliteRequestLog(this.#db);
    this.policy = new SqlitePolicy(this.#db);
    this.events = new SqliteEvents(this.#db);
    if (options.path === ':memory:') {
      this.#decisionFile = undefined;
      this.#decisionStatements = new LocalStatements(this.#db, DECISION_STATEMENTS);
      this.decisions = new SqliteDecisionLog(this.#decisionStatements);
    } else {
      // Its own file, written on a worker thread: see SqliteDecisionLog.
      const path = decisionLogPath(options.path);
      preparePrivateFile(path);
      const connection = new WorkerConnection(path, { schema: decisionLogSchema(), statements: DECISION_STATEMENTS, busyTimeoutMs });
      this.#decisionFile = { path, connection };
      this.#decisionStatements = connection;
      this.decisions = new SqliteDecisionLog(connection);
    }
    // A payment scoring's history reads: on a worker thread's connection while the event loop is saturated (read-worker.ts).
    if (options.path === ':memory:') this.#reader = new LocalReader(this.#db);
    else {
      // The worker writes groups of scorings too (while saturated): checkpoints stay with the checkpointer as here.
      const walAutocheckpoint = options.backgroundCheckpoint ? Math.trunc(options.inlineCheckpointPages ?? 10_000) : 1000;
      const worker = new WorkerReader(options.path, busyTimeoutMs, { walAutocheckpoint });
      this.#reader = options.historyReads === 'worker' ? worker : new LoadReader(new LocalReader(this.#db), worker);
    }
    this.deletedUsers = this.#deleted;
    const scorings = new SqliteScorings(this.#db, this.#reader, (accountId, hashes, since) => this.#deleted.has(accountId, hashes, since), options.onScoringWriteFailure && {
      onError: (err, rows) => options.onScoringWriteFailure!(err, { rows, dropped: false }),
      onDropped: (err) => options.onScoringWriteFailure!(err, { rows: 1, dropped: true }),
    });
    this.#scorings = scorings;
    this.scorings = scorings;
    this.outcomes = new SqliteOutcomes(this.#db);
    this.evidence = new SqliteEvidence(this.#db);
    this.model = new SqliteModel(this.#db);
    const flushScorings = () => scorings.flushSync();
    this.learning = new SqliteLearningWriter(this.#db, flushScorings);
    this.console = new SqliteConsole(this.#db, flushScorings);
  }

  migrate(): Promise<void> {
    return settle(() => {
      applyMigrations(this.#db);
      // Records of a version that kept the decision log in this file move to its own file.
      if (this.#decisionFile) moveDecisionLog(this.#db, this.#decisionFile.path);
    });
  }

  rekeyCardIdentities(rekey: CardRekey): Promise<number | null> {
    this.#scorings.flushSync();
    return rekeySqliteCards(this.#db, this.#decisionStatements, rekey);
  }

  ping(): Promise<void> {
    return settle(() => {
      this.#db.prepare('SELECT 1').get();
    });
  }

  async close(): Promise<void> {
    await this.checkpointer?.close();
    await this.#decisionFile?.connection.close();
    await this.#reader.close();
    return settle(() => {
      if (!this.#db.open) return;
      try {
        // Buffered scorings are written before the connection closes.
        this.#scorings.close();
      } finally {
        this.#db.close();
      }
    });
  }
}
