import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../deps.ts';
import { page } from '../context.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { clearedCookie, COOKIE, readCookie, sessionCookie } from '../sessions.ts';
import { authenticate } from '../sign-in.ts';
import { counterKeys, SIGN_IN_FAILURES, SIGN_IN_WINDOW_SECONDS } from '../../store/counter-keys.ts';

/** Only a path inside the console: `next` must not send the user to another site after signing in. */
function safeNext(next: unknown): string | null {
  return typeof next === 'string' && /^\/dashboard(\/[^\\]*)?$/.test(next) && !next.startsWith('//') ? next : null;
}

function signInPage(error: string | undefined, next: string | null) {
  return layout(undefined, {
    title: 'Sign in',
    active: 'none',
    error,
    body: html`
<div class="cards">
  <section class="card" aria-labelledby="with-token">
    <h2 id="with-token">With a token or key</h2>
    <p class="muted">Operators: the admin token (every account). Analysts: a live API key of their account.</p>
    <form class="stack" method="post" action="/dashboard/sign-in">
      ${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
      <div class="field"><label for="secret">Admin token or live API key</label>
      <input id="secret" name="secret" type="password" autocomplete="current-password" required></div>
      <button type="submit">Sign in</button>
    </form>
  </section>
  <section class="card" aria-labelledby="with-user">
    <h2 id="with-user">With a dashboard user</h2>
    <p class="muted">Users are created by the operator, each for one account.</p>
    <form class="stack" method="post" action="/dashboard/sign-in">
      ${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
      <div class="field"><label for="username">Username</label><input id="username" name="username" autocomplete="username" required></div>
      <div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
      <button type="submit">Sign in</button>
    </form>
  </section>
</div>`,
  }).text;
}

export function registerSignIn(app: FastifyInstance, deps: DashboardDeps): void {
  const secure = (protocol: string) => protocol === 'https';

  app.get<{ Querystring: { next?: string } }>('/sign-in', async (req, reply) => {
    // Already signed in: straight on.
    if (await deps.sessions.resolve(readCookie(req.headers.cookie, COOKIE))) return reply.redirect(safeNext(req.query.next) ?? '/dashboard', 303);
    return reply.type('text/html; charset=utf-8').send(signInPage(undefined, safeNext(req.query.next)));
  });

  app.post('/sign-in', async (req, reply) => {
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    const next = safeNext(form.next);
    // Guessing is slowed per client address: after SIGN_IN_FAILURES failures, no attempt is checked until the window ends.
    const windowStart = Math.floor(deps.clock().getTime() / 1000 / SIGN_IN_WINDOW_SECONDS) * SIGN_IN_WINDOW_SECONDS;
    const failures = counterKeys.signInFailures(req.ip, windowStart);
    if ((await deps.counters.get(failures)) >= SIGN_IN_FAILURES) {
      return reply.code(429).type('text/html; charset=utf-8').send(signInPage(`Too many failed sign-ins from this address: try again in ${SIGN_IN_WINDOW_SECONDS / 60} minutes.`, next));
    }
    const who = await authenticate({ accounts: deps.accounts, store: deps.store, adminToken: deps.adminToken }, form);
    if (typeof who === 'string') {
      await deps.counters.incr(failures, 1, SIGN_IN_WINDOW_SECONDS + 60);
      await deps.store.console.appendAudit({ at: deps.clock().toISOString(), actor: form.username ? `user:${form.username.slice(0, 64)}` : 'unknown', accountId: null, action: 'sign-in.refused', detail: form.username ? 'wrong username or password' : 'unknown token or key' });
      return reply.code(401).type('text/html; charset=utf-8').send(signInPage(who, next));
    }
    const { token } = await deps.sessions.create(who);
    await deps.store.console.appendAudit({ at: deps.clock().toISOString(), actor: who.actor, accountId: who.accountId, action: 'sign-in', detail: who.role });
    return reply.header('set-cookie', sessionCookie(token, deps.sessions.ttlMinutes * 60, secure(req.protocol))).redirect(next ?? '/dashboard', 303);
  });

  app.post('/sign-out', page(deps, async (req, reply, ctx) => {
    await deps.sessions.end(readCookie(req.headers.cookie, COOKIE));
    await ctx.audit('sign-out', ctx.session.role, ctx.session.accountId);
    return reply.header('set-cookie', clearedCookie(secure(req.protocol))).redirect('/dashboard/sign-in', 303);
  }));

  // Home: an analyst's account, or the operator's first account (else the accounts page).
  app.get('/', page(deps, async (_req, reply, ctx) => {
    const account = ctx.session.accountId ?? ctx.accountIds[0];
    return reply.redirect(account ? `/dashboard/a/${encodeURIComponent(account)}/overview` : '/dashboard/accounts', 303);
  }));

  app.get('/switch', page(deps, async (req, reply) => {
    const id = req.query.account ?? '';
    return reply.redirect(`/dashboard/a/${encodeURIComponent(id)}/overview`, 303);
  }));
}
