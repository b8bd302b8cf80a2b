/**
 * Small builders for the JSON Schema (2020-12, as OpenAPI 3.1 uses it) of answers and bodies. They keep the
 * shapes in the route files short enough to read next to the code that builds the answers; the test
 * test/http/openapi-responses.test.ts checks real answers against them with every object closed, so a field
 * the code adds without documenting it fails there.
 */
import type { JsonSchema } from '../endpoint.ts';

export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description && { description }) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description && { description }) });
export const num = (description?: string): JsonSchema => ({ type: 'number', ...(description && { description }) });
export const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description && { description }) });
export const oneOfValues = (values: readonly string[], description?: string): JsonSchema => ({ type: 'string', enum: [...values], ...(description && { description }) });
export const arr = (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description && { description }) });

/** The schema, or null (OpenAPI 3.1: a type list, or anyOf for a composed schema). */
export function nullable(s: JsonSchema): JsonSchema {
  if (typeof s.type === 'string') return { ...s, type: [s.type, 'null'], ...(Array.isArray(s.enum) && { enum: [...(s.enum as unknown[]), null] }) };
  return { anyOf: [s, { type: 'null' }] };
}

/**
 * An object whose every property is always present, except the ones named in `optional` (present only with
 * some options or inputs). Open to more properties: clients must ignore fields they do not know.
 */
export function obj(properties: Record<string, JsonSchema>, opts: { optional?: readonly string[]; description?: string } = {}): JsonSchema {
  const required = Object.keys(properties).filter((k) => !opts.optional?.includes(k));
  return { type: 'object', ...(opts.description && { description: opts.description }), properties, ...(required.length ? { required } : {}) };
}

/** A reference to a schema of components.schemas. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
