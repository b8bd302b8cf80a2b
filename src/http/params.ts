import { ApiError, type ErrorCode } from './errors.ts';

/**
 * One query parameter as a string. A repeated parameter (`?ip=a&ip=b`) is ambiguous, so it is
 * rejected with the parameter's own error code rather than silently picking one value.
 */
export function readParam(query: Readonly<Record<string, unknown>>, name: string, code: ErrorCode): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  throw new ApiError(code, `The "${name}" parameter must be given once, as a single string.`);
}

/** Like readParam, but a missing or empty value is an error too. */
export function requireParam(query: Readonly<Record<string, unknown>>, name: string, code: ErrorCode): string {
  const v = readParam(query, name, code);
  if (v === undefined || v.trim() === '') throw new ApiError(code, `The "${name}" parameter is required.`);
  return v;
}
