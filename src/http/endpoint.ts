import type { ErrorCode } from './errors.ts';
import type { RequestContext } from './context.ts';
import type { OperationName } from './operations.ts';
import type { DatasetInfo } from '../intel/country/facts.ts';
import type { EndpointPolicy } from '../policy/types.ts';

/** JSON Schema fragment, used for the OpenAPI document only (inputs are validated by handlers). */
export type JsonSchema = Record<string, unknown>;

/**
 * What an endpoint declares to plug into the pipeline. The pipeline does options, auth, plan,
 * flood, quota, usage, formats, timing, metrics and errors; the endpoint only turns input into data.
 */
export interface EndpointDef {
  operation: OperationName;
  method: 'GET' | 'POST' | 'DELETE';
  summary: string;
  description: string;
  /** Query parameters specific to this endpoint (documentation). */
  query?: Record<string, { type: 'string'; description: string; required?: boolean; example?: string }>;
  /** A valid input for this endpoint (docs and the shared test matrix). */
  sample: Record<string, string>;
  /** A valid JSON body for a POST or DELETE endpoint (docs and the shared test matrix). */
  sampleBody?: unknown;
  /** Module names accepted in `params`; empty when the method has no modules. */
  modules?: readonly string[];
  /** `data` is an object keyed by subject (bulk): CSV and Newline give one block per key. */
  keyed?: boolean;
  /** Datasets the answer is built from; `explain=yes` lists them with their versions. */
  datasets?: readonly DatasetInfo[];
  /** The success envelope has no `executionTime` (the spec's deviation for user deletion). */
  noExecutionTime?: boolean;
  /** false: a call with `userID` is not kept in the request log (user deletion must not leave a record of the user it deleted). */
  requestLog?: boolean;
  /** Error code for input Fastify rejects before the handler (bad JSON body, odd Content-Type). */
  inputErrorCode?: ErrorCode;
  /**
   * Custom rules, blacklists and events (src/policy): the rule group and how to find the scored
   * subjects in the answer. Absent: the method takes no part in the policy layer (country, /ip).
   * Applied to live and test answers alike; events are raised for live calls only.
   */
  policy?: EndpointPolicy;
  /** Live answer. Throw ApiError for invalid input. */
  live(ctx: RequestContext): unknown;
  /** Test-mode answer: same shape, deterministic per input, no quota, events or network. */
  test(ctx: RequestContext): unknown;
}
