import { ApiError } from '../errors.ts';
import type { Caller } from '../context.ts';
import { readParam } from '../params.ts';

/** The API key of a request: `Authorization: Bearer` wins over the `key` query parameter. */
export function extractKey(query: Readonly<Record<string, unknown>>, authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization === 'string') {
    const m = /^Bearer(?:\s+(.*))?$/i.exec(authorization.trim());
    if (m) return m[1]?.trim() ?? '';
  }
  return readParam(query, 'key', 101);
}

export interface KeyResolver {
  resolve(plaintext: string): Promise<Caller | null>;
}

/** Step 2: the key exists and is not revoked (101). */
export async function checkKey(key: string | undefined, resolver: KeyResolver): Promise<Caller> {
  if (key === undefined || key === '') throw new ApiError(101);
  const caller = await resolver.resolve(key);
  if (!caller) throw new ApiError(101);
  return caller;
}
