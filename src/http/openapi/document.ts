/**
 * Completes the OpenAPI 3.1 document @fastify/swagger builds from the routes (paths, operation ids, query
 * parameters) with what the routes do not declare to Fastify: request bodies, response envelopes per
 * format, examples, tags and per-operation security. Kept out of the route schemas on purpose: a
 * `response` schema on a Fastify route would switch on its serializer (dropping undocumented fields,
 * changing number formatting) and a `body` schema its validator, and the answers must stay exactly as the
 * pipeline writes them.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { EndpointDef, JsonSchema } from '../endpoint.ts';
import { ERRORS, errorBody, type ErrorCode } from '../errors.ts';
import { render, type Format } from '../formats/index.ts';
import { OPERATIONS, type OperationName } from '../operations.ts';
import { ANSWERS } from './answers.ts';
import { BODIES } from './bodies.ts';
import { EXAMPLES } from './examples.ts';
import { SHARED_SCHEMAS } from './shared-schemas.ts';
import { ref } from './schema-kit.ts';

export const TAGS = [
  { name: 'lookup', description: 'Facts about an IP address, AS, country, card BIN, IBAN or domain' },
  { name: 'scoring', description: 'Risk scores of an email, phone number, text or payment' },
  { name: 'feedback', description: 'Outcomes and labels that later scores learn from (free)' },
  { name: 'account', description: 'Your users\' data (free)' },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

export function tagOf(operation: OperationName): Tag {
  if (operation.startsWith('scoring.')) return 'scoring';
  if (operation.startsWith('feedback.')) return 'feedback';
  if (operation.startsWith('account.')) return 'account';
  return 'lookup';
}

/** `lookup.ip.bulk` -> `LookupIpBulk`: the stem of the operation's component names. */
export function schemaStem(operation: OperationName): string {
  return operation.split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** The components every document carries: security schemes, shared blocks, the error envelope. */
export function baseComponents(): OpenAPIV3_1.ComponentsObject {
  const codes = Object.keys(ERRORS).map(Number);
  return {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'query', name: 'key', description: 'API key as the `key` query parameter' },
      bearer: { type: 'http', scheme: 'bearer', description: 'API key as `Authorization: Bearer <key>` (used when both are sent)' },
    },
    schemas: {
      ...(SHARED_SCHEMAS as Record<string, OpenAPIV3_1.SchemaObject>),
      ErrorEnvelope: {
        type: 'object',
        description: 'Every error, with HTTP status 200 (404 for an unknown path): check `status`, not only the HTTP code.',
        properties: {
          status: { const: 'error' },
          code: { type: 'integer', enum: codes, description: 'See the error catalogue in the README' },
          type: { type: 'string', enum: [...new Set(Object.values(ERRORS).map((e) => e.type))] },
          description: { type: 'string', description: 'What to fix, in a full sentence' },
        },
        required: ['status', 'code', 'type', 'description'],
      },
    },
  };
}

/** The documented `data` of a method: its answer schema, plus `explanation` (explain=yes) on object answers. */
function dataSchema(operation: OperationName): JsonSchema {
  const answer = ANSWERS[operation] as JsonSchema;
  if (answer.type !== 'object') return answer;
  const properties = { ...(answer.properties as Record<string, JsonSchema> | undefined), explanation: ref('Explanation') };
  return { ...answer, properties };
}

function successSchema(def: EndpointDef): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    data: ref(`${schemaStem(def.operation)}Data`),
    status: { const: 'success' },
    ...(def.noExecutionTime ? {} : { executionTime: { type: 'integer', description: 'Milliseconds' } }),
  };
  return { type: 'object', properties, required: Object.keys(properties) };
}

const TEXT_FORMATS: Array<{ format: Format; type: string; what: string }> = [
  { format: 'XML', type: 'application/xml', what: '`format=XML`: `<response>` holding the envelope; array items as `<item>`' },
  { format: 'CSV', type: 'text/csv', what: '`format=CSV`: a header row of the dot paths of every leaf of `data`, then one row (one per address for bulk); errors as code,type,description' },
  { format: 'Newline', type: 'text/plain', what: '`format=Newline`: one `path: value` line per leaf' },
];

/** Each method's own input errors (spec "Endpoints"; decisions.md); the pipeline's come from its steps. */
const OWN_ERRORS = {
  'ip.self': [], geoip: [], 'lookup.ip': [112], 'lookup.ip.bulk': [112], 'lookup.ip.threats': [112], 'lookup.asn': [121],
  'lookup.country': [116], 'lookup.bin': [120], 'lookup.domain': [128], 'lookup.iban': [122], 'scoring.profanity': [129],
  'scoring.email': [119], 'scoring.phone': [118, 116], 'scoring.payment': [130], 'account.users.delete': [125, 124, 126],
  'feedback.payment': [131], 'feedback.event': [131], 'feedback.bulk': [131, 132],
} as const satisfies Record<OperationName, readonly ErrorCode[]>;

/** Every code a method can answer, in the order of checks (spec "Authentication"), then its own, then 115. */
export function errorCodesOf(def: EndpointDef): ErrorCode[] {
  const op = OPERATIONS[def.operation];
  const modules = (def.modules?.length ?? 0) > 0;
  const options: ErrorCode[] = [107, 108, 109, 110, 111, 123, ...(modules ? [104 as const] : [])];
  const keyed: ErrorCode[] = op.planMethod === null ? [] : [101, 102, 127, 105, 113, 117, ...(modules ? [114 as const] : []), 106, ...(op.free ? [] : [103 as const])];
  return [...options, ...keyed, ...OWN_ERRORS[def.operation], 115];
}

/** The error an example shows: the method's own input error, else the key error every keyed method can give. */
function exampleError(def: EndpointDef): Record<string, unknown> {
  const code: ErrorCode = def.inputErrorCode ?? (OPERATIONS[def.operation].planMethod === null ? 108 : 101);
  return { ...errorBody(code) };
}

function exampleEnvelope(def: EndpointDef): Record<string, unknown> {
  const data = EXAMPLES[def.operation];
  return def.noExecutionTime ? { data, status: 'success' } : { data, status: 'success', executionTime: 3 };
}

/** The 200 answer: the JSON envelope (success or error), JSONP, and the text formats, each with examples. */
function response(def: EndpointDef): OpenAPIV3_1.ResponseObject {
  const success = exampleEnvelope(def);
  const error = exampleError(def);
  const keyed = def.keyed ?? false;
  const text = (type: string, what: string, rendered: (b: Record<string, unknown>) => string): OpenAPIV3_1.MediaTypeObject => ({
    schema: { type: 'string', description: what },
    examples: { success: { value: rendered(success) }, error: { value: rendered(error) } },
  });
  const content: Record<string, OpenAPIV3_1.MediaTypeObject> = {
    'application/json': {
      schema: { oneOf: [ref(`${schemaStem(def.operation)}Success`), ref('ErrorEnvelope')] },
      examples: { success: { summary: 'Success', value: success }, error: { summary: 'Error (still HTTP 200)', value: error } },
    },
    'application/javascript': text('application/javascript', 'With `callback=NAME` (JSON only): `/**/ NAME(<envelope>);`', (b) => render(b, { format: 'JSON', callback: 'handle' }).body),
  };
  for (const f of TEXT_FORMATS) content[f.type] = text(f.type, f.what, (b) => render(b, { format: f.format, keyed }).body);
  return {
    description:
      'The success envelope, or the error envelope (also HTTP 200). The media type follows the `format` and `callback` options. ' +
      `Error codes of this method: ${errorCodesOf(def).join(', ')}.`,
    headers: {
      'Server-Timing': { description: 'Time of each stage (auth, engine, policy, format)', schema: { type: 'string' } },
      'Access-Control-Allow-Origin': { description: 'Always *', schema: { type: 'string' } },
    },
    content,
  };
}

/** Component schemas of the methods: `<Stem>Data`, `<Stem>Success` and, for a body, `<Stem>Body`. */
function methodSchemas(defs: readonly EndpointDef[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const def of defs) {
    const stem = schemaStem(def.operation);
    out[`${stem}Data`] = dataSchema(def.operation);
    out[`${stem}Success`] = successSchema(def);
    const body = (BODIES as Partial<Record<OperationName, JsonSchema>>)[def.operation];
    if (body) out[`${stem}Body`] = body;
  }
  return out;
}

type Operation = OpenAPIV3_1.OperationObject;

function completeOperation(op: Operation, def: EndpointDef): void {
  op.tags = [tagOf(def.operation)];
  op.security = OPERATIONS[def.operation].planMethod === null ? [] : [{ apiKey: [] }, { bearer: [] }];
  // Swagger UI fills "Try it out" from a parameter's own example.
  for (const p of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
    const examples = (p.schema as { examples?: unknown[] } | undefined)?.examples;
    if (examples?.length) p.example = examples[0];
  }
  const body = (BODIES as Partial<Record<OperationName, JsonSchema>>)[def.operation];
  if (body) {
    op.requestBody = {
      // Deletion also reads `value` and `type` from the query when there is no body.
      required: def.method !== 'DELETE',
      content: { 'application/json': { schema: ref(`${schemaStem(def.operation)}Body`), example: def.sampleBody } },
    };
  }
  op.responses = { '200': response(def) };
}

/**
 * The transformObject hook of @fastify/swagger: fills every documented API method from its EndpointDef.
 * `defs` are the registered endpoints (a test app may register fewer).
 */
export function completeDocument(doc: OpenAPIV3_1.Document, defs: readonly EndpointDef[]): OpenAPIV3_1.Document {
  const byOperation = new Map(defs.map((d) => [d.operation as string, d]));
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'delete'] as const) {
      const op = item?.[method];
      const def = op?.operationId ? byOperation.get(op.operationId) : undefined;
      if (op && def) completeOperation(op, def);
    }
  }
  const documented = defs.filter((d) => d.operation in ANSWERS);
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...(methodSchemas(documented) as Record<string, OpenAPIV3_1.SchemaObject>) } };
  return doc;
}

/**
 * The document's head: OpenAPI 3.1, tags, servers and components. The server is PUBLIC_URL when set, else
 * the address the document was fetched from (a relative URL), so /docs "Try it out" calls this server.
 */
export function apiDocumentBase(publicUrl: string | undefined): Partial<OpenAPIV3_1.Document> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version: '1.0.0',
      description:
        'Fraud prevention and user intelligence. Every answer is HTTP 200 with `status` success or error (check `status`); ' +
        'errors carry a numbered `code` from the catalogue in the README. Send the API key as the `key` query parameter or as ' +
        '`Authorization: Bearer <key>`; a `svc_test_` key (or `mode=test`) answers realistic fake data for free.',
    },
    servers: [publicUrl ? { url: publicUrl, description: 'This server (PUBLIC_URL)' } : { url: '/', description: 'This server' }],
    tags: TAGS.map((t) => ({ ...t })),
    components: baseComponents(),
  };
}
