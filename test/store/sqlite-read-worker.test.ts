import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { LocalReader, type ReadQuery, type RowsWrite, type SnapshotReader, LoadReader, WorkerReader } from '../../src/store/sqlite/read-worker.ts';

const root = mkdtempSync(join(tmpdir(), 'vigil-read-worker-'));
after(() => rmSync(root, { recursive: true, force: true }));

let files = 0;
/**
 * A WAL database file with one table, written through a connection of this thread (as the store's is). The table
 * refuses the value 'bad' (a CHECK), as SQLite refuses a scoring row's bad values.
 */
function database(): { path: string; db: Database.Database } {
  const path = join(root, `db-${files++}.db`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL CHECK (v <> 'bad'))");
  return { path, db };
}

const COUNT = { sql: 'SELECT count(*) AS n, max(id) AS last FROM t', params: [] };

/** Runs `test` with a worker reader (busy timeout `busyTimeoutMs`) on a new database holding `rows`; both are closed after. */
async function withWorker(rows: readonly string[], test: (reader: WorkerReader, db: Database.Database) => Promise<void>, busyTimeoutMs = 1000): Promise<void> {
  const { path, db } = database();
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  for (const v of rows) insert.run(v);
  const reader = new WorkerReader(path, busyTimeoutMs);
  try {
    await test(reader, db);
  } finally {
    await reader.close();
    db.close();
  }
}

describe('SQLite reads on a worker thread', () => {
  it('a read sent after a commit sees it, every time', () =>
    withWorker([], async (reader, db) => {
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      for (let i = 1; i <= 300; i++) {
        insert.run(`row ${i}`);
        const [row] = await reader.firstRows<{ n: number; last: number }>([COUNT]);
        assert.deepEqual(row, { n: i, last: i });
      }
    }));

  it('answers each query of a call with its first row, undefined when there is none, parameters bound', async () => {
    const { path, db } = database();
    db.prepare('INSERT INTO t (v) VALUES (?), (?)').run('a', "b'); DROP TABLE t; --");
    for (const reader of [new WorkerReader(path, 1000), new LocalReader(db)]) {
      const rows = await reader.firstRows([
        { sql: 'SELECT v FROM t WHERE v = ?', params: ["b'); DROP TABLE t; --"] },
        { sql: 'SELECT v FROM t WHERE v = ?', params: ['nothing'] },
        { sql: 'SELECT id FROM t ORDER BY id DESC', params: [] },
      ]);
      assert.deepEqual(rows, [{ v: "b'); DROP TABLE t; --" }, undefined, { id: 2 }]);
      await reader.close();
    }
    db.close();
  });

  it('never writes: the connection is query-only', () =>
    withWorker([], async (reader, db) => {
      await assert.rejects(reader.firstRows([{ sql: "INSERT INTO t (v) VALUES ('x') RETURNING id", params: [] }]), /readonly/i);
      await assert.rejects(reader.firstRows([{ sql: 'DELETE FROM t RETURNING id', params: [] }]), /readonly/i);
      assert.equal(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM t').get()?.n, 0);
      // The worker is still there for the next read.
      assert.deepEqual(await reader.firstRows([COUNT]), [{ n: 0, last: null }]);
    }));

  it('a bad query rejects with SQLite\'s message and code; the reads after it go on', () =>
    withWorker([], async (reader) => {
      await assert.rejects(reader.firstRows([{ sql: 'SELECT nope FROM t', params: [] }]), (err: Error & { code?: string }) => /no such column/.test(err.message) && err.code === 'SQLITE_ERROR');
      await assert.rejects(reader.firstRows([COUNT, { sql: 'SELECT ? AS a', params: [] }]), /parameter/i);
      assert.deepEqual(await reader.firstRows([COUNT]), [{ n: 0, last: null }]);
    }));

  it('calls made together travel together but fail alone', () =>
    withWorker(['a'], async (reader) => {
      const [good, bad, other] = await Promise.allSettled([
        reader.firstRows([COUNT]),
        reader.firstRows([COUNT, { sql: 'SELECT nope FROM t', params: [] }]),
        reader.firstRows([{ sql: 'SELECT v FROM t', params: [] }]),
      ]);
      assert.deepEqual(good, { status: 'fulfilled', value: [{ n: 1, last: 1 }] });
      assert.equal(bad?.status, 'rejected');
      assert.deepEqual(other, { status: 'fulfilled', value: [{ v: 'a' }] });
    }));

  it('a worker that dies fails the reads in flight, and the next read starts a new one', () =>
    withWorker(['a'], async (reader) => {
      assert.deepEqual(await reader.firstRows([COUNT]), [{ n: 1, last: 1 }]);
      // A slow read (a recursive count to 3 million) is in flight when the worker goes.
      const slow = reader.firstRows([{ sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c', params: [] }]);
      await reader.kill();
      await assert.rejects(slow, /exited/);
      assert.deepEqual(await reader.firstRows([COUNT]), [{ n: 1, last: 1 }]);
    }));

  it('each SQL text goes to the worker once, then by number: texts in one call, in later calls, past 1,000 texts (the worker starts over)', () =>
    withWorker(['a', 'b'], async (reader) => {
      const nth = (i: number): ReadQuery => ({ sql: `SELECT ${i} AS i, count(*) AS n FROM t WHERE v <> ?`, params: ['b'] });
      assert.deepEqual(await reader.firstRows([nth(1), nth(1), nth(2)]), [{ i: 1, n: 1 }, { i: 1, n: 1 }, { i: 2, n: 1 }]);
      for (let i = 0; i < 1100; i += 100) {
        const call = Array.from({ length: 100 }, (_, k) => nth(i + k));
        const rows = await reader.firstRows<{ i: number; n: number }>([...call, nth(1)]);
        assert.deepEqual(rows.map((r) => r?.i), [...call.map((_, k) => i + k), 1]);
      }
      // Calls of one turn travel in one message, a new text in each.
      const together = await Promise.all([reader.firstRows([nth(5000)]), reader.firstRows([nth(5001), nth(5000)])]);
      assert.deepEqual(together, [[{ i: 5000, n: 1 }], [{ i: 5001, n: 1 }, { i: 5000, n: 1 }]]);
    }));

  it('close waits for the reads sent before it; reads after it reject', async () => {
    const { path, db } = database();
    const reader = new WorkerReader(path, 1000);
    const before = reader.firstRows([COUNT]);
    await reader.close();
    assert.deepEqual(await before, [{ n: 0, last: null }]);
    await assert.rejects(reader.firstRows([COUNT]), /closed/);
    await reader.close();
    db.close();
  });

  it('a missing file is an error of the read, not a new empty database', async () => {
    const reader = new WorkerReader(join(root, 'missing', 'none.db'), 1000);
    await assert.rejects(reader.firstRows([COUNT]));
    await reader.close();
  });
});

/** A real reader that also notes the calls it ran. */
class Noting implements SnapshotReader {
  calls = 0;
  constructor(private readonly inner: SnapshotReader) {}
  firstRows<R>(queries: readonly ReadQuery[]): Promise<Array<R | undefined>> {
    this.calls++;
    return this.inner.firstRows<R>(queries);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  get waiting(): number | undefined {
    return this.inner.waiting;
  }
}

/** Keeps this thread busy for `ms`, as a flood of requests would. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('reads by load (LoadReader)', () => {
  it('reads here while the thread has room, on the worker while it is saturated, here again once it calms down', async () => {
    const { path, db } = database();
    db.prepare('INSERT INTO t (v) VALUES (?)').run('a');
    const here = new Noting(new LocalReader(db));
    const worker = new Noting(new WorkerReader(path, 1000));
    const reader = new LoadReader(here, worker);
    const expected = [{ n: 1, last: 1 }];
    try {
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(await reader.firstRows([COUNT]), expected);
      assert.deepEqual([here.calls, worker.calls, reader.saturated], [1, 0, false]);
      // Busy for a whole stretch: the next reads go to the worker and see the same data.
      spin(150);
      assert.deepEqual(await Promise.all([reader.firstRows([COUNT]), reader.firstRows([COUNT])]), [expected, expected]);
      assert.deepEqual([here.calls, worker.calls, reader.saturated], [1, 2, true]);
      // Idle for a stretch: back here.
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(await reader.firstRows([COUNT]), expected);
      assert.deepEqual([here.calls, worker.calls, reader.saturated], [2, 2, false]);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('stays on the worker while calls queue there, though this thread has time to spare; back here once they do not', async () => {
    const { path, db } = database();
    const worker = new Noting(new WorkerReader(path, 1000));
    const reader = new LoadReader(new LocalReader(db), worker);
    const slowRead = { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c', params: [] };
    const partlyBusy = async () => {
      spin(70);
      await new Promise((r) => setTimeout(r, 45));
    };
    try {
      await reader.firstRows([COUNT]);
      spin(150);
      const slow = Array.from({ length: 4 }, () => reader.firstRows([slowRead]));
      assert.equal(reader.saturated, true);
      // About 60% busy, four calls waiting on the worker: still there.
      await partlyBusy();
      const queued = reader.firstRows([COUNT]);
      assert.equal(reader.saturated, true);
      assert.equal(worker.calls, 5);
      await Promise.all([...slow, queued]);
      // The same load with nothing waiting on the worker: back here.
      await reader.firstRows([COUNT]);
      await partlyBusy();
      await reader.firstRows([COUNT]);
      assert.equal(reader.saturated, false);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('the first read is made here: the busy start of a server is no load', async () => {
    const { path, db } = database();
    const worker = new Noting(new WorkerReader(path, 1000));
    const reader = new LoadReader(new LocalReader(db), worker);
    try {
      spin(150);
      assert.deepEqual(await reader.firstRows([COUNT]), [{ n: 0, last: null }]);
      assert.deepEqual([worker.calls, reader.saturated], [0, false]);
      spin(150);
      await reader.firstRows([COUNT]);
      assert.deepEqual([worker.calls, reader.saturated], [1, true]);
    } finally {
      await reader.close();
      db.close();
    }
  });

  it('a read the worker cannot answer is made here: a dead worker, or one that cannot open the file', async () => {
    const { path, db } = database();
    db.prepare('INSERT INTO t (v) VALUES (?)').run('a');
    const worker = new WorkerReader(path, 1000);
    const reader = new LoadReader(new LocalReader(db), worker);
    const unopenable = new LoadReader(new LocalReader(db), new WorkerReader(join(root, 'missing', 'none.db'), 1000));
    try {
      // Their first reads (here) start the measuring.
      await reader.firstRows([COUNT]);
      await unopenable.firstRows([COUNT]);
      spin(150);
      // In flight on the worker (a recursive count) when it dies.
      const slow = reader.firstRows<{ n: number }>([{ sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) AS n FROM c', params: [] }]);
      assert.equal(reader.saturated, true);
      await new Promise((r) => setTimeout(r, 5));
      await worker.kill();
      assert.deepEqual(await slow, [{ n: 300_000 }]);
      spin(150);
      assert.deepEqual(await unopenable.firstRows([COUNT]), [{ n: 1, last: 1 }]);
      assert.equal(unopenable.saturated, true);
      // A query that fails here too still fails.
      spin(150);
      await assert.rejects(reader.firstRows([{ sql: 'SELECT nope FROM t', params: [] }]), /no such column/);
    } finally {
      await reader.close();
      await unopenable.close();
      db.close();
    }
  });

  it('a write made just before a read is seen on both paths', async () => {
    const { path, db } = database();
    const here = new Noting(new LocalReader(db));
    const worker = new Noting(new WorkerReader(path, 1000));
    const reader = new LoadReader(here, worker);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    try {
      for (let i = 1; i <= 60; i++) {
        if (i === 21) spin(150);
        if (i === 41) await new Promise((r) => setTimeout(r, 150));
        insert.run(`row ${i}`);
        assert.deepEqual(await reader.firstRows([COUNT]), [{ n: i, last: i }]);
      }
      assert.ok(here.calls >= 20 && worker.calls >= 1, `${here.calls} here, ${worker.calls} on the worker`);
    } finally {
      await reader.close();
      db.close();
    }
  });
});

/** The worker's writes of `rows` into t (v), noting how each write settled and which rows SQLite refused. */
function rowsWrite(values: readonly string[]): RowsWrite & { outcome?: { unwritten: number; error?: Error }; refusedRows: Array<[number, string]>; done: Promise<void> } {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const write = {
    sql: 'INSERT INTO t (v) VALUES (@v)',
    rows: values.map((v) => ({ v })),
    refusedRows: [] as Array<[number, string]>,
    outcome: undefined as { unwritten: number; error?: Error } | undefined,
    done,
    settled(unwritten: number, error?: Error) {
      assert.equal(write.outcome, undefined, 'a write settles once');
      write.outcome = { unwritten, ...(error ? { error } : {}) };
      resolve();
    },
    refused(index: number, error: Error) {
      write.refusedRows.push([index, error.message]);
    },
  };
  return write;
}

const ALL = { sql: 'SELECT group_concat(v) AS vs, count(*) AS n FROM t', params: [] };

describe('writes on the read worker (WorkerReader.offerWrite)', () => {
  it('a read sent after a write sees its rows; settleWrites makes them visible to the serving connection at once', () =>
    withWorker([], async (reader, db) => {
      const first = rowsWrite(['a', 'b']);
      assert.equal(reader.offerWrite(first), true);
      // Same turn: the write and the read travel in one message, the write first.
      assert.deepEqual(await reader.firstRows([ALL]), [{ vs: 'a,b', n: 2 }]);
      await first.done;
      assert.deepEqual(first.outcome, { unwritten: 2 });
      const second = rowsWrite(['c']);
      assert.equal(reader.offerWrite(second), true);
      reader.settleWrites(); // blocks this thread until the worker has written it
      assert.deepEqual(first.outcome, { unwritten: 2 });
      assert.deepEqual(second.outcome, { unwritten: 1 });
      assert.deepEqual(db.prepare('SELECT group_concat(v) AS vs FROM t').get(), { vs: 'a,b,c' });
      // The connection still refuses writes of its own reads.
      await assert.rejects(reader.firstRows([{ sql: "INSERT INTO t (v) VALUES ('x') RETURNING id", params: [] }]), /readonly/i);
      assert.equal(reader.offerWrite(rowsWrite([])), false, 'nothing to write');
    }));

  it('a row SQLite refuses is dropped and reported; the others of its group are written', () =>
    withWorker([], async (reader) => {
      const write = rowsWrite(['one', 'bad', 'two']);
      reader.offerWrite(write);
      await write.done;
      assert.deepEqual(write.outcome, { unwritten: 3 });
      assert.equal(write.refusedRows.length, 1);
      assert.equal(write.refusedRows[0]![0], 1);
      assert.match(write.refusedRows[0]![1], /CHECK/);
      assert.deepEqual(await reader.firstRows([ALL]), [{ vs: 'one,two', n: 2 }]);
    }));

  it('a write that meets a locked file is handed back whole; the reads sent with it fail rather than miss it', () =>
    withWorker([], async (reader, db) => {
      assert.deepEqual(await reader.firstRows([ALL]), [{ vs: null, n: 0 }]);
      db.exec('BEGIN IMMEDIATE'); // the serving connection holds the write lock past the worker's busy timeout
      const write = rowsWrite(['a', 'b']);
      reader.offerWrite(write);
      const read = reader.firstRows([ALL]);
      await assert.rejects(read, (err: Error & { code?: string; afterFailedWrite?: boolean }) => err.code === 'SQLITE_BUSY' && err.afterFailedWrite === true);
      assert.equal(write.outcome?.unwritten, 0);
      assert.equal((write.outcome?.error as { code?: string } | undefined)?.code, 'SQLITE_BUSY');
      db.exec('COMMIT');
      // The lock gone, the same rows go through.
      const again = rowsWrite(['a', 'b']);
      reader.offerWrite(again);
      reader.settleWrites();
      assert.deepEqual(again.outcome, { unwritten: 2 });
      assert.deepEqual(await reader.firstRows([ALL]), [{ vs: 'a,b', n: 2 }]);
    }, 50));

  it('settleWrites waits out a write held up by a lock: handed back when the worker gives up, else an error of its own (SQLITE_BUSY)', async () => {
    const { path, db } = database();
    // The worker gives up on the lock after 100 ms: settleWrites returns then, the rows handed back.
    const quick = new WorkerReader(path, 100);
    // This one waits 5 s for the lock, longer than settleWrites (200 ms) waits for it.
    const patient = new WorkerReader(path, 5000, { settleMs: 200 });
    try {
      assert.deepEqual(await quick.firstRows([ALL]), [{ vs: null, n: 0 }]);
      assert.deepEqual(await patient.firstRows([ALL]), [{ vs: null, n: 0 }]);
      db.exec('BEGIN IMMEDIATE');
      const handedBack = rowsWrite(['a']);
      quick.offerWrite(handedBack);
      quick.settleWrites();
      assert.equal(handedBack.outcome?.unwritten, 0);
      assert.ok(handedBack.outcome?.error, 'handed back with an error');
      const late = rowsWrite(['b']);
      patient.offerWrite(late);
      const t0 = performance.now();
      assert.throws(() => patient.settleWrites(), (err: Error & { code?: string }) => err.code === 'SQLITE_BUSY' && /200 ms/.test(err.message));
      assert.ok(performance.now() - t0 >= 190);
      assert.equal(late.outcome, undefined, 'still in the worker\'s hands');
      db.exec('COMMIT');
      await late.done;
      assert.deepEqual(late.outcome, { unwritten: 1 });
      assert.deepEqual(db.prepare('SELECT group_concat(v) AS vs FROM t').get(), { vs: 'b' });
    } finally {
      await quick.close();
      await patient.close();
      db.close();
    }
  });

  it('a worker that dies hands back the writes it had not settled, and the next one writes again', () =>
    withWorker([], async (reader, db) => {
      // A slow read keeps the worker busy; the write queued behind it never runs.
      const slow = reader.firstRows([{ sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c', params: [] }]);
      await new Promise((r) => setTimeout(r, 5));
      const write = rowsWrite(['late']);
      reader.offerWrite(write);
      await new Promise((r) => setImmediate(r));
      await reader.kill();
      await assert.rejects(slow, /exited/);
      await write.done;
      assert.equal(write.outcome?.unwritten, 0);
      assert.ok(write.outcome?.error);
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM t').get(), { n: 0 });
      const next = rowsWrite(['next']);
      reader.offerWrite(next);
      assert.deepEqual(await reader.firstRows([ALL]), [{ vs: 'next', n: 1 }]);
    }));

  it('close writes what it was given before it; writes after it are refused', async () => {
    const { path, db } = database();
    const reader = new WorkerReader(path, 1000);
    const write = rowsWrite(['kept']);
    reader.offerWrite(write);
    await reader.close();
    assert.deepEqual(write.outcome, { unwritten: 1 });
    assert.equal(reader.offerWrite(rowsWrite(['after'])), false);
    assert.deepEqual(db.prepare('SELECT group_concat(v) AS vs FROM t').get(), { vs: 'kept' });
    db.close();
  });
});

describe('writes by load (LoadReader)', () => {
  it('go to the worker while saturated, and are settled before any read here once calm', async () => {
    const { path, db } = database();
    const worker = new WorkerReader(path, 1000);
    const reader = new LoadReader(new LocalReader(db), worker);
    try {
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(await reader.firstRows([ALL]), [{ vs: null, n: 0 }]);
      assert.equal(reader.offerWrite(rowsWrite(['calm'])), false, 'calm: written by the caller');
      spin(150);
      // Saturated: a slow read on the worker, and a write queued behind it.
      const slow = reader.firstRows([{ sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c', params: [] }]);
      assert.equal(reader.saturated, true);
      const write = rowsWrite(['busy']);
      assert.equal(reader.offerWrite(write), true);
      // Calm again before the worker got to the write: the next read is made here, once the write is settled.
      await new Promise((r) => setTimeout(r, 120));
      const pending = write.outcome === undefined;
      const rows = await reader.firstRows([ALL]);
      assert.equal(reader.saturated, false);
      assert.deepEqual(rows, [{ vs: 'busy', n: 1 }]);
      assert.deepEqual(write.outcome, { unwritten: 1 });
      assert.ok(pending, 'the write was still on the worker when the read here was asked');
      assert.deepEqual(await slow, [{ n: 3_000_000 }]);
    } finally {
      await reader.close();
      db.close();
    }
  });
});
