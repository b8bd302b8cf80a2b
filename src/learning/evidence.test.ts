import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Evidence, IdentityScore, LabelType } from '../store/learning-ports.ts';
import { decayedWeight, EVIDENCE_HALF_LIFE_DAYS, evidenceScore, identitiesEvidence } from './evidence.ts';

const NOW = new Date('2024-06-01T00:00:00.000Z');
const DAY = 86_400_000;

function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * DAY).toISOString();
}

function row(label: 'fraud' | 'legit', days: number, overrides: Partial<Evidence> = {}): Evidence {
  return {
    accountId: 'acc',
    type: 'email',
    valueHash: 'h1',
    origin: `payment:${days}`,
    label,
    masked: 'j***@example.com',
    reason: null,
    source: null,
    occurredAt: daysAgo(days),
    updatedAt: daysAgo(days),
    ...overrides,
  };
}

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

describe('decayedWeight', () => {
  it('halves every 90 days', () => {
    assert.equal(EVIDENCE_HALF_LIFE_DAYS, 90);
    assert.equal(decayedWeight(daysAgo(0), NOW), 1);
    close(decayedWeight(daysAgo(90), NOW), 0.5);
    close(decayedWeight(daysAgo(180), NOW), 0.25);
    close(decayedWeight(daysAgo(45), NOW), Math.SQRT1_2);
  });

  it('future dates count as age 0; unreadable dates weigh 0', () => {
    assert.equal(decayedWeight(daysAgo(-10), NOW), 1);
    assert.equal(decayedWeight('not a date', NOW), 0);
    assert.equal(decayedWeight(daysAgo(1), new Date(Number.NaN)), 0);
  });
});

describe('evidenceScore', () => {
  it('is 0 with no evidence', () => {
    assert.equal(evidenceScore([], NOW), 0);
  });

  it('sums decayed fraud evidence', () => {
    close(evidenceScore([row('fraud', 0), row('fraud', 90)], NOW), 1.5);
  });

  it('a legit label offsets earlier fraud evidence', () => {
    assert.equal(evidenceScore([row('fraud', 10), row('legit', 10)], NOW), 0);
    // A fresh legit label more than cancels older fraud evidence.
    assert.equal(evidenceScore([row('fraud', 90), row('legit', 0)], NOW), 0);
    // Two fraud outcomes, one legit: one's worth remains.
    close(evidenceScore([row('fraud', 0), row('fraud', 0), row('legit', 0)], NOW), 1);
  });

  it('is floored at 0: legit evidence is not credit against later fraud', () => {
    assert.equal(evidenceScore([row('legit', 0), row('legit', 0)], NOW), 0);
    close(evidenceScore([row('legit', 180), row('fraud', 0)], NOW), 0.75);
  });
});

describe('identitiesEvidence', () => {
  const score = (type: LabelType, valueHash: string, value: number): IdentityScore => ({ type, valueHash, score: value });
  const id = (type: LabelType, valueHash: string) => ({ type, valueHash });
  const customer = [id('customer_id', 'c1'), id('email', 'e1'), id('phone', 'p1')];

  it('is 0 without scores, and for identities that have none', () => {
    assert.equal(identitiesEvidence([], customer), 0);
    assert.equal(identitiesEvidence([score('ip', 'i1', 1)], customer), 0);
  });

  it('floors per identity: a legit label on one identity does not clear another', () => {
    close(identitiesEvidence([score('email', 'e1', 1), score('phone', 'p1', -1)], customer), 1);
    assert.equal(identitiesEvidence([score('email', 'e1', -0.5)], customer), 0);
  });

  it('sums the listed identities and ignores the others', () => {
    const scores = [score('email', 'e1', 1), score('customer_id', 'c1', 1), score('text', 't1', 1), score('ip', 'i1', 0.5)];
    assert.equal(identitiesEvidence(scores, customer), 2);
    close(identitiesEvidence(scores, [id('ip', 'i1')]), 0.5);
  });

  it('the same hash under two types is two identities; an identity listed twice counts once', () => {
    const scores = [score('email', 'x', 1), score('ip', 'x', -1)];
    assert.equal(identitiesEvidence(scores, [id('email', 'x'), id('ip', 'x')]), 1);
    assert.equal(identitiesEvidence(scores, [id('email', 'x'), id('email', 'x')]), 1);
  });
});
