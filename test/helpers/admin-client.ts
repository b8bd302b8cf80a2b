import assert from 'node:assert/strict';
import type { TestApp } from './harness.ts';
import { ADMIN_TOKEN } from './harness.ts';

export const ADMIN_AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };

export interface AdminAnswer {
  http: number;
  body: Record<string, unknown>;
  raw: string;
  headers: Record<string, unknown>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An injected response as an admin answer; the body is parsed when it is JSON. */
export function asAdminAnswer(res: { statusCode: number; body: string; headers: Record<string, unknown> }): AdminAnswer {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { http: res.statusCode, body, raw: res.body, headers: res.headers };
}

/** One admin call through app.inject. */
export async function adminCall(
  app: TestApp,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = ADMIN_AUTH,
): Promise<AdminAnswer> {
  return asAdminAnswer(await app.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) }));
}

/** Data of a successful admin answer, with the expected HTTP status checked. */
export function adminData<T = Record<string, unknown>>(a: AdminAnswer, http = 200): T {
  assert.equal(a.http, http, a.raw);
  assert.equal(a.body.status, 'success', a.raw);
  return a.body.data as T;
}

/** An admin error with the given status and type, a description, and no stack trace or source path. */
export function assertAdminError(a: AdminAnswer, http: number, type: string, descriptionMatch?: RegExp): void {
  assert.equal(a.http, http, a.raw);
  assert.equal(a.body.status, 'error', a.raw);
  assert.equal(a.body.type, type, a.raw);
  assert.equal(typeof a.body.description, 'string');
  if (descriptionMatch) assert.match(String(a.body.description), descriptionMatch);
  assert.doesNotMatch(a.raw, /\n\s+at |node_modules|\.ts:\d+/, 'no stack trace or source path');
}
