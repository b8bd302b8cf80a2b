import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { RequestContext } from './context.ts';
import type { EndpointDef } from './endpoint.ts';
import type { ErrorBody } from './errors.ts';
import { OPERATIONS } from './operations.ts';
import { runPipeline, type PipelineDeps } from './pipeline/run.ts';
import { renderEnvelope, toErrorBody, writeRendered } from './reply.ts';
import { AnswerNotes } from './answer-notes.ts';
import { ServerTiming } from './server-timing.ts';
import { writeTurn } from './write-turn.ts';
import { isReusableAnswer } from './formats/json.ts';
import { utcDay } from '../intel/time/utc-calendar.ts';
import type { Metrics } from '../ops/metrics.ts';
import { loggedUrl } from '../logger.ts';
import type { Recorder } from './recorder.ts';
import type { PolicyStage } from '../policy/stage.ts';
import type { PolicyContribution } from '../policy/types.ts';

export interface EndpointDeps extends PipelineDeps {
  metrics: Metrics;
  recorder: Recorder;
  policy: PolicyStage;
  logger: Logger;
  clock: () => Date;
  baseUrl: (req: FastifyRequest) => string;
}

const DEFAULT_OPTIONS: RequestContext['options'] = {
  format: 'JSON', callback: undefined, lang: 'EN', mode: 'live', userId: undefined, modules: new Set(), explain: false,
};

function openApiQuery(def: EndpointDef): Record<string, unknown> {
  // The key is documented by the security schemes (query `key` or a bearer token), per operation.
  const common = {
    format: { type: 'string', enum: ['JSON', 'XML', 'CSV', 'Newline'], description: 'Response format (case-insensitive)' },
    lang: { type: 'string', description: 'EN, AR, DE, FR, ES, JA, ZH or RU' },
    mode: { type: 'string', enum: ['live', 'test'], description: 'test: realistic fake data, free, no events (always so with a svc_test_ key)' },
    callback: { type: 'string', description: 'JSONP callback (JSON only)' },
    userID: { type: 'string', description: 'Your user id, for the events log and deletion' },
    explain: { type: 'string', enum: ['yes', 'no'], description: 'yes: add `explanation` (each contribution to the score or flags, and the datasets used)' },
    ...(def.modules?.length ? { params: { type: 'string', description: `Comma-separated modules: ${def.modules.join(', ')}` } } : {}),
  };
  const own = Object.fromEntries(Object.entries(def.query ?? {}).map(([k, { required: _r, example, ...schema }]) => [k, example === undefined ? schema : { ...schema, examples: [example] }]));
  const required = Object.entries(def.query ?? {}).filter(([, v]) => v.required).map(([k]) => k);
  return { type: 'object', properties: { ...own, ...common }, ...(required.length ? { required } : {}) };
}

/**
 * The context of one API request. A class, not an object literal: a literal with a `get baseUrl()`
 * accessor gets a fresh closure and so a hidden class (map) of its own on every request, and that map,
 * allocated in old space, kept the closure and through it the whole request (Fastify request, headers,
 * answer) alive across young-generation GCs. Every request was then promoted to old space: scavenges of
 * 5-8 ms instead of about 1 ms and a mark-compact every few seconds (2026-11-24, docs/benchmarks.md).
 * Here the getter is on the prototype and every context shares one map.
 */
export class EndpointContext implements RequestContext {
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly ip: string;
  readonly now: Date;
  readonly timing = new ServerTiming();
  options: RequestContext['options'] = DEFAULT_OPTIONS;
  caller: RequestContext['caller'] = undefined;
  testMode = false;
  quotaKey: string | undefined = undefined;
  readonly #req: FastifyRequest;
  readonly #baseUrl: (req: FastifyRequest) => string;
  #notes: AnswerNotes | undefined;

  constructor(
    readonly operation: RequestContext['operation'],
    req: FastifyRequest,
    deps: Pick<EndpointDeps, 'clock' | 'baseUrl'>,
  ) {
    this.query = (req.query ?? {}) as Record<string, unknown>;
    this.body = req.body;
    this.headers = req.headers;
    this.ip = req.ip;
    this.now = deps.clock();
    this.#req = req;
    this.#baseUrl = deps.baseUrl;
  }

  /** Read by few methods (country flag URLs): worked out only when asked. */
  get baseUrl(): string {
    return this.#baseUrl(this.#req);
  }

  get notes(): AnswerNotes {
    this.#notes ??= new AnswerNotes();
    return this.#notes;
  }
}

/** Registers one endpoint behind the common pipeline. */
export function registerEndpoint(app: FastifyInstance, def: EndpointDef, deps: EndpointDeps): void {
  const op = OPERATIONS[def.operation];
  app.route({
    method: def.method,
    url: op.path,
    // The schema documents the method in /openapi.json only: validation is the pipeline's, so that
    // every bad input gets its catalogue code instead of a generic 400, and no time is spent twice.
    validatorCompiler: () => () => true,
    // corsInAnswer: the CORS header is set by writeRendered, not by a hook (transport.ts).
    config: { inputErrorCode: def.inputErrorCode, corsInAnswer: true },
    schema: { summary: def.summary, description: def.description, operationId: def.operation, querystring: openApiQuery(def) },
    handler: async (req, reply) => {
      const ctx = new EndpointContext(def.operation, req, deps);
      const timing = ctx.timing;
      // Work for once the answer is written (the policy stage's events): see below.
      const afterAnswer: Array<() => void> = [];
      let body: Record<string, unknown>;
      let code = 0;
      try {
        await runPipeline(def, ctx, deps);
        timing.lap('auth');
        const engineAnswer = await (ctx.testMode ? def.test(ctx) : def.live(ctx));
        // A shared answer (reusableAnswer) is frozen: the policy stage writes its verdict into its own copy.
        const answer = def.policy && isReusableAnswer(engineAnswer) ? structuredClone(engineAnswer) : engineAnswer;
        timing.lap('engine');
        const contributions =
          def.policy && ctx.caller
            ? await deps.policy.apply(def.policy, answer, {
                accountId: ctx.caller.account.id,
                operation: def.operation,
                live: !ctx.testMode,
                userId: ctx.options.userId ?? null,
                now: ctx.now,
                explain: ctx.options.explain,
                input: ownInput(def, ctx.query),
                notes: ctx.notes,
                afterAnswer,
              })
            : [];
        timing.lap('policy');
        const data = withExplanation(answer, def, ctx, contributions);
        body = def.noExecutionTime ? { data, status: 'success' } : { data, status: 'success', executionTime: timing.elapsedMs() };
        record(ctx, def, deps);
      } catch (err) {
        if (ctx.quotaKey) await deps.quota.release(ctx.quotaKey).catch(() => undefined);
        const mapped = toErrorBody(err, def.inputErrorCode);
        if (mapped.unexpected) deps.logger.error({ err, operation: def.operation }, 'request failed');
        body = mapped.body as ErrorBody & Record<string, unknown>;
        code = mapped.body.code;
      }
      // Answers are written together after this turn's reads (write-turn.ts); server time includes the wait.
      await writeTurn();
      try {
        const seconds = (performance.now() - timing.startedAt) / 1000;
        deps.metrics.observe(def.operation, code, seconds);
        if (deps.logger.isLevelEnabled('debug')) {
          deps.logger.debug({ operation: def.operation, code, ms: +(seconds * 1000).toFixed(3), url: loggedUrl(req.url, req.query as Readonly<Record<string, unknown>>), ip: ctx.ip }, 'request');
        }
        const t0 = performance.now();
        const out = renderEnvelope(body, { format: ctx.options.format, callback: ctx.options.callback, keyed: def.keyed ?? false });
        // A request that fails before the first stage has no stages: no empty list element then.
        const stages = timing.header();
        reply.header('server-timing', `${stages ? `${stages}, ` : ''}format;dur=${(performance.now() - t0).toFixed(3)}`);
        return writeRendered(reply, out);
      } finally {
        // Right after the answer went to the socket, in the same turn: no other request is read before
        // these have run, so the same client's next call finds what they stored. Also when writing the
        // answer failed: the events stand on their own.
        for (const task of afterAnswer) task();
      }
    },
  });
}

/** The endpoint's own parameters (not key, format...), as custom rules see them under `input.`. */
function ownInput(def: EndpointDef, query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of Object.keys(def.query ?? {})) if (query[name] !== undefined) input[name] = query[name];
  return input;
}

/**
 * `explain=yes` (decisions.md) adds `explanation` to an object answer: each contribution to a score
 * or flag (the engine's own, then the account's list entries and custom rules that took part) and
 * the name and version of every dataset used. Nothing else in the answer changes.
 */
function withExplanation(data: unknown, def: EndpointDef, ctx: RequestContext, policy: readonly PolicyContribution[]): unknown {
  if (!ctx.options.explain || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const datasets = (def.datasets ?? []).map(({ name, version, source }) => ({ name, version, source }));
  const own = (data as { explanation?: { contributions?: unknown } }).explanation?.contributions;
  const contributions = [...(Array.isArray(own) ? (own as unknown[]) : []), ...policy];
  return Object.assign({}, data, { explanation: { contributions, datasets } });
}

function record(ctx: RequestContext, def: EndpointDef, deps: EndpointDeps): void {
  const caller = ctx.caller;
  if (!caller) return;
  const op = OPERATIONS[def.operation];
  if (!ctx.testMode && !op.free && op.planMethod) deps.recorder.countUsage(caller.account.id, op.planMethod, utcDay(ctx.now));
  if (ctx.options.userId !== undefined && def.requestLog !== false) {
    deps.recorder.logRequest({
      accountId: caller.account.id,
      userId: ctx.options.userId,
      operation: def.operation,
      ip: ctx.ip,
      mode: ctx.testMode ? 'test' : 'live',
      at: ctx.now.toISOString(),
    });
  }
}
