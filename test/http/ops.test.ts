/**
 * Operations surface: health and readiness, Prometheus metrics, the OpenAPI document and the
 * reference page, CORS, 404s and Server-Timing. Real SQLite store, app.inject.
 */
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('ops');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let t: TestApp;
before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'ops', plan: 'premium', keys: [KEY] }] } });
});
after(() => t.close());

async function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}
const json = (body: string): Record<string, unknown> => JSON.parse(body) as Record<string, unknown>;
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('X-Vigil-Version and X-Request-Id on every answer', () => {
  const urls = [`/lookup/country?CountryCode=DE&key=${KEY}`, '/lookup/country?CountryCode=ZZ', '/healthz', '/metrics', '/nope', '/openapi.json', '/admin/accounts'];
  for (const url of urls) {
    it(`${url}: the version, and a generated request id (a UUID)`, async () => {
      const res = await get(url);
      assert.equal(res.headers['x-vigil-version'], VERSION);
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });
  }

  it('a sane X-Request-Id of the caller is echoed; an odd one is replaced; each request gets its own', async () => {
    const kept = await get(`/lookup/country?CountryCode=DE&key=${KEY}`, { 'x-request-id': 'trace-4bf92f35:01' });
    assert.equal(kept.headers['x-request-id'], 'trace-4bf92f35:01');
    for (const odd of ['has space', 'x'.repeat(129), '<script>', 'a"b']) {
      const res = await get('/healthz', { 'x-request-id': odd });
      assert.notEqual(res.headers['x-request-id'], odd);
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    }
    const [a, b] = await Promise.all([get('/healthz'), get('/healthz')]);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });
});

describe('health and readiness', () => {
  it('/healthz is 200 ok with the version of package.json', async () => {
    const res = await get('/healthz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res.body), { status: 'ok', version: VERSION });
  });

  it('/readyz is 200 with the store and counters checks ok', async () => {
    const res = await get('/readyz');
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res.body);
    assert.equal(body.status, 'ready');
    assert.deepEqual(body.checks, { 'store:sqlite': 'ok', 'counters:memory': 'ok' });
    // details.dns: the resolver canary (the shared test data has the network off); test/http/dns-canary.test.ts has the rest.
    assert.deepEqual((body.details as { dns: unknown }).dns, { state: 'off' });
  });

  it('/readyz names the Redis counters when they are used', async () => {
    const r = await makeTestApp({ redisUrl: REDIS_URL });
    try {
      const res = await r.app.inject({ url: '/readyz' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res.body).checks, { 'store:sqlite': 'ok', 'counters:redis': 'ok' });
    } finally {
      await r.close();
    }
  });

  it('/readyz is 503 with the store unavailable once the store is closed; /healthz stays 200', async () => {
    const broken = await makeTestApp();
    try {
      assert.equal((await broken.app.inject({ url: '/readyz' })).statusCode, 200);
      await broken.store.close();
      const res = await broken.app.inject({ url: '/readyz' });
      assert.equal(res.statusCode, 503, res.body);
      const body = json(res.body);
      assert.equal(body.status, 'not_ready');
      assert.deepEqual(body.checks, { 'store:sqlite': 'unavailable', 'counters:memory': 'ok' });
      assert.deepEqual((body.details as { dns: unknown }).dns, { state: 'off' });
      assert.equal((await broken.app.inject({ url: '/healthz' })).statusCode, 200);
    } finally {
      // close() closes the store again, which is harmless.
      await broken.close();
    }
  });
});

/** The value of one sample in Prometheus text, or 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics', () => {
  it('is Prometheus text with request counts per operation and code, and latency buckets', async () => {
    const ok = 'vigil_requests_total{operation="lookup.country",code="0"}';
    const badKey = 'vigil_requests_total{operation="lookup.country",code="101"}';
    const count = 'vigil_request_duration_seconds_count{operation="lookup.country"}';
    const before = (await get('/metrics')).body;

    assert.equal(json((await get(`/lookup/country?CountryCode=DE&key=${KEY}`)).body).status, 'success');
    assert.equal(json((await get(`/lookup/country?CountryCode=FR&key=${KEY}`)).body).status, 'success');
    assert.equal(json((await get(`/lookup/country?CountryCode=DE&key=${liveKey('nobody')}`)).body).code, 101);

    const res = await get('/metrics');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = res.body;
    assert.match(text, /^# HELP vigil_requests_total /m);
    assert.match(text, /^# TYPE vigil_requests_total counter$/m);
    assert.match(text, /^# TYPE vigil_request_duration_seconds histogram$/m);
    assert.equal(sample(text, ok) - sample(before, ok), 2);
    assert.equal(sample(text, badKey) - sample(before, badKey), 1);
    assert.equal(sample(text, count) - sample(before, count), 3);
    assert.match(text, /^vigil_request_duration_seconds_bucket\{le="0\.001",operation="lookup\.country"\} \d+$/m);
    assert.equal(sample(text, 'vigil_request_duration_seconds_bucket{le="+Inf",operation="lookup.country"}'), sample(text, count));
  });

  it('counts other operations and codes separately, and admin or health calls not at all', async () => {
    await get('/ip');
    await get('/ip?format=PDF');
    await get('/healthz');
    const text = (await get('/metrics')).body;
    assert.ok(sample(text, 'vigil_requests_total{operation="ip.self",code="0"}') >= 1);
    assert.ok(sample(text, 'vigil_requests_total{operation="ip.self",code="108"}') >= 1);
    assert.doesNotMatch(text, /operation="(healthz|readyz|metrics|admin[^"]*)"/);
  });

  it('never exposes keys or account ids', async () => {
    const text = (await get('/metrics')).body;
    assert.ok(!text.includes(KEY));
    assert.doesNotMatch(text, /svc_(live|test)_|account/);
  });
});

interface OpenApi {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string; in: string; required?: boolean; schema?: { enum?: string[] } }[] }>>;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
}

describe('/openapi.json', () => {
  let doc: OpenApi;
  before(async () => {
    const res = await get('/openapi.json');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    doc = JSON.parse(res.body) as OpenApi;
  });

  it('is an OpenAPI 3 document listing the API methods', () => {
    assert.match(doc.openapi, /^3\.\d+\.\d+$/);
    assert.equal(doc.info.title, 'Vigil API');
    assert.ok(doc.paths['/lookup/country']?.get, Object.keys(doc.paths).join(' '));
    assert.ok(doc.paths['/ip']?.get);
    assert.equal(doc.paths['/lookup/country']?.get?.operationId, 'lookup.country');
  });

  it('/lookup/country documents CountryCode as required and the common options', () => {
    const params = doc.paths['/lookup/country']?.get?.parameters ?? [];
    const byName = new Map(params.map((p) => [p.name, p]));
    assert.equal(byName.get('CountryCode')?.required, true);
    assert.equal(byName.get('CountryCode')?.in, 'query');
    for (const name of ['format', 'lang', 'mode', 'callback', 'userID', 'explain', 'params']) {
      assert.ok(byName.has(name), name);
      assert.notEqual(byName.get(name)?.required, true, name);
    }
    assert.deepEqual(byName.get('format')?.schema?.enum, ['JSON', 'XML', 'CSV', 'Newline']);
    // The key is documented through the security schemes (query `key` or bearer).
    const apiKey = doc.components.securitySchemes.apiKey;
    assert.deepEqual({ type: apiKey?.type, in: apiKey?.in, name: apiKey?.name }, { type: 'apiKey', in: 'query', name: 'key' });
    assert.equal(doc.components.securitySchemes.bearer?.type, 'http');
  });

  it('/ip has no required parameter', () => {
    const params = doc.paths['/ip']?.get?.parameters ?? [];
    assert.ok(params.some((p) => p.name === 'format'));
    assert.ok(params.every((p) => p.required !== true));
  });

  it('does not list the admin API, flags, health, metrics or the docs themselves', () => {
    for (const path of Object.keys(doc.paths)) {
      assert.doesNotMatch(path, /^\/(admin|flags|healthz|readyz|metrics|openapi\.json|docs)(\/|$)/, path);
    }
    assert.ok(!JSON.stringify(doc).includes('/admin'), 'no mention of /admin');
  });

  it('/docs/json serves the same document', async () => {
    const res = await get('/docs/json');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys((JSON.parse(res.body) as OpenApi).paths).sort(), Object.keys(doc.paths).sort());
  });
});

describe('/docs', () => {
  it('answers HTML whose scripts and styles are served locally', async () => {
    let res = await get('/docs');
    if (res.statusCode >= 300 && res.statusCode < 400) res = await get(String(res.headers.location));
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<div id="swagger-ui">/);
    const refs = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(refs.length >= 3, refs.join(' '));
    for (const ref of refs) assert.doesNotMatch(ref, /^(https?:)?\/\//, `external asset ${ref}`);
    const assets = refs.filter((r) => /\.(js|css)$/.test(r)).map((r) => new URL(r, 'http://localhost/docs/').pathname);
    assert.ok(assets.some((a) => a.endsWith('.js')));
    assert.ok(assets.some((a) => a.endsWith('.css')));
    for (const asset of assets) {
      assert.match(asset, /^\/docs\/static\//);
      const a = await get(asset);
      assert.equal(a.statusCode, 200, asset);
      assert.match(String(a.headers['content-type']), asset.endsWith('.js') ? /javascript/ : /text\/css/, asset);
      assert.ok(a.rawPayload.length > 100, asset);
    }
  });

  it('/docs/ (trailing slash) answers the page too', async () => {
    const res = await get('/docs/');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /swagger-ui-bundle\.js/);
  });
});

describe('CORS', () => {
  for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/nope', '/flags/svg/de.svg', '/flags/svg/zz.svg', '/flags/png/250px/fr.png', '/ip']) {
    it(`allow-origin * on GET ${url}`, async () => {
      const res = await get(url);
      assert.ok([200, 404].includes(res.statusCode), `${url} ${res.statusCode}`);
      assert.equal(res.headers['access-control-allow-origin'], '*');
    });
  }

  it('allow-origin * on a request the router cannot read (bad percent-encoding, overlong parameter)', async () => {
    for (const url of ['/flags/svg/%E0%A4%A', `/flags/svg/${'x'.repeat(500)}.svg`]) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, url);
      assert.equal(json(res.body).type, 'bad_request');
      assert.equal(res.headers['access-control-allow-origin'], '*', url);
    }
  });

  for (const url of ['/anything', '/lookup/country', '/admin/accounts']) {
    it(`OPTIONS ${url} → 204 with allowed methods and headers`, async () => {
      const res = await t.app.inject({ method: 'OPTIONS', url, headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'GET' } });
      assert.equal(res.statusCode, 204);
      assert.equal(res.body, '');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.match(String(res.headers['access-control-allow-methods']), /\bGET\b/);
      assert.match(String(res.headers['access-control-allow-methods']), /\bPOST\b/);
      assert.match(String(res.headers['access-control-allow-headers']), /Authorization/i);
      assert.match(String(res.headers['access-control-allow-headers']), /Content-Type/i);
    });
  }
});

describe('404 envelope', () => {
  const cases: ['GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH', string][] = [
    ['GET', '/nope'],
    ['GET', '/lookup'],
    ['GET', '/lookup/country/extra'],
    ['POST', '/nope'],
    ['DELETE', '/admin/nothing/here'],
    ['GET', '/admin'],
  ];
  for (const [method, url] of cases) {
    it(`${method} ${url} → HTTP 404 with the JSON error envelope`, async () => {
      const res = await t.app.inject({ method, url, query: { key: KEY } });
      assert.equal(res.statusCode, 404, res.body);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const body = json(res.body);
      assert.deepEqual(Object.keys(body).sort(), ['code', 'description', 'status', 'type']);
      assert.equal(body.status, 'error');
      assert.equal(body.code, 404);
      assert.equal(body.type, 'not_found');
      assert.match(String(body.description), /\/docs/);
    });
  }

  const wrongMethod: ['GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH', string, string][] = [
    ['GET', '/scoring/payment', 'POST'],
    ['POST', '/lookup/country', 'GET, HEAD'],
    ['DELETE', '/ip', 'GET, HEAD'],
    ['PUT', '/healthz', 'GET, HEAD'],
    ['PATCH', '/lookup/country?CountryCode=DE', 'GET, HEAD'],
    ['GET', '/scoring/payment/', 'POST'],
  ];
  for (const [method, url, allow] of wrongMethod) {
    it(`${method} ${url} (a known path) → HTTP 405, Allow: ${allow}, and the error envelope naming the methods`, async () => {
      const res = await t.app.inject({ method, url, query: { key: KEY } });
      assert.equal(res.statusCode, 405, res.body);
      assert.equal(res.headers.allow, allow);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const body = json(res.body);
      assert.deepEqual(Object.keys(body).sort(), ['code', 'description', 'status', 'type']);
      assert.equal(body.status, 'error');
      assert.equal(body.code, 405);
      assert.equal(body.type, 'method_not_allowed');
      assert.equal(body.description, `${method} is not answered at this path; it answers ${allow}. See /docs.`);
    });
  }

  it('a path with a parameter knows its methods too (admin API)', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/admin/accounts/acme/keys' });
    assert.equal(res.statusCode, 405, res.body);
    assert.match(String(res.headers.allow), /GET/);
  });

  it('a wrong method is not served and not metered', async () => {
    const series = 'vigil_requests_total{operation="lookup.country",code="0"}';
    const before = sample((await get('/metrics')).body, series);
    await t.app.inject({ method: 'POST', url: `/lookup/country?CountryCode=DE&key=${KEY}` });
    assert.equal(sample((await get('/metrics')).body, series), before);
  });

  it('an unknown flag image is a 404 envelope too', async () => {
    const res = await get('/flags/png/333px/de.png');
    assert.equal(res.statusCode, 404);
    assert.equal(json(res.body).type, 'not_found');
  });
});

describe('Server-Timing', () => {
  const wellFormed = (header: unknown): string[] => {
    assert.equal(typeof header, 'string', 'Server-Timing present');
    const parts = String(header).split(', ');
    for (const p of parts) assert.match(p, /^[a-z]+;dur=\d+\.\d{3}$/, `element "${p}" of "${String(header)}"`);
    return parts.map((p) => p.split(';')[0] ?? '');
  };

  it('on a success: auth, engine, policy and format', async () => {
    const res = await get(`/lookup/country?CountryCode=DE&key=${KEY}`);
    assert.deepEqual(wellFormed(res.headers['server-timing']), ['auth', 'engine', 'policy', 'format']);
  });

  const errors: [string, number][] = [
    [`/lookup/country?CountryCode=DE`, 101],
    [`/lookup/country?CountryCode=DE&key=${KEY}&format=PDF`, 108],
    [`/lookup/country?CountryCode=ZZZ&key=${KEY}`, 116],
    [`/lookup/country?CountryCode=DE&key=${KEY}&format=XML&lang=XX`, 110],
    ['/ip?callback=1bad', 107],
  ];
  for (const [url, code] of errors) {
    it(`on an error (${code}): present and well-formed, ending with format`, async () => {
      const res = await get(url);
      assert.equal(res.statusCode, 200);
      assert.match(res.body, new RegExp(String(code)));
      const stages = wellFormed(res.headers['server-timing']);
      assert.equal(stages.at(-1), 'format');
    });
  }
});
