import type { ApiKeyRecord, RequestLogEntry } from './ports.ts';
import { keyKind } from './values.ts';

/** Row shapes and row → record mappers that SQLite and PostgreSQL share (same columns, same text). */

export interface KeyRow {
  id: string;
  account_id: string;
  hash: string;
  kind: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

export function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    hash: row.hash,
    kind: keyKind(row.kind),
    hint: row.hint,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export interface LogRow {
  account_id: string;
  user_id: string;
  operation: string;
  ip: string | null;
  mode: string;
  at: string;
}

export function toLogEntry(row: LogRow): RequestLogEntry {
  return {
    accountId: row.account_id,
    userId: row.user_id,
    operation: row.operation,
    ip: row.ip,
    mode: keyKind(row.mode),
    at: row.at,
  };
}
