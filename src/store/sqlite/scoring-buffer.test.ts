import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { scoringValues, type ScoringValues } from '../learning-rows.ts';
import { ScoringBuffer, scoringKey } from './scoring-buffer.ts';

const row = (tx: string, customer = `c-${tx}`): ScoringValues => scoringValues({
  accountId: 'a', transactionId: tx, scoredAt: '2026-01-01T00:00:00.000Z',
  identities: { customer, user: null, email: null, emailDomain: null, phone: null, ip: null, device: null, card: null },
  cardBin: '411111', cardLast4: null, location: null, amount: 1, currency: 'EUR', score: 1, rules: [], features: [], ruleSet: 'r', dataVersions: {}, outcome: null,
});

/** A real table that refuses transaction id 'bad' (a CHECK), written as the store writes: all rows of a group in one transaction. */
function table() {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE t (tx TEXT NOT NULL CHECK (tx <> 'bad'))");
  const insert = db.prepare('INSERT INTO t (tx) VALUES (?)');
  const write = db.transaction((rows: readonly ScoringValues[]) => {
    for (const r of rows) insert.run(r.transactionId);
  });
  const written = () => db.prepare<[], string>('SELECT tx FROM t ORDER BY rowid').pluck().all();
  return { write: (rows: readonly ScoringValues[]) => write(rows), written };
}

describe('ScoringBuffer', () => {
  it('a row the database refuses is dropped and reported; the rest of its group is written in order', () => {
    const t = table();
    const dropped: string[] = [];
    const buffer = new ScoringBuffer({ write: t.write, onError: () => assert.fail('no transient failure here'), onDropped: (_err, r) => dropped.push(r.transactionId!) });
    for (const tx of ['one', 'bad', 'two']) buffer.add(row(tx));
    buffer.stop();
    buffer.flush();
    assert.deepEqual(t.written(), ['one', 'two']);
    assert.deepEqual(dropped, ['bad']);
    assert.equal(buffer.size, 0);
  });

  it('knows which identities it holds, per account, until they are written', () => {
    const t = table();
    const buffer = new ScoringBuffer({ write: t.write, onError: () => undefined, onDropped: () => undefined });
    buffer.add(row('x', 'cust-1'));
    buffer.stop();
    assert.ok(buffer.holds(scoringKey('a', 'customer_hash', 'cust-1')));
    assert.ok(buffer.holds(scoringKey('a', 'card_bin', '411111')));
    assert.ok(!buffer.holds(scoringKey('b', 'customer_hash', 'cust-1')), 'another account');
    assert.ok(!buffer.holds(scoringKey('a', 'email_hash', 'cust-1')), 'another column');
    buffer.flush();
    assert.ok(!buffer.holds(scoringKey('a', 'customer_hash', 'cust-1')));
  });

  it('a transient failure keeps every row, in order, ahead of rows added after it', () => {
    let busy = true;
    const t = table();
    const errors: number[] = [];
    const buffer = new ScoringBuffer({
      write: (rows) => {
        if (busy) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        t.write(rows);
      },
      onError: (_err, n) => errors.push(n),
      onDropped: () => assert.fail('nothing is dropped on a busy file'),
      maxRows: 2,
    });
    buffer.add(row('1'));
    buffer.add(row('2')); // full: written at once, which fails and is reported
    assert.deepEqual(errors, [2]);
    buffer.add(row('3'));
    assert.throws(() => buffer.flush(), /locked/);
    assert.equal(buffer.size, 3);
    assert.ok(buffer.holds(scoringKey('a', 'customer_hash', 'c-1')));
    busy = false;
    buffer.flush();
    buffer.stop();
    assert.deepEqual(t.written(), ['1', '2', '3']);
  });

  it('rows handed to another connection: written there unless `here`; those it hands back are kept ahead of newer rows, reported and retried', async () => {
    const t = table();
    const handed: Array<readonly ScoringValues[]> = [];
    const errors: number[] = [];
    const buffer = new ScoringBuffer({
      write: (rows, here) => {
        if (here) t.write(rows);
        else handed.push(rows);
      },
      onError: (_err, n) => errors.push(n),
      onDropped: () => assert.fail('nothing refused'),
      delayMs: 1,
    });
    buffer.add(row('1'));
    buffer.add(row('2'));
    buffer.flush();
    assert.deepEqual(handed.map((g) => g.map((r) => r.transactionId)), [['1', '2']]);
    assert.equal(buffer.size, 0);
    assert.ok(!buffer.holds(scoringKey('a', 'customer_hash', 'c-2')));
    buffer.add(row('3'));
    // The other connection wrote '1' and could not write '2' (a locked file): '2' comes back ahead of '3'.
    buffer.giveBack(handed[0]!.slice(1), Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    assert.deepEqual(errors, [1]);
    assert.ok(buffer.holds(scoringKey('a', 'customer_hash', 'c-2')));
    buffer.flush(true);
    assert.deepEqual(t.written(), ['2', '3']);
    // The retry timer finds nothing left to write.
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(handed.length, 1);
    buffer.giveBack([], new Error('nothing'));
    assert.deepEqual(errors, [1], 'an empty hand-back is no failure');
    buffer.stop();
  });
});
