import type { AnswerNotes } from '../http/answer-notes.ts';
import type { LabelType } from '../store/learning-ports.ts';

/**
 * The policy layer's vocabulary (decisions.md "Blacklists and custom rules", spec "Events"):
 * custom rules, blacklists and events, shared by the rule engine, the blacklist index, the store,
 * the admin API and every endpoint that declares a policy.
 */

export const RULE_GROUPS = ['ip', 'email', 'phone', 'bin', 'iban', 'payment'] as const;
export type RuleGroup = (typeof RULE_GROUPS)[number];

export const RULE_OPS = [
  'eq', 'neq', 'in', 'not_in', 'contains', 'starts_with', 'ends_with',
  'gt', 'gte', 'lt', 'lte', 'exists', 'in_cidr', 'matches',
] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** One test of one field. `value` is absent only for `exists` (where it may be a boolean). */
export interface Condition {
  field: string;
  op: RuleOp;
  value?: unknown;
}

export type ConditionNode = Condition | { all: ConditionNode[] } | { any: ConditionNode[] };
/** The root of a rule's conditions is always a group. */
export type ConditionGroup = { all: ConditionNode[] } | { any: ConditionNode[] };

export const ACTION_TYPES = ['blacklist', 'whitelist', 'overwrite_score', 'mark_valid', 'mark_invalid'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Which actions make sense for which group (decisions.md): a rule with another pair is refused when saved. */
export const ACTIONS_BY_GROUP: Readonly<Record<RuleGroup, readonly ActionType[]>> = {
  ip: ['blacklist', 'whitelist'],
  email: ['blacklist', 'overwrite_score', 'mark_valid', 'mark_invalid'],
  phone: ['blacklist', 'mark_valid', 'mark_invalid'],
  bin: ['blacklist', 'mark_valid', 'mark_invalid'],
  iban: ['mark_valid', 'mark_invalid'],
  payment: ['blacklist', 'overwrite_score'],
};

export interface RuleAction {
  type: ActionType;
  /** Only with `overwrite_score`: the new score (0-3 for email, 0-100 for payment). */
  score?: number;
}

export interface CustomRule {
  /** `CR` followed by a number from 101 up, unique per account. */
  id: string;
  title: string;
  group: RuleGroup;
  enabled: boolean;
  conditions: ConditionGroup;
  action: RuleAction;
  createdAt: string;
  updatedAt: string;
}

export const BLACKLIST_TYPES = ['ip', 'email', 'email_domain', 'phone', 'customer_id', 'card_bin', 'card_country', 'confirmed_fraud'] as const;
export type BlacklistType = (typeof BLACKLIST_TYPES)[number];

/** A value an endpoint asks the account's lists about (already in the caller's form; the index normalises). */
export interface ListProbe {
  type: BlacklistType;
  value: string;
}

export const EVENT_KINDS = ['suspicious_ip', 'invalid_bin', 'invalid_iban', 'spam_phone', 'spam_email', 'profanity', 'fraud_payment'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** `{total, rules: [{id, title}]}` as every result carries it. */
export interface RulesApplied {
  total: number;
  rules: Array<{ id: string; title: string }>;
}

/**
 * What the policy stage decided for one subject. Within each dimension (listed, validity, score)
 * the action of the last matching rule in id order wins; a whitelist rule clears list hits.
 */
export interface PolicyVerdict {
  /** True when a list or a rule says so (and no later whitelist rule cleared it). */
  blacklisted: boolean;
  /** A whitelist rule matched last among blacklist/whitelist rules. */
  whitelisted: boolean;
  /** The list entries that matched, in probe order. */
  listHits: ListProbe[];
  /** Set by mark_valid / mark_invalid. */
  valid: boolean | undefined;
  /** Set by overwrite_score. */
  score: number | undefined;
  rulesApplied: RulesApplied;
}

/** An event an endpoint raises for one subject once the policy has been applied (live calls only). */
export interface RaisedEvent {
  kind: EventKind;
  risk: number;
  /** Masked where personal (see src/policy/events/mask.ts). */
  subject: string;
  /** The scored result summary stored with the event and sent to webhooks. */
  summary: Record<string, unknown>;
  /**
   * The identity the event is about, as a keyed hash (src/learning/identity-hash.ts): a label given
   * later by event_id applies to it, and deleting the user removes the event. Absent: none.
   */
  identity?: { type: LabelType; hash: string };
}

/**
 * One thing an endpoint scored (one address of a bulk call, one email...). The pipeline checks its
 * list probes, runs the account's rules of the endpoint's group over `{input, ...result}`, calls
 * `apply` with the verdict, then asks `event()` whether the final result raises an event.
 */
export interface PolicySubject {
  /** The request input as rules see it under `input.` (query parameters or the payment `data`). */
  input: Readonly<Record<string, unknown>>;
  /** The computed result; rules read it by dot path and `apply` writes the verdict into it. */
  result: Record<string, unknown>;
  lists: readonly ListProbe[];
  apply(verdict: PolicyVerdict): void;
  event(): RaisedEvent | null;
  /**
   * The result as the decision log (backtests) keeps it, when the answer carries something that
   * must never be stored (a full card number echoed back): default, the result as answered.
   */
  logged?(): Record<string, unknown>;
  /**
   * Live calls only, after the verdict is applied and before events are raised: work that needs the
   * final result (payment scoring stores the scored transaction here). Awaited: a failure fails the call.
   */
  settle?(): Promise<void>;
  /**
   * Keyed hashes of the identities this subject is about, kept with its decision record so user
   * deletion finds it. Called when the log batch is written, up to a second later: a thunk that
   * holds only the values it hashes (deferredHashes), not the answer, so nothing big stays alive.
   */
  identities?: () => readonly string[];
}

/**
 * What an endpoint declares to plug into the policy layer: its rule group (null: lists and events
 * only) and how to find its subjects in the answer it built. The pipeline does the rest.
 */
export interface EndpointPolicy {
  group: RuleGroup | null;
  /** `notes`: what the endpoint kept beside this request's answer (answer-notes.ts). */
  subjects(data: unknown, input: Readonly<Record<string, unknown>>, notes: AnswerNotes): PolicySubject[];
}

/** What `explain=yes` lists for the policy layer: each list entry and custom rule that took part. */
export type PolicyContribution =
  | { source: 'blacklist'; type: BlacklistType; value: string; effect: 'blacklisted' }
  | { source: 'custom_rule'; id: string; title: string; action: RuleAction };
