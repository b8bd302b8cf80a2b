import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AccountService } from '../../accounts/service.ts';
import { eventsCsv } from '../../policy/events/export.ts';
import type { ListsService } from '../../policy/lists-service.ts';
import { blacklistType, ListsService as Lists, MAX_VALUES_PER_CALL } from '../../policy/lists-service.ts';
import type { RulesService } from '../../policy/rules-service.ts';
import { PolicyError } from '../../policy/errors.ts';
import { EVENT_KINDS } from '../../policy/types.ts';
import type { WebhookService } from '../../policy/webhooks/service.ts';
import type { EventFilter, Store } from '../../store/ports.ts';
import { adminFailure, respond } from './respond.ts';

export interface PolicyAdminDeps {
  rules: RulesService;
  lists: ListsService;
  webhooks: WebhookService;
  store: Store;
}

type Params = { id: string; ruleId: string; webhookId: string; eventId: string };

const Iso = z.iso.datetime({ offset: true });
const Sample = z.record(z.string(), z.unknown());
const RuleRef = { ruleId: z.string().optional(), rule: z.unknown().optional() };
export const TestBody = z.object({ ...RuleRef, input: Sample.default({}), result: Sample.default({}) }).strict();
export const BacktestBody = z
  .object({ ...RuleRef, from: Iso, to: Iso, limit: z.number().int().min(1).max(100_000).optional(), examples: z.number().int().min(0).max(100).optional() })
  .strict();
const Values = z.array(z.string().max(4096)).min(1).max(MAX_VALUES_PER_CALL);
export const AddBody = z.object({ type: z.string(), values: Values, note: z.string().max(500).optional(), skipInvalid: z.boolean().optional() }).strict();
export const RemoveBody = z.object({ type: z.string(), values: Values }).strict();
export const ListQuery = z
  .object({ type: z.string().optional(), limit: z.coerce.number().int().min(1).max(10_000).optional(), afterType: z.string().optional(), afterValue: z.string().optional() })
  .strict();
export const ImportQuery = z.object({ type: z.string(), skipInvalid: z.enum(['yes', 'no']).default('no'), note: z.string().max(500).optional() }).strict();
export const WebhookBody = z.object({ url: z.string(), secret: z.string().min(16).max(256).optional() }).strict();
export const RedeliverBody = z.object({ webhookId: z.string().optional() }).strict();
export const EventQuery = z
  .object({
    kind: z.enum(EVENT_KINDS).optional(),
    riskMin: z.coerce.number().optional(),
    riskMax: z.coerce.number().optional(),
    from: Iso.optional(),
    to: Iso.optional(),
    userID: z.string().max(255).optional(),
    before: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  })
  .strict();

function eventFilter(raw: unknown, defaultLimit: number): EventFilter {
  const q = EventQuery.parse(raw ?? {});
  const filter: EventFilter = { limit: q.limit ?? defaultLimit };
  if (q.kind !== undefined) filter.kind = q.kind;
  if (q.riskMin !== undefined) filter.riskMin = q.riskMin;
  if (q.riskMax !== undefined) filter.riskMax = q.riskMax;
  if (q.from !== undefined) filter.from = q.from;
  if (q.to !== undefined) filter.to = q.to;
  if (q.userID !== undefined) filter.userId = q.userID;
  if (q.before !== undefined) filter.before = q.before;
  return filter;
}

function eventId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw new PolicyError('invalid', `event ids are positive integers, not ${JSON.stringify(raw.slice(0, 32))}`);
  return Number(raw);
}

/** Admin routes for custom rules, blacklists, webhooks and events, under /admin/accounts/:id/. */
export function registerPolicyAdminRoutes(admin: FastifyInstance, deps: PolicyAdminDeps & { accounts: AccountService }): void {
  const { rules, lists, webhooks, store, accounts } = deps;
  // Every route first checks that the account exists, so a typo in the id is a 404, not an empty list.
  const on = <T>(fn: (p: Params) => Promise<T>, status = 200) =>
    async (req: { params: unknown }, reply: Parameters<typeof respond>[0]) =>
      respond(
        reply,
        async () => {
          const p = req.params as Params;
          await accounts.getAccount(p.id);
          return fn(p);
        },
        status,
      );

  // Custom rules
  admin.get('/accounts/:id/rules', on((p) => rules.list(p.id)));
  admin.post('/accounts/:id/rules', (req, reply) => on((p) => rules.create(p.id, req.body ?? {}), 201)(req, reply));
  admin.post('/accounts/:id/rules/test', (req, reply) => on((p) => rules.test(p.id, TestBody.parse(req.body ?? {})))(req, reply));
  admin.post('/accounts/:id/rules/backtest', (req, reply) => on((p) => rules.backtest(p.id, BacktestBody.parse(req.body ?? {})))(req, reply));
  admin.get('/accounts/:id/rules/:ruleId', on((p) => rules.get(p.id, p.ruleId)));
  admin.put('/accounts/:id/rules/:ruleId', (req, reply) => on((p) => rules.replace(p.id, p.ruleId, req.body ?? {}))(req, reply));
  admin.post('/accounts/:id/rules/:ruleId/enable', on((p) => rules.setEnabled(p.id, p.ruleId, true)));
  admin.post('/accounts/:id/rules/:ruleId/disable', on((p) => rules.setEnabled(p.id, p.ruleId, false)));
  admin.delete(
    '/accounts/:id/rules/:ruleId',
    on(async (p) => {
      await rules.remove(p.id, p.ruleId);
      return { id: p.ruleId, deleted: true };
    }),
  );

  // Blacklists
  admin.get('/accounts/:id/blacklists', (req, reply) =>
    on((p) => {
      const q = ListQuery.parse(req.query ?? {});
      if ((q.afterType === undefined) !== (q.afterValue === undefined)) throw new PolicyError('invalid', 'afterType and afterValue go together');
      return lists.list(p.id, {
        ...(q.type !== undefined ? { type: blacklistType(q.type) } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.afterType !== undefined && q.afterValue !== undefined ? { after: { type: blacklistType(q.afterType), value: q.afterValue } } : {}),
      });
    })(req, reply),
  );
  admin.get('/accounts/:id/blacklists/counts', on((p) => lists.counts(p.id)));
  admin.post('/accounts/:id/blacklists', { bodyLimit: 256 * 1024 * 1024 }, (req, reply) =>
    on((p) => {
      const body = AddBody.parse(req.body ?? {});
      return lists.add(p.id, blacklistType(body.type), body.values, { note: body.note ?? null, skipInvalid: body.skipInvalid ?? false });
    })(req, reply),
  );
  admin.post('/accounts/:id/blacklists/remove', { bodyLimit: 256 * 1024 * 1024 }, (req, reply) =>
    on((p) => {
      const body = RemoveBody.parse(req.body ?? {});
      return lists.remove(p.id, blacklistType(body.type), body.values);
    })(req, reply),
  );
  // A file as the body (text/plain, one value per line, # comments), as `vigil blacklist import` sends it.
  admin.post('/accounts/:id/blacklists/import', { bodyLimit: 256 * 1024 * 1024 }, (req, reply) =>
    on((p) => {
      const q = ImportQuery.parse(req.query ?? {});
      if (typeof req.body !== 'string') throw new PolicyError('invalid', 'send the file as the body with Content-Type: text/plain');
      return lists.add(p.id, blacklistType(q.type), Lists.linesOf(req.body), { note: q.note ?? 'import', skipInvalid: q.skipInvalid === 'yes' });
    })(req, reply),
  );

  // Webhooks
  admin.get('/accounts/:id/webhooks', on((p) => webhooks.list(p.id)));
  admin.post('/accounts/:id/webhooks', (req, reply) =>
    on((p) => {
      const body = WebhookBody.parse(req.body ?? {});
      return webhooks.add(p.id, body.url, body.secret);
    }, 201)(req, reply),
  );
  admin.delete(
    '/accounts/:id/webhooks/:webhookId',
    on(async (p) => {
      await webhooks.remove(p.id, p.webhookId);
      return { id: p.webhookId, deleted: true };
    }),
  );
  admin.post('/accounts/:id/webhooks/:webhookId/rotate-secret', on((p) => webhooks.rotateSecret(p.id, p.webhookId)));
  admin.get('/accounts/:id/webhooks/:webhookId/deliveries', on((p) => store.events.listDeliveries(p.id, { webhookId: p.webhookId, limit: 100 })));

  // Events
  admin.get('/accounts/:id/events', (req, reply) => on((p) => store.events.listEvents(p.id, eventFilter(req.query, 100)))(req, reply));
  // The whole filtered range as CSV, newest first, paged through the store (at most 100,000 rows).
  admin.get('/accounts/:id/events/export.csv', async (req, reply) => {
    try {
      const p = req.params as Params;
      await accounts.getAccount(p.id);
      const filter = eventFilter(req.query, 1000);
      const events = [];
      for (;;) {
        const page = await store.events.listEvents(p.id, filter);
        events.push(...page);
        const last = page.at(-1);
        if (!last || page.length < (filter.limit ?? 1000) || events.length >= 100_000) break;
        filter.before = last.eventId;
      }
      return await reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="events.csv"').send(eventsCsv(events));
    } catch (err) {
      return adminFailure(reply, err);
    }
  });
  admin.get(
    '/accounts/:id/events/:eventId',
    on(async (p) => {
      const id = eventId(p.eventId);
      const event = await store.events.getEvent(p.id, id);
      if (!event) throw new PolicyError('not_found', `account "${p.id}" has no event ${id}`);
      const [deliveries, attempts] = await Promise.all([store.events.listDeliveries(p.id, { eventId: id }), store.events.listAttempts(p.id, { eventId: id })]);
      return { ...event, deliveries, attempts };
    }),
  );
  admin.post('/accounts/:id/events/:eventId/redeliver', (req, reply) =>
    on((p) => {
      const body = RedeliverBody.parse(req.body ?? {});
      return webhooks.redeliver(p.id, eventId(p.eventId), body.webhookId);
    }, 202)(req, reply),
  );
}
