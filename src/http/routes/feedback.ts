import { parseBulkFeedback } from '../../learning/feedback-input.ts';
import type { FeedbackCall } from '../../learning/feedback-service.ts';
import type { Learning } from '../../learning/index.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { readJsonBody } from '../body.ts';
import { needLearning } from './learning-seam.ts';

function callOf(ctx: RequestContext): FeedbackCall {
  const account = ctx.caller!.account;
  return { accountId: account.id, now: ctx.now, test: ctx.testMode, autoBlacklist: account.settings.autoBlacklistConfirmedFraud };
}

const COMMON = 'Free: counts toward the flood limit, not the quota. Test mode validates and stores nothing. States and effects in docs/payment.md "Feedback".';

/** POST /feedback/payment: the outcome of a transaction (approved, declined, chargeback, refunded, fraud_confirmed, legit_confirmed). */
export function paymentFeedbackEndpoint(learning: Learning | undefined): EndpointDef {
  const answer = (ctx: RequestContext) => needLearning(learning).feedback.payment(callOf(ctx), readJsonBody(ctx.body, 131, 'the outcome as {"transaction_id": ..., "outcome": ...}'));
  return {
    operation: 'feedback.payment',
    method: 'POST',
    summary: 'Payment outcome feedback',
    description: `Tells Vigil what became of a scored (or not yet scored) transaction; later scores learn from it. Missing or invalid fields: 131. ${COMMON}`,
    sample: {},
    sampleBody: { transaction_id: 'ord-1001', outcome: 'approved' },
    inputErrorCode: 131,
    live: answer,
    test: answer,
  };
}

/** POST /feedback/event: a fraud or legit label on an identity, or on an event by its event_id. */
export function eventFeedbackEndpoint(learning: Learning | undefined): EndpointDef {
  const answer = (ctx: RequestContext) => needLearning(learning).feedback.label(callOf(ctx), readJsonBody(ctx.body, 131, 'the label as {"type": ..., "value": ..., "label": "fraud"}'));
  return {
    operation: 'feedback.event',
    method: 'POST',
    summary: 'Fraud or legit label',
    description: `Labels an identity (ip, email, email_domain, phone, card_bin, customer_id, device_id, text) or an event (event_id) as fraud or legit. Unknown event_id, invalid value or missing label: 131. ${COMMON}`,
    sample: {},
    sampleBody: { type: 'email', value: 'jane.doe@example.com', label: 'legit' },
    inputErrorCode: 131,
    live: answer,
    test: answer,
  };
}

/** POST /feedback/bulk: up to 1000 payment and label items, each on its own. */
export function bulkFeedbackEndpoint(learning: Learning | undefined): EndpointDef {
  const answer = (ctx: RequestContext) => {
    const l = needLearning(learning);
    const items = parseBulkFeedback(readJsonBody(ctx.body, 131, 'the items as {"items": [...]}'));
    return l.feedback.bulk(callOf(ctx), items);
  };
  return {
    operation: 'feedback.bulk',
    method: 'POST',
    summary: 'Bulk feedback',
    description: `Up to 1000 items (kind payment or event), processed in order and independently; a rejected item is reported in its place. Missing or empty items: 131; more than 1000: 132. ${COMMON}`,
    sample: {},
    sampleBody: { items: [{ kind: 'payment', transaction_id: 'ord-1001', outcome: 'approved' }, { kind: 'event', type: 'ip', value: '81.2.69.160', label: 'legit' }] },
    inputErrorCode: 131,
    live: answer,
    test: answer,
  };
}
