import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DashboardDeps } from './deps.ts';
import { errorPage } from './layout.ts';
import { registerSignIn } from './pages/sign-in.ts';
import { registerEvents } from './pages/events.ts';
import { registerEvent } from './pages/event.ts';
import { registerRules } from './pages/rules.ts';
import { registerLists } from './pages/lists.ts';
import { registerAudit } from './pages/audit.ts';
import { registerOverview } from './pages/overview.ts';
import { registerOperators } from './pages/operators.ts';
import { registerWebhooks } from './pages/webhooks.ts';
import { registerModel } from './pages/model.ts';
import { registerPayments } from './pages/payments.ts';
import { registerPlans } from './pages/plans.ts';

export type { DashboardDeps } from './deps.ts';

/** Read once at start: the console's only two assets, served by Vigil itself (no CDN, no build step). */
const ASSETS: Record<string, { type: string; body: string }> = {
  'app.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/app.css', import.meta.url), 'utf8') },
  'app.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/app.js', import.meta.url), 'utf8') },
};

/** No inline script or style, nothing from elsewhere, never framed. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Form posts as flat string fields (CSV files are read into a text field by the page; dataset uploads are streamed). */
const FORM_LIMIT = 32 * 1024 * 1024;

/** The web console under /dashboard (docs/dashboard.md): server-rendered pages over the admin API's services. */
export function registerDashboard(app: FastifyInstance, deps: DashboardDeps): void {
  void app.register(
    (scope, _opts, done) => {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_req, body, next) => {
        next(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      // Dataset uploads (model page): the body stays a stream, written to a temp file by its route with a size cap.
      scope.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
      scope.addHook('onRoute', (route) => {
        // Not part of the public API document; and no `Access-Control-Allow-Origin: *` on console pages.
        route.schema = { ...route.schema, hide: true };
        route.config = Object.assign({}, route.config, { corsInAnswer: true });
      });
      scope.addHook('onSend', async (_req, reply, payload) => {
        reply.header('content-security-policy', CSP);
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'same-origin');
        reply.header('x-frame-options', 'DENY');
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        return payload;
      });
      scope.setNotFoundHandler((_req, reply) => errorPage(reply, 404, 'Not found', 'There is no such page.'));
      scope.setErrorHandler((err, req, reply): FastifyReply => {
        const status = (err as { statusCode?: unknown }).statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          return errorPage(reply, status, 'Not done', status === 413 ? 'What you sent is too large.' : 'The request could not be read.');
        }
        req.log.error({ err }, 'dashboard request failed');
        return errorPage(reply, 500, 'Something went wrong', 'The page could not be shown; the server log has the details.');
      });

      scope.get<{ Params: { name: string } }>('/assets/:name', (req, reply) => {
        const asset = ASSETS[req.params.name];
        if (!asset) return errorPage(reply, 404, 'Not found', 'There is no such file.');
        return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
      });

      registerSignIn(scope, deps);
      registerOverview(scope, deps);
      registerEvents(scope, deps);
      registerEvent(scope, deps);
      registerPayments(scope, deps);
      registerRules(scope, deps);
      registerLists(scope, deps);
      registerWebhooks(scope, deps);
      registerModel(scope, deps);
      registerAudit(scope, deps);
      registerOperators(scope, deps);
      registerPlans(scope, deps);
      done();
    },
    { prefix: '/dashboard' },
  );
}
