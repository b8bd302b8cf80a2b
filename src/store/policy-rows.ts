import {
  ACTION_TYPES,
  BLACKLIST_TYPES,
  RULE_GROUPS,
  type BlacklistType,
  type ConditionGroup,
  type CustomRule,
  type RuleAction,
  type RuleGroup,
} from '../policy/types.ts';
import type { BlacklistEntry, DecisionRecord } from './ports.ts';
import { isoTimestamp } from './values.ts';
import { UnwritableRecord } from './unwritable.ts';

/*
 * Row shapes, mappers and checks of the policy store (custom rules, blacklists, decision log) that SQLite and
 * PostgreSQL share, so both accept and return exactly the same values.
 */

// ---------------------------------------------------------------------------------------------------------------
// Custom rules

/** The first number the store hands out (`CR101`); explicit ids below it are refused. */
export const FIRST_RULE_NUMBER = 101;

/** `CR` then a number without leading zeros, so that id and number map one to one (no `CR0101` beside `CR101`). */
const RULE_ID = /^CR([1-9][0-9]*)$/;

/** The number of a rule id (`CR101` → 101); null when the string cannot be a rule id. */
export function ruleNumberOrNull(id: string): number | null {
  const match = RULE_ID.exec(id);
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) && number >= FIRST_RULE_NUMBER ? number : null;
}

export function ruleNumber(id: string): number {
  const number = ruleNumberOrNull(id);
  if (number === null) throw new RangeError(`not a custom rule id (CR${FIRST_RULE_NUMBER} up): ${JSON.stringify(id)}`);
  return number;
}

export function ruleId(number: number): string {
  return `CR${number}`;
}

const GROUPS: ReadonlySet<string> = new Set(RULE_GROUPS);
const ACTIONS: ReadonlySet<string> = new Set(ACTION_TYPES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function ruleGroup(value: string): RuleGroup {
  if (GROUPS.has(value)) return value as RuleGroup;
  throw new RangeError(`unknown custom rule group: ${JSON.stringify(value)}`);
}

/** The root of the conditions must be `{all: [...]}` or `{any: [...]}`; the rule engine checks the nodes. */
export function conditionGroup(value: unknown): ConditionGroup {
  if (isRecord(value) && (Array.isArray(value.all) || Array.isArray(value.any))) return value as ConditionGroup;
  throw new RangeError(`custom rule conditions must be {all: [...]} or {any: [...]}, got ${JSON.stringify(value)}`);
}

export function ruleAction(value: unknown): RuleAction {
  if (isRecord(value) && typeof value.type === 'string' && ACTIONS.has(value.type) && (value.score === undefined || typeof value.score === 'number')) {
    return value as unknown as RuleAction;
  }
  throw new RangeError(`invalid custom rule action: ${JSON.stringify(value)}`);
}

/** The fields of a rule as written (id and number apart): checked, timestamps normalised, JSON as text. */
export interface RuleValues {
  title: string;
  group: RuleGroup;
  enabled: boolean;
  conditions: string;
  action: string;
  createdAt: string;
  updatedAt: string;
}

/** Checks a rule before anything is written. */
export function ruleValues(rule: CustomRule): RuleValues {
  if (typeof rule.title !== 'string') throw new RangeError('custom rule title must be a string');
  if (typeof rule.enabled !== 'boolean') throw new RangeError('custom rule enabled must be a boolean');
  return {
    title: rule.title,
    group: ruleGroup(rule.group),
    enabled: rule.enabled,
    conditions: JSON.stringify(conditionGroup(rule.conditions)),
    action: JSON.stringify(ruleAction(rule.action)),
    createdAt: isoTimestamp(rule.createdAt),
    updatedAt: isoTimestamp(rule.updatedAt),
  };
}

/** A rule row once each backend has decoded its own types (SQLite: 0/1 and JSON text; PostgreSQL: JSONB). */
export interface RuleRow {
  id: string;
  title: string;
  rule_group: string;
  enabled: boolean;
  conditions: unknown;
  action: unknown;
  created_at: string;
  updated_at: string;
}

export function toRule(row: RuleRow): CustomRule {
  return {
    id: row.id,
    title: row.title,
    group: ruleGroup(row.rule_group),
    enabled: row.enabled,
    conditions: conditionGroup(row.conditions),
    action: ruleAction(row.action),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Blacklists

const TYPES: ReadonlySet<string> = new Set(BLACKLIST_TYPES);

export function isBlacklistType(value: string): value is BlacklistType {
  return TYPES.has(value);
}

export function blacklistType(value: string): BlacklistType {
  if (isBlacklistType(value)) return value;
  throw new RangeError(`unknown blacklist type: ${JSON.stringify(value)}`);
}

export interface BlacklistRow {
  type: string;
  value: string;
  note: string | null;
  created_at: string;
}

export function toBlacklistEntry(row: BlacklistRow): BlacklistEntry {
  return { type: blacklistType(row.type), value: row.value, note: row.note, createdAt: row.created_at };
}

export const DEFAULT_LIST_LIMIT = 1000;
export const MAX_LIST_LIMIT = 10_000;

/** Page size of `listBlacklist`: 1000 by default, at most 10,000 (larger asks are capped). */
export function listLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`list limit must be a positive integer, got ${limit}`);
  return Math.min(limit, MAX_LIST_LIMIT);
}

/**
 * With a type filter, `after` comes down to: null (the page is past that type: empty), undefined (the type from its
 * first value), or the value to start above, so the query is a plain range of (account, type, value).
 */
export function valueAfterWithinType(type: BlacklistType, after: { type: string; value: string } | undefined): string | null | undefined {
  if (after === undefined || after.type < type) return undefined;
  return after.type === type ? after.value : null;
}

/** Rows written per statement by bulk adds and removes. */
export const WRITE_CHUNK = 10_000;
/** Rows read per page by `allBlacklistValues` where the backend pages (PostgreSQL). */
export const READ_PAGE = 50_000;

/**
 * `isoTimestamp` remembering its last answer: entries of one import nearly always share one `createdAt`,
 * and 100,000+ entries should not each pay for a regex and two date conversions.
 */
export function isoTimestampCached(): (value: string) => string {
  let lastIn: string | undefined;
  let lastOut = '';
  return (value) => {
    if (value !== lastIn) {
      lastOut = isoTimestamp(value);
      lastIn = value;
    }
    return lastOut;
  };
}

/** A batch of entries as columns (what PostgreSQL's unnest takes; no object per entry for 100,000+ entries). */
export interface BlacklistColumns {
  types: BlacklistType[];
  values: string[];
  notes: Array<string | null>;
  createdAts: string[];
}

/** Checks a batch of entries before anything is written: a bad entry rejects the whole batch. */
export function blacklistColumns(entries: readonly BlacklistEntry[]): BlacklistColumns {
  const iso = isoTimestampCached();
  const columns: BlacklistColumns = { types: [], values: [], notes: [], createdAts: [] };
  for (const entry of entries) {
    if (typeof entry.value !== 'string') throw new RangeError('blacklist value must be a string');
    if (entry.note !== null && typeof entry.note !== 'string') throw new RangeError('blacklist note must be a string or null');
    columns.types.push(blacklistType(entry.type));
    columns.values.push(entry.value);
    columns.notes.push(entry.note);
    columns.createdAts.push(iso(entry.createdAt));
  }
  return columns;
}

// ---------------------------------------------------------------------------------------------------------------
// Decision log

export interface DecisionValues {
  accountId: string;
  group: string;
  operation: string;
  userId: string | null;
  at: string;
  input: string;
  result: string;
  /** Space-separated identity hashes ('' when none). */
  identities: string;
}

const HEX_HASH = /^[0-9a-f]{16,128}$/;

function identitiesText(hashes: readonly string[] | undefined): string {
  if (!hashes || hashes.length === 0) return '';
  for (const h of hashes) if (!HEX_HASH.test(h)) throw new RangeError('decision identities must be lower-case hex hashes');
  return [...new Set(hashes)].join(' ');
}

function jsonObjectText(value: unknown, what: string): string {
  if (!isRecord(value)) throw new RangeError(`decision ${what} must be a JSON object`);
  return JSON.stringify(value);
}

/**
 * Checks and encodes a batch before anything is written: a bad record rejects the whole batch with
 * UnwritableRecord (which the recorder then isolates, src/store/unwritable.ts). JSON.stringify of a value
 * nested thousands of levels throws RangeError (stack), which is the record's fault too.
 */
export function decisionValues(records: readonly DecisionRecord[]): DecisionValues[] {
  const iso = isoTimestampCached();
  return records.map((record, i) => {
    try {
      return {
        accountId: record.accountId,
        group: record.group,
        operation: record.operation,
        userId: record.userId,
        at: iso(record.at),
        input: jsonObjectText(record.input, 'input'),
        result: jsonObjectText(record.result, 'result'),
        identities: identitiesText(record.identities),
      };
    } catch (err) {
      if (err instanceof UnwritableRecord) throw err;
      throw new UnwritableRecord(`decision record ${i} cannot be written: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  });
}

export interface DecisionRow {
  account_id: string;
  rule_group: string;
  operation: string;
  user_id: string | null;
  at: string;
  input: unknown;
  result: unknown;
  /** Space-separated identity hashes ('' when none). */
  identities: string;
}

function jsonObject(value: unknown, what: string): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw new Error(`unexpected decision ${what} in database: ${JSON.stringify(value)}`);
}

export function toDecision(row: DecisionRow): DecisionRecord {
  return {
    accountId: row.account_id,
    group: row.rule_group,
    operation: row.operation,
    userId: row.user_id,
    at: row.at,
    input: jsonObject(row.input, 'input'),
    result: jsonObject(row.result, 'result'),
    // Only when there are some: a record written without identities reads back as it was written.
    ...(row.identities !== '' && { identities: row.identities.split(' ') }),
  };
}

/** `list` limit: a non-negative integer (0 gives an empty page). */
export function decisionLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`decision list limit must be a non-negative integer, got ${limit}`);
  return limit;
}

/** Identity hashes a user deletion looks for: well-formed keyed hashes only (a short string would match too much). */
export function identityHashes(hashes: readonly string[] | undefined): string[] {
  return [...new Set((hashes ?? []).filter((h) => HEX_HASH.test(h)))];
}
