/**
 * Black box: a deleted user's values leave the disk, not only the tables. The real server stores a user's email,
 * phone and userID (scorings, decision and request logs, events, labels), the user is deleted through the API,
 * the server shuts down cleanly, and the raw bytes of every file under DATA_DIR (free pages and WAL included)
 * are searched. Store files are readable by their owner only.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

const KEY = 'svc_live_erase000000000000000000001';
const EMAIL = 'qz7erasure.trace@example.com';
const PHONE = '+447700900417';
const USER = 'qz7erasure-user-42';
/** What must not survive: the email's local part, the phone's national digits, the userID. */
const NEEDLES = ['qz7erasure.trace', '7700900417', USER];

/** Every needle's hits in the raw bytes of every file of `dir`, as `file: needle`. */
function rawHits(dir: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    for (const n of NEEDLES) if (bytes.includes(Buffer.from(n, 'utf8')) || bytes.includes(Buffer.from(n.toUpperCase(), 'utf8'))) hits.push(`${name}: ${n}`);
  }
  return hits;
}

async function api(s: Running, method: string, path: string, body?: unknown): Promise<{ status: string; data?: Record<string, number> }> {
  const r = await fetch(`http://127.0.0.1:${s.port}${path}${path.includes('?') ? '&' : '?'}key=${KEY}`, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return (await r.json()) as { status: string; data?: Record<string, number> };
}

describe('black box: a deleted user is erased from the SQLite files', () => {
  let s: Running;
  let root: string;
  let dir: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'vigil-erase-'));
    // A DATA_DIR the server creates itself (its mode is checked below).
    dir = join(root, 'data');
    writeFileSync(join(root, 'seed.json'), JSON.stringify({ accounts: [{ id: 'acme', plan: 'premium', keys: [KEY] }] }));
    s = await startServer({ DATA_DIR: dir, SEED_FILE: join(root, 'seed.json'), DATABASE_URL: '', REDIS_URL: '', WEBHOOK_WORKER: 'off' });
  });
  after(async () => {
    await stop(s);
    rmSync(root, { recursive: true, force: true });
  });

  it('the user\'s values are on disk while stored (so an empty search afterwards means something)', async () => {
    const data = { customer_email: EMAIL, customer_phone: PHONE, customer_id: USER, card_number: '4111111111111111', transaction_amount: 9000, transaction_currency: 'EUR' };
    const ok = (a: { status: string }): void => assert.equal(a.status, 'success', JSON.stringify(a));
    for (let i = 0; i < 20; i++) ok(await api(s, 'POST', `/scoring/payment?userID=${USER}`, { data: { ...data, transaction_id: `erase-${i}` } }));
    ok(await api(s, 'GET', `/scoring/email?email=${encodeURIComponent(EMAIL)}&userID=${USER}`));
    ok(await api(s, 'GET', `/scoring/phone?phone=${encodeURIComponent(PHONE)}&countryCode=GB&userID=${USER}`));
    ok(await api(s, 'POST', '/feedback/event', { type: 'email', value: EMAIL, label: 'fraud' }));
    await new Promise((r) => setTimeout(r, 2500)); // the request and decision logs are written every second
    const hits = rawHits(dir);
    for (const n of NEEDLES) assert.ok(hits.some((h) => h.endsWith(`: ${n}`)), `${n} is on disk before the deletion: ${hits.join(', ')}`);
  });

  it('after deletion by email, phone and userID and a clean shutdown, no file holds any of them', async () => {
    for (const [value, type] of [[EMAIL, 'email'], [PHONE, 'phone'], [USER, 'user_id']] as const) {
      const a = await api(s, 'DELETE', '/account/users/delete', { value, type });
      assert.equal(a.status, 'success', JSON.stringify(a));
    }
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await stop(s), 0);
    const files = readdirSync(dir);
    assert.ok(files.includes('vigil.db') && files.includes('vigil-decisions.db'), files.join(', '));
    assert.deepEqual(rawHits(dir), []);
  });

  it('every store file is mode 0600, as secret.key, and a DATA_DIR the server created is 0700', () => {
    assert.equal((statSync(dir).mode & 0o777).toString(8), '700');
    const store = readdirSync(dir).filter((f) => /^vigil.*\.db(-wal|-shm)?$/.test(f) || f === 'secret.key');
    assert.ok(store.length >= 3, store.join(', '));
    for (const f of store) assert.equal((statSync(join(dir, f)).mode & 0o777).toString(8), '600', f);
  });
});
