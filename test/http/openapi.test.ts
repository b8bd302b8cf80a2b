/**
 * /openapi.json against the OpenAPI 3.1 schema, its completeness (every method with tags, security, a
 * request body schema where it takes a body, and response schemas), and real answers of every method,
 * in live and test mode, against the documented schemas with every object closed: a field the code
 * sends without documenting it fails here, and so does a documented field that is not sent.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildEndpoints } from '../../src/http/routes/index.ts';
import { OPERATIONS } from '../../src/http/operations.ts';
import { errorCodesOf, schemaStem } from '../../src/http/openapi/document.ts';
import { liveKey, makeTestApp, sharedEngineData, type TestApp } from '../helpers/harness.ts';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; example?: unknown }>;
  requestBody?: { content: Record<string, { schema?: Json; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: Json; examples?: Record<string, { value: unknown }> }> }>;
}
interface Doc {
  openapi: string;
  servers?: Array<{ url: string }>;
  tags?: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

const ENDPOINTS = buildEndpoints(sharedEngineData());
const KEY = liveKey('openapi');
let t: TestApp;
let doc: Doc;

before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'openapi', plan: 'premium', keys: [KEY] }] } });
  const res = await t.app.inject({ url: '/openapi.json' });
  doc = JSON.parse(res.body) as Doc;
});
after(() => t.close());

/** Every object schema closed (unevaluatedProperties also sees through allOf/anyOf), refs kept. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, closed(s)])) : closed(v);
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && out.properties && out.additionalProperties === undefined && out.unevaluatedProperties === undefined) out.unevaluatedProperties = false;
  return out;
}

const validators = new Map<boolean, (name: string, value: unknown) => string>();
/** A validator of the document's component schemas, every object closed when `strict`; compiled once. */
function validatorFor(strict: boolean) {
  const known = validators.get(strict);
  if (known) return known;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'doc', components: { schemas: strict ? closed(doc.components.schemas) : doc.components.schemas } });
  const check = (name: string, value: unknown): string => {
    const validate = ajv.getSchema(`doc#/components/schemas/${name}`);
    assert.ok(validate, name);
    return validate(value) ? '' : ajv.errorsText(validate.errors, { separator: '\n' });
  };
  validators.set(strict, check);
  return check;
}

function operations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]): [string, string, Operation] => [path, method, op]));
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    assert.equal(validator.version, '3.1');
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
  });

  it('has servers and tags, and documents every API method once', () => {
    assert.ok(doc.servers?.length);
    assert.deepEqual(doc.tags?.map((t) => t.name), ['lookup', 'scoring', 'feedback', 'account']);
    const ids = operations().map(([, , op]) => op.operationId).sort();
    assert.deepEqual(ids, Object.keys(OPERATIONS).sort());
  });

  it('every method has a tag, its security, response schemas, and a request body schema where it takes a body', () => {
    for (const [path, method, op] of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      const def = ENDPOINTS.find((d) => d.operation === op.operationId);
      assert.ok(def, where);
      assert.equal(op.tags?.length, 1, where);
      assert.ok(doc.tags?.some((t) => t.name === op.tags?.[0]), where);
      if (path === '/ip') assert.deepEqual(op.security, [], 'GET /ip needs no key');
      else assert.deepEqual(op.security, [{ apiKey: [] }, { bearer: [] }], where);
      assert.ok(!op.parameters?.some((p) => p.name === 'key'), `${where}: the key is a security scheme, not a parameter`);
      const ok = op.responses['200']?.content;
      assert.ok(ok, where);
      const stem = schemaStem(def.operation);
      assert.deepEqual(ok['application/json']?.schema, { oneOf: [{ $ref: `#/components/schemas/${stem}Success` }, { $ref: '#/components/schemas/ErrorEnvelope' }] }, where);
      for (const type of ['application/javascript', 'application/xml', 'text/csv', 'text/plain']) {
        assert.equal(ok[type]?.schema?.type, 'string', `${where} ${type}`);
        assert.ok(ok[type]?.examples?.success && ok[type]?.examples?.error, `${where} ${type} examples`);
      }
      assert.ok(doc.components.schemas[`${stem}Data`], `${where} data schema`);
      const takesBody = method === 'post' || method === 'delete';
      assert.equal(op.requestBody !== undefined, takesBody, `${where} request body`);
      if (takesBody) {
        assert.deepEqual(op.requestBody?.content['application/json']?.schema, { $ref: `#/components/schemas/${stem}Body` }, where);
        assert.ok(doc.components.schemas[`${stem}Body`], where);
      }
    }
  });

  it('the examples match their schemas (bodies, success and error envelopes)', () => {
    const check = validatorFor(true);
    for (const [path, , op] of operations()) {
      const stem = schemaStem(op.operationId as keyof typeof OPERATIONS);
      const json = op.responses['200']?.content?.['application/json']?.examples ?? {};
      assert.equal(check(`${stem}Success`, json.success?.value), '', `${path} success example`);
      assert.equal(check('ErrorEnvelope', json.error?.value), '', `${path} error example`);
      const body = op.requestBody?.content['application/json'];
      if (body) assert.equal(check(`${stem}Body`, body.example), '', `${path} body example`);
    }
  });
});

/** Inputs beyond each method's sample whose answers take other branches (IPv6, bogons, invalid verdicts, options). */
const EXTRA_INPUTS: Partial<Record<keyof typeof OPERATIONS, Array<Record<string, string>>>> = {
  'lookup.ip': [{ ip: '2606:4700:4700::1111' }, { ip: '10.0.0.1' }, { ip: '81.2.69.160', lang: 'JA' }],
  'lookup.ip.bulk': [{ ips: '2606:4700:4700::1111,::1' }],
  'lookup.bin': [{ bin: '411111' }, { bin: '123456' }],
  'lookup.iban': [{ iban: 'SA0380000000608010167519' }, { iban: 'DE00370400440532013000' }],
  'lookup.country': [{ CountryCode: 'NO' }],
  'lookup.asn': [{ asn: '4200000000' }],
  'scoring.email': [{ email: 'jane@gmial.com' }, { email: 'info@mailinator.com' }],
  'scoring.phone': [{ phone: '12345', countryCode: 'US' }],
  'scoring.profanity': [{ text: 'you are an idiot', listBadWords: 'yes' }, { text: 'hello', scoreOnly: 'yes' }],
};

describe('real answers match the documented schemas', () => {
  const MEDIA: Record<string, string> = { JSON: 'application/json', XML: 'application/xml', CSV: 'text/csv', Newline: 'text/plain' };

  for (const def of ENDPOINTS) {
    const path = OPERATIONS[def.operation].path;
    const stem = schemaStem(def.operation);
    const send = (query: Record<string, string>) =>
      t.app.inject({
        method: def.method,
        url: path,
        query: { key: KEY, ...query },
        ...(def.sampleBody === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(def.sampleBody) }),
      });
    const modules: Record<string, string> = def.modules?.length ? { params: def.modules.join(',') } : {};

    for (const mode of ['live', 'test']) {
      it(`${def.method} ${path} (${mode}, every module, explain=yes)`, async () => {
        const res = await send({ ...def.sample, ...modules, mode, explain: 'yes' });
        const body = JSON.parse(res.body) as Json;
        assert.equal(body.status, 'success', res.body);
        assert.equal(validatorFor(true)(`${stem}Success`, body), '', res.body.slice(0, 300));
      });
    }

    for (const extra of EXTRA_INPUTS[def.operation] ?? []) {
      it(`${def.method} ${path} ${JSON.stringify(extra)}`, async () => {
        const res = await send({ ...extra, ...modules });
        const body = JSON.parse(res.body) as Json;
        assert.equal(body.status, 'success', res.body);
        assert.equal(validatorFor(true)(`${stem}Success`, body), '', res.body.slice(0, 300));
      });
    }

    it(`${def.method} ${path}: plain answer, an error, and the media type of each format`, async () => {
      const plain = await send({ ...def.sample });
      assert.equal(validatorFor(true)(`${stem}Success`, JSON.parse(plain.body)), '', plain.body.slice(0, 300));
      const bad = await send({ ...def.sample, format: 'YAML' });
      const error = JSON.parse(bad.body) as Json;
      assert.equal(error.status, 'error');
      assert.equal(validatorFor(true)('ErrorEnvelope', error), '', bad.body);
      assert.ok(errorCodesOf(def).includes(error.code as never), String(error.code));
      if (def.inputErrorCode !== undefined) assert.ok(errorCodesOf(def).includes(def.inputErrorCode));
      if (def.sampleBody !== undefined) {
        const invalid = await t.app.inject({ method: def.method, url: path, query: { key: KEY }, headers: { 'content-type': 'application/json' }, payload: '{' });
        const code = (JSON.parse(invalid.body) as Json).code;
        assert.ok(errorCodesOf(def).includes(code as never), `${String(code)} for a body that is not JSON`);
      } else if (Object.keys(def.sample).length > 0) {
        const empty = await t.app.inject({ method: def.method, url: path, query: { key: KEY } });
        const code = (JSON.parse(empty.body) as Json).code;
        assert.ok(errorCodesOf(def).includes(code as never), `${String(code)} without the method's parameters`);
      }
      const documented = Object.keys(doc.paths[path]?.[def.method.toLowerCase()]?.responses['200']?.content ?? {});
      for (const [format, type] of Object.entries(MEDIA)) {
        const res = await send({ ...def.sample, format });
        assert.equal(String(res.headers['content-type']).split(';')[0], type, format);
        assert.ok(documented.includes(type), `${format} ${type}`);
      }
      const jsonp = await send({ ...def.sample, callback: 'cb' });
      assert.equal(String(jsonp.headers['content-type']).split(';')[0], 'application/javascript');
      assert.ok(documented.includes('application/javascript'));
    });
  }
});
