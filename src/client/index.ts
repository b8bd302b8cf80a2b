/**
 * A typed client of the Vigil API: openapi-fetch over the types generated from /openapi.json
 * (api-types.ts, `npm run openapi:client`). Every call is typed by path and method: query parameters,
 * bodies and the `data` of each answer.
 *
 * Vigil answers errors with HTTP 200 and `status: "error"` (spec "Common envelope"), so openapi-fetch
 * hands both envelopes back as `data`. `vigil()` below turns the pair into the method's `data` or a
 * thrown VigilApiError carrying the catalogue code.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './api-types.ts';

export type { components, operations, paths } from './api-types.ts';
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
export type VigilClient = Client<paths, 'application/json'>;

export interface VigilClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API is served, such as http://127.0.0.1:8080. */
  baseUrl: string;
  /** API key (`svc_live_...` or `svc_test_...`), sent as `Authorization: Bearer`; GET /ip needs none. */
  key?: string;
}

/** A client for one base URL and key. */
export function createVigilClient({ baseUrl, key, headers, ...rest }: VigilClientOptions): VigilClient {
  return createClient<paths, 'application/json'>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(headers as Record<string, string> | undefined) },
    ...rest,
  });
}

/** An answer with `status: "error"`: `code` and `type` from the error catalogue, `description` says what to fix. */
export class VigilApiError extends Error {
  readonly code: ErrorEnvelope['code'];
  readonly type: ErrorEnvelope['type'];
  constructor(envelope: ErrorEnvelope) {
    super(`${envelope.code} ${envelope.type}: ${envelope.description}`);
    this.name = 'VigilApiError';
    this.code = envelope.code;
    this.type = envelope.type;
  }
}

type Envelope = { status: 'success'; data?: unknown } | ErrorEnvelope;
type DataOf<E> = E extends { status: 'success'; data: infer D } ? D : never;

/**
 * The `data` of a call's answer; throws VigilApiError for an error envelope, and an Error for an answer
 * that is not a Vigil envelope (HTTP failure, a proxy's page).
 */
export async function vigil<E extends Envelope>(call: Promise<{ data?: E; error?: unknown; response: Response }>): Promise<DataOf<E>> {
  const { data, response } = await call;
  if (data && typeof data === 'object' && 'status' in data) {
    if (data.status === 'error') throw new VigilApiError(data);
    return (data as { data: DataOf<E> }).data;
  }
  throw new Error(`Not a Vigil answer: HTTP ${response.status} ${response.statusText}`);
}
