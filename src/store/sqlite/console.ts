import type { Database } from 'better-sqlite3';
import {
  type AuditEntry, type ConsolePort, type DayCount, type PaymentRow, type ConsoleSession, type ConsoleUser, type NewAuditEntry,
  type NewUpdateJob, type UpdateJob, type UpdateJobChange,
  consoleRole, eventIdOfOrigin, eventLabel, MAX_AUDIT_PAGE, updateJobState,
} from '../console-port.ts';
import { isoTimestamp, settle } from './values.ts';

interface SessionRow { id_hash: string; role: string; account_id: string | null; actor: string; key_id: string | null; created_at: string; expires_at: string }
interface UserRow { username: string; account_id: string; password_hash: string; created_at: string }
interface AuditRow { id: number; at: string; actor: string; account_id: string | null; action: string; detail: string }

const toSession = (r: SessionRow): ConsoleSession => ({
  idHash: r.id_hash, role: consoleRole(r.role), accountId: r.account_id, actor: r.actor, keyId: r.key_id, createdAt: r.created_at, expiresAt: r.expires_at,
});
const toUser = (r: UserRow): ConsoleUser => ({ username: r.username, accountId: r.account_id, passwordHash: r.password_hash, createdAt: r.created_at });
const toAudit = (r: AuditRow): AuditEntry => ({ id: r.id, at: r.at, actor: r.actor, accountId: r.account_id, action: r.action, detail: r.detail });

interface PaymentDbRow { id: number; transaction_id: string | null; scored_at: string; card_bin: string | null; card_last4: string | null; amount: number | null; currency: string | null; score: number; rules: string; outcome: string | null }
const PAYMENT_COLUMNS = 'id, transaction_id, scored_at, card_bin, card_last4, amount, currency, score, rules, outcome';
const toPayment = (r: PaymentDbRow): PaymentRow => ({
  id: r.id, transactionId: r.transaction_id, scoredAt: r.scored_at, cardBin: r.card_bin, cardLast4: r.card_last4, amount: r.amount, currency: r.currency,
  score: r.score, rules: JSON.parse(r.rules) as string[], outcome: r.outcome,
});

interface JobRow { id: number; dataset: string; source: string; actor: string; state: string; started_at: string; finished_at: string | null; heartbeat_at: string; lines: string; error: string | null }
const toJob = (r: JobRow): UpdateJob => ({
  id: r.id, dataset: r.dataset, source: r.source, actor: r.actor, state: updateJobState(r.state), startedAt: r.started_at, finishedAt: r.finished_at,
  heartbeatAt: r.heartbeat_at, lines: JSON.parse(r.lines) as string[], error: r.error,
});

function prepare(db: Database) {
  return {
    insertSession: db.prepare<SessionRow>(`
      INSERT INTO console_sessions (id_hash, role, account_id, actor, key_id, created_at, expires_at)
      VALUES (@id_hash, @role, @account_id, @actor, @key_id, @created_at, @expires_at)`),
    getSession: db.prepare<[string, string], SessionRow>('SELECT * FROM console_sessions WHERE id_hash = ? AND expires_at > ?'),
    deleteSession: db.prepare<[string]>('DELETE FROM console_sessions WHERE id_hash = ?'),
    pruneSessions: db.prepare<[string]>('DELETE FROM console_sessions WHERE expires_at <= ?'),
    insertUser: db.prepare<UserRow>(`
      INSERT INTO console_users (username, account_id, password_hash, created_at) VALUES (@username, @account_id, @password_hash, @created_at)
      ON CONFLICT (username) DO NOTHING`),
    getUser: db.prepare<[string], UserRow>('SELECT * FROM console_users WHERE username = ?'),
    listUsers: db.prepare<[], UserRow>('SELECT * FROM console_users ORDER BY username'),
    listUsersOf: db.prepare<[string], UserRow>('SELECT * FROM console_users WHERE account_id = ? ORDER BY username'),
    deleteUser: db.prepare<[string]>('DELETE FROM console_users WHERE username = ?'),
    deleteSessionsOf: db.prepare<[string]>('DELETE FROM console_sessions WHERE actor = ?'),
    appendAudit: db.prepare<Omit<AuditRow, 'id'>>(`
      INSERT INTO console_audit (at, actor, account_id, action, detail) VALUES (@at, @actor, @account_id, @action, @detail)`),
    listAudit: db.prepare<{ account: string | null; before: number | null; limit: number }, AuditRow>(`
      SELECT * FROM console_audit
      WHERE (@account IS NULL OR account_id = @account) AND (@before IS NULL OR id < @before)
      ORDER BY id DESC LIMIT @limit`),
    // The origins `event:<id>` of the asked ids, through the (account_id, origin) index. ids: JSON array of text.
    eventLabels: db.prepare<{ account: string; origins: string }, { origin: string; label: string }>(`
      SELECT origin, label FROM identity_evidence
      WHERE account_id = @account AND origin IN (SELECT value FROM json_each(@origins))`),
    eventsPerDay: db.prepare<[string, string, string], DayCount>(`
      SELECT day, kind AS key, n FROM event_day_counts
      WHERE account_id = ? AND day >= substr(?, 1, 10) AND day < substr(?, 1, 10) ORDER BY day, kind`),
    labelsPerDay: db.prepare<[string, string, string], DayCount>(`
      SELECT substr(updated_at, 1, 10) AS day, label AS key, count(*) AS n FROM identity_evidence
      WHERE account_id = ? AND updated_at >= ? AND updated_at < ? GROUP BY day, label ORDER BY day, label`),
    scoreBands: db.prepare<[string, string, string], { low: number | null; medium: number | null; high: number | null }>(`
      SELECT sum(score < 30) AS low, sum(score >= 30 AND score < 60) AS medium, sum(score >= 60) AS high FROM payment_scorings
      WHERE account_id = ? AND scored_at >= ? AND scored_at < ?`),
    topRules: db.prepare<[string, string, string, number], { rule: string; n: number }>(`
      SELECT r.value AS rule, count(*) AS n
      FROM (SELECT rules FROM payment_scorings WHERE account_id = ? AND scored_at >= ? AND scored_at < ? ORDER BY scored_at DESC LIMIT ?) p,
           json_each(p.rules) r
      GROUP BY r.value ORDER BY n DESC, rule LIMIT 12`),
    payments: db.prepare<{ account: string; before: number | null; limit: number }, PaymentDbRow>(`
      SELECT ${PAYMENT_COLUMNS} FROM payment_scorings WHERE account_id = @account AND (@before IS NULL OR id < @before)
      ORDER BY scored_at DESC, id DESC LIMIT @limit`),
    paymentsByCard: db.prepare<{ account: string; bin: string; last4: string | null; before: number | null; limit: number }, PaymentDbRow>(`
      SELECT ${PAYMENT_COLUMNS} FROM payment_scorings
      WHERE account_id = @account AND card_bin = @bin AND (@last4 IS NULL OR card_last4 = @last4) AND (@before IS NULL OR id < @before)
      ORDER BY scored_at DESC, id DESC LIMIT @limit`),
    insertJob: db.prepare<Omit<JobRow, 'id' | 'finished_at' | 'error'>>(`
      INSERT INTO data_update_jobs (dataset, source, actor, state, started_at, heartbeat_at, lines)
      VALUES (@dataset, @source, @actor, @state, @started_at, @heartbeat_at, @lines)`),
    saveJob: db.prepare<{ id: number; state: string; lines: string; heartbeat_at: string; finished_at: string | null; error: string | null; keep: number }>(`
      UPDATE data_update_jobs SET state = @state, lines = @lines, heartbeat_at = @heartbeat_at,
        finished_at = CASE WHEN @keep THEN finished_at ELSE @finished_at END, error = CASE WHEN @keep THEN error ELSE @error END
      WHERE id = @id`),
    getJob: db.prepare<[number], JobRow>('SELECT * FROM data_update_jobs WHERE id = ?'),
    listJobs: db.prepare<[number], JobRow>('SELECT * FROM data_update_jobs ORDER BY id DESC LIMIT ?'),
    listJobsOf: db.prepare<[string, number], JobRow>('SELECT * FROM data_update_jobs WHERE dataset = ? ORDER BY id DESC LIMIT ?'),
    interruptJobs: db.prepare<[string, string]>(`UPDATE data_update_jobs SET state = 'interrupted', finished_at = ? WHERE state = 'running' AND heartbeat_at < ?`),
  };
}

/** The console's sessions, users and audit log on SQLite. */
export class SqliteConsole implements ConsolePort {
  #s: ReturnType<typeof prepare> | undefined;
  readonly #deleteUser: (username: string) => boolean;

  /** `flushScorings` writes the payment scorings buffered by the scorings port before a page reads them. */
  constructor(
    private readonly db: Database,
    private readonly flushScorings: () => void = () => undefined,
  ) {
    const del = db.transaction((username: string): boolean => {
      const gone = this.s.deleteUser.run(username).changes > 0;
      this.s.deleteSessionsOf.run(`user:${username}`);
      return gone;
    });
    this.#deleteUser = (username) => del.immediate(username);
  }

  private get s(): ReturnType<typeof prepare> {
    this.#s ??= prepare(this.db);
    return this.#s;
  }

  insertSession(session: ConsoleSession): Promise<void> {
    return settle(() => {
      this.s.insertSession.run({
        id_hash: session.idHash, role: session.role, account_id: session.accountId, actor: session.actor, key_id: session.keyId,
        created_at: isoTimestamp(session.createdAt), expires_at: isoTimestamp(session.expiresAt),
      });
    });
  }

  getSession(idHash: string, now: string): Promise<ConsoleSession | null> {
    return settle(() => {
      const row = this.s.getSession.get(idHash, isoTimestamp(now));
      return row ? toSession(row) : null;
    });
  }

  deleteSession(idHash: string): Promise<void> {
    return settle(() => {
      this.s.deleteSession.run(idHash);
    });
  }

  pruneSessions(now: string): Promise<number> {
    return settle(() => this.s.pruneSessions.run(isoTimestamp(now)).changes);
  }

  insertUser(user: ConsoleUser): Promise<boolean> {
    return settle(
      () => this.s.insertUser.run({ username: user.username, account_id: user.accountId, password_hash: user.passwordHash, created_at: isoTimestamp(user.createdAt) }).changes > 0,
    );
  }

  getUser(username: string): Promise<ConsoleUser | null> {
    return settle(() => {
      const row = this.s.getUser.get(username);
      return row ? toUser(row) : null;
    });
  }

  listUsers(accountId?: string): Promise<ConsoleUser[]> {
    return settle(() => (accountId === undefined ? this.s.listUsers.all() : this.s.listUsersOf.all(accountId)).map(toUser));
  }

  deleteUser(username: string): Promise<boolean> {
    return settle(() => this.#deleteUser(username));
  }

  appendAudit(entry: NewAuditEntry): Promise<void> {
    return settle(() => {
      this.s.appendAudit.run({ at: isoTimestamp(entry.at), actor: entry.actor, account_id: entry.accountId, action: entry.action, detail: entry.detail });
    });
  }

  listAudit(filter: { accountId?: string; before?: number; limit: number }): Promise<AuditEntry[]> {
    return settle(() =>
      this.s.listAudit.all({ account: filter.accountId ?? null, before: filter.before ?? null, limit: Math.min(Math.max(1, Math.trunc(filter.limit)), MAX_AUDIT_PAGE) }).map(toAudit),
    );
  }

  eventLabels(accountId: string, eventIds: readonly number[]): Promise<Map<number, 'fraud' | 'legit'>> {
    return settle(() => {
      const out = new Map<number, 'fraud' | 'legit'>();
      if (eventIds.length === 0) return out;
      const origins = JSON.stringify(eventIds.map((id) => `event:${id}`));
      for (const row of this.s.eventLabels.all({ account: accountId, origins })) {
        const id = eventIdOfOrigin(row.origin);
        if (id !== null) out.set(id, eventLabel(row.label));
      }
      return out;
    });
  }

  eventsPerDay(accountId: string, from: string, to: string): Promise<DayCount[]> {
    return settle(() => this.s.eventsPerDay.all(accountId, isoTimestamp(from), isoTimestamp(to)));
  }

  labelsPerDay(accountId: string, from: string, to: string): Promise<DayCount[]> {
    return settle(() => this.s.labelsPerDay.all(accountId, isoTimestamp(from), isoTimestamp(to)));
  }

  scoreBands(accountId: string, from: string, to: string): Promise<{ low: number; medium: number; high: number }> {
    return settle(() => {
      this.flushScorings();
      const r = this.s.scoreBands.get(accountId, isoTimestamp(from), isoTimestamp(to));
      return { low: r?.low ?? 0, medium: r?.medium ?? 0, high: r?.high ?? 0 };
    });
  }

  topRules(accountId: string, from: string, to: string, sample: number): Promise<Array<{ rule: string; n: number }>> {
    return settle(() => {
      this.flushScorings();
      return this.s.topRules.all(accountId, isoTimestamp(from), isoTimestamp(to), sample);
    });
  }

  payments(accountId: string, filter: { before?: number; limit: number; card?: { bin: string; last4?: string } }): Promise<PaymentRow[]> {
    return settle(() => {
      this.flushScorings();
      const base = { account: accountId, before: filter.before ?? null, limit: Math.min(Math.max(1, Math.trunc(filter.limit)), 1000) };
      const rows = filter.card
        ? this.s.paymentsByCard.all({ ...base, bin: filter.card.bin, last4: filter.card.last4 ?? null })
        : this.s.payments.all(base);
      return rows.map(toPayment);
    });
  }

  insertUpdateJob(job: NewUpdateJob): Promise<number> {
    return settle(() => Number(this.s.insertJob.run({
      dataset: job.dataset, source: job.source, actor: job.actor, state: 'running', started_at: isoTimestamp(job.startedAt),
      heartbeat_at: isoTimestamp(job.heartbeatAt), lines: JSON.stringify(job.lines ?? []),
    }).lastInsertRowid));
  }

  saveUpdateJob(id: number, change: UpdateJobChange): Promise<void> {
    return settle(() => {
      const keep = change.finishedAt === undefined && change.error === undefined;
      this.s.saveJob.run({
        id, state: change.state, lines: JSON.stringify(change.lines), heartbeat_at: isoTimestamp(change.heartbeatAt),
        finished_at: change.finishedAt ? isoTimestamp(change.finishedAt) : null, error: change.error ?? null, keep: keep ? 1 : 0,
      });
    });
  }

  getUpdateJob(id: number): Promise<UpdateJob | null> {
    return settle(() => {
      const row = this.s.getJob.get(id);
      return row ? toJob(row) : null;
    });
  }

  listUpdateJobs(filter: { dataset?: string; limit: number }): Promise<UpdateJob[]> {
    return settle(() => {
      const limit = Math.min(Math.max(1, Math.trunc(filter.limit)), 500);
      return (filter.dataset === undefined ? this.s.listJobs.all(limit) : this.s.listJobsOf.all(filter.dataset, limit)).map(toJob);
    });
  }

  interruptStaleUpdateJobs(staleBefore: string, finishedAt: string): Promise<number> {
    return settle(() => this.s.interruptJobs.run(isoTimestamp(finishedAt), isoTimestamp(staleBefore)).changes);
  }
}
