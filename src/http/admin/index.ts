import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.ts';
import { SeedPlanSchema } from '../../accounts/seed.ts';
import type { Store } from '../../store/ports.ts';
import { adminError, adminGuard } from './guard.ts';
import { respond } from './respond.ts';
import { BASE_LOGIT, PRIOR_LOG_ODDS } from '../../intel/payment/prior.ts';
import { FTRL_DEFAULTS, sigmoid, weightOf } from '../../learning/ftrl.ts';
import { registerPolicyAdminRoutes, type PolicyAdminDeps } from './policy-routes.ts';
import { adminDocument, type AdminRoute } from './openapi.ts';

export interface AdminDeps {
  accounts: AccountService;
  store: Store;
  adminToken: string | undefined;
  /** Called after any change to accounts, plans or keys (clears the key cache). */
  onChange: () => void;
  clock: () => Date;
  policy: PolicyAdminDeps;
  /** PUBLIC_URL, the server of the admin OpenAPI document. */
  publicUrl?: string | undefined;
}

const Hosts = z.array(z.string()).max(1000);
const Settings = z.object({ autoBlacklistConfirmedFraud: z.boolean(), dailyDeletionLimit: z.number().int().min(0) }).partial().strict();
const Subscription = z.object({ expiresAt: z.iso.datetime({ offset: true }).nullable() }).strict().nullable();
const AccountFields = {
  status: z.enum(['active', 'inactive']).optional(),
  subscription: Subscription.optional(),
  authorizedHosts: Hosts.optional(),
  settings: Settings.optional(),
};
export const NewAccountBody = z.object({ id: z.string().optional(), plan: z.string().default('premium'), ...AccountFields }).strict();
// No default for `plan` here: zod 4 applies defaults inside optional(), so a PATCH without `plan`
// would otherwise move the account to premium.
export const PatchAccountBody = z.object({ plan: z.string().optional(), ...AccountFields }).strict();
export const NewKeyBody = z.object({ kind: z.enum(['live', 'test']).default('live') }).strict();
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a calendar day');
export const UsageQuery = z.object({ from: Day.optional(), to: Day.optional() });
export const HistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });

/** Admin HTTP API under /admin (ADMIN_TOKEN): plans, accounts, keys and usage. */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const routes: AdminRoute[] = [];
  // Its own document, readable without the token: it says no more than docs/operations.md.
  // Built at the first request, when every route is registered; the same after that.
  let document: ReturnType<typeof adminDocument> | undefined;
  app.get('/admin/openapi.json', { schema: { hide: true } }, () => (document ??= adminDocument(routes, deps.publicUrl)));
  void app.register(
    (admin, _opts, done) => {
      admin.addHook('preHandler', adminGuard(deps.adminToken));
      // The operator API is not part of the public API document (/openapi.json, /docs).
      admin.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      });
      // Unreadable bodies (bad JSON, unsupported Content-Type, too large) get the admin error shape
      // with a real HTTP status, not the API envelope; anything else is a 500 without internals.
      admin.setErrorHandler((err, req, reply) => {
        const status = (err as { statusCode?: unknown }).statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          const why =
            status === 413
              ? 'The request body is too large.'
              : status === 415
                ? 'The request body must be JSON, sent with Content-Type: application/json.'
                : 'The request body is not valid JSON or has an unsupported Content-Type.';
          return adminError(reply, status, 'invalid_request', why);
        }
        req.log.error({ reqId: req.id, err }, 'admin request failed');
        return adminError(reply, 500, 'internal', 'The request failed; see the server log.');
      });
      const guarded = <T>(fn: () => Promise<T>, status = 200) => (reply: FastifyReply) => respond(reply, fn, status);
      const changed = <T>(v: T): T => {
        deps.onChange();
        return v;
      };

      admin.get('/plans', (_req, reply) => guarded(() => deps.accounts.listPlans())(reply));
      admin.put<{ Params: { id: string } }>('/plans/:id', (req, reply) =>
        guarded(async () => {
          const plan = SeedPlanSchema.parse({ ...(req.body as object), id: req.params.id });
          await deps.accounts.upsertPlan(plan);
          return changed(plan);
        })(reply),
      );

      admin.get('/accounts', (_req, reply) => guarded(() => deps.accounts.listAccounts())(reply));
      admin.post('/accounts', (req, reply) =>
        guarded(async () => changed(await deps.accounts.createAccount(NewAccountBody.parse(req.body ?? {}))), 201)(reply),
      );
      admin.get<{ Params: { id: string } }>('/accounts/:id', (req, reply) => guarded(() => deps.accounts.getAccount(req.params.id))(reply));
      admin.patch<{ Params: { id: string } }>('/accounts/:id', (req, reply) =>
        guarded(async () => changed(await deps.accounts.updateAccount(req.params.id, PatchAccountBody.parse(req.body ?? {}))))(reply),
      );
      admin.post<{ Params: { id: string } }>('/accounts/:id/disable', (req, reply) =>
        guarded(async () => changed(await deps.accounts.disableAccount(req.params.id)))(reply),
      );

      admin.get<{ Params: { id: string } }>('/accounts/:id/keys', (req, reply) =>
        guarded(async () => (await deps.accounts.listKeys(req.params.id)).map(({ hash: _hash, ...k }) => k))(reply),
      );
      admin.post<{ Params: { id: string } }>('/accounts/:id/keys', (req, reply) =>
        guarded(async () => {
          const { kind } = NewKeyBody.parse(req.body ?? {});
          const { key, record } = await deps.accounts.createKey(req.params.id, kind);
          const { hash: _hash, ...shown } = record;
          // The plaintext is shown in this answer only; it is stored as a keyed hash.
          return changed({ ...shown, key });
        }, 201)(reply),
      );
      admin.delete<{ Params: { keyId: string } }>('/keys/:keyId', (req, reply) =>
        guarded(async () => {
          await deps.accounts.revokeKey(req.params.keyId);
          return changed({ id: req.params.keyId, revoked: true });
        })(reply),
      );

      admin.get<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>('/accounts/:id/usage', (req, reply) =>
        guarded(async () => {
          await deps.accounts.getAccount(req.params.id);
          const today = deps.clock().toISOString().slice(0, 10);
          const query = UsageQuery.parse(req.query ?? {});
          const from = query.from ?? `${today.slice(0, 7)}-01`;
          const to = query.to ?? today;
          const rows = await deps.store.usage.list(req.params.id, from, to);
          return { accountId: req.params.id, from, to, total: rows.reduce((n, r) => n + r.count, 0), rows };
        })(reply),
      );
      // The account's fraud model (docs/payment.md "Learning"): readable weights, and its update history.
      admin.get<{ Params: { id: string } }>('/accounts/:id/model', (req, reply) =>
        guarded(async () => {
          await deps.accounts.getAccount(req.params.id);
          const coordinates = await deps.store.model.allWeights(req.params.id);
          const weights = coordinates.map((c) => ({ feature: c.feature, weight: weightOf(c), z: c.z, n: c.n }));
          // The learned weights are corrections on top of the rules' documented priors (log-odds).
          return {
            accountId: req.params.id, algorithm: 'ftrl-proximal', params: FTRL_DEFAULTS, baseRate: sigmoid(BASE_LOGIT), baseLogit: BASE_LOGIT,
            priors: PRIOR_LOG_ODDS, features: weights.length, weights,
          };
        })(reply),
      );
      admin.get<{ Params: { id: string }; Querystring: { limit?: string } }>('/accounts/:id/model/history', (req, reply) =>
        guarded(async () => {
          await deps.accounts.getAccount(req.params.id);
          const { limit } = HistoryQuery.parse(req.query ?? {});
          return { accountId: req.params.id, updates: await deps.store.model.history(req.params.id, limit) };
        })(reply),
      );
      registerPolicyAdminRoutes(admin, { ...deps.policy, accounts: deps.accounts });
      done();
    },
    { prefix: '/admin' },
  );
}
