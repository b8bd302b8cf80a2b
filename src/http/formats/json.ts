/** JSON writer: the envelope as is, nothing else on the hot path. */
import type { Rendered } from './index.ts';

const CONTENT_TYPE = 'application/json; charset=utf-8';

/** Renders an envelope as JSON. */
export function renderJson(body: Record<string, unknown>): Rendered {
  return { contentType: CONTENT_TYPE, body: JSON.stringify(body) };
}
