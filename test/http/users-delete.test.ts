/**
 * DELETE /account/users/delete over HTTP on a real SQLite store (spec "DELETE /account/users/delete",
 * "User deletion result", errors 124-126; decisions.md "Deletion body"): after deleting one user by
 * email, phone and userID, no table of the database holds their email, phone, userID, transaction
 * ids or any keyed hash of their identities, while another user's records are untouched; Redis
 * velocity windows forget them too; input errors, the daily limit, quota-freeness, test mode and
 * the inference of the identifier type.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import Database from 'better-sqlite3';
import pino from 'pino';
import { parseSeed } from '../../src/accounts/seed.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { IdentityHasher } from '../../src/learning/identity-hash.ts';
import { normaliseIdentity } from '../../src/learning/identity-values.ts';
import { counterKeys } from '../../src/store/counter-keys.ts';
import { openCounters, openStore } from '../../src/store/index.ts';
import type { IdentityField, LabelType } from '../../src/store/learning-ports.ts';
import { RedisVelocity } from '../../src/store/redis/redis-velocity.ts';
import { apiCall, type ApiAnswer } from '../helpers/api-client.ts';
import { deleteKeys, keysMatching, openRedisAdmin, SKIP_REDIS, TEST_REDIS_URL } from '../helpers/redis.ts';
import { searchDatabase, tableCounts, type DbHit } from '../helpers/db-search.ts';
import { decisionLogPath } from '../../src/store/sqlite/sqlite-store.ts';
import { ADMIN_TOKEN, liveKey, makeTestApp, sharedEngineData, TEST_CARD_SECRET, TEST_SECRET, testKey, type TestApp } from '../helpers/harness.ts';

const REDIS_URL = TEST_REDIS_URL;

const CATEGORIES = ['transaction_data', 'ips', 'profanity_data', 'emails', 'phone_numbers', 'ibans'] as const;
type Counts = Record<(typeof CATEGORIES)[number], number>;

const hasher = new IdentityHasher(TEST_SECRET, TEST_CARD_SECRET);
function hashOf(type: LabelType, value: string): string {
  const normal = normaliseIdentity(type, value);
  assert.ok(normal !== null, `${type} ${value} normalises`);
  return hasher.hash(type, normal);
}

/** One user of the business, as sent in calls. */
interface Person {
  email: string;
  phone: string;
  /** The phone as E.164 digits (how it is normalised). */
  digits: string;
  /** customer_id and the userID option (the same identity). */
  id: string;
  card: string;
  ip: string;
  device: string;
  /** Prefix of the person's transaction ids. */
  tx: string;
}

const VICTIM: Person = {
  email: 'del.me@example.com', phone: '+447911123456', digits: '447911123456', id: 'del-user-1',
  card: '4111111111111111', ip: '81.2.69.160', device: 'del-device-1', tx: 'del-tx-',
};
const KEEPER: Person = {
  email: 'keep.me@example.com', phone: '+447911654321', digits: '447911654321', id: 'keep-user-1',
  card: '5555555555554444', ip: '2.125.160.216', device: 'keep-device-1', tx: 'keep-tx-',
};

/** The keyed hashes of a person's identities (the email domain is shared with others and left out). */
function hashesOf(p: Person): Record<string, string> {
  return {
    email: hashOf('email', p.email),
    phone: hashOf('phone', p.phone),
    customer_id: hashOf('customer_id', p.id),
    device_id: hashOf('device_id', p.device),
    card: hashOf('card', p.card),
    ip: hashOf('ip', p.ip),
    card_bin6: hasher.hash('card_bin', p.card.slice(0, 6)),
    card_bin8: hasher.hash('card_bin', p.card.slice(0, 8)),
  };
}

/** Every text that identifies the person: values in clear, transaction ids, keyed hashes. */
function needlesOf(p: Person): string[] {
  return [p.email, p.digits, p.id, p.tx, p.device, p.ip, p.card, ...Object.values(hashesOf(p))];
}

const describeHits = (hits: readonly DbHit[]): string =>
  hits.map((h) => `${h.table}.${h.column} holds ${JSON.stringify(h.needle)}: ${h.value}`).join('\n');

const PAYMENT_RULES = [
  { id: 'CR101', title: 'big orders', group: 'payment', enabled: true, conditions: { all: [{ field: 'input.transaction_amount', op: 'gte', value: 5000 }] }, action: { type: 'overwrite_score', score: 90 } },
];

type Call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, query?: Record<string, string>) => Promise<ApiAnswer>;

function caller(t: () => TestApp, key: string): Call {
  return (method, path, body, query = {}) => apiCall(t(), method, path, key, body, query);
}

function ok(a: ApiAnswer, what: string): ApiAnswer {
  assert.equal(a.status, 'success', `${what}: ${a.raw}`);
  return a;
}

/**
 * Leaves every kind of record of one person: labels on their email and phone, payment scorings (with and
 * without the userID option, some without email, one with only customer_id, card and device), a
 * fraud_payment event (amount over CR101), email and phone checks raising spam events, an IP lookup, a
 * chargeback, a fraud label on the fraud_payment event by event_id and a never-scored outcome.
 */
async function populate(t: TestApp, accountId: string, call: Call, p: Person): Promise<void> {
  const full = {
    customer_email: p.email, customer_phone: p.phone, customer_id: p.id, card_number: p.card, customer_ip: p.ip,
    customer_device_id: p.device, transaction_currency: 'EUR', payment_type: 'cards', customer_country: 'GB',
  };
  const userOpt = { userID: p.id };
  ok(await call('POST', '/feedback/event', { type: 'email', value: p.email, label: 'fraud', reason: 'chargebacks' }), 'email label');
  ok(await call('POST', '/feedback/event', { type: 'phone', value: p.phone, label: 'fraud' }), 'phone label');
  ok(await call('POST', '/scoring/payment', { data: { ...full, transaction_id: `${p.tx}1`, transaction_amount: 20 } }, userOpt), 'payment 1');
  ok(await call('POST', '/scoring/payment', { data: { ...full, transaction_id: `${p.tx}2`, transaction_amount: 30 } }), 'payment 2');
  const big = ok(await call('POST', '/scoring/payment', { data: { ...full, transaction_id: `${p.tx}3`, transaction_amount: 9000 } }), 'payment 3');
  assert.equal(big.data.score, 90, big.raw);
  ok(await call('POST', '/scoring/payment', { data: { customer_phone: p.phone, customer_id: p.id, transaction_id: `${p.tx}4`, transaction_amount: 15 } }), 'payment 4');
  ok(await call('POST', '/scoring/payment', { data: { customer_id: p.id, card_number: p.card, customer_device_id: p.device, transaction_id: `${p.tx}5`, transaction_amount: 12 } }), 'payment 5');
  ok(await call('POST', '/scoring/payment', { data: { customer_email: p.email, transaction_id: `${p.tx}6` } }, userOpt), 'payment 6');
  ok(await call('GET', '/scoring/email', undefined, { email: p.email, ...userOpt }), 'email check');
  ok(await call('GET', '/scoring/phone', undefined, { phone: p.phone, countryCode: 'GB', ...userOpt }), 'phone check');
  ok(await call('GET', '/lookup/ip', undefined, { ip: p.ip, ...userOpt }), 'ip lookup');
  ok(await call('POST', '/feedback/payment', { transaction_id: `${p.tx}2`, outcome: 'chargeback', reason: 'disputed' }), 'chargeback');
  const events = await t.store.events.listEvents(accountId, { kind: 'fraud_payment' });
  const fraud = events.find((e) => e.summary.transaction_id === `${p.tx}3`);
  assert.ok(fraud, `a fraud_payment event for ${p.tx}3`);
  ok(await call('POST', '/feedback/event', { event_id: fraud.eventId, label: 'fraud' }), 'event label');
  ok(await call('POST', '/feedback/payment', { transaction_id: `${p.tx}pending`, outcome: 'chargeback', customer_email: p.email, customer_id: p.id }), 'pending outcome');
}

function assertCounts(a: ApiAnswer, what: string): Counts {
  assert.equal(a.http, 200);
  assert.equal(a.status, 'success', `${what}: ${a.raw}`);
  assert.deepEqual(Object.keys(a.body).sort(), ['data', 'status'], `${what}: no executionTime (${a.raw})`);
  assert.deepEqual(Object.keys(a.data).sort(), [...CATEGORIES].sort(), a.raw);
  for (const c of CATEGORIES) assert.ok(Number.isInteger(a.data[c]) && (a.data[c] as number) >= 0, `${what}: ${c} is a count (${a.raw})`);
  return a.data as Counts;
}

const sum = (c: Counts): number => CATEGORIES.reduce((n, k) => n + c[k], 0);
/** Tables whose removed rows the deletion counts (model history goes with the transactions, uncounted). */
const COUNTED_TABLES = ['payment_scorings', 'payment_outcomes', 'identity_evidence', 'events', 'decision_log', 'request_log'];

const KEY = liveKey('del');
const TKEY = testKey('del');
const EKEY = liveKey('delerr');
const MKEY = liveKey('deltm');
const MTKEY = testKey('deltm');
const IKEY = liveKey('delinf');
const RKEY = liveKey('delrace');

let t: TestApp;
before(async () => {
  t = await makeTestApp({
    env: { WEBHOOK_WORKER: 'off' },
    seed: {
      accounts: [
        { id: 'del', plan: 'premium', keys: [KEY, TKEY], customRules: PAYMENT_RULES, webhooks: [{ url: 'http://127.0.0.1:9/hook', secret: 'whsec-users-delete' }] },
        { id: 'delerr', plan: 'premium', keys: [EKEY], customRules: PAYMENT_RULES },
        { id: 'deltm', plan: 'premium', keys: [MKEY, MTKEY], customRules: PAYMENT_RULES },
        { id: 'delinf', plan: 'premium', keys: [IKEY] },
        { id: 'delrace', plan: 'premium', keys: [RKEY] },
      ],
    },
  });
});
after(() => t.close());

/** The store's files: the database and the decision log's own file. */
const dbFiles = (): string[] => [join(t.dir, 'vigil.db'), decisionLogPath(join(t.dir, 'vigil.db'))];
const del = (key: string, body: unknown, query: Record<string, string> = {}) => apiCall(t, 'DELETE', '/account/users/delete', key, body, query);

describe('DELETE /account/users/delete: every trace of the user goes, others stay', () => {
  const call = caller(() => t, KEY);
  let found: DbHit[] = [];
  let rowsBefore: Record<string, number> = {};
  let keeperBefore: DbHit[] = [];
  const counts: Counts[] = [];

  before(async () => {
    await populate(t, 'del', call, VICTIM);
    await populate(t, 'del', call, KEEPER);
    await t.recorder.flush();
    found = searchDatabase(dbFiles(), needlesOf(VICTIM));
    rowsBefore = tableCounts(dbFiles());
    keeperBefore = searchDatabase(dbFiles(), needlesOf(KEEPER));
  });

  it('before deletion the user is everywhere (so an empty search afterwards means something)', async () => {
    const vh = hashesOf(VICTIM);
    for (const n of [VICTIM.email, VICTIM.digits, VICTIM.id, VICTIM.tx, VICTIM.device, VICTIM.ip, vh.email, vh.phone, vh.customer_id, vh.card, vh.device_id, vh.ip]) {
      assert.ok(found.some((h) => h.needle === n), `before deletion the database holds ${n}`);
    }
    const tables = new Set(found.map((h) => h.table));
    for (const table of ['payment_scorings', 'payment_outcomes', 'identity_evidence', 'events', 'decision_log', 'request_log', 'model_history']) assert.ok(tables.has(table), table);
    const kinds = new Set((await t.store.events.listEvents('del', {})).map((e) => e.kind));
    for (const k of ['fraud_payment', 'spam_email', 'spam_phone']) assert.ok(kinds.has(k as never), `a ${k} event exists: ${[...kinds].join(',')}`);
    assert.ok((await t.store.model.history('del', 1000)).some((h) => h.origin === `payment:${VICTIM.tx}2`), 'the chargeback trained the model');
    assert.ok((await t.store.requestLog.listByUser('del', VICTIM.id)).length > 0);
    assert.ok((rowsBefore.deliveries ?? 0) > 0, 'events were queued for the webhook');
  });

  it('deleting by email, by phone and by userID answers the counts of each', async () => {
    const byEmail = assertCounts(await del(KEY, { value: VICTIM.email }), 'by email');
    const byPhone = assertCounts(await del(KEY, { value: VICTIM.phone, type: 'phone' }), 'by phone');
    const byUser = assertCounts(await del(KEY, { value: VICTIM.id, type: 'user_id' }), 'by userID');
    counts.push(byEmail, byPhone, byUser);
    const all = JSON.stringify({ byEmail, byPhone, byUser });
    assert.ok(byEmail.transaction_data > 0, `scorings with the email are counted: ${all}`);
    assert.ok(byEmail.emails > 0, `the email label, check and event are counted: ${all}`);
    assert.ok(byPhone.phone_numbers > 0, `the phone label, check and event are counted: ${all}`);
    assert.ok(byPhone.transaction_data > 0, `the scoring with the phone but no email is counted: ${all}`);
    assert.ok(byUser.transaction_data > 0, `the scoring with only the customer id is counted: ${all}`);
    assert.ok(byUser.ips > 0, `the IP lookup with the userID is counted: ${all}`);
    for (const c of [byEmail, byPhone, byUser]) {
      assert.equal(c.profanity_data, 0, all);
      assert.equal(c.ibans, 0, all);
    }
    // Six scorings and one never-scored outcome at least.
    assert.ok(byEmail.transaction_data + byPhone.transaction_data + byUser.transaction_data >= 7, all);
    // Deleting again finds nothing.
    for (const body of [{ value: VICTIM.email }, { value: VICTIM.phone }, { value: VICTIM.id }]) {
      assert.equal(sum(assertCounts(await del(KEY, body), 'again')), 0, JSON.stringify(body));
    }
  });

  it('no table holds the email, the phone, the userID, a transaction id or a keyed hash of the user', async () => {
    await t.recorder.flush();
    const hits = searchDatabase(dbFiles(), needlesOf(VICTIM));
    assert.deepEqual(hits, [], `traces of the deleted user survive:\n${describeHits(hits)}`);
  });

  it('the request log, events and model history of the user are gone', async () => {
    assert.deepEqual(await t.store.requestLog.listByUser('del', VICTIM.id), []);
    assert.deepEqual(await t.store.events.listEvents('del', { userId: VICTIM.id }), []);
    assert.equal((await t.store.model.history('del', 1000)).filter((h) => h.origin.includes(VICTIM.tx)).length, 0);
    const vh = hashesOf(VICTIM);
    for (const field of ['customer', 'user', 'email', 'phone', 'card', 'device', 'ip'] as const) {
      const hash = { customer: vh.customer_id, user: vh.customer_id, email: vh.email, phone: vh.phone, card: vh.card, device: vh.device_id, ip: vh.ip }[field]!;
      assert.deepEqual(await t.store.scorings.findByIdentity('del', field, hash), [], field);
    }
    // Their webhook deliveries went with the events (one webhook: one delivery per event).
    const rows = tableCounts(dbFiles());
    assert.equal(rows.deliveries, rows.events);
    assert.ok((rowsBefore.deliveries ?? 0) > (rows.deliveries ?? 0));
  });

  it('the counts are the records removed: every removed row is counted once', () => {
    assert.equal(counts.length, 3);
    const rowsAfter = tableCounts(dbFiles());
    const removed = Object.fromEntries(COUNTED_TABLES.map((table) => [table, (rowsBefore[table] ?? 0) - (rowsAfter[table] ?? 0)]));
    const total = Object.values(removed).reduce((n, x) => n + x, 0);
    assert.equal(counts.reduce((n, c) => n + sum(c), 0), total, `counts ${JSON.stringify(counts)}; rows removed ${JSON.stringify(removed)}`);
  });

  it('the other user is untouched', async () => {
    const keeperAfter = searchDatabase(dbFiles(), needlesOf(KEEPER));
    assert.deepEqual(keeperAfter, keeperBefore);
    const tables = new Set(keeperAfter.map((h) => h.table));
    for (const table of ['payment_scorings', 'payment_outcomes', 'identity_evidence', 'events', 'decision_log', 'request_log', 'model_history']) {
      assert.ok(tables.has(table), `the other user's ${table} rows remain`);
    }
    const kh = hashesOf(KEEPER);
    assert.equal((await t.store.scorings.findByIdentity('del', 'customer', kh.customer_id!)).length, 5);
    assert.equal((await t.store.scorings.findByIdentity('del', 'email', kh.email!)).length, 4);
    assert.ok((await t.store.requestLog.listByUser('del', KEEPER.id)).length > 0);
    assert.ok((await t.store.evidence.forIdentities('del', [{ type: 'email', valueHash: kh.email! }])).length > 0);
    assert.ok((await t.store.events.listEvents('del', { userId: KEEPER.id })).length > 0);
  });
  it('records still buffered when the deletion arrives (request and decision logs) are removed too', async () => {
    const race: Person = { ...VICTIM, email: 'race.me@example.com', phone: '+447911333444', digits: '447911333444', id: 'race-user-1', device: 'race-device', tx: 'race-tx-', card: '4000056655665556', ip: '81.2.69.142' };
    const rcall = caller(() => t, RKEY);
    await t.recorder.flush();
    // No flush between the calls and the deletion: the logs of the calls are still in the recorder's buffer.
    ok(await rcall('POST', '/scoring/payment', { data: { customer_email: race.email, customer_phone: race.phone, customer_id: race.id, transaction_id: `${race.tx}1` } }, { userID: race.id }), 'payment');
    ok(await rcall('GET', '/scoring/email', undefined, { email: race.email, userID: race.id }), 'email');
    assertCounts(await del(RKEY, { value: race.email }), 'email');
    assertCounts(await del(RKEY, { value: race.phone }), 'phone');
    assertCounts(await del(RKEY, { value: race.id, type: 'user_id' }), 'userID');
    await t.recorder.flush();
    const hits = searchDatabase(dbFiles(), [race.email, race.digits, race.id, race.tx, hashOf('email', race.email), hashOf('customer_id', race.id)]);
    assert.deepEqual(hits, [], `traces written after the deletion:\n${describeHits(hits)}`);
    assert.deepEqual(await t.store.requestLog.listByUser('delrace', race.id), []);
  });

  it('identities sent in another form (formatted phone, tagged and dotted Gmail address) are deleted too', async () => {
    const rcall = caller(() => t, RKEY);
    const sentEmail = 'Fmt.User+shop@GoogleMail.com';
    const sentPhone = '+44 7911 000111';
    ok(await rcall('POST', '/scoring/payment', { data: { customer_email: sentEmail, transaction_id: 'fmt-tx-1' } }), 'payment email');
    ok(await rcall('POST', '/scoring/payment', { data: { customer_phone: sentPhone, transaction_id: 'fmt-tx-2' } }), 'payment phone');
    ok(await rcall('GET', '/scoring/email', undefined, { email: sentEmail }), 'email check');
    ok(await rcall('GET', '/scoring/phone', undefined, { phone: '07911 000111', countryCode: 'GB' }), 'phone check');
    await t.recorder.flush();
    const needles = ['fmt.user+shop@googlemail.com', 'fmtuser@gmail.com', '7911 000111', '447911000111', 'fmt-tx-', hashOf('email', sentEmail), hashOf('phone', sentPhone)];
    assert.ok(searchDatabase(dbFiles(), needles).length > 0);
    const byEmail = assertCounts(await del(RKEY, { value: 'fmtuser@gmail.com' }), 'email');
    const byPhone = assertCounts(await del(RKEY, { value: '00447911000111' }), 'phone');
    assert.ok(byEmail.transaction_data > 0 && byPhone.transaction_data > 0, JSON.stringify({ byEmail, byPhone }));
    await t.recorder.flush();
    const hits = searchDatabase(dbFiles(), needles);
    assert.deepEqual(hits, [], `traces survive:\n${describeHits(hits)}`);
  });
});

describe('DELETE /account/users/delete: input errors', () => {
  const ecall = caller(() => t, EKEY);
  const other: Person = { ...KEEPER, id: 'err-keep-1', tx: 'err-tx-' };

  const cases: Array<[string, unknown, number]> = [
    ['no body', undefined, 125],
    ['empty body', '', 125],
    ['whitespace body', '   ', 125],
    ['body not JSON', '{"value": ', 125],
    ['body nested 65 levels', `{"value": "del.me@example.com", "x": ${'['.repeat(64)}${']'.repeat(64)}}`, 125],
    ['body a JSON array', '["del.me@example.com"]', 125],
    ['body a JSON string', '"del.me@example.com"', 125],
    ['no value', {}, 125],
    ['value null', { value: null }, 125],
    ['empty value', { value: '' }, 125],
    ['whitespace value', { value: '   \t ' }, 125],
    ['value a number', { value: 447911123456 }, 125],
    ['value an array', { value: ['del.me@example.com'] }, 125],
    ['value an object', { value: { $ne: '' } }, 125],
    ['value of 300 characters', { value: 'x'.repeat(300) }, 125],
    ['value with a control character', { value: 'del\u0000user' }, 125],
    ['value with a newline', { value: 'del\nuser' }, 125],
    ['malformed email', { value: 'a@' }, 125],
    ['malformed email with type', { value: 'a@b@c', type: 'email' }, 125],
    ['email type without @', { value: 'not-an-email', type: 'email' }, 125],
    ['malformed phone with type phone', { value: '12', type: 'phone' }, 125],
    ['letters with type phone', { value: '+44 79ab', type: 'phone' }, 125],
    ['type iban', { value: 'GB82WEST12345698765432', type: 'iban' }, 124],
    ['type a number', { value: 'del-user-1', type: 5 }, 124],
    ['type empty', { value: 'del-user-1', type: '' }, 124],
    ['type in upper case', { value: 'del-user-1', type: 'EMAIL' }, 124],
    ['type iban without a value', { type: 'iban' }, 124],
  ];

  let before = 0;
  it('setup: another user with records', async () => {
    await populate(t, 'delerr', ecall, other);
    await t.recorder.flush();
    before = (await t.store.scorings.findByIdentity('delerr', 'customer', hashOf('customer_id', other.id))).length;
    assert.equal(before, 5);
  });

  for (const [name, body, code] of cases) {
    it(`${name} → ${code}, HTTP 200`, async () => {
      const a = await del(EKEY, body);
      assert.equal(a.http, 200);
      assert.equal(a.status, 'error', a.raw);
      assert.equal(a.code, code, a.raw);
      assert.equal(typeof a.body.type, 'string');
      assert.equal(typeof a.description, 'string');
      assert.doesNotMatch(a.raw, /at \w+ \(|node_modules|\.ts:\d+/);
    });
  }

  it('a bad key gives 101 before any body error', async () => {
    for (const body of ['not json', { value: '' }, { value: 'x', type: 'iban' }]) {
      const a = await del(liveKey('nobodyatall'), body);
      assert.equal(a.code, 101, a.raw);
    }
  });

  it('the test key validates the body the same way', async () => {
    assert.equal((await del(TKEY, { value: '' })).code, 125);
    assert.equal((await del(TKEY, { value: 'x', type: 'iban' })).code, 124);
    assert.equal((await del(KEY, { value: '  ' }, { mode: 'test' })).code, 125);
  });

  it('failed calls delete nothing', async () => {
    await t.recorder.flush();
    const h = hashOf('customer_id', other.id);
    assert.equal((await t.store.scorings.findByIdentity('delerr', 'customer', h)).length, before);
    assert.ok((await t.store.requestLog.listByUser('delerr', other.id)).length > 0);
    assert.ok(searchDatabase(dbFiles(), [other.id, other.email]).some((x) => x.table === 'decision_log'));
  });
});

describe('DELETE /account/users/delete: test mode', () => {
  const mcall = caller(() => t, MKEY);
  const user: Person = { ...VICTIM, id: 'tm-user-1', tx: 'tm-tx-' };

  it('a test key and mode=test return fake integer counts and delete nothing', async () => {
    await populate(t, 'deltm', mcall, user);
    await t.recorder.flush();
    const hitsBefore = searchDatabase(dbFiles(), needlesOf(user));
    const rowsBefore = tableCounts(dbFiles());
    const answers = [
      await del(MTKEY, { value: user.email }),
      await del(MTKEY, { value: user.phone, type: 'phone' }),
      await del(MTKEY, { value: user.id, type: 'user_id' }),
      await del(MKEY, { value: user.email }, { mode: 'test' }),
      await del(MKEY, { value: user.id }, { mode: 'test' }),
    ];
    for (const a of answers) assertCounts(a, 'test mode');
    await t.recorder.flush();
    assert.deepEqual(searchDatabase(dbFiles(), needlesOf(user)), hitsBefore);
    const rowsAfter = tableCounts(dbFiles());
    for (const table of COUNTED_TABLES) assert.equal(rowsAfter[table], rowsBefore[table], table);
    assert.equal((await t.store.scorings.findByIdentity('deltm', 'customer', hashOf('customer_id', user.id))).length, 5);
    assert.ok((await t.store.requestLog.listByUser('deltm', user.id)).length > 0);
  });
});

describe('DELETE /account/users/delete: the identifier type', () => {
  const icall = caller(() => t, IKEY);
  const scoringsOf = (field: IdentityField, hash: string) => t.store.scorings.findByIdentity('delinf', field, hash);

  it('a value of 7-15 digits with an optional + is a phone', async () => {
    const phone = '+447911222333';
    const h = hashOf('phone', phone);
    ok(await icall('POST', '/feedback/event', { type: 'phone', value: phone, label: 'fraud' }), 'label');
    ok(await icall('POST', '/scoring/payment', { data: { customer_phone: phone, transaction_id: 'inf-tx-1' } }), 'payment');
    ok(await icall('GET', '/scoring/phone', undefined, { phone, countryCode: 'GB' }), 'check');
    const c = assertCounts(await del(IKEY, { value: phone }), 'phone');
    assert.ok(c.phone_numbers > 0 && c.transaction_data > 0, JSON.stringify(c));
    assert.equal((await scoringsOf('phone', h)).length, 0);
    assert.equal((await t.store.evidence.forIdentities('delinf', [{ type: 'phone', valueHash: h }])).length, 0);
    // Without the +, 7 digits is still a phone.
    const short = '4471234';
    ok(await icall('POST', '/scoring/payment', { data: { customer_phone: short } }), 'payment short');
    assertCounts(await del(IKEY, { value: short }), 'short phone');
    assert.equal((await scoringsOf('phone', hashOf('phone', short))).length, 0);
  });

  it('anything else is a userID', async () => {
    for (const id of ['abc-123', '123456', '1234567890123456']) {
      ok(await icall('GET', '/lookup/ip', undefined, { ip: '81.2.69.160', userID: id }), 'lookup');
      ok(await icall('POST', '/scoring/payment', { data: { customer_id: id } }), 'payment');
      await t.recorder.flush();
      assert.equal((await t.store.requestLog.listByUser('delinf', id)).length, 1);
      const c = assertCounts(await del(IKEY, { value: id }), id);
      assert.ok(c.ips >= 1 && c.transaction_data >= 1, `${id}: ${JSON.stringify(c)}`);
      assert.deepEqual(await t.store.requestLog.listByUser('delinf', id), []);
      assert.equal((await scoringsOf('customer', hashOf('customer_id', id))).length, 0);
    }
  });

  it('type user_id makes an address with @ a userID (the email identity stays)', async () => {
    const value = 'x@y.example';
    ok(await icall('GET', '/lookup/ip', undefined, { ip: '81.2.69.160', userID: value }), 'lookup');
    ok(await icall('POST', '/scoring/payment', { data: { customer_email: value, transaction_id: 'inf-tx-at' } }), 'payment');
    await t.recorder.flush();
    const c = assertCounts(await del(IKEY, { value, type: 'user_id' }), 'user_id');
    assert.ok(c.ips >= 1, JSON.stringify(c));
    assert.deepEqual(await t.store.requestLog.listByUser('delinf', value), []);
    // Deleted as a userID, not as an email: the scoring that carries it as an email is still there.
    assert.equal((await scoringsOf('email', hashOf('email', value))).length, 1);
    // The same value without type is an email.
    const e = assertCounts(await del(IKEY, { value }), 'email');
    assert.ok(e.transaction_data >= 1, JSON.stringify(e));
    assert.equal((await scoringsOf('email', hashOf('email', value))).length, 0);
  });

  it('type email and type phone are honoured; the value is trimmed', async () => {
    const email = 'Trim.Me@Example.com';
    ok(await icall('POST', '/scoring/payment', { data: { customer_email: email } }), 'payment');
    const c = assertCounts(await del(IKEY, { value: `  ${email}  `, type: 'email' }), 'email');
    assert.ok(c.transaction_data >= 1, JSON.stringify(c));
    assert.equal((await scoringsOf('email', hashOf('email', email))).length, 0);
    const phone = '+44 (7911) 444-555';
    ok(await icall('POST', '/scoring/payment', { data: { customer_phone: phone } }), 'payment');
    const p = assertCounts(await del(IKEY, { value: phone, type: 'phone' }), 'phone');
    assert.ok(p.transaction_data >= 1, JSON.stringify(p));
    assert.equal((await scoringsOf('phone', hashOf('phone', phone))).length, 0);
  });
});

describe('DELETE /account/users/delete: daily limit and quota', () => {
  let lt: TestApp;
  let now = new Date('2031-03-10T10:00:00.000Z');
  const LK = liveKey('dellimit');
  const LT = testKey('dellimit');
  const ZK = liveKey('delzero');

  before(async () => {
    lt = await makeTestApp({
      clock: () => now,
      seed: {
        plans: [{ id: 'tiny', methods: ['*'], modules: [], monthlyQuota: 1, flood: { limit: 1000, windowSeconds: 1 } }],
        accounts: [
          { id: 'dellimit', plan: 'tiny', keys: [LK, LT], settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 2 } },
          { id: 'delzero', plan: 'premium', keys: [ZK], settings: { autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 0 } },
        ],
      },
    });
  });
  after(() => lt.close());

  const ldel = (key: string, body: unknown, query: Record<string, string> = {}) => apiCall(lt, 'DELETE', '/account/users/delete', key, body, query);

  it('the third deletion of the day is 126; refused calls do not count; test mode still works; the next day resets', async () => {
    // The plan's whole quota is used first: deletions are free and go on.
    ok(await apiCall(lt, 'GET', '/scoring/email', LK, undefined, { email: 'quota@example.com' }), 'quota call');
    assert.equal((await apiCall(lt, 'GET', '/scoring/email', LK, undefined, { email: 'quota@example.com' })).code, 103);

    assertCounts(await ldel(LK, { value: 'one@example.com' }), 'first');
    assertCounts(await ldel(LK, { value: 'user-two' }), 'second');
    const key = counterKeys.deletions('dellimit', '2031-03-10');
    assert.equal(await lt.counters.get(key), 2);
    for (let i = 0; i < 3; i++) {
      const refused = await ldel(LK, { value: `user-${i + 3}` });
      assert.equal(refused.http, 200);
      assert.equal(refused.code, 126, refused.raw);
      assert.equal(refused.status, 'error');
    }
    assert.equal(await lt.counters.get(key), 2, 'refused calls are not counted');
    // A malformed body is still a 125 (the body is read before the limit), and is no deletion.
    assert.equal((await ldel(LK, { value: '' })).code, 125);
    assert.equal(await lt.counters.get(key), 2);
    assertCounts(await ldel(LT, { value: 'test-mode@example.com' }), 'test key');
    assertCounts(await ldel(LK, { value: 'test-mode@example.com' }, { mode: 'test' }), 'mode=test');
    assert.equal(await lt.counters.get(key), 2, 'test mode does not count');

    now = new Date('2031-03-11T00:00:05.000Z');
    assertCounts(await ldel(LK, { value: 'next-day-1' }), 'next day');
    assertCounts(await ldel(LK, { value: 'next-day-2' }), 'next day');
    assert.equal((await ldel(LK, { value: 'next-day-3' })).code, 126);

    await lt.recorder.flush();
    const usage = await lt.store.usage.list('dellimit', '2031-03-01', '2031-03-31');
    assert.deepEqual(usage.map((u) => [u.method, u.count]), [['scoring/email', 1]], 'deletions are free: no usage rows');
  });

  it('a limit of 0 refuses every live deletion with 126', async () => {
    assert.equal((await ldel(ZK, { value: 'anyone@example.com' })).code, 126);
    assertCounts(await ldel(ZK, { value: 'anyone@example.com' }, { mode: 'test' }), 'mode=test');
  });
});

describe('DELETE /account/users/delete: Redis velocity windows', { skip: SKIP_REDIS }, () => {
  const PREFIX = `vigil-test:${randomBytes(6).toString('hex')}:`;
  const RK = liveKey('delredis');
  let raw: Redis | undefined;
  let velocity: RedisVelocity | undefined;
  let rt: TestApp | undefined;
  const redis = (): Redis => {
    if (!raw) throw new Error('Redis admin connection was not opened');
    return raw;
  };

  async function scan(): Promise<Array<{ key: string; members: string[] }>> {
    const out: Array<{ key: string; members: string[] }> = [];
    for (const key of await keysMatching(redis(), `${PREFIX}*`)) {
      const type = await redis().type(key);
      out.push({ key, members: type === 'zset' ? await redis().zrange(key, '0', '-1') : [] });
    }
    return out;
  }

  before(async () => {
    raw = await openRedisAdmin();
    velocity = new RedisVelocity({ url: REDIS_URL, prefix: PREFIX });
    // As makeTestApp, with the velocity windows in Redis.
    const dir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
    const config = loadConfig({ DATA_DIR: dir, ADMIN_TOKEN, SECRET_KEY: TEST_SECRET, LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off' });
    const store = await openStore({ dataDir: dir });
    const counters = await openCounters({});
    const built = await buildApp({ config, store, counters, data: sharedEngineData(), secret: TEST_SECRET, cardSecret: TEST_CARD_SECRET, logger: pino({ level: 'silent' }), processMetrics: false, velocity });
    await built.accounts.ensureBuiltinPlans();
    await built.applySeed(parseSeed(JSON.stringify({ accounts: [{ id: 'delredis', plan: 'premium', keys: [RK], customRules: PAYMENT_RULES }] })));
    await built.app.ready();
    rt = {
      ...built, store, counters, config, dir,
      async close() {
        await built.app.close();
        await store.close();
        await counters.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  after(async () => {
    await rt?.close();
    await velocity?.close();
    if (!raw) return;
    await deleteKeys(raw, `${PREFIX}*`);
    await raw.quit();
  });

  it('after deletion no key or member holds a hash of the user; the other user\'s windows remain', async () => {
    const app = (): TestApp => {
      assert.ok(rt);
      return rt;
    };
    const call = caller(app, RK);
    await populate(app(), 'delredis', call, VICTIM);
    await populate(app(), 'delredis', call, KEEPER);
    const victim = Object.values(hashesOf(VICTIM));
    const keeper = hashesOf(KEEPER);
    const holding = (entries: Array<{ key: string; members: string[] }>, hashes: readonly string[]) =>
      entries.filter((e) => hashes.some((h) => e.key.includes(h) || e.members.some((m) => m.includes(h))));

    await app().recorder.flush();
    const before = await scan();
    assert.ok(holding(before, victim).length > 0, 'the user has velocity keys before deletion');
    const keeperBefore = holding(before, Object.values(keeper));
    assert.ok(keeperBefore.length > 0);

    assertCounts(await apiCall(app(), 'DELETE', '/account/users/delete', RK, { value: VICTIM.email }), 'email');
    assertCounts(await apiCall(app(), 'DELETE', '/account/users/delete', RK, { value: VICTIM.phone }), 'phone');
    assertCounts(await apiCall(app(), 'DELETE', '/account/users/delete', RK, { value: VICTIM.id }), 'userID');

    const afterScan = await scan();
    const left = holding(afterScan, victim);
    assert.deepEqual(left, [], `Redis still holds the user's hashes:\n${left.map((e) => `${e.key} [${e.members.join(', ')}]`).join('\n')}`);
    // The other user's windows are exactly as they were.
    assert.deepEqual(holding(afterScan, Object.values(keeper)), keeperBefore);
    for (const field of ['customer', 'email', 'phone', 'card', 'device', 'ip']) {
      assert.ok(afterScan.some((e) => e.key.includes(`:${field}:`) && Object.values(keeper).some((h) => e.key.includes(h))), `the other user's ${field} window remains`);
    }
    // The scorings went from the store too.
    assert.deepEqual(await app().store.scorings.findByIdentity('delredis', 'customer', hashesOf(VICTIM).customer_id!), []);
  });
});

describe('DELETE /account/users/delete: feedback and scorings racing it, one SQLite process', () => {
  const KEY = liveKey('raceonesqlite');
  let rt: TestApp;
  before(async () => {
    rt = await makeTestApp({ seed: { accounts: [{ id: 'race1', plan: 'premium', keys: [KEY], settings: { autoBlacklistConfirmedFraud: true, dailyDeletionLimit: 100 } }] } });
  });
  after(() => rt?.close());

  it('a feedback and a scoring sent with the deletion, before it answers, leave nothing of the user', async () => {
    const db = new Database(join(rt.dir, 'vigil.db'), { readonly: true, fileMustExist: true });
    after(() => db.close());
    for (let round = 0; round < 5; round++) {
      const user = `race-sqlite-${round}`;
      const score = (tx: string) => apiCall(rt, 'POST', '/scoring/payment', KEY, { data: { transaction_id: tx, customer_id: user, amount: 20, currency: 'EUR', customer_ip: '81.2.69.170' } });
      assert.equal((await score(`${user}-a`)).status, 'success');
      // The deletion first, then (same turn) a chargeback of the scored transaction and a new scoring: both queue
      // behind it or run beside it, and were received before it answered.
      const [del, fb, sc] = await Promise.all([
        apiCall(rt, 'DELETE', '/account/users/delete', KEY, { value: user, type: 'user_id' }),
        apiCall(rt, 'POST', '/feedback/payment', KEY, { transaction_id: `${user}-a`, outcome: 'chargeback', customer_id: user }),
        score(`${user}-b`),
      ]);
      for (const r of [del, fb, sc]) assert.equal(r.status, 'success', JSON.stringify(r));
      const h = hasher.hash('customer_id', user);
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
      assert.deepEqual({
        scorings: count('SELECT count(*) AS n FROM payment_scorings WHERE customer_hash = ? OR transaction_id LIKE ?', h, `${user}-%`),
        outcomes: count('SELECT count(*) AS n FROM payment_outcomes WHERE customer_hash = ? OR transaction_id LIKE ?', h, `${user}-%`),
        evidence: count('SELECT count(*) AS n FROM identity_evidence WHERE value_hash = ? OR origin LIKE ?', h, `payment:${user}-%`),
        history: count('SELECT count(*) AS n FROM model_history WHERE origin LIKE ?', `payment:${user}-%`),
        listed: count(`SELECT count(*) AS n FROM blacklist_entries WHERE type = 'confirmed_fraud' AND value = ?`, `customer_id:${h}`),
      }, { scorings: 0, outcomes: 0, evidence: 0, history: 0, listed: 0 }, `round ${round}`);
    }
  });
});
