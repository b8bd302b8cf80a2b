import { parsePaymentData } from '../../intel/payment/parse.ts';
import { NO_LEARNING, scorePayment } from '../../intel/payment/score.ts';
import type { PaymentContribution, PaymentInput, PaymentSignals } from '../../intel/payment/types.ts';
import { engineSignals } from '../../learning/engine-signals.ts';
import type { Learning } from '../../learning/index.ts';
import type { ScoreCall, ScoredPayment } from '../../learning/payment-service.ts';
import { maskCard } from '../../policy/events/mask.ts';
import type { EndpointPolicy, PolicySubject } from '../../policy/types.ts';
import { writeVerdict } from '../../policy/verdict.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { readJsonBody } from '../body.ts';
import { fixedHashes, needLearning } from './learning-seam.ts';
import { NoteKey } from '../answer-notes.ts';

/** Score from which a live scoring raises `fraud_payment` (spec "Events"). */
export const FRAUD_PAYMENT_FROM = 50;
/** Score a payment rule's `blacklist` action gives when no overwrite_score rule decides (docs/payment.md). */
export const BLACKLISTED_PAYMENT_SCORE = 100;

interface Kept {
  input: PaymentInput;
  /** The `data` object as custom rules see it under `input.`, the card number masked. */
  ruleInput: Record<string, unknown>;
  scored: ScoredPayment | null;
  call: ScoreCall;
}

/** The data object as rules and the decision log see it: everything as sent, but never a full card number. */
function ruleInputOf(body: unknown): Record<string, unknown> {
  const data = { ...((body as { data: Record<string, unknown> }).data) };
  const card = data.card_number;
  if (typeof card === 'string' || typeof card === 'number') data.card_number = maskCard(String(card));
  else if (card !== undefined) delete data.card_number;
  return data;
}

function resultOf(scored: { score: number; rules: Array<{ id: string; description: string }>; rulesChecked: number; rulesDetected: number; contributions: PaymentContribution[] }, explain: boolean): Record<string, unknown> {
  return {
    score: scored.score,
    rules: scored.rules,
    rulesChecked: scored.rulesChecked,
    rulesDetected: scored.rulesDetected,
    custom_rules_applied: { total: 0, rules: [] },
    ...(explain && { explanation: { contributions: [...scored.contributions] } }),
  };
}

/** Signals for test mode: the local engines' verdicts, no store, no history, the rules' priors only. */
function testSignals(learning: Learning, input: PaymentInput, now: Date): PaymentSignals {
  return {
    now,
    ...engineSignals(learning.payments.engines, input, now, { ipFraud: false, emailFraud: false, phoneFraud: false }),
    velocity: {},
    lists: { ip: false, email: false, phone: false, card: false, customer: false, confirmedFraud: false },
    labels: { customer: 0, shared: 0, customerFraud30d: 0 },
    model: { learned: NO_LEARNING },
    amounts: { customer: null, account: null },
    reshipper: learning.payments.reshipper(input.shipping),
  };
}

/** The contributions as stored with a fraud_payment event: source, id and points; custom rules' change last. */
function explainedPoints(contributions: readonly PaymentContribution[], customDelta: number): Array<{ source: string; id: string; points: number }> {
  const out: Array<{ source: string; id: string; points: number }> = contributions.map((c) => ({ source: c.source, id: c.id, points: c.points }));
  const delta = +customDelta.toFixed(2);
  if (delta !== 0) out.push({ source: 'custom_rule', id: 'custom_rules', points: delta });
  return out;
}

/** POST /scoring/payment: a 0-100 risk score of one transaction with the rules that fired. */
export function paymentEndpoint(learning: Learning | undefined): EndpointDef {
  const kept = new NoteKey<Kept>('payment scoring');

  const read = (ctx: RequestContext) => {
    const body = readJsonBody(ctx.body, 130, 'the transaction as {"data": {...}}');
    return { input: parsePaymentData(body), ruleInput: ruleInputOf(body) };
  };
  const callOf = (ctx: RequestContext, live: boolean): ScoreCall => ({
    accountId: ctx.caller!.account.id, live, userId: ctx.options.userId ?? null, now: ctx.now, autoBlacklist: ctx.caller!.account.settings.autoBlacklistConfirmedFraud,
  });

  const policy: EndpointPolicy = {
    group: 'payment',
    subjects(data: unknown, _input, notes): PolicySubject[] {
      if (typeof data !== 'object' || data === null) return [];
      const result = data as Record<string, unknown>;
      const k = notes.get(kept, result);
      if (!k) return [];
      const l = needLearning(learning);
      return [{
        input: k.ruleInput,
        result,
        // The account's lists feed the score through PF10022-PF10026 (payment-service.ts).
        lists: [],
        apply(verdict) {
          const before = result.score as number;
          writeVerdict(result, verdict, { score: 'score' });
          if (verdict.blacklisted && verdict.score === undefined) result.score = BLACKLISTED_PAYMENT_SCORE;
          const delta = +((result.score as number) - before).toFixed(2);
          const explanation = result.explanation as { contributions: unknown[] } | undefined;
          if (explanation && delta !== 0) explanation.contributions.push({ source: 'custom_rule', id: 'custom_rules', points: delta });
        },
        async settle() {
          if (!k.scored) return;
          await l.payments.record(k.call, k.input, k.scored, result.score as number, (result.rules as Array<{ id: string }>).map((r) => r.id));
        },
        identities: fixedHashes(k.scored ? Object.values(k.scored.identities.hashes).filter((h): h is string => h !== null) : []),
        event() {
          const score = result.score as number;
          if (score < FRAUD_PAYMENT_FROM || !k.scored) return null;
          const h = k.scored.identities.hashes;
          const who = h.customer ?? h.email ?? h.card;
          return {
            kind: 'fraud_payment',
            risk: score,
            subject: k.input.transactionId ?? (k.scored.identities.cardBin !== null ? `card ${k.scored.identities.cardBin}` : 'payment'),
            summary: {
              transaction_id: k.input.transactionId ?? null,
              score,
              rules: (result.rules as Array<{ id: string }>).map((r) => r.id),
              amount: k.input.amount ?? null,
              currency: k.input.currency ?? null,
              // What made the score (points sum to it), for the console's event view and webhook receivers.
              explanation: { contributions: explainedPoints(k.scored.score.contributions, score - k.scored.score.score) },
            },
            ...(who !== null && { identity: { type: h.customer !== null ? 'customer_id' as const : h.email !== null ? 'email' as const : 'card' as const, hash: who } }),
          };
        },
      }];
    },
  };

  return {
    operation: 'scoring.payment',
    method: 'POST',
    summary: 'Payment risk score',
    description:
      'Scores one transaction 0-100 from the fields of `data` (all optional; more fields enable more rules): the rules PF10001-PF10026 ' +
      'and the learning rules SVC2001/SVC2002, the account\'s model, lists and custom payment rules. `explain=yes` lists each rule\'s and the ' +
      'model\'s points, summing to the score. Missing or invalid `data`: 130. Weights and thresholds in docs/payment.md.',
    sample: {},
    sampleBody: {
      data: {
        transaction_id: 'ord-1001', transaction_amount: 49.9, transaction_currency: 'EUR', customer_id: 'cust-42',
        customer_email: 'jane.doe@example.com', customer_ip: '81.2.69.160', customer_country: 'GB', payment_type: 'cards', card_number: '4111111111111111',
      },
    },
    inputErrorCode: 130,
    get datasets() {
      return learning?.payments.datasets ?? [];
    },
    policy,
    live: async (ctx) => {
      const l = needLearning(learning);
      const { input, ruleInput } = read(ctx);
      const call = callOf(ctx, true);
      const snapshot = await l.snapshots.get(call.accountId);
      const scored = await l.payments.score(call, input, snapshot.lists);
      const result = resultOf(scored.score, ctx.options.explain);
      ctx.notes.set(kept, result, { input, ruleInput, scored, call });
      return result;
    },
    test: (ctx) => {
      const l = needLearning(learning);
      const { input, ruleInput } = read(ctx);
      const result = resultOf(scorePayment(input, testSignals(l, input, ctx.now)), ctx.options.explain);
      ctx.notes.set(kept, result, { input, ruleInput, scored: null, call: callOf(ctx, false) });
      return result;
    },
  };
}
