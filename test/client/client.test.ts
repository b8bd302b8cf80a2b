/**
 * The typed client (src/client/) against a real server on a random port of 127.0.0.1: several methods by
 * query, body and key, an error answer as a thrown VigilApiError, and the committed generated types being
 * what `npm run openapi:client` writes from the served document.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createVigilClient, vigil, VigilApiError, type VigilClient } from '../../src/client/index.ts';
import { CLIENT_TYPES_PATH, clientTypesOf } from '../../scripts/openapi-client.ts';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const LIVE = liveKey('client');
const TEST = testKey('client');
let t: TestApp;
let baseUrl: string;
let api: VigilClient;

before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'client', plan: 'premium', keys: [LIVE, TEST] }] } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = address;
  api = createVigilClient({ baseUrl, key: LIVE });
});
after(() => t.close());

describe('typed client', () => {
  it('GET /ip needs no key', async () => {
    const ip = await vigil(createVigilClient({ baseUrl }).GET('/ip'));
    assert.equal(ip, '127.0.0.1');
  });

  it('GET /lookup/country with a query parameter and a module', async () => {
    const country = await vigil(api.GET('/lookup/country', { params: { query: { CountryCode: 'DE', params: 'currency' } } }));
    assert.equal(country.countryName, 'Germany');
    assert.equal(country.currency?.currencyCode, 'EUR');
  });

  it('GET /lookup/ip/bulk answers keyed by address', async () => {
    const bulk = await vigil(api.GET('/lookup/ip/bulk', { params: { query: { ips: '8.8.8.8,1.1.1.1' } } }));
    assert.equal(bulk['8.8.8.8']?.ip, '8.8.8.8');
    assert.equal(bulk['1.1.1.1']?.ipType, 'IPv4');
  });

  it('POST /scoring/payment, then its outcome by POST /feedback/payment', async () => {
    const scored = await vigil(api.POST('/scoring/payment', { body: { data: { transaction_id: 'client-1', transaction_amount: 20, customer_email: 'jane.doe@example.com' } } }));
    assert.ok(scored.score >= 0 && scored.score <= 100, String(scored.score));
    assert.equal(scored.rulesChecked > 0, true);
    const outcome = await vigil(api.POST('/feedback/payment', { body: { transaction_id: 'client-1', outcome: 'approved' } }));
    assert.deepEqual({ status: outcome.status, matched: outcome.matched, label: outcome.label }, { status: 'applied', matched: 1, label: 'created' });
  });

  it('DELETE /account/users/delete with a test key deletes nothing and answers counts', async () => {
    const counts = await vigil(createVigilClient({ baseUrl, key: TEST }).DELETE('/account/users/delete', { body: { value: 'nobody@example.com' } }));
    assert.equal(typeof counts.emails, 'number');
  });

  it('an error envelope (HTTP 200) is thrown as VigilApiError with its code', async () => {
    await assert.rejects(vigil(api.GET('/lookup/country', { params: { query: { CountryCode: 'XX' } } })), (err: unknown) => {
      assert.ok(err instanceof VigilApiError);
      assert.equal(err.code, 116);
      assert.equal(err.type, 'invalid_country_code');
      return true;
    });
    await assert.rejects(vigil(createVigilClient({ baseUrl, key: 'svc_live_unknown' }).GET('/lookup/bin', { params: { query: { bin: '411111' } } })), (err: unknown) => {
      assert.ok(err instanceof VigilApiError);
      assert.equal(err.code, 101);
      return true;
    });
  });

  it('the raw openapi-fetch answer keeps both envelopes for callers that branch on status', async () => {
    const { data } = await api.GET('/scoring/email', { params: { query: { email: 'not-an-email' } } });
    assert.equal(data?.status, 'error');
    if (data?.status === 'error') assert.equal(data.code, 119);
  });

  it('src/client/api-types.ts is what npm run openapi:client generates from the served document', async () => {
    const served: unknown = await (await fetch(`${baseUrl}/openapi.json`)).json();
    const expected = await clientTypesOf(served);
    assert.ok(readFileSync(CLIENT_TYPES_PATH, 'utf8') === expected, 'src/client/api-types.ts is stale: run npm run openapi:client');
  });
});
