/**
 * Black box: bodies that used to poison the decision log (the answer went out, then the batch holding its
 * record was retried for ever, logging a stack a second) are refused at the door, and a record the store
 * still cannot take is dropped alone, counted and logged once, while the log goes on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, stop, type Running } from '../helpers/server-process.ts';
import { createTestDatabase, queryOnce, SKIP_PG, type TestDatabase } from '../store/pg-test-database.ts';

const KEY = 'svc_live_poison00000000000000000001';
const DEEP = `{"data": {"transaction_id": "x", "extra": ${'['.repeat(4500)}${']'.repeat(4500)}}}`;

async function seeded(env: Record<string, string>): Promise<{ s: Running; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-poison-'));
  writeFileSync(join(dir, 'seed.json'), JSON.stringify({ accounts: [{ id: 'acme', plan: 'premium', keys: [KEY] }] }));
  const s = await startServer({ DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '', ...env });
  return { s, dir };
}

async function pay(s: Running, body: string): Promise<{ status: string; code?: number; description?: string }> {
  const r = await fetch(`http://127.0.0.1:${s.port}/scoring/payment?key=${KEY}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.equal(r.status, 200);
  return (await r.json()) as { status: string; code?: number; description?: string };
}

const errorLines = (s: Running): string[] => s.output().split('\n').filter((l) => l.startsWith('{"level":50'));
const droppedMetric = async (s: Running): Promise<string> =>
  /vigil_records_dropped_total\{log="decision"\} (\d+)/.exec(await (await fetch(`http://127.0.0.1:${s.port}/metrics`)).text())?.[1] ?? 'absent';

describe('black box: deep and large bodies (SQLite)', () => {
  let s: Running;
  let dir: string;
  before(async () => ({ s, dir } = await seeded({})));
  after(async () => {
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a body nested 4,500 levels (9 KB) gets 130 saying it is too deep; nothing is logged as failing', async () => {
    const a = await pay(s, DEEP);
    assert.equal(a.code, 130);
    assert.match(String(a.description), /nests objects and arrays too deeply: at most 64 levels/);
    const big = await pay(s, JSON.stringify({ data: { transaction_id: 'big', note: 'x'.repeat(3 * 1024 * 1024) } }));
    assert.equal(big.code, 130);
    assert.match(String(big.description), /too large/);
    assert.equal((await pay(s, '{"data": {"transaction_id": "fine-1"}}')).status, 'success');
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(errorLines(s), []);
    assert.equal(await droppedMetric(s), '0');
  });
});

describe('black box: a record PostgreSQL refuses is dropped alone', { skip: SKIP_PG }, () => {
  let s: Running;
  let dir: string;
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    ({ s, dir } = await seeded({ DATABASE_URL: db.url }));
  });
  after(async () => {
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  });

  it('a NUL in an unknown field (jsonb refuses it): one line, one count, and the records after it are written', async () => {
    // Unknown fields are kept in the decision record's input; jsonb has no NUL.
    assert.equal((await pay(s, '{"data": {"transaction_id": "nul-1", "extra": "a\\u0000b"}}')).status, 'success');
    for (let i = 0; i < 3; i++) assert.equal((await pay(s, `{"data": {"transaction_id": "after-${i}"}}`)).status, 'success');
    const deadline = Date.now() + 10_000;
    let n = 0;
    while (Date.now() < deadline && n < 3) {
      await new Promise((r) => setTimeout(r, 200));
      n = Number((await queryOnce<{ n: string }>(db.url, "SELECT count(*) AS n FROM decision_log WHERE input->>'transaction_id' LIKE 'after-%'"))[0]?.n);
    }
    assert.equal(n, 3, s.output());
    await new Promise((r) => setTimeout(r, 1500));
    const errors = errorLines(s);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /decision record cannot be written; dropped/);
    assert.match(errors[0]!, /"transactionId":"nul-1"/);
    assert.doesNotMatch(errors[0]!, /"stack"/);
    assert.equal(await droppedMetric(s), '1');
  });
});
