/**
 * /metrics beyond requests: the webhook backlog and delivery failures (a real worker posting to a closed
 * port of 127.0.0.1), the decision-log backlog; and the request id in the request's log lines. Real
 * SQLite store, app.inject.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { parseSeed } from '../../src/accounts/seed.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import type { Counters, Store } from '../../src/store/ports.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN, liveKey, sharedEngineData, TEST_CARD_SECRET, TEST_SECRET } from '../helpers/harness.ts';

const KEY = liveKey('backlog');

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics of backlogs and delivery failures; request ids in log lines', () => {
  let dir: string;
  let store: Store;
  let counters: Counters;
  let built: App;
  const lines: Record<string, unknown>[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-backlog-'));
    const closed = await freePort();
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'debug', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' });
    store = await openStore({ dataDir: dir });
    counters = await openCounters({});
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l.trim() !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    built = await buildApp({ config, store, counters, data: sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, logger: pino({ level: 'debug' }, sink), processMetrics: false });
    await built.accounts.ensureBuiltinPlans();
    await built.applySeed(parseSeed(JSON.stringify({ accounts: [{ id: 'bl', plan: 'premium', keys: [KEY], webhooks: [{ url: `http://127.0.0.1:${closed}/hook`, secret: 'whsec_backlog' }] }] })));
    await built.app.ready();
  });
  after(async () => {
    await built.app.close();
    await store.close();
    await counters.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const metrics = async (): Promise<string> => (await built.app.inject({ url: '/metrics' })).body;

  it('every series is there from the start, at 0', async () => {
    const text = await metrics();
    assert.equal(sample(text, 'vigil_webhook_backlog'), 0);
    assert.equal(sample(text, 'vigil_decision_log_backlog'), 0);
    assert.equal(sample(text, 'vigil_webhook_delivery_failures_total{result="retry"}'), 0);
    assert.equal(sample(text, 'vigil_webhook_delivery_failures_total{result="given_up"}'), 0);
  });

  it('a delivery to a closed port: the backlog counts it and each failed attempt is counted as a retry', async () => {
    await store.events.insertEvent({ accountId: 'bl', kind: 'suspicious_ip', risk: 90, subject: '203.0.113.9', userId: null, operation: 'lookup.ip', createdAt: new Date().toISOString(), summary: { ip: '203.0.113.9' } });
    built.policy.worker?.wake();
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await metrics();
      if ((sample(text, 'vigil_webhook_delivery_failures_total{result="retry"}') ?? 0) >= 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok((sample(text, 'vigil_webhook_delivery_failures_total{result="retry"}') ?? 0) >= 1, text);
    assert.equal(sample(text, 'vigil_webhook_backlog'), 1);
  });

  it('the request id is in the request line and in the answer', async () => {
    const res = await built.app.inject({ url: `/lookup/country?CountryCode=DE&key=${KEY}`, headers: { 'x-request-id': 'req-from-proxy-42' } });
    assert.equal(res.headers['x-request-id'], 'req-from-proxy-42');
    const line = lines.find((l) => l.msg === 'request' && l.reqId === 'req-from-proxy-42');
    assert.ok(line, JSON.stringify(lines.filter((l) => l.msg === 'request')));
    assert.equal(line.operation, 'lookup.country');
    const generated = await built.app.inject({ url: `/lookup/country?CountryCode=FR&key=${KEY}` });
    assert.ok(lines.some((l) => l.msg === 'request' && l.reqId === generated.headers['x-request-id']));
  });
});
