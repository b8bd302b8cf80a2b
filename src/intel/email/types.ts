import type { DomainListFacts, DomainNetworkFacts } from '../domain/types.ts';
import type { EducationIndex } from './educational.ts';
import type { TypoIndex } from './typo.ts';

/** The lists the email engine reads (src/data/email-lists.ts loads them). */
export interface EmailLists {
  /** Webmail providers (free-email-domains), exact domains. */
  readonly free: ReadonlySet<string>;
  /** Role local parts, lower case with `.`, `-` and `_` removed (`noreply` stands for `no-reply` and `no.reply`). */
  readonly roles: ReadonlySet<string>;
  readonly education: EducationIndex;
  readonly typos: TypoIndex;
}

/** The identity label the learning feature keeps for an address (spec "Identity label"). */
export type IdentityLabel = 'fraud' | 'legit';

/** What the engine is told about the address beyond its text: the domain's facts and its label. */
export interface EmailInputs {
  readonly domainLists: DomainListFacts;
  readonly network: DomainNetworkFacts;
  /**
   * The address's identity label from the learning services (src/learning/label-lookups.ts); absent or
   * null when it has none (and always in test mode). `fraud` marks the address invalid with score 3.
   */
  readonly label?: IdentityLabel | null;
}

/** The `domain` block of the email result (spec "Email result"). */
export interface EmailDomainBlock {
  name: string;
  is_dangerous: boolean;
  is_spf: boolean | null;
  is_dmarc: boolean | null;
  is_dkim: boolean | null;
  is_mx: boolean | null;
  is_bimi: boolean | null;
  created_at: string | null;
  is_new: boolean | null;
}

/** The email result in the spec's field order; `blacklisted` and `custom_rules_applied` are the policy stage's. */
export interface EmailResult {
  score: number;
  reason: string;
  isValid: boolean;
  isFree: boolean;
  isRoleBased: boolean;
  isEducational: boolean;
  isDisposable: boolean;
  blacklisted: boolean;
  email: string;
  suggestion: string | null;
  isGibberish: boolean;
  normalized: string;
  domain: EmailDomainBlock;
  custom_rules_applied: { total: number; rules: Array<{ id: string; title: string }> };
}

/** One signal's part in the score, for `explain=yes` (points sum to the score). */
export interface EmailContribution {
  source: 'engine';
  signal: EmailSignal;
  points: number;
  detail: string;
}

export type EmailSignal = 'dangerous' | 'fraud_label' | 'disposable' | 'typo' | 'no_mx' | 'new_domain' | 'gibberish';
