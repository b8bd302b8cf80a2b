import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { EvidencePort } from '../store/learning-ports.ts';
import type { Store } from '../store/ports.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { IdentityHasher } from './identity-hash.ts';
import { LabelLookups } from './label-lookups.ts';

const NOW = new Date('2026-06-01T00:00:00.000Z');

describe('LabelLookups', () => {
  let sqlite: SqliteStore;
  let store: Store;
  let reads: { labelledTypes: number; scores: number };
  let failTypes: boolean;
  let ms: number;
  const hasher = new IdentityHasher('label-lookups-test-secret-0123456789', 'label-lookups-card-secret-0123456789');

  beforeEach(async () => {
    sqlite = new SqliteStore({ path: ':memory:' });
    await sqlite.migrate();
    reads = { labelledTypes: 0, scores: 0 };
    failTypes = false;
    ms = 0;
    // The real store, with its two reads counted (and the first one failing on demand).
    const evidence: EvidencePort = Object.create(sqlite.evidence) as EvidencePort;
    evidence.labelledTypes = (accountId) => {
      reads.labelledTypes++;
      return failTypes ? Promise.reject(new Error('store down')) : sqlite.evidence.labelledTypes(accountId);
    };
    evidence.scores = (...args) => {
      reads.scores++;
      return sqlite.evidence.scores(...args);
    };
    store = Object.assign(Object.create(sqlite) as Store, { evidence });
  });

  afterEach(async () => {
    await sqlite.close();
  });

  const lookups = () => new LabelLookups(store, hasher, { presenceTtlMs: 1000, clock: () => ms });
  const labelEmail = (accountId: string, email: string) =>
    sqlite.evidence.put({
      accountId, type: 'email', valueHash: hasher.hash('email', email), origin: 'label', label: 'fraud', masked: 'x', reason: null, source: null,
      occurredAt: NOW.toISOString(), updatedAt: NOW.toISOString(),
    });

  it('an account without labels of a type costs no hash and no score read, and one presence read per interval', async () => {
    const labels = lookups();
    await labelEmail('acct', 'jane@example.com');
    assert.equal(await labels.label('acct', 'ip', '203.0.113.9', NOW), null);
    assert.deepEqual(await labels.fraudValues('acct', 'phone', ['441234567890', '15550000000'], NOW), new Set());
    assert.equal(await labels.label('other', 'email', 'jane@example.com', NOW), null);
    assert.deepEqual(reads, { labelledTypes: 2, scores: 0 });
    assert.equal(await labels.label('acct', 'email', 'jane@example.com', NOW), 'fraud');
    assert.equal(await labels.label('acct', 'email', 'john@example.com', NOW), null);
    assert.deepEqual(reads, { labelledTypes: 2, scores: 2 });
  });

  it('a label written elsewhere counts once the interval has passed; forget() makes it count at once', async () => {
    const labels = lookups();
    assert.equal(await labels.label('acct', 'email', 'jane@example.com', NOW), null);
    await labelEmail('acct', 'jane@example.com');
    ms = 999;
    assert.equal(await labels.label('acct', 'email', 'jane@example.com', NOW), null, 'still within the interval');
    ms = 1000;
    assert.equal(await labels.label('acct', 'email', 'jane@example.com', NOW), 'fraud');

    await labelEmail('acct2', 'joe@example.com');
    assert.equal(await labels.label('acct2', 'email', 'joe@example.com', NOW), 'fraud');
    const other = lookups();
    assert.equal(await other.label('acct3', 'email', 'ann@example.com', NOW), null);
    await labelEmail('acct3', 'ann@example.com');
    other.forget('acct3');
    assert.equal(await other.label('acct3', 'email', 'ann@example.com', NOW), 'fraud');
  });

  it('scores of hashed identities read only the types the account labelled, and nothing without labels', async () => {
    const labels = lookups();
    const jane = hasher.hash('email', 'jane@example.com');
    const ids = [{ type: 'ip' as const, valueHash: hasher.hash('ip', '203.0.113.9') }, { type: 'email' as const, valueHash: jane }];
    assert.deepEqual(await labels.scores('acct', ids, NOW), []);
    assert.deepEqual(await labels.scores('acct', [], NOW), []);
    assert.equal(reads.scores, 0);
    await labelEmail('acct', 'jane@example.com');
    labels.forget('acct');
    const scores = await labels.scores('acct', ids, NOW);
    assert.deepEqual(scores.map((s) => [s.type, s.valueHash, Math.round(s.score * 1000) / 1000]), [['email', jane, 1]]);
    assert.equal(reads.scores, 1);
  });

  it('concurrent lookups share one presence read; a failed read fails them and is not kept', async () => {
    const labels = lookups();
    await Promise.all([1, 2, 3].map(() => labels.label('acct', 'ip', '198.51.100.1', NOW)));
    assert.equal(reads.labelledTypes, 1);
    ms = 5000;
    failTypes = true;
    await assert.rejects(labels.label('acct', 'ip', '198.51.100.1', NOW), /store down/);
    failTypes = false;
    assert.equal(await labels.label('acct', 'ip', '198.51.100.1', NOW), null);
    assert.equal(reads.labelledTypes, 3);
  });
});
