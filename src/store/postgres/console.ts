import type { Pool } from 'pg';
import {
  type AuditEntry, type ConsolePort, type DayCount, type PaymentRow, type ConsoleSession, type ConsoleUser, type NewAuditEntry,
  type NewUpdateJob, type UpdateJob, type UpdateJobChange,
  consoleRole, eventIdOfOrigin, eventLabel, MAX_AUDIT_PAGE, updateJobState,
} from '../console-port.ts';
import { isoTimestamp } from '../values.ts';
import { bigintCount, isoSql } from './values.ts';

interface SessionRow { id_hash: string; role: string; account_id: string | null; actor: string; key_id: string | null; created_at: string; expires_at: string }
interface UserRow { username: string; account_id: string; password_hash: string; created_at: string }
interface AuditRow { id: string; at: string; actor: string; account_id: string | null; action: string; detail: string }

interface PaymentDbRow { id: string; transaction_id: string | null; scored_at: string; card_bin: string | null; card_last4: string | null; amount: number | null; currency: string | null; score: number; rules: string[]; outcome: string | null }
const PAYMENT_COLUMNS = `id::text AS id, transaction_id, ${isoSql('scored_at')} AS scored_at, card_bin, card_last4, amount, currency, score, rules, outcome`;

const JOB_COLUMNS = `id::text AS id, dataset, source, actor, state, ${isoSql('started_at')} AS started_at, ${isoSql('finished_at')} AS finished_at,
  ${isoSql('heartbeat_at')} AS heartbeat_at, lines, error`;
const SESSION_COLUMNS = `id_hash, role, account_id, actor, key_id, ${isoSql('created_at')} AS created_at, ${isoSql('expires_at')} AS expires_at`;
const USER_COLUMNS = `username, account_id, password_hash, ${isoSql('created_at')} AS created_at`;

const Q = {
  insertSession: {
    name: 'vigil_console_insert_session',
    text: 'INSERT INTO console_sessions (id_hash, role, account_id, actor, key_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
  },
  getSession: { name: 'vigil_console_get_session', text: `SELECT ${SESSION_COLUMNS} FROM console_sessions WHERE id_hash = $1 AND expires_at > $2` },
  deleteSession: { name: 'vigil_console_delete_session', text: 'DELETE FROM console_sessions WHERE id_hash = $1' },
  pruneSessions: { name: 'vigil_console_prune_sessions', text: 'DELETE FROM console_sessions WHERE expires_at <= $1' },
  insertUser: {
    name: 'vigil_console_insert_user',
    text: 'INSERT INTO console_users (username, account_id, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (username) DO NOTHING',
  },
  getUser: { name: 'vigil_console_get_user', text: `SELECT ${USER_COLUMNS} FROM console_users WHERE username = $1` },
  listUsers: { name: 'vigil_console_list_users', text: `SELECT ${USER_COLUMNS} FROM console_users ORDER BY username COLLATE "C"` },
  listUsersOf: { name: 'vigil_console_list_users_of', text: `SELECT ${USER_COLUMNS} FROM console_users WHERE account_id = $1 ORDER BY username COLLATE "C"` },
  deleteUser: {
    name: 'vigil_console_delete_user',
    // One statement: the user and their sessions go together.
    text: `WITH gone AS (DELETE FROM console_users WHERE username = $1 RETURNING username),
                s AS (DELETE FROM console_sessions WHERE actor = 'user:' || $1::text)
           SELECT count(*)::text AS n FROM gone`,
  },
  appendAudit: { name: 'vigil_console_append_audit', text: 'INSERT INTO console_audit (at, actor, account_id, action, detail) VALUES ($1, $2, $3, $4, $5)' },
  listAudit: {
    name: 'vigil_console_list_audit',
    text: `SELECT id::text AS id, ${isoSql('at')} AS at, actor, account_id, action, detail FROM console_audit
           WHERE ($1::text IS NULL OR account_id = $1) AND ($2::bigint IS NULL OR id < $2)
           ORDER BY id DESC LIMIT $3`,
  },
  eventLabels: {
    name: 'vigil_console_event_labels',
    text: 'SELECT origin, label FROM identity_evidence WHERE account_id = $1 AND origin = ANY($2::text[])',
  },
  eventsPerDay: {
    name: 'vigil_console_events_per_day',
    text: `SELECT day, kind AS key, n::text AS n FROM event_day_counts
           WHERE account_id = $1 AND day >= substr($2::text, 1, 10) AND day < substr($3::text, 1, 10) ORDER BY day, kind COLLATE "C"`,
  },
  labelsPerDay: {
    name: 'vigil_console_labels_per_day',
    text: `SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, label AS key, count(*)::text AS n FROM identity_evidence
           WHERE account_id = $1 AND updated_at >= $2 AND updated_at < $3 GROUP BY 1, 2 ORDER BY 1, 2`,
  },
  scoreBands: {
    name: 'vigil_console_score_bands',
    text: `SELECT count(*) FILTER (WHERE score < 30)::text AS low, count(*) FILTER (WHERE score >= 30 AND score < 60)::text AS medium,
                  count(*) FILTER (WHERE score >= 60)::text AS high
           FROM payment_scorings WHERE account_id = $1 AND scored_at >= $2 AND scored_at < $3`,
  },
  topRules: {
    name: 'vigil_console_top_rules',
    text: `SELECT r.rule, count(*)::text AS n
           FROM (SELECT rules FROM payment_scorings WHERE account_id = $1 AND scored_at >= $2 AND scored_at < $3 ORDER BY scored_at DESC LIMIT $4) p,
                jsonb_array_elements_text(p.rules) AS r (rule)
           GROUP BY r.rule ORDER BY count(*) DESC, r.rule COLLATE "C" LIMIT 12`,
  },
  payments: {
    name: 'vigil_console_payments',
    text: `SELECT ${PAYMENT_COLUMNS} FROM payment_scorings WHERE account_id = $1 AND ($2::bigint IS NULL OR id < $2)
           ORDER BY scored_at DESC, id DESC LIMIT $3`,
  },
  paymentsByCard: {
    name: 'vigil_console_payments_by_card',
    text: `SELECT ${PAYMENT_COLUMNS} FROM payment_scorings
           WHERE account_id = $1 AND card_bin = $4 AND ($5::text IS NULL OR card_last4 = $5) AND ($2::bigint IS NULL OR id < $2)
           ORDER BY scored_at DESC, id DESC LIMIT $3`,
  },
  insertJob: {
    name: 'vigil_console_insert_update_job',
    text: `INSERT INTO data_update_jobs (dataset, source, actor, state, started_at, heartbeat_at, lines)
           VALUES ($1, $2, $3, 'running', $4, $5, $6::jsonb) RETURNING id::text AS id`,
  },
  saveJob: {
    name: 'vigil_console_save_update_job',
    text: `UPDATE data_update_jobs SET state = $2, lines = $3::jsonb, heartbeat_at = $4,
             finished_at = CASE WHEN $7::boolean THEN finished_at ELSE $5::timestamptz END, error = CASE WHEN $7::boolean THEN error ELSE $6::text END
           WHERE id = $1`,
  },
  getJob: { name: 'vigil_console_get_update_job', text: `SELECT ${JOB_COLUMNS} FROM data_update_jobs WHERE id = $1` },
  listJobs: {
    name: 'vigil_console_list_update_jobs',
    text: `SELECT ${JOB_COLUMNS} FROM data_update_jobs WHERE ($1::text IS NULL OR dataset = $1) ORDER BY id DESC LIMIT $2`,
  },
  interruptJobs: {
    name: 'vigil_console_interrupt_update_jobs',
    text: `UPDATE data_update_jobs SET state = 'interrupted', finished_at = $1 WHERE state = 'running' AND heartbeat_at < $2`,
  },
} as const;

interface JobRow { id: string; dataset: string; source: string; actor: string; state: string; started_at: string; finished_at: string | null; heartbeat_at: string; lines: string[]; error: string | null }
const toJob = (r: JobRow): UpdateJob => ({
  id: bigintCount(r.id), dataset: r.dataset, source: r.source, actor: r.actor, state: updateJobState(r.state), startedAt: r.started_at, finishedAt: r.finished_at,
  heartbeatAt: r.heartbeat_at, lines: r.lines, error: r.error,
});

const toSession = (r: SessionRow): ConsoleSession => ({
  idHash: r.id_hash, role: consoleRole(r.role), accountId: r.account_id, actor: r.actor, keyId: r.key_id, createdAt: r.created_at, expiresAt: r.expires_at,
});
const toUser = (r: UserRow): ConsoleUser => ({ username: r.username, accountId: r.account_id, passwordHash: r.password_hash, createdAt: r.created_at });

/** The console's sessions, users and audit log on PostgreSQL. */
export class PostgresConsole implements ConsolePort {
  constructor(private readonly pool: Pool) {}

  async insertSession(s: ConsoleSession): Promise<void> {
    await this.pool.query({ ...Q.insertSession, values: [s.idHash, s.role, s.accountId, s.actor, s.keyId, isoTimestamp(s.createdAt), isoTimestamp(s.expiresAt)] });
  }

  async getSession(idHash: string, now: string): Promise<ConsoleSession | null> {
    const { rows } = await this.pool.query<SessionRow>({ ...Q.getSession, values: [idHash, isoTimestamp(now)] });
    return rows[0] ? toSession(rows[0]) : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.pool.query({ ...Q.deleteSession, values: [idHash] });
  }

  async pruneSessions(now: string): Promise<number> {
    return (await this.pool.query({ ...Q.pruneSessions, values: [isoTimestamp(now)] })).rowCount ?? 0;
  }

  async insertUser(u: ConsoleUser): Promise<boolean> {
    const r = await this.pool.query({ ...Q.insertUser, values: [u.username, u.accountId, u.passwordHash, isoTimestamp(u.createdAt)] });
    return (r.rowCount ?? 0) > 0;
  }

  async getUser(username: string): Promise<ConsoleUser | null> {
    const { rows } = await this.pool.query<UserRow>({ ...Q.getUser, values: [username] });
    return rows[0] ? toUser(rows[0]) : null;
  }

  async listUsers(accountId?: string): Promise<ConsoleUser[]> {
    const { rows } = accountId === undefined
      ? await this.pool.query<UserRow>(Q.listUsers)
      : await this.pool.query<UserRow>({ ...Q.listUsersOf, values: [accountId] });
    return rows.map(toUser);
  }

  async deleteUser(username: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ n: string }>({ ...Q.deleteUser, values: [username] });
    return bigintCount(rows[0]?.n ?? '0') > 0;
  }

  async appendAudit(e: NewAuditEntry): Promise<void> {
    await this.pool.query({ ...Q.appendAudit, values: [isoTimestamp(e.at), e.actor, e.accountId, e.action, e.detail] });
  }

  async listAudit(filter: { accountId?: string; before?: number; limit: number }): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(1, Math.trunc(filter.limit)), MAX_AUDIT_PAGE);
    const { rows } = await this.pool.query<AuditRow>({ ...Q.listAudit, values: [filter.accountId ?? null, filter.before ?? null, limit] });
    return rows.map((r) => ({ id: bigintCount(r.id), at: r.at, actor: r.actor, accountId: r.account_id, action: r.action, detail: r.detail }));
  }

  async eventLabels(accountId: string, eventIds: readonly number[]): Promise<Map<number, 'fraud' | 'legit'>> {
    const out = new Map<number, 'fraud' | 'legit'>();
    if (eventIds.length === 0) return out;
    const { rows } = await this.pool.query<{ origin: string; label: string }>({ ...Q.eventLabels, values: [accountId, eventIds.map((id) => `event:${id}`)] });
    for (const row of rows) {
      const id = eventIdOfOrigin(row.origin);
      if (id !== null) out.set(id, eventLabel(row.label));
    }
    return out;
  }

  async eventsPerDay(accountId: string, from: string, to: string): Promise<DayCount[]> {
    const { rows } = await this.pool.query<{ day: string; key: string; n: string }>({ ...Q.eventsPerDay, values: [accountId, isoTimestamp(from), isoTimestamp(to)] });
    return rows.map((r) => ({ day: r.day, key: r.key, n: bigintCount(r.n) }));
  }

  async labelsPerDay(accountId: string, from: string, to: string): Promise<DayCount[]> {
    const { rows } = await this.pool.query<{ day: string; key: string; n: string }>({ ...Q.labelsPerDay, values: [accountId, isoTimestamp(from), isoTimestamp(to)] });
    return rows.map((r) => ({ day: r.day, key: r.key, n: bigintCount(r.n) }));
  }

  async scoreBands(accountId: string, from: string, to: string): Promise<{ low: number; medium: number; high: number }> {
    const { rows } = await this.pool.query<{ low: string; medium: string; high: string }>({ ...Q.scoreBands, values: [accountId, isoTimestamp(from), isoTimestamp(to)] });
    const r = rows[0];
    return { low: bigintCount(r?.low ?? '0'), medium: bigintCount(r?.medium ?? '0'), high: bigintCount(r?.high ?? '0') };
  }

  async topRules(accountId: string, from: string, to: string, sample: number): Promise<Array<{ rule: string; n: number }>> {
    const { rows } = await this.pool.query<{ rule: string; n: string }>({ ...Q.topRules, values: [accountId, isoTimestamp(from), isoTimestamp(to), sample] });
    return rows.map((r) => ({ rule: r.rule, n: bigintCount(r.n) }));
  }

  async payments(accountId: string, filter: { before?: number; limit: number; card?: { bin: string; last4?: string } }): Promise<PaymentRow[]> {
    const limit = Math.min(Math.max(1, Math.trunc(filter.limit)), 1000);
    const { rows } = filter.card
      ? await this.pool.query<PaymentDbRow>({ ...Q.paymentsByCard, values: [accountId, filter.before ?? null, limit, filter.card.bin, filter.card.last4 ?? null] })
      : await this.pool.query<PaymentDbRow>({ ...Q.payments, values: [accountId, filter.before ?? null, limit] });
    return rows.map((r) => ({
      id: bigintCount(r.id), transactionId: r.transaction_id, scoredAt: r.scored_at, cardBin: r.card_bin, cardLast4: r.card_last4,
      amount: r.amount, currency: r.currency, score: r.score, rules: r.rules, outcome: r.outcome,
    }));
  }

  async insertUpdateJob(job: NewUpdateJob): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>({
      ...Q.insertJob, values: [job.dataset, job.source, job.actor, isoTimestamp(job.startedAt), isoTimestamp(job.heartbeatAt), JSON.stringify(job.lines ?? [])],
    });
    return bigintCount(rows[0]?.id ?? '0');
  }

  async saveUpdateJob(id: number, change: UpdateJobChange): Promise<void> {
    const keep = change.finishedAt === undefined && change.error === undefined;
    await this.pool.query({
      ...Q.saveJob,
      values: [id, change.state, JSON.stringify(change.lines), isoTimestamp(change.heartbeatAt), change.finishedAt ? isoTimestamp(change.finishedAt) : null, change.error ?? null, keep],
    });
  }

  async getUpdateJob(id: number): Promise<UpdateJob | null> {
    const { rows } = await this.pool.query<JobRow>({ ...Q.getJob, values: [id] });
    return rows[0] ? toJob(rows[0]) : null;
  }

  async listUpdateJobs(filter: { dataset?: string; limit: number }): Promise<UpdateJob[]> {
    const limit = Math.min(Math.max(1, Math.trunc(filter.limit)), 500);
    const { rows } = await this.pool.query<JobRow>({ ...Q.listJobs, values: [filter.dataset ?? null, limit] });
    return rows.map(toJob);
  }

  async interruptStaleUpdateJobs(staleBefore: string, finishedAt: string): Promise<number> {
    return (await this.pool.query({ ...Q.interruptJobs, values: [isoTimestamp(finishedAt), isoTimestamp(staleBefore)] })).rowCount ?? 0;
  }
}
