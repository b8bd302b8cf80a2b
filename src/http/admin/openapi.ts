/**
 * The admin API's own OpenAPI 3.1 document (/admin/openapi.json, in /docs under "Admin API"). A document of
 * its own, not a tag of the public one: the operator API takes ADMIN_TOKEN, never an API key, answers real
 * HTTP statuses and has its own envelope, and API clients generated from /openapi.json should not carry it.
 * Paths and methods come from the routes as registered (so none is missed); bodies and queries from the
 * zod schemas the routes parse them with (z.toJSONSchema), the custom rule from the rule vocabulary.
 */
import { z } from 'zod';
import type { JsonSchema } from '../endpoint.ts';
import { SeedPlanSchema } from '../../accounts/seed.ts';
import { ACTION_TYPES, BLACKLIST_TYPES, RULE_GROUPS, RULE_OPS } from '../../policy/types.ts';
import { HistoryQuery, NewAccountBody, NewKeyBody, PatchAccountBody, UsageQuery } from './index.ts';
import { AddBody, BacktestBody, EventQuery, ImportQuery, ListQuery, RedeliverBody, RemoveBody, TestBody, WebhookBody } from './policy-routes.ts';

export interface AdminRoute {
  method: string;
  url: string;
}

type Tag = 'plans' | 'accounts' | 'keys' | 'usage and model' | 'rules' | 'blacklists' | 'webhooks' | 'events';
interface RouteDoc {
  tag: Tag;
  summary: string;
  body?: z.ZodType | JsonSchema;
  /** A body that is not JSON (the blacklist import's text file). */
  text?: string;
  query?: z.ZodType;
  status?: 201;
  /** Media type of a success that is not the JSON envelope. */
  produces?: string;
}

const condition: JsonSchema = {
  type: 'object',
  description: 'A leaf {field, op, value} or a nested {all: [...]} / {any: [...]}',
  properties: { field: { type: 'string', description: 'Dot path into input.* or the computed result' }, op: { type: 'string', enum: [...RULE_OPS] }, value: {}, all: { type: 'array' }, any: { type: 'array' } },
};
const Rule: JsonSchema = {
  type: 'object',
  required: ['title', 'group', 'conditions', 'action'],
  properties: {
    id: { type: 'string', pattern: '^CR[1-9]\\d{0,8}$', description: 'CR101 and up; assigned when absent' },
    title: { type: 'string' },
    group: { type: 'string', enum: [...RULE_GROUPS] },
    enabled: { type: 'boolean', default: true },
    conditions: { type: 'object', properties: { all: { type: 'array', items: condition }, any: { type: 'array', items: condition } } },
    action: { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: [...ACTION_TYPES] }, score: { type: 'number', description: 'overwrite_score only' } } },
  },
};

/** A function, not a constant: index.ts imports this module and defines the schemas it refers to. */
function routeDocs(): Record<string, RouteDoc> {
  return {
  'GET /admin/plans': { tag: 'plans', summary: 'List plans' },
  'PUT /admin/plans/{id}': { tag: 'plans', summary: 'Create or replace a plan', body: SeedPlanSchema.omit({ id: true }) },
  'GET /admin/accounts': { tag: 'accounts', summary: 'List accounts' },
  'POST /admin/accounts': { tag: 'accounts', summary: 'Create an account', body: NewAccountBody, status: 201 },
  'GET /admin/accounts/{id}': { tag: 'accounts', summary: 'One account' },
  'PATCH /admin/accounts/{id}': { tag: 'accounts', summary: 'Change plan, status, subscription, hosts or settings', body: PatchAccountBody },
  'POST /admin/accounts/{id}/disable': { tag: 'accounts', summary: 'Disable an account (its keys answer 102)' },
  'GET /admin/accounts/{id}/keys': { tag: 'keys', summary: 'List an account\'s keys (never the keys themselves)' },
  'POST /admin/accounts/{id}/keys': { tag: 'keys', summary: 'Create a key; the answer is the only place it is shown', body: NewKeyBody, status: 201 },
  'DELETE /admin/keys/{keyId}': { tag: 'keys', summary: 'Revoke a key' },
  'GET /admin/accounts/{id}/usage': { tag: 'usage and model', summary: 'Requests per method and day', query: UsageQuery },
  'GET /admin/accounts/{id}/model': { tag: 'usage and model', summary: 'The account\'s payment model: priors and learned weights' },
  'GET /admin/accounts/{id}/model/history': { tag: 'usage and model', summary: 'The model\'s updates, newest first', query: HistoryQuery },
  'GET /admin/accounts/{id}/rules': { tag: 'rules', summary: 'List custom rules' },
  'POST /admin/accounts/{id}/rules': { tag: 'rules', summary: 'Create a custom rule', body: Rule, status: 201 },
  'POST /admin/accounts/{id}/rules/test': { tag: 'rules', summary: 'Evaluate a rule (by ruleId or inline) on a sample input and result', body: TestBody },
  'POST /admin/accounts/{id}/rules/backtest': { tag: 'rules', summary: 'Replay a rule over the decision log', body: BacktestBody },
  'GET /admin/accounts/{id}/rules/{ruleId}': { tag: 'rules', summary: 'One custom rule' },
  'PUT /admin/accounts/{id}/rules/{ruleId}': { tag: 'rules', summary: 'Replace a custom rule', body: Rule },
  'POST /admin/accounts/{id}/rules/{ruleId}/enable': { tag: 'rules', summary: 'Enable a rule' },
  'POST /admin/accounts/{id}/rules/{ruleId}/disable': { tag: 'rules', summary: 'Disable a rule' },
  'DELETE /admin/accounts/{id}/rules/{ruleId}': { tag: 'rules', summary: 'Delete a rule' },
  'GET /admin/accounts/{id}/blacklists': { tag: 'blacklists', summary: 'List blacklist entries (paged by afterType and afterValue)', query: ListQuery },
  'GET /admin/accounts/{id}/blacklists/counts': { tag: 'blacklists', summary: 'Entries per list type' },
  'POST /admin/accounts/{id}/blacklists': { tag: 'blacklists', summary: `Add values to a list (type: ${BLACKLIST_TYPES.join(', ')})`, body: AddBody },
  'POST /admin/accounts/{id}/blacklists/remove': { tag: 'blacklists', summary: 'Remove values from a list', body: RemoveBody },
  'POST /admin/accounts/{id}/blacklists/import': { tag: 'blacklists', summary: 'Import a text file, one value a line', query: ImportQuery, text: 'One value a line' },
  'GET /admin/accounts/{id}/webhooks': { tag: 'webhooks', summary: 'List webhooks' },
  'POST /admin/accounts/{id}/webhooks': { tag: 'webhooks', summary: 'Add a webhook (secret generated when absent)', body: WebhookBody, status: 201 },
  'DELETE /admin/accounts/{id}/webhooks/{webhookId}': { tag: 'webhooks', summary: 'Delete a webhook' },
  'POST /admin/accounts/{id}/webhooks/{webhookId}/rotate-secret': { tag: 'webhooks', summary: 'Rotate a webhook\'s signing secret' },
  'GET /admin/accounts/{id}/webhooks/{webhookId}/deliveries': { tag: 'webhooks', summary: 'Latest deliveries of a webhook' },
  'GET /admin/accounts/{id}/events': { tag: 'events', summary: 'Events, newest first', query: EventQuery },
  'GET /admin/accounts/{id}/events/export.csv': { tag: 'events', summary: 'Events as CSV', query: EventQuery, produces: 'text/csv' },
  'GET /admin/accounts/{id}/events/{eventId}': { tag: 'events', summary: 'One event with its deliveries and attempts' },
  'POST /admin/accounts/{id}/events/{eventId}/redeliver': { tag: 'events', summary: 'Queue the event again (all webhooks, or one)', body: RedeliverBody },
  };
}

function jsonSchema(s: z.ZodType | JsonSchema): JsonSchema {
  if (!(s instanceof z.ZodType)) return s;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParameters(query: z.ZodType | undefined): JsonSchema[] {
  if (!query) return [];
  const schema = jsonSchema(query);
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).map(([name, s]): JsonSchema => ({
    name, in: 'query', required: required.includes(name), schema: s,
  }));
}

const errorResponse = (description: string): JsonSchema => ({
  description, content: { 'application/json': { schema: { $ref: '#/components/schemas/AdminError' } } },
});

function operation(method: string, path: string, doc: RouteDoc | undefined): JsonSchema {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m): JsonSchema => ({ name: m[1] ?? '', in: 'path', required: true, schema: { type: 'string' } }));
  const success: JsonSchema = doc?.produces
    ? { description: 'Success', content: { [doc.produces]: { schema: { type: 'string' } } } }
    : { description: 'Success', content: { 'application/json': { schema: { $ref: '#/components/schemas/AdminSuccess' } } } };
  return {
    operationId: `admin.${method.toLowerCase()}.${path.replace(/^\/admin\//, '').replace(/[{}]/g, '').replace(/[/.-]/g, '_')}`,
    summary: doc?.summary ?? `${method} ${path}`,
    tags: [doc?.tag ?? 'accounts'],
    parameters: [...params, ...queryParameters(doc?.query)],
    ...(doc?.body && { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(doc.body) } } } }),
    ...(doc?.text && { requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string', description: doc.text } } } } }),
    responses: {
      [String(doc?.status ?? 200)]: success,
      '400': errorResponse('Invalid body, query or value (`invalid_request`, `invalid_rule`, `invalid`)'),
      '401': errorResponse('Missing or wrong admin token'),
      '404': errorResponse('No such account, key, rule, webhook or event'),
      '409': errorResponse('Conflict with an existing record'),
      '413': errorResponse('Body over 2 MiB (256 MiB for the blacklist routes)'),
      '415': errorResponse('A body that is not Content-Type: application/json'),
      '503': errorResponse('The admin API is disabled (ADMIN_TOKEN not set)'),
    },
  };
}

/** The admin document of the routes registered under /admin. */
export function adminDocument(routes: readonly AdminRoute[], publicUrl: string | undefined): JsonSchema {
  const docs = routeDocs();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const r of routes) {
    if (r.method === 'HEAD' || r.method === 'OPTIONS') continue;
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[r.method.toLowerCase()] = operation(r.method, path, docs[`${r.method} ${path}`]);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil admin API',
      version: '1.0.0',
      description: 'The operator API: plans, accounts, keys, usage, the payment model, custom rules, blacklists, webhooks and events. ' +
        'Send `Authorization: Bearer <ADMIN_TOKEN>`; answers use real HTTP statuses (docs/operations.md).',
    },
    servers: [publicUrl ? { url: publicUrl } : { url: '/' }],
    security: [{ adminToken: [] }],
    tags: (['plans', 'accounts', 'keys', 'usage and model', 'rules', 'blacklists', 'webhooks', 'events'] satisfies Tag[]).map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN (never an API key)' } },
      schemas: {
        AdminSuccess: { type: 'object', required: ['status', 'data'], properties: { status: { const: 'success' }, data: { description: 'The record, list or result' } } },
        AdminError: {
          type: 'object', required: ['status', 'type', 'description'],
          properties: { status: { const: 'error' }, type: { type: 'string' }, description: { type: 'string' } },
        },
      },
    },
  };
}
