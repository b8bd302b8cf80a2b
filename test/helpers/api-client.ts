import type { TestApp } from './harness.ts';

export interface ApiAnswer<T = Record<string, unknown>> {
  http: number;
  status: string;
  data: T;
  code: number | undefined;
  description: string | undefined;
  body: Record<string, unknown>;
  raw: string;
}

/**
 * One JSON call of the public API through app.inject: `body` is sent as JSON (a string is sent as
 * is, for malformed-body tests), the key as `?key=`.
 */
export async function apiCall<T = Record<string, unknown>>(
  app: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  key: string | undefined,
  body?: unknown,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const res = await app.app.inject({
    method,
    url: path,
    query: key === undefined ? query : { key, ...query },
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    parsed = {};
  }
  return {
    http: res.statusCode,
    status: String(parsed.status),
    data: parsed.data as T,
    code: typeof parsed.code === 'number' ? parsed.code : undefined,
    description: typeof parsed.description === 'string' ? parsed.description : undefined,
    body: parsed,
    raw: res.body,
  };
}
