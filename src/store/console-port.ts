/**
 * The console's own records (src/dashboard/): sign-in sessions, dashboard users and the audit log of
 * every change made through the console, plus the labels of events read by id.
 */

export type ConsoleRole = 'operator' | 'analyst';

export interface ConsoleSession {
  /** SHA-256 (hex) of the cookie value: a stolen database does not give usable cookies. */
  idHash: string;
  role: ConsoleRole;
  /** The one account an analyst sees; null for an operator (every account). */
  accountId: string | null;
  /** Who signed in, as shown in the audit log: `operator`, `key:<key id>`, `user:<name>`. */
  actor: string;
  /** The API key an analyst signed in with: revoking it ends the session. */
  keyId: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface ConsoleUser {
  username: string;
  accountId: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts), never the password. */
  passwordHash: string;
  createdAt: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  /** The account changed; null for changes to no one account (plans, sign-in of an operator). */
  accountId: string | null;
  /** Short verb phrase such as `rule.create`, `event.label`. */
  action: string;
  /** What changed, as shown on the audit page (ids, values; never secrets). */
  detail: string;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** One payment scoring as the console lists it (no hashes, no features). */
export interface PaymentRow {
  id: number;
  transactionId: string | null;
  scoredAt: string;
  cardBin: string | null;
  cardLast4: string | null;
  amount: number | null;
  currency: string | null;
  score: number;
  rules: string[];
  outcome: string | null;
}

export interface DayCount {
  day: string;
  /** The event kind, the label, ... that was counted. */
  key: string;
  n: number;
}

/** A dataset update started from the console, as stored: the Model and data page's history survives restarts. */
export type UpdateJobState = 'running' | 'done' | 'failed' | 'interrupted';

export interface UpdateJob {
  id: number;
  /** The dataset (vigil data update NAME). */
  dataset: string;
  /** Where the data came from: `sources`, `file <path>` or `upload <file name>`. */
  source: string;
  /** Who started it, as in the audit log. */
  actor: string;
  state: UpdateJobState;
  startedAt: string;
  finishedAt: string | null;
  /** Last sign of life of the process running it: a running job whose process died stops moving. */
  heartbeatAt: string;
  /** The latest progress lines (as `vigil data update` prints them), then the outcome. */
  lines: string[];
  error: string | null;
}

export type NewUpdateJob = Omit<UpdateJob, 'id' | 'finishedAt' | 'error' | 'state' | 'lines'> & { lines?: string[] };

export interface UpdateJobChange {
  state: UpdateJobState;
  lines: string[];
  heartbeatAt: string;
  finishedAt?: string | null;
  error?: string | null;
}

export interface ConsolePort {
  insertSession(session: ConsoleSession): Promise<void>;
  /** The session when it exists and has not expired at `now`. */
  getSession(idHash: string, now: string): Promise<ConsoleSession | null>;
  deleteSession(idHash: string): Promise<void>;
  /** Removes sessions that expired before `now`; returns how many. */
  pruneSessions(now: string): Promise<number>;

  /** False (nothing written) when the username exists. */
  insertUser(user: ConsoleUser): Promise<boolean>;
  getUser(username: string): Promise<ConsoleUser | null>;
  /** Every user, or the users of one account; by username. */
  listUsers(accountId?: string): Promise<ConsoleUser[]>;
  /** Removes the user and ends their sessions; false when there is none. */
  deleteUser(username: string): Promise<boolean>;

  appendAudit(entry: NewAuditEntry): Promise<void>;
  /** Newest first; one account's entries or every entry; `before` pages by id. */
  listAudit(filter: { accountId?: string; before?: number; limit: number }): Promise<AuditEntry[]>;

  /**
   * The label given to each of these events through `POST /feedback/event` by event_id (the evidence of
   * origin `event:<id>`); events without one are absent.
   */
  eventLabels(accountId: string, eventIds: readonly number[]): Promise<Map<number, 'fraud' | 'legit'>>;

  /**
   * Events per UTC day and kind for the whole days in [from, to) (`from` and `to` at midnight), from the daily
   * counts insertEvent keeps. Events later removed by a user deletion stay counted (counts hold nothing personal).
   */
  eventsPerDay(accountId: string, from: string, to: string): Promise<DayCount[]>;
  /** Labels given per UTC day (key `fraud` or `legit`) in [from, to), from the identity evidence. */
  labelsPerDay(accountId: string, from: string, to: string): Promise<DayCount[]>;
  /** Payment scorings in [from, to) per score band: low below 30, medium 30 to 60, high 60 and up. */
  scoreBands(accountId: string, from: string, to: string): Promise<{ low: number; medium: number; high: number }>;
  /** How often each rule fired in the latest `sample` payment scorings of [from, to), most first. */
  topRules(accountId: string, from: string, to: string, sample: number): Promise<Array<{ rule: string; n: number }>>;
  /** Payment scorings newest first; `before` pages by id; with `card`, those of one BIN (and last four). */
  payments(accountId: string, filter: { before?: number; limit: number; card?: { bin: string; last4?: string } }): Promise<PaymentRow[]>;

  /** Records a started dataset update (state running); returns its id. */
  insertUpdateJob(job: NewUpdateJob): Promise<number>;
  /** Writes a job's progress or outcome. */
  saveUpdateJob(id: number, change: UpdateJobChange): Promise<void>;
  getUpdateJob(id: number): Promise<UpdateJob | null>;
  /** Newest first; of one dataset or all. */
  listUpdateJobs(filter: { dataset?: string; limit: number }): Promise<UpdateJob[]>;
  /** Running jobs whose heartbeat is older than `staleBefore` become `interrupted` (their process died); returns how many. */
  interruptStaleUpdateJobs(staleBefore: string, finishedAt: string): Promise<number>;
}

/** A role as read back from the store. */
export function consoleRole(value: string): ConsoleRole {
  if (value === 'operator' || value === 'analyst') return value;
  throw new Error(`unexpected console role: ${JSON.stringify(value)}`);
}

export const MAX_AUDIT_PAGE = 500;

export function updateJobState(value: string): UpdateJobState {
  if (value === 'running' || value === 'done' || value === 'failed' || value === 'interrupted') return value;
  throw new Error(`unexpected update job state: ${JSON.stringify(value)}`);
}

export function eventLabel(value: string): 'fraud' | 'legit' {
  if (value === 'fraud' || value === 'legit') return value;
  throw new Error(`unexpected label: ${JSON.stringify(value)}`);
}

/** Event ids from evidence origins `event:<id>` (other origins are skipped). */
export function eventIdOfOrigin(origin: string): number | null {
  const m = /^event:(\d{1,15})$/.exec(origin);
  return m ? Number(m[1]) : null;
}
