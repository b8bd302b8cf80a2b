import type { ResolvedKey } from '../accounts/service.ts';
import type { HostMatcher } from '../accounts/authorized-hosts.ts';
import type { Lang } from '../intel/country/types.ts';
import type { Format } from './formats/index.ts';
import type { OperationName } from './operations.ts';
import type { AnswerNotes } from './answer-notes.ts';
import type { ServerTiming } from './server-timing.ts';

export interface RequestOptions {
  format: Format;
  callback: string | undefined;
  lang: Lang;
  /** The mode asked for with `mode=`; a test key forces test mode whatever this says. */
  mode: 'live' | 'test';
  userId: string | undefined;
  /** Modules requested with `params`, validated against the endpoint's module list. */
  modules: ReadonlySet<string>;
  explain: boolean;
}

export interface Caller extends ResolvedKey {
  hosts: HostMatcher;
}

/** Everything the pipeline learned about one request; handlers read it, never Fastify internals. */
export interface RequestContext {
  readonly operation: OperationName;
  readonly query: Readonly<Record<string, unknown>>;
  /** The request body as text (POST and DELETE methods; see body.ts), undefined when none. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Caller IP after TRUST_PROXY is applied. */
  readonly ip: string;
  readonly now: Date;
  /** Absolute base URL for links in answers (PUBLIC_URL or the request's own host). */
  readonly baseUrl: string;
  readonly timing: ServerTiming;
  options: RequestOptions;
  caller: Caller | undefined;
  testMode: boolean;
  /** Set when the quota step reserved a unit that must be released if the call fails. */
  quotaKey: string | undefined;
  /** What the endpoint keeps beside its answer for the policy stage, for this request only (answer-notes.ts). */
  readonly notes: AnswerNotes;
}
