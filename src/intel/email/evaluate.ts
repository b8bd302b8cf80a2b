/**
 * The email engine: from a parsed address, Vigil's lists and the domain's facts to the spec's
 * email result. Pure: the caller looks the domain up (DNS, RDAP, lists) and passes the facts in.
 * Weights are documented in docs/email-scoring.md.
 */
import { isEducationalDomain } from './educational.ts';
import { gibberishSigns } from './gibberish.ts';
import { normalizeEmail } from './normalize.ts';
import type { ParsedEmail } from './syntax.ts';
import { suggestDomain } from './typo.ts';
import type { EmailContribution, EmailInputs, EmailLists, EmailResult, EmailSignal } from './types.ts';

/** Highest score (spec: 0 safe, 1 low-risk, 2 high-risk, 3 too risky). */
export const MAX_EMAIL_SCORE = 3;

/** Points per signal, in the order they are counted (docs/email-scoring.md). */
export const EMAIL_WEIGHTS: Readonly<Record<EmailSignal, number>> = {
  dangerous: 3,
  fraud_label: 3,
  disposable: 2,
  typo: 2,
  no_mx: 2,
  new_domain: 1,
  gibberish: 1,
};

/** Signals that make the address invalid as well as risky. */
const INVALIDATING: ReadonlySet<EmailSignal> = new Set(['dangerous', 'fraud_label', 'no_mx']);

/** `no-reply`, `No.Reply` and `no_reply` are all `noreply`. */
export function roleKey(local: string): string {
  const plus = local.indexOf('+');
  return (plus > 0 ? local.slice(0, plus) : local).toLowerCase().replace(/[._-]/g, '');
}

export interface EmailEvaluation {
  result: EmailResult;
  /** Each signal that fired with its points (summing to the score) and the sentence it adds to `reason`. */
  contributions: EmailContribution[];
}

/** Scores one address (see the file comment); `sent` is the address exactly as the caller sent it. */
export function evaluateEmail(sent: string, parsed: ParsedEmail, lists: EmailLists, inputs: EmailInputs): EmailEvaluation {
  const { domain } = parsed;
  const { network, domainLists } = inputs;
  const suggested = suggestDomain(domain, lists.typos);
  const plus = parsed.local.indexOf('+');
  const gibberish = gibberishSigns(plus > 0 ? parsed.local.slice(0, plus) : parsed.local);

  const fired: Array<[EmailSignal, string]> = [];
  if (domainLists.is_dangerous) fired.push(['dangerous', 'The domain is on a list of dangerous (malware or phishing) domains.']);
  if (inputs.label === 'fraud') fired.push(['fraud_label', 'The address was reported as fraud.']);
  if (domainLists.is_disposable) fired.push(['disposable', 'The domain gives out disposable (throwaway) addresses.']);
  if (suggested !== null) fired.push(['typo', `The domain looks like a typo of ${suggested}.`]);
  if (network.is_mx === false) fired.push(['no_mx', 'The domain cannot receive mail (no MX record).']);
  if (network.is_new === true) fired.push(['new_domain', 'The domain was registered less than a year ago.']);
  if (gibberish.points >= 2) fired.push(['gibberish', 'The part before "@" looks random or keyboard-mashed.']);

  let score = 0;
  const contributions: EmailContribution[] = [];
  for (const [signal, detail] of fired) {
    // The score is capped at 3; later signals still explain the answer, with the points left.
    const points = Math.min(EMAIL_WEIGHTS[signal], MAX_EMAIL_SCORE - score);
    score += points;
    contributions.push({ source: 'engine', signal, points, detail });
  }

  const result: EmailResult = {
    score,
    reason: fired.map(([, detail]) => detail).join(' '),
    isValid: !fired.some(([signal]) => INVALIDATING.has(signal)),
    // A typo domain or a throwaway one is not a webmail provider, whatever the list says
    // (free-email-domains also holds disposable and typo domains: docs/api-decisions.md).
    isFree: lists.free.has(domain) && !domainLists.is_disposable && suggested === null,
    isRoleBased: lists.roles.has(roleKey(parsed.local)),
    isEducational: isEducationalDomain(domain, lists.education),
    isDisposable: domainLists.is_disposable,
    blacklisted: false,
    email: sent,
    suggestion: suggested === null ? null : `${parsed.local}@${suggested}`,
    isGibberish: gibberish.points >= 2,
    normalized: normalizeEmail(parsed),
    domain: {
      name: domain,
      is_dangerous: domainLists.is_dangerous,
      is_spf: network.is_spf,
      is_dmarc: network.is_dmarc,
      is_dkim: network.is_dkim,
      is_mx: network.is_mx,
      is_bimi: network.is_bimi,
      created_at: network.created_at,
      is_new: network.is_new,
    },
    custom_rules_applied: { total: 0, rules: [] },
  };
  return { result, contributions };
}
