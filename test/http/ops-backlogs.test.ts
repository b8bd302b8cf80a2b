/**
 * /metrics beyond requests: the webhook backlog and delivery failures (a real worker posting to a closed
 * port of 127.0.0.1), the decision-log backlog; and the request id in every log line of a request (the
 * server's own logger), none outside requests. Real SQLite store, app.inject.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { createLogger } from '../../src/logger.ts';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { parseSeed } from '../../src/accounts/seed.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import type { Counters, Store } from '../../src/store/ports.ts';
import { freePort } from '../helpers/free-port.ts';
import { ADMIN_TOKEN, liveKey, sharedEngineData, TEST_CARD_SECRET, TEST_SECRET } from '../helpers/harness.ts';

const KEY = liveKey('backlog');
const WAKE_KEY = liveKey('wake');

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
    built = await buildApp({ config, store, counters, data: sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, logger: createLogger('debug', sink), processMetrics: false });
    await built.accounts.ensureBuiltinPlans();
    await built.applySeed(parseSeed(JSON.stringify({ accounts: [{ id: 'bl', plan: 'premium', keys: [KEY], webhooks: [{ url: `http://127.0.0.1:${closed}/hook`, secret: 'whsec_backlog' }] },
      { id: 'wk', plan: 'premium', keys: [WAKE_KEY], webhooks: [{ url: `http://127.0.0.1:${closed}/wake`, secret: 'whsec_wake' }] }] })));
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

  it('a line logged deep in a request (the event store failing) carries the request id; lines outside requests none', async () => {
    assert.equal(lines.some((l) => l.msg === 'webhook delivery failed; will retry' && 'reqId' in l), false, 'worker lines carry no request id');
    // A real store failure: the events table refuses inserts (a trigger on the same SQLite file).
    const db = new Database(join(dir, 'vigil.db'));
    db.exec("CREATE TRIGGER refuse_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
    const from = lines.length;
    try {
      const res = await built.app.inject({ url: `/lookup/iban?iban=DE88370400440532013000&userID=u-log&key=${KEY}`, headers: { 'x-request-id': 'deep-42' } });
      assert.equal(res.headers['x-request-id'], 'deep-42');
      assert.equal((JSON.parse(res.body) as { data: { isValid: boolean } }).data.isValid, false);
    } finally {
      db.exec('DROP TRIGGER refuse_events');
      db.close();
    }
    const mine = lines.slice(from).filter((l) => l.reqId === 'deep-42');
    const stored = mine.find((l) => l.msg === 'event could not be stored');
    assert.ok(stored, JSON.stringify(lines.slice(from)));
    assert.equal(stored.kind, 'invalid_iban');
    assert.match(JSON.stringify(stored.err), /disk says no/);
    assert.ok(mine.some((l) => l.msg === 'request' && l.operation === 'lookup.iban'));
    assert.equal(Object.keys(stored).filter((k) => k === 'reqId').length, 1);

    // The event of a second request is stored and wakes the webhook worker: its delivery lines (the worker's
    // own loop, not the request) carry no request id, though a request started them.
    const before = lines.length;
    const res = await built.app.inject({ url: `/lookup/iban?iban=DE88370400440532013000&userID=u-log2&key=${WAKE_KEY}`, headers: { 'x-request-id': 'wakes-43' } });
    assert.equal(res.headers['x-request-id'], 'wakes-43');
    let worker: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && worker === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      worker = lines.slice(before).find((l) => l.msg === 'webhook delivery failed; will retry' && l.accountId === 'wk');
    }
    assert.ok(worker, JSON.stringify(lines.slice(before)));
    assert.equal(worker.reqId, undefined);
    assert.ok(lines.slice(before).some((l) => l.msg === 'request' && l.reqId === 'wakes-43'));
  });
});
