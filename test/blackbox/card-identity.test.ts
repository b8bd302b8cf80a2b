/**
 * Black box: a copy of DATA_DIR alone does not give back a card number. The real server, started with no
 * SECRET_KEY and no CARD_KEY (as `npm start` on a fresh machine), scores payments and learns a chargeback; then,
 * from a copy of the data directory only, a script takes secret.key, the stored BIN, the last four shown in the
 * decision log's masked card and the stored card hash, and tries all 10^6 middle digits: nothing matches. With the card
 * key file (kept beside DATA_DIR, not in it) the same search finds the card, so the search itself is sound.
 *
 * And an upgrade: a store whose card hashes are of the first scheme (SECRET_KEY only) and hold last fours is
 * rewritten at start, and the same card scored afterwards meets its history.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

const KEY = 'svc_live_cardid00000000000000000001';
const CARD = '4111111111111111';

const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();
/** The first scheme: what a script holding secret.key computes for a candidate number. */
const schemeOne = (identityKey: Buffer, card: string): string => hmac(identityKey, `card\u0000${card}`).toString('hex');
const identityKeyOf = (secret: string): Buffer => hmac(secret, 'vigil/identity/v1');
const cardKeyOf = (cardSecret: string): Buffer => hmac(cardSecret, 'vigil/card/v2');

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

async function api(s: Running, path: string, body: unknown): Promise<{ status: string }> {
  const r = await fetch(`http://127.0.0.1:${s.port}${path}?key=${KEY}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return (await r.json()) as { status: string };
}

function seeded(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-card-'));
  writeFileSync(join(dir, 'seed.json'), JSON.stringify({ accounts: [{ id: 'acme', plan: 'premium', keys: [KEY] }] }));
  return dir;
}

const PAYMENT = { customer_id: 'card-owner-1', customer_email: 'owner@example.com', card_number: CARD, transaction_amount: 40, transaction_currency: 'EUR' };

describe('black box: a copy of DATA_DIR does not give back card numbers', () => {
  let s: Running;
  let dir: string;
  let copy: string;
  before(async () => {
    dir = seeded();
    copy = mkdtempSync(join(tmpdir(), 'vigil-card-copy-'));
    s = await startServer({ DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: '', CARD_KEY: '', CARD_KEY_FILE: '' });
  });
  after(async () => {
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.card-key`, { force: true });
    rmSync(copy, { recursive: true, force: true });
  });

  it('the card key is generated beside DATA_DIR (0600), never in it', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await api(s, '/scoring/payment', { data: { ...PAYMENT, transaction_id: `card-${i}` } })).status, 'success');
    assert.equal((await api(s, '/feedback/payment', { transaction_id: 'card-0', outcome: 'chargeback' })).status, 'success');
    assert.equal(await stop(s), 0);
    const file = `${dir}.card-key`;
    assert.ok(existsSync(file), 'the card key file');
    assert.equal((statSync(file).mode & 0o777).toString(8), '600');
    const cardSecret = readFileSync(file, 'utf8').trim();
    for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f)).includes(cardSecret), `${f} holds the card key`);
    assert.match(s.output(), /generated the card key outside DATA_DIR/);
  });

  it('a brute force over the 10^6 middle digits with secret.key from the copy finds nothing; with the card key it finds the card', () => {
    cpSync(dir, copy, { recursive: true });
    const secret = readFileSync(join(copy, 'secret.key'), 'utf8').trim();
    const db = new Database(join(copy, 'vigil.db'), { readonly: true });
    const log = new Database(join(copy, 'vigil-decisions.db'), { readonly: true });
    let stored: { card_bin: string; card_hash: string; card_last4: string | null }[];
    let masked: string[];
    try {
      stored = db.prepare<[], { card_bin: string; card_hash: string; card_last4: string | null }>('SELECT DISTINCT card_bin, card_hash, card_last4 FROM payment_scorings').all();
      masked = log.prepare<[], string>("SELECT json_extract(input, '$.card_number') FROM decision_log WHERE rule_group = 'payment'").pluck().all();
    } finally {
      db.close();
      log.close();
    }
    assert.equal(stored.length, 1, JSON.stringify(stored));
    const [row] = stored;
    // The last four are stored beside the hash (the console's card search) and shown where a card is masked (the
    // decision log, events, as processors show a card): the attacker has them.
    assert.equal(row!.card_last4, CARD.slice(-4));
    assert.ok(masked.length > 0, 'decision records of the payments');
    const last4 = /(\d{4})$/.exec(masked[0]!)?.[1];
    assert.equal(last4, CARD.slice(-4), masked[0]);
    const identityKey = identityKeyOf(secret);
    // An attacker who knows the code would also try a card key derived from secret.key, as one from SECRET_KEY is.
    const guessedCardKey = cardKeyOf(hmac(secret, 'vigil/card-secret').toString('hex'));
    const realCardKey = cardKeyOf(readFileSync(`${dir}.card-key`, 'utf8').trim());
    const fromCopy: string[] = [];
    const withCardKey: string[] = [];
    // Over all 10^6 middle digits, skipping the 9 in 10 that fail the Luhn check (no card number does), as an
    // attacker would.
    for (let middle = 0; middle < 1_000_000; middle++) {
      const candidate = `${row!.card_bin}${String(middle).padStart(6, '0')}${last4}`;
      if (!luhn(candidate)) continue;
      const one = schemeOne(identityKey, candidate);
      if (one === row!.card_hash || hmac(guessedCardKey, one).toString('hex') === row!.card_hash) fromCopy.push(candidate);
      if (hmac(realCardKey, one).toString('hex') === row!.card_hash) withCardKey.push(candidate);
    }
    assert.deepEqual(fromCopy, []);
    assert.deepEqual(withCardKey, [CARD]);
  });
});

describe('black box: card identities of an earlier version are rewritten at start and keep their history', () => {
  const SECRET = 'card-upgrade-secret-0123456789abcdef0123';
  const CARD_SECRET = 'card-upgrade-card-key-0123456789abcdef01';
  let s: Running | undefined;
  let dir: string;
  before(() => {
    dir = seeded();
  });
  after(async () => {
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('scheme-1 hashes and last fours become scheme-2 hashes and nulls; the card scored again is the same identity', async () => {
    const env = { DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), DATABASE_URL: '', REDIS_URL: '', SECRET_KEY: SECRET, CARD_KEY: CARD_SECRET };
    s = await startServer(env);
    for (let i = 0; i < 2; i++) assert.equal((await api(s, '/scoring/payment', { data: { ...PAYMENT, transaction_id: `old-${i}` } })).status, 'success');
    assert.equal((await api(s, '/feedback/payment', { transaction_id: 'old-0', outcome: 'chargeback' })).status, 'success');
    assert.equal(await stop(s), 0);
    // Make it a store of the earlier version: first-scheme hashes everywhere, last fours stored, scheme 1.
    const v1 = schemeOne(identityKeyOf(SECRET), CARD);
    const v2 = hmac(cardKeyOf(CARD_SECRET), v1).toString('hex');
    const db = new Database(join(dir, 'vigil.db'));
    try {
      assert.equal(db.prepare("SELECT count(*) AS n FROM payment_scorings WHERE card_hash = ?").pluck().get(v2), 2, 'the new server writes scheme 2');
      db.prepare("UPDATE payment_scorings SET card_hash = ?, card_last4 = '1111'").run(v1);
      db.prepare("UPDATE identity_evidence SET value_hash = ? WHERE type = 'card'").run(v1);
      db.prepare('UPDATE payment_outcomes SET card_hash = ? WHERE card_hash IS NOT NULL').run(v1);
      db.prepare('UPDATE card_identity SET scheme = 1').run();
    } finally {
      db.close();
    }
    const decisions = new Database(join(dir, 'vigil-decisions.db'));
    try {
      decisions.prepare('UPDATE decision_log SET identities = replace(identities, ?, ?)').run(v2, v1);
      assert.ok((decisions.prepare('SELECT count(*) FROM decision_log WHERE instr(identities, ?) > 0').pluck().get(v1) as number) >= 2);
    } finally {
      decisions.close();
    }

    s = await startServer(env);
    assert.match(s.output(), /"cards":1,.*card identities keyed with the card key/);
    assert.equal((await api(s, '/scoring/payment', { data: { ...PAYMENT, transaction_id: 'new-0' } })).status, 'success');
    assert.equal(await stop(s), 0);
    const after = new Database(join(dir, 'vigil.db'), { readonly: true });
    const log = new Database(join(dir, 'vigil-decisions.db'), { readonly: true });
    try {
      assert.deepEqual(after.prepare('SELECT DISTINCT card_hash, card_last4 FROM payment_scorings').all(), [{ card_hash: v2, card_last4: '1111' }]);
      assert.equal(after.prepare('SELECT count(*) FROM payment_scorings').pluck().get(), 3);
      assert.deepEqual(after.prepare("SELECT DISTINCT value_hash FROM identity_evidence WHERE type = 'card'").pluck().all(), [v2]);
      assert.equal(after.prepare('SELECT scheme FROM card_identity').pluck().get(), 2);
      assert.equal(log.prepare('SELECT count(*) FROM decision_log WHERE instr(identities, ?) > 0').pluck().get(v1), 0);
      assert.equal(log.prepare('SELECT count(*) FROM decision_log WHERE instr(identities, ?) > 0').pluck().get(v2), 3);
    } finally {
      after.close();
      log.close();
    }
  });
});
