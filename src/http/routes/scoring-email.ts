import type { EmailData } from '../../data/email-lists.ts';
import type { DatasetInfo } from '../../intel/country/facts.ts';
import type { DomainLists, DomainNetwork, DomainNetworkFacts } from '../../intel/domain/types.ts';
import { UNKNOWN_FACTS } from '../../intel/domain/network.ts';
import { evaluateEmail, MAX_EMAIL_SCORE } from '../../intel/email/evaluate.ts';
import { fakeNetworkFacts } from '../../intel/email/fake.ts';
import { parseEmail, type ParsedEmail } from '../../intel/email/syntax.ts';
import type { EmailResult } from '../../intel/email/types.ts';
import { maskEmail } from '../../policy/events/mask.ts';
import type { EndpointPolicy, ListProbe, PolicySubject, PolicyVerdict } from '../../policy/types.ts';
import { writeVerdict } from '../../policy/verdict.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import type { LabelLookups } from '../../learning/label-lookups.ts';
import { confirmedFraudProbe, deferredHashes, identityOf } from './learning-seam.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';
import { NoteKey, type AnswerNotes } from '../answer-notes.ts';
import type { EmailContribution } from '../../intel/email/types.ts';

/** Score from which a live answer raises `spam_email` (spec "Events"). */
export const SPAM_EMAIL_FROM = 2;

/** Reasons the policy stage adds (docs/api-decisions.md "Email"). */
export const BLACKLISTED_REASON = "The address or its domain is on the account's blacklist.";
export const RULE_SCORE_REASON = 'Score set by a custom rule.';
export const RULE_INVALID_REASON = 'Marked invalid by a custom rule.';

/** What the email method needs of the domain checks (src/data/domain-data.ts provides it). */
export interface EmailDomainChecks {
  readonly lists: DomainLists;
  readonly network: DomainNetwork;
  readonly budgetMs: number;
  readonly datasets: readonly DatasetInfo[];
}



/** The engine's points (signal and points only: their detail may hold the address) and the lists' or rules' change. */
function emailExplanation(engine: readonly EmailContribution[], change: { source: string; points: number } | null): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = engine.map((c) => ({ source: c.source, signal: c.signal, points: c.points }));
  if (change) out.push({ source: change.source, id: change.source === 'blacklist' ? 'blacklist' : 'custom_rules', points: change.points });
  return out;
}

/** The `email` parameter parsed (docs/api-decisions.md "Email"); missing, empty, repeated or malformed: 119 saying why. */
export function readEmail(query: Readonly<Record<string, unknown>>): { sent: string; parsed: ParsedEmail } {
  const sent = readParam(query, 'email', 119);
  if (sent === undefined) throw new ApiError(119, 'The "email" parameter is required: send an address such as jane@example.com.');
  const parsed = parseEmail(sent);
  if (!parsed.ok) throw new ApiError(119, `The email address is malformed: ${parsed.problem}`);
  return { sent, parsed: parsed.email };
}

/**
 * Writes the policy verdict into an email result: `blacklisted` on the result, the rules' validity
 * and score, and the matching reasons. A listed address (with no overwrite_score rule) scores 3.
 * The reason stays empty at score 0 unless a rule marked the address invalid.
 */
export function applyEmailVerdict(result: Record<string, unknown>, verdict: PolicyVerdict): void {
  const wasValid = result.isValid;
  const wasScore = result.score;
  writeVerdict(result, verdict, { listed: result, validity: { field: 'isValid' }, score: 'score' });
  const reasons = typeof result.reason === 'string' && result.reason !== '' ? [result.reason] : [];
  if (verdict.blacklisted) {
    reasons.unshift(BLACKLISTED_REASON);
    // An explicit overwrite_score rule is the account's last word; without one, listed means too risky.
    if (verdict.score === undefined) result.score = MAX_EMAIL_SCORE;
  }
  if (verdict.score !== undefined && verdict.score !== wasScore) reasons.push(RULE_SCORE_REASON);
  if (verdict.valid === false && wasValid !== false) reasons.push(RULE_INVALID_REASON);
  result.reason = result.score === 0 && result.isValid !== false ? '' : reasons.join(' ');
}

/** GET /scoring/email: syntax, lists, typo, gibberish and domain checks of one address, scored 0-3. */
export function emailEndpoint(data: EmailData, domains: EmailDomainChecks, labels?: LabelLookups): EndpointDef {
  const known = data.lists.typos.known;
  // The engine's points of each live answer, for its spam_email event's explanation (whether or not explain=yes).
  const pointsOf = new NoteKey<readonly EmailContribution[]>('email contributions');

  const answer = async (ctx: RequestContext, fake: boolean): Promise<EmailResult & { explanation?: unknown }> => {
    const { sent, parsed } = readEmail(ctx.query);
    const domainLists = domains.lists.lists(parsed.domain);
    let network: DomainNetworkFacts;
    if (fake) {
      network = fakeNetworkFacts(parsed.domain, known.has(parsed.domain));
    } else {
      // A failing resolver is an unknown fact, never a failed call.
      network = await domains.network.facts(parsed.domain, { budgetMs: domains.budgetMs, now: ctx.now }).catch(() => UNKNOWN_FACTS);
    }
    const first = evaluateEmail(sent, parsed, data.lists, { domainLists, network });
    // Identity labels (spec "Identity label"): the address as sent, lower case; live only (test mode reads no store).
    const label = !fake && labels && ctx.caller ? await labels.label(ctx.caller.account.id, 'email', sent, ctx.now) : null;
    const { result, contributions } = label ? evaluateEmail(sent, parsed, data.lists, { domainLists, network, label }) : first;
    const out = ctx.options.explain ? Object.assign({}, result, { explanation: { contributions } }) : result;
    if (!fake) ctx.notes.set(pointsOf, out, contributions);
    return out;
  };

  const policy: EndpointPolicy = {
    group: 'email',
    subjects(answerData: unknown, input: Readonly<Record<string, unknown>>, notes: AnswerNotes): PolicySubject[] {
      if (typeof answerData !== 'object' || answerData === null) return [];
      const engineContributions = notes.get(pointsOf, answerData);
      const result = answerData as Record<string, unknown>;
      const email = String(result.email);
      const normalized = String(result.normalized);
      const domain = (result.domain as { name?: unknown } | undefined)?.name;
      const at = email.lastIndexOf('@');
      // The address with its domain in punycode (as lists store it), the mailbox it reaches, and its domain.
      const address = `${email.slice(0, at)}@${String(domain)}`;
      const lists: ListProbe[] = [{ type: 'email', value: address }];
      if (normalized !== address.toLowerCase()) lists.push({ type: 'email', value: normalized });
      if (typeof domain === 'string') lists.push({ type: 'email_domain', value: domain });
      lists.push(...confirmedFraudProbe(labels, 'email', email));
      let policyChange: { source: 'custom_rule' | 'blacklist'; points: number } | null = null;
      return [{
        input,
        result,
        lists,
        apply: (verdict) => {
          const before = result.score;
          applyEmailVerdict(result, verdict);
          if (typeof before === 'number' && typeof result.score === 'number' && result.score !== before) {
            policyChange = { source: verdict.score !== undefined ? 'custom_rule' : 'blacklist', points: result.score - before };
          }
        },
        identities: deferredHashes(labels, 'email', email),
        event() {
          const score = typeof result.score === 'number' ? result.score : 0;
          if (score < SPAM_EMAIL_FROM) return null;
          return {
            kind: 'spam_email',
            risk: score,
            subject: maskEmail(email),
            summary: {
              score, reason: result.reason, isValid: result.isValid, isDisposable: result.isDisposable, isFree: result.isFree,
              suggestion: result.suggestion, domain: domain ?? null,
              // What made the score (points sum to it), for the console's event view and webhook receivers.
              ...(engineContributions && { explanation: { contributions: emailExplanation(engineContributions, policyChange) } }),
            },
            ...identityOf(labels, 'email', email),
          };
        },
      }];
    },
  };

  return {
    operation: 'scoring.email',
    method: 'GET',
    summary: 'Email address risk score',
    description:
      'Checks one address without sending anything to it: syntax (dot-atom local part up to 64 octets, IDN domains, 254 octets in all), ' +
      'disposable, webmail, role and academic domains, typos of major providers (`suggestion`), random-looking local parts ' +
      '(`isGibberish`), the normalised mailbox, and the domain\'s lists, mail records (MX, SPF, DMARC, DKIM, BIMI) and age. ' +
      '`score` 0 (safe) to 3 (too risky) with a `reason`; weights in docs/email-scoring.md. Missing or malformed address: 119.',
    query: { email: { type: 'string', required: true, description: 'The address, e.g. jane.doe@example.com', example: 'jane.doe@example.com' } },
    sample: { email: 'jane.doe@example.com' },
    get datasets() {
      return [...data.datasets, ...domains.datasets];
    },
    policy,
    live: (ctx) => answer(ctx, false),
    test: (ctx) => answer(ctx, true),
  };
}
