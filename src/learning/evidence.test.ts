import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Evidence, LabelType } from '../store/learning-ports.ts';
import { decayedWeight, EVIDENCE_HALF_LIFE_DAYS, evidenceScore, groupEvidence, identityLabelOf } from './evidence.ts';

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

describe('groupEvidence', () => {
  const groups: Record<'customer' | 'shared', LabelType[]> = { customer: ['customer_id', 'email', 'phone'], shared: ['device_id', 'card', 'ip'] };

  it('scores each group, 0 for groups without evidence', () => {
    assert.deepEqual(groupEvidence([], groups, NOW), { customer: 0, shared: 0 });
    const scores = groupEvidence([row('fraud', 0, { type: 'email' }), row('fraud', 90, { type: 'ip', valueHash: 'ip1' })], groups, NOW);
    close(scores.customer, 1);
    close(scores.shared, 0.5);
  });

  it('floors per identity: a legit label on one identity does not clear another', () => {
    const rows = [row('fraud', 0, { type: 'email', valueHash: 'e1' }), row('legit', 0, { type: 'phone', valueHash: 'p1' })];
    close(groupEvidence(rows, groups, NOW).customer, 1);
    const sameIdentity = [row('fraud', 0, { type: 'email', valueHash: 'e1' }), row('legit', 0, { type: 'email', valueHash: 'e1', origin: 'label' })];
    assert.equal(groupEvidence(sameIdentity, groups, NOW).customer, 0);
  });

  it('sums identities of a group and ignores types no group names', () => {
    const rows = [
      row('fraud', 0, { type: 'email', valueHash: 'e1' }),
      row('fraud', 0, { type: 'customer_id', valueHash: 'c1' }),
      row('fraud', 0, { type: 'text', valueHash: 't1' }),
    ];
    assert.deepEqual(groupEvidence(rows, groups, NOW), { customer: 2, shared: 0 });
  });

  it('the same hash under two types is two identities', () => {
    const rows = [row('fraud', 0, { type: 'email', valueHash: 'x' }), row('legit', 0, { type: 'ip', valueHash: 'x' })];
    assert.deepEqual(groupEvidence(rows, groups, NOW), { customer: 1, shared: 0 });
  });
});

describe('identityLabelOf', () => {
  it('is null without rows of that identity', () => {
    assert.equal(identityLabelOf([], 'email', 'h1'), null);
    assert.equal(identityLabelOf([row('fraud', 0, { valueHash: 'other' })], 'email', 'h1'), null);
    assert.equal(identityLabelOf([row('fraud', 0, { type: 'phone' })], 'email', 'h1'), null);
  });

  it('the identity\'s own label row wins over payment evidence', () => {
    const rows = [row('fraud', 0, { origin: 'payment:t1' }), row('legit', 30, { origin: 'label' })];
    assert.equal(identityLabelOf(rows, 'email', 'h1'), 'legit');
  });

  it('otherwise the latest row by occurredAt, whatever the row order', () => {
    const rows = [row('legit', 5, { origin: 'payment:a' }), row('fraud', 1, { origin: 'event:7' }), row('legit', 30, { origin: 'payment:b' })];
    assert.equal(identityLabelOf(rows, 'email', 'h1'), 'fraud');
    assert.equal(identityLabelOf([...rows].reverse(), 'email', 'h1'), 'fraud');
  });

  it('breaks occurredAt ties by updatedAt, then origin', () => {
    const a = row('fraud', 1, { origin: 'payment:a', updatedAt: daysAgo(0) });
    const b = row('legit', 1, { origin: 'payment:b', updatedAt: daysAgo(1) });
    assert.equal(identityLabelOf([a, b], 'email', 'h1'), 'fraud');
    assert.equal(identityLabelOf([b, a], 'email', 'h1'), 'fraud');
    const c = row('legit', 1, { origin: 'payment:c', updatedAt: a.updatedAt });
    assert.equal(identityLabelOf([a, c], 'email', 'h1'), 'legit');
    assert.equal(identityLabelOf([c, a], 'email', 'h1'), 'legit');
  });
});
