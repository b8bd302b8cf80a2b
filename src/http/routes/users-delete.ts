import { fakeDeletionCounts, readDeletionTarget } from '../../learning/deletion-service.ts';
import type { Learning } from '../../learning/index.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { readJsonBody } from '../body.ts';
import { needLearning } from './learning-seam.ts';

/** The deletion target: the JSON body `{value, type?}`, or the same as query parameters when there is no body. */
function targetOf(ctx: RequestContext) {
  const hasBody = typeof ctx.body === 'string' && ctx.body.trim() !== '';
  const source = hasBody ? readJsonBody(ctx.body, 125, 'the user as {"value": "jane@example.com"}') : { value: ctx.query.value, type: ctx.query.type };
  return readDeletionTarget(source);
}

/** DELETE /account/users/delete: removes every record of one user (email, phone or userID). */
export function usersDeleteEndpoint(learning: Learning | undefined): EndpointDef {
  return {
    operation: 'account.users.delete',
    method: 'DELETE',
    summary: 'Delete a user\'s data',
    description:
      'Permanently removes every record Vigil keeps of one user, found by email address, phone number or userID (body `{value, type?}`, type email, phone or user_id): ' +
      'request and decision logs, events and their queued webhook deliveries, scored transactions, velocity windows, outcomes and labels. ' +
      'Returns the counts removed per category (no executionTime). Empty or malformed value: 125; another type: 124; daily limit reached: 126. ' +
      'Free; raises no events; test mode deletes nothing and returns fake counts. Details in docs/payment.md "Deletion".',
    sample: {},
    sampleBody: { value: 'matrix-nobody@example.com' },
    inputErrorCode: 125,
    noExecutionTime: true,
    requestLog: false,
    live: async (ctx) => {
      const l = needLearning(learning);
      const target = targetOf(ctx);
      const account = ctx.caller!.account;
      await l.deletion.reserve(account.id, account.settings.dailyDeletionLimit, ctx.now);
      return l.deletion.delete(account.id, target);
    },
    test: (ctx) => {
      needLearning(learning);
      return fakeDeletionCounts(targetOf(ctx));
    },
  };
}
