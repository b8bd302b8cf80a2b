import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { moveDecisionLog } from '../../src/store/sqlite/decisions.ts';
import { decisionLogPath, SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { WorkerConnection } from '../../src/store/sqlite/worker-connection.ts';
import type { DecisionRecord } from '../../src/store/ports.ts';

const root = mkdtempSync(join(tmpdir(), 'vigil-decision-file-'));
after(() => rmSync(root, { recursive: true, force: true }));

const FAR = ['2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z'] as const;

function record(i: number, extra: Partial<DecisionRecord> = {}): DecisionRecord {
  return { accountId: 'acct', group: 'ip', operation: 'lookup.ip', userId: null, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), input: { ip: `10.0.0.${i}` }, result: { n: i }, ...extra };
}

function count(file: string, table = 'decision_log'): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
  } finally {
    db.close();
  }
}

const SCHEMA = 'CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v INTEGER NOT NULL CHECK (v >= 0)) STRICT;';
const STATEMENTS = {
  put: 'INSERT INTO t (k, v) VALUES (@k, @v)',
  get: 'SELECT k, v FROM t WHERE k = ?',
  all: 'SELECT k, v FROM t ORDER BY k',
  bump: 'UPDATE t SET v = v + 1 WHERE k = ?',
  // About a second of work: still running when the test ends the worker.
  slow: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4000000) SELECT count(*) AS n FROM c',
};

const OPTIONS = { schema: SCHEMA, statements: STATEMENTS, busyTimeoutMs: 5000 };

describe('WorkerConnection: a SQLite file on a worker thread', () => {
  it('runs calls in the order sent: a write is seen by every call after it', async () => {
    const conn = new WorkerConnection(join(root, 'order.db'), OPTIONS);
    const writes = Array.from({ length: 50 }, (_, i) => conn.run('put', { k: `k${String(i).padStart(2, '0')}`, v: i }));
    const read = conn.all<{ k: string; v: number }>('all', []);
    const bumped = conn.run('bump', ['k07']);
    const after = conn.all<{ k: string; v: number }>('get', ['k07']);
    assert.deepEqual(await Promise.all(writes), Array(50).fill(1));
    assert.equal((await read).length, 50);
    assert.equal(await bumped, 1);
    assert.deepEqual(await after, [{ k: 'k07', v: 8 }]);
    await conn.close();
  });

  it('runEach is one transaction: a failing row rejects the call and writes none of the batch', async () => {
    const conn = new WorkerConnection(join(root, 'batch.db'), OPTIONS);
    await conn.runEach('put', [{ k: 'a', v: 1 }, { k: 'b', v: 2 }]);
    await assert.rejects(conn.runEach('put', [{ k: 'c', v: 3 }, { k: 'd', v: -1 }]), (err: Error & { code?: string }) => {
      assert.match(err.message, /CHECK constraint failed/);
      assert.equal(err.code, 'SQLITE_CONSTRAINT_CHECK');
      return true;
    });
    await conn.runEach('put', []);
    assert.deepEqual((await conn.all<{ k: string }>('all', [])).map((r) => r.k), ['a', 'b']);
    await assert.rejects(conn.run('nope', []), /unknown statement nope/);
    await conn.close();
  });

  it('when the worker dies, calls in flight reject and the next call starts a new worker', async () => {
    const conn = new WorkerConnection(join(root, 'dies.db'), OPTIONS);
    await conn.run('put', { k: 'kept', v: 1 });
    const inFlight = conn.all('slow', []);
    await new Promise((r) => setTimeout(r, 50));
    await conn.kill();
    await assert.rejects(inFlight, /exited/);
    assert.deepEqual(await conn.all('get', ['kept']), [{ k: 'kept', v: 1 }]);
    await conn.close();
  });

  it('a call in flight keeps the process alive; an idle worker does not', () => {
    // A command that ends without awaiting: the process still waits for the write, then exits.
    const file = join(root, 'alive.db');
    const source = `
      import { WorkerConnection } from ${JSON.stringify(new URL('../../src/store/sqlite/worker-connection.ts', import.meta.url).href)};
      const conn = new WorkerConnection(${JSON.stringify(file)}, ${JSON.stringify(OPTIONS)});
      void conn.run('put', { k: 'late', v: 1 }).then(() => console.log('written'));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(out.trim(), 'written');
    assert.equal(count(file, 't'), 1);
  });

  it('close waits for the calls sent before it; calls after it reject', async () => {
    const conn = new WorkerConnection(join(root, 'close.db'), OPTIONS);
    const last = conn.runEach('put', Array.from({ length: 200 }, (_, i) => ({ k: `k${i}`, v: i })));
    await conn.close();
    await last;
    assert.equal(count(join(root, 'close.db'), 't'), 200);
    await assert.rejects(conn.run('put', { k: 'late', v: 1 }), /closed/);
    await conn.close();
    // Closing a connection that never started a worker needs no worker.
    await new WorkerConnection(join(root, 'never.db'), OPTIONS).close();
    assert.equal(existsSync(join(root, 'never.db')), false);
  });
});

describe('SQLite store: the decision log in its own file', () => {
  it('is written to <name>-decisions.db, not to the serving database', async () => {
    const path = join(root, 'own', 'vigil.db');
    const store = new SqliteStore({ path });
    await store.migrate();
    await store.decisions.append([record(1), record(2)]);
    assert.equal(decisionLogPath(path), join(root, 'own', 'vigil-decisions.db'));
    assert.equal(count(decisionLogPath(path)), 2);
    assert.equal(count(path), 0);
    assert.deepEqual(await store.decisions.list('acct', 'ip', ...FAR, 10), [record(1), record(2)]);
    await store.close();
    // Another store on the same files reads what the first wrote.
    const again = new SqliteStore({ path });
    await again.migrate();
    assert.equal((await again.decisions.list('acct', 'ip', ...FAR, 10)).length, 2);
    await again.close();
  });

  it('records kept in the serving database by an earlier version move to the file at migrate, ids and order kept, once', async () => {
    const path = join(root, 'legacy', 'vigil.db');
    const first = new SqliteStore({ path });
    await first.migrate();
    await first.close();
    // An earlier version's records: in the serving database's own table.
    const db = new Database(path);
    const insert = db.prepare('INSERT INTO decision_log (id, account_id, rule_group, operation, user_id, at, input, result, identities) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (const i of [3, 1, 2]) {
      const r = record(i, { userId: i === 2 ? 'u2' : null });
      insert.run(i * 10, r.accountId, r.group, r.operation, r.userId, r.at, JSON.stringify(r.input), JSON.stringify(r.result), '');
    }
    // A stop after the copy but before the old rows were deleted: the next start copies again.
    assert.equal(moveDecisionLog(db, decisionLogPath(path)), 3);
    insert.run(30, 'acct', 'ip', 'lookup.ip', null, record(3).at, JSON.stringify(record(3).input), JSON.stringify(record(3).result), '');
    insert.run(20, 'acct', 'ip', 'lookup.ip', 'u2', record(2).at, JSON.stringify(record(2).input), JSON.stringify(record(2).result), '');
    db.close();

    const store = new SqliteStore({ path });
    await store.migrate();
    assert.equal(count(path), 0);
    assert.equal(count(decisionLogPath(path)), 3);
    assert.deepEqual(await store.decisions.list('acct', 'ip', ...FAR, 10), [record(1), record(2, { userId: 'u2' }), record(3)]);
    // New records come after the moved ones, and deletion finds moved ones.
    await store.decisions.append([record(4)]);
    assert.equal(await store.decisions.deleteByUser('acct', 'u2'), 1);
    assert.deepEqual((await store.decisions.list('acct', 'ip', ...FAR, 10)).map((r) => r.input.ip), ['10.0.0.1', '10.0.0.3', '10.0.0.4']);
    await store.close();
  });

  it('an in-memory store keeps its decision log in its own connection', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    await store.decisions.append([record(1)]);
    assert.equal(await store.decisions.prune('2100-01-01T00:00:00.000Z'), 1);
    await assert.rejects(store.decisions.prune('yesterday'), RangeError);
    await store.close();
  });
});
