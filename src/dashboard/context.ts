import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AccountsError } from '../accounts/service.ts';
import { ApiError } from '../http/errors.ts';
import { PolicyError } from '../policy/errors.ts';
import { RuleError } from '../policy/rules/schema.ts';
import { WebhookError } from '../policy/webhooks/service.ts';
import type { ConsoleSession } from '../store/console-port.ts';
import type { Account } from '../store/ports.ts';
import { PolicyConflictError } from '../store/policy-errors.ts';
import type { DashboardDeps } from './deps.ts';
import { COOKIE, readCookie } from './sessions.ts';
import { type Html } from './html.ts';
import { errorPage } from './layout.ts';

/** One request of a signed-in user: the session, its CSRF token and (on account pages) the account. */
export interface Ctx {
  session: ConsoleSession;
  csrf: string;
  /** The account of an account page (/dashboard/a/:account/...), checked against the session. */
  account: Account | null;
  /** Every account id (operators' account switcher); empty for analysts. */
  accountIds: string[];
  now: Date;
  /** The form fields of a POST. */
  form: Record<string, string>;
  query: Record<string, string>;
  /** Records one change in the audit log (who: the session's actor). */
  audit(action: string, detail: string, accountId?: string | null): Promise<void>;
}

/** A mistake the user can fix: shown on the page with status 400 (or 404/409), never a stack trace. */
export class UserError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

/** The message of an error a user caused (bad form value, unknown id), or null for a failure of ours. */
export function userMessage(err: unknown): { message: string; status: number } | null {
  if (err instanceof UserError) return { message: err.message, status: err.status };
  if (err instanceof z.ZodError) return { message: err.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; '), status: 400 };
  if (err instanceof RuleError || err instanceof ApiError) return { message: err.message, status: 400 };
  if (err instanceof PolicyConflictError) return { message: err.message, status: 409 };
  if (err instanceof AccountsError || err instanceof PolicyError || err instanceof WebhookError) {
    return { message: err.message, status: err.kind === 'not_found' ? 404 : err.kind === 'conflict' ? 409 : 400 };
  }
  return null;
}

/** Requests as pages see them: path parameters and query values are strings. */
export type Req = FastifyRequest<{ Params: Record<string, string>; Querystring: Record<string, string> }>;

type Handler = (req: Req, reply: FastifyReply, ctx: Ctx) => Promise<Html | FastifyReply | string | undefined>;

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * Wraps a page handler: the session (else to sign-in), the CSRF token of every POST, the account of the URL
 * (an analyst asking for another account gets the same 404 as for one that does not exist), operator-only pages.
 */
export function page(deps: DashboardDeps, handler: Handler, opts: { operatorOnly?: boolean } = {}) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const session = await deps.sessions.resolve(readCookie(req.headers.cookie, COOKIE));
    if (!session) {
      if (req.method === 'GET') return reply.redirect(`/dashboard/sign-in?next=${encodeURIComponent(req.url)}`, 303);
      return errorPage(reply, 401, 'Signed out', 'Your session has ended. Sign in again and repeat the change.');
    }
    // An upload's body is a stream (read by its page); its CSRF token comes in a header, which no other site can set.
    const streamed = req.body instanceof Readable;
    const form = streamed ? {} : strings(req.body);
    if (req.method !== 'GET' && !deps.sessions.checkCsrf(session, streamed ? req.headers['x-csrf-token'] : form._csrf)) {
      return errorPage(reply, 403, 'Refused', 'The form is missing its security token or it is out of date. Reload the page and try again.');
    }
    if (opts.operatorOnly && session.role !== 'operator') return errorPage(reply, 404, 'Not found', 'There is no such page.');
    const params = req.params as { account?: string };
    let account: Account | null = null;
    if (params.account !== undefined) {
      if (session.role === 'analyst' && params.account !== session.accountId) return errorPage(reply, 404, 'Not found', 'There is no such account.');
      account = await deps.store.accounts.getAccount(params.account);
      if (!account) return errorPage(reply, 404, 'Not found', 'There is no such account.');
    }
    const ctx: Ctx = {
      session, account, form, now: deps.clock(),
      csrf: deps.sessions.csrfOf(session),
      accountIds: session.role === 'operator' ? (await deps.store.accounts.listAccounts()).map((a) => a.id) : [],
      query: strings(req.query),
      audit: (action, detail, accountId) => deps.store.console.appendAudit({ at: deps.clock().toISOString(), actor: session.actor, accountId: accountId === undefined ? account?.id ?? null : accountId, action, detail }),
    };
    try {
      const out = await handler(req as Req, reply, ctx);
      if (out === undefined || reply.sent) return reply;
      return reply.type('text/html; charset=utf-8').send(typeof out === 'string' ? out : out.text);
    } catch (err) {
      const known = userMessage(err);
      if (!known) throw err;
      return errorPage(reply, known.status, known.status === 404 ? 'Not found' : 'Not done', known.message, ctx);
    }
  };
}
