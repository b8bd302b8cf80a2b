/**
 * /admin/openapi.json: a valid OpenAPI 3.1 document of its own with every admin route, its bodies and
 * queries from the routes' zod schemas, and /docs offering it beside the API's document.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ADMIN_TOKEN, makeTestApp, type TestApp } from '../helpers/harness.ts';

interface Operation {
  summary: string;
  tags: string[];
  parameters: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  security: unknown;
  components: { schemas: Record<string, unknown> };
}

let t: TestApp;
let doc: Doc;
before(async () => {
  t = await makeTestApp();
  const res = await t.app.inject({ url: '/admin/openapi.json' });
  assert.equal(res.statusCode, 200, 'served without the admin token');
  doc = JSON.parse(res.body) as Doc;
});
after(() => t.close());

describe('/admin/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, with the admin token as its security', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
    assert.deepEqual(doc.security, [{ adminToken: [] }]);
  });

  it('documents every admin route with a summary, a tag and its path parameters', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    assert.ok(ops.length >= 30, String(ops.length));
    for (const { path, method, op } of ops) {
      assert.ok(path.startsWith('/admin/'), path);
      assert.notEqual(op.summary, `${method.toUpperCase()} ${path}`, `${method} ${path} has no entry in src/http/admin/openapi.ts`);
      assert.equal(op.tags.length, 1);
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) assert.ok(op.parameters.some((p) => p.in === 'path' && p.name === name), `${path} ${name}`);
    }
    assert.ok(doc.paths['/admin/accounts']?.post?.requestBody, 'account creation body');
    assert.ok(doc.paths['/admin/accounts/{id}/usage']?.get?.parameters.some((p) => p.in === 'query' && p.name === 'from'));
    assert.ok(doc.paths['/admin/accounts/{id}/blacklists/import']?.post?.requestBody?.content['text/plain']);
  });

  it('a body the schema accepts is accepted by the route, and the answer matches AdminSuccess', async () => {
    const body = { id: 'doc-acme', plan: 'standard', authorizedHosts: ['shop.example.com'], settings: { dailyDeletionLimit: 5 } };
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'admin', components: doc.components });
    const schema = doc.paths['/admin/accounts']?.post?.requestBody?.content['application/json']?.schema;
    assert.ok(schema);
    assert.equal(ajv.validate(schema, body), true, ajv.errorsText());
    assert.equal(ajv.validate(schema, { ...body, colour: 'red' }), false, 'closed like the zod schema');
    const res = await t.app.inject({ method: 'POST', url: '/admin/accounts', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: body });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(ajv.validate({ $ref: 'admin#/components/schemas/AdminSuccess' }, JSON.parse(res.body)), true, ajv.errorsText());
  });

  it('/docs offers the API and the admin API', async () => {
    const res = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /\/admin\/openapi\.json/);
    assert.match(res.body, /"\/openapi\.json"/);
  });

  it('the public document still says nothing of /admin', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    assert.ok(!res.body.includes('/admin'));
  });
});
