/**
 * The console on PostgreSQL: the same pages and changes as on SQLite, through app.inject on a fresh test
 * database (sign-in, every page, a label, a rule preview and save, a list import, the audit log).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiCall } from '../helpers/api-client.ts';
import { ConsoleClient } from '../helpers/console-client.ts';
import { ADMIN_TOKEN, liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';
import { createTestDatabase, SKIP_PG, type TestDatabase } from '../store/pg-test-database.ts';

const KEY = liveKey('pgdash');

describe('the console on PostgreSQL', { skip: SKIP_PG }, () => {
  let db: TestDatabase | undefined;
  let t: TestApp;
  before(async () => {
    db = await createTestDatabase();
    t = await makeTestApp({ databaseUrl: db.url, seed: { accounts: [{ id: 'pg', plan: 'premium', keys: [KEY] }] } });
  });
  after(async () => {
    await t?.close();
    await db?.drop();
  });

  it('signs in, shows every page, labels an event, previews and saves a rule, imports a list, audits it all', async () => {
    const a = await apiCall(t, 'GET', '/scoring/email', KEY, undefined, { email: 'pg@mailinator.com' });
    assert.equal(a.status, 'success', a.raw);
    await apiCall(t, 'POST', '/scoring/payment', KEY, { data: { transaction_id: 'pg-tx-1', card_number: '4111111111111111', customer_email: 'pg@mailinator.com' } });
    await t.recorder.flush();
    const [event] = await t.store.events.listEvents('pg', { kind: 'spam_email', limit: 1 });
    assert.ok(event);
    const op = new ConsoleClient(t);
    assert.equal(await op.signIn({ secret: ADMIN_TOKEN }), 303);
    for (const path of ['overview', 'events', 'events?labelled=no&kind=spam_email', `events/${event.eventId}`, 'payments', 'payments?by=card&q=411111', 'rules', 'rules/new?group=email', 'lists', 'webhooks', 'model', 'audit']) {
      const page = await op.get(`/dashboard/a/pg/${path}`);
      assert.equal(page.status, 200, `${path}: ${page.body.slice(0, 300)}`);
    }
    assert.match((await op.get('/dashboard/a/pg/payments?by=card&q=411111+1111')).body, /pg-tx-1/);
    assert.match((await op.get('/dashboard/a/pg/overview')).body, /spam_email/);
    assert.equal((await op.post(`/dashboard/a/pg/events/${event.eventId}/label`, { label: 'legit' })).status, 303);
    assert.equal((await t.store.console.eventLabels('pg', [event.eventId])).get(event.eventId), 'legit');
    assert.match((await op.get('/dashboard/a/pg/events?labelled=yes')).body, new RegExp(`events/${event.eventId}"`));
    const day = new Date().toISOString().slice(0, 10);
    const rule = { group: 'email', title: 'pg rule', mode: 'all', field0: 'domain.name', op0: 'eq', value0: 'mailinator.com', action: 'overwrite_score', score: '3', enabled: 'on', sampleInput: '{}', sampleResult: '{}', from: day, to: day };
    const preview = await op.post('/dashboard/a/pg/rules', { ...rule, intent: 'preview' });
    assert.equal(preview.status, 200);
    assert.match(preview.body, /<dd id="bt-matched">1<\/dd>/);
    assert.equal((await op.post('/dashboard/a/pg/rules', { ...rule, intent: 'save' })).status, 303);
    const imported = await op.post('/dashboard/a/pg/lists/import', { type: 'email', values: 'a@example.com\nnot an email\n' });
    assert.match(imported.body, /1 good values read, 1 new entries added, 1 lines refused/);
    const audit = (await t.store.console.listAudit({ accountId: 'pg', limit: 10 })).map((e) => e.action);
    for (const action of ['event.label', 'rule.create', 'list.import']) assert.ok(audit.includes(action), action);
  });
});

describe('dataset update history on PostgreSQL survives a restart', { skip: SKIP_PG }, () => {
  let db: TestDatabase | undefined;
  const importDir = mkdtempSync(join(tmpdir(), 'vigil-pg-import-'));
  before(async () => {
    db = await createTestDatabase();
    writeFileSync(join(importDir, 'tor-exit-nodes.txt'), '198.51.100.51\n198.51.100.52\n');
  });
  after(async () => {
    await db?.drop();
    rmSync(importDir, { recursive: true, force: true });
  });

  it('a job run before the restart is listed after it; one left running by a dead instance is interrupted once its heartbeat is stale', async () => {
    const seed = { accounts: [{ id: 'pg', plan: 'premium' }] };
    const first = await makeTestApp({ databaseUrl: db!.url, env: { DATA_IMPORT_DIR: importDir }, seed });
    let jobId = 0;
    try {
      const op = new ConsoleClient(first);
      assert.equal(await op.signIn({ secret: ADMIN_TOKEN }), 303);
      const started = await op.post('/dashboard/a/pg/model/imports', { dataset: 'tor-exit-nodes', path: 'tor-exit-nodes.txt' });
      assert.equal(started.status, 303, started.body.slice(0, 300));
      jobId = Number(/(\d+)$/.exec(started.location ?? '')?.[1]);
      for (let i = 0; i < 100 && (await first.store.console.getUpdateJob(jobId))?.state === 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await first.close();
    }
    // What a killed instance leaves behind: a job still "running" whose heartbeat stopped 10 minutes ago.
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const second = await makeTestApp({ databaseUrl: db!.url, seed });
    try {
      const leftOver = await second.store.console.insertUpdateJob({ dataset: 'asn-bgptools', source: 'sources', actor: 'operator', startedAt: old, heartbeatAt: old });
      const op = new ConsoleClient(second);
      assert.equal(await op.signIn({ secret: ADMIN_TOKEN }), 303);
      const model = (await op.get('/dashboard/a/pg/model')).body;
      assert.match(model, new RegExp(`model/updates/${jobId}">[^<]+</a></td><td>tor-exit-nodes</td><td>file [^<]*tor-exit-nodes\\.txt</td><td>operator</td><td><span class="tag legit">done</span>`));
      assert.match((await op.get(`/dashboard/a/pg/model/updates/${jobId}`)).body, /2 records, 0 rejected/);
      assert.match((await op.get(`/dashboard/a/pg/model/updates/${leftOver}`)).body, /id="update-state">interrupted/);
    } finally {
      await second.close();
    }
  });
});
