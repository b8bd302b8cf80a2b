import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { AccountsError } from '../../accounts/service.ts';
import { PolicyError } from '../../policy/errors.ts';
import { RuleError } from '../../policy/rules/schema.ts';
import { WebhookError } from '../../policy/webhooks/service.ts';
import { PolicyConflictError } from '../../store/policy-errors.ts';
import { adminError } from './guard.ts';

const HTTP_BY_KIND = { not_found: 404, conflict: 409, invalid: 400 } as const;

/** Maps an operator's mistake to an admin error with a real HTTP status; rethrows anything else (a 500 without internals). */
export function adminFailure(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof z.ZodError) {
    return adminError(reply, 400, 'invalid_request', err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  }
  if (err instanceof RuleError) return adminError(reply, 400, 'invalid_rule', err.message);
  if (err instanceof PolicyConflictError) return adminError(reply, 409, 'conflict', err.message);
  if (err instanceof AccountsError || err instanceof PolicyError || err instanceof WebhookError) {
    return adminError(reply, HTTP_BY_KIND[err.kind], err.kind, err.message);
  }
  throw err;
}

/** Runs an admin operation: `{status: 'success', data}` with `status`, or the mapped error. */
export function respond<T>(reply: FastifyReply, fn: () => Promise<T>, status = 200): Promise<FastifyReply | { status: 'success'; data: T }> {
  return fn().then(
    (data) => {
      reply.code(status);
      return { status: 'success' as const, data };
    },
    (err: unknown) => adminFailure(reply, err),
  );
}
