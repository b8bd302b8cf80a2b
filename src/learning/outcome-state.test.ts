import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAYMENT_OUTCOMES, type OutcomeRecord, type PaymentOutcome } from '../store/learning-ports.ts';
import { countsAsFraud, nextLabel, nextOutcome, reasonMentionsFraud, type IncomingOutcome, type OutcomeDecision } from './outcome-state.ts';

const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-02T10:00:00.000Z';

function record(outcome: PaymentOutcome, overrides: Partial<OutcomeRecord> = {}): OutcomeRecord {
  return {
    accountId: 'acc',
    transactionId: 'tx-1',
    outcome,
    fraud: countsAsFraud(outcome, overrides.reason ?? null),
    reason: null,
    occurredAt: T0,
    status: 'applied',
    identities: { customer: null, user: null, email: null, emailDomain: null, phone: null, ip: null, device: null, card: null },
    updatedAt: T0,
    ...overrides,
  };
}

function incoming(outcome: PaymentOutcome, reason: string | null = null): IncomingOutcome {
  return { outcome, reason, occurredAt: T1 };
}

/** Applies a decision the way the service does: the record becomes the decision's fields when written. */
function apply(current: OutcomeRecord | null, d: OutcomeDecision): OutcomeRecord | null {
  if (!d.write) return current;
  return record(d.outcome, { fraud: d.fraud, reason: d.reason, occurredAt: d.occurredAt, status: d.status });
}

const STICKY: PaymentOutcome[] = ['chargeback', 'fraud_confirmed'];
const WEAK: PaymentOutcome[] = ['approved', 'declined', 'refunded'];

describe('payment outcome record: spec table', () => {
  describe('no record', () => {
    for (const outcome of PAYMENT_OUTCOMES) {
      it(`${outcome}, transaction scored → applied, label created`, () => {
        const d = nextOutcome(null, incoming(outcome), 2);
        assert.deepEqual(d, {
          write: true,
          label: 'created',
          status: 'applied',
          outcome,
          fraud: countsAsFraud(outcome, null),
          reason: null,
          occurredAt: T1,
          outcomeChanged: true,
        });
      });

      it(`${outcome}, never scored → pending, label created`, () => {
        const d = nextOutcome(null, incoming(outcome, 'why'), 0);
        assert.equal(d.write, true);
        assert.equal(d.label, 'created');
        assert.equal(d.status, 'pending');
        assert.equal(d.outcome, outcome);
        assert.equal(d.reason, 'why');
      });
    }
  });

  describe('applied, same outcome → unchanged (retries are safe)', () => {
    for (const outcome of PAYMENT_OUTCOMES) {
      it(outcome, () => {
        const current = record(outcome);
        const d = nextOutcome(current, incoming(outcome), 1);
        assert.equal(d.write, false);
        assert.equal(d.label, 'unchanged');
        assert.equal(d.status, 'applied');
        assert.equal(d.outcome, outcome);
        assert.equal(d.occurredAt, T0, 'the stored record stays as it was');
        assert.equal(d.outcomeChanged, false);
      });
    }
  });

  describe('chargeback or fraud_confirmed, then approved, declined or refunded → unchanged, not replaced', () => {
    for (const current of STICKY) {
      for (const next of WEAK) {
        it(`${current} + ${next}`, () => {
          const d = nextOutcome(record(current), incoming(next, 'stolen card'), 1);
          assert.equal(d.write, false);
          assert.equal(d.label, 'unchanged');
          assert.equal(d.outcome, current);
          assert.equal(d.fraud, true);
          assert.equal(d.outcomeChanged, false);
        });
      }
    }
  });

  describe('chargeback or fraud_confirmed, then legit_confirmed → legit_confirmed, updated', () => {
    for (const current of STICKY) {
      it(`${current} + legit_confirmed`, () => {
        const d = nextOutcome(record(current), incoming('legit_confirmed', 'customer confirmed'), 1);
        assert.deepEqual(d, {
          write: true,
          label: 'updated',
          status: 'applied',
          outcome: 'legit_confirmed',
          fraud: false,
          reason: 'customer confirmed',
          occurredAt: T1,
          outcomeChanged: true,
        });
      });
    }
  });

  describe('otherwise → the new outcome, updated', () => {
    const cases: Array<[PaymentOutcome, PaymentOutcome]> = [];
    for (const a of PAYMENT_OUTCOMES) {
      for (const b of PAYMENT_OUTCOMES) {
        if (a === b || (STICKY.includes(a) && WEAK.includes(b)) || (STICKY.includes(a) && b === 'legit_confirmed')) continue;
        cases.push([a, b]);
      }
    }
    it('covers every remaining pair (including chargeback ↔ fraud_confirmed and legit_confirmed → anything)', () => {
      assert.equal(cases.length, 6 * 5 - 2 * 3 - 2);
      assert.ok(cases.some(([a, b]) => a === 'chargeback' && b === 'fraud_confirmed'));
      assert.ok(cases.some(([a, b]) => a === 'fraud_confirmed' && b === 'chargeback'));
      assert.ok(cases.some(([a, b]) => a === 'legit_confirmed' && b === 'approved'));
    });
    for (const [a, b] of cases) {
      it(`${a} + ${b}`, () => {
        const d = nextOutcome(record(a), incoming(b), 3);
        assert.equal(d.write, true);
        assert.equal(d.label, 'updated');
        assert.equal(d.status, 'applied');
        assert.equal(d.outcome, b);
        assert.equal(d.fraud, countsAsFraud(b, null));
        assert.equal(d.occurredAt, T1);
        assert.equal(d.outcomeChanged, true);
      });
    }
  });
});

describe('payment outcome record: pending and matching', () => {
  it('a pending record stays pending on a retry while the transaction is unscored', () => {
    const d = nextOutcome(record('chargeback', { status: 'pending' }), incoming('chargeback'), 0);
    assert.equal(d.write, false);
    assert.equal(d.label, 'unchanged');
    assert.equal(d.status, 'pending');
  });

  it('a pending record whose transaction has since been scored becomes applied on a retry, label unchanged', () => {
    const current = record('chargeback', { status: 'pending', reason: 'first' });
    const d = nextOutcome(current, incoming('chargeback', 'reworded'), 2);
    assert.equal(d.write, true);
    assert.equal(d.label, 'unchanged');
    assert.equal(d.status, 'applied');
    assert.equal(d.reason, 'first', 'only the status changes');
    assert.equal(d.occurredAt, T0);
    assert.equal(d.outcomeChanged, false);
  });

  it('a pending sticky outcome also becomes applied when a weak one arrives after scoring', () => {
    const d = nextOutcome(record('fraud_confirmed', { status: 'pending' }), incoming('approved'), 1);
    assert.equal(d.write, true);
    assert.equal(d.label, 'unchanged');
    assert.equal(d.status, 'applied');
    assert.equal(d.outcome, 'fraud_confirmed');
  });

  it('an update of a never-scored transaction stays pending', () => {
    const d = nextOutcome(record('approved', { status: 'pending' }), incoming('chargeback'), 0);
    assert.equal(d.label, 'updated');
    assert.equal(d.status, 'pending');
  });
});

describe('payment outcome record: decline reasons', () => {
  it('declined resent with a reason that now says fraud is an update', () => {
    const current = record('declined', { reason: 'insufficient funds' });
    assert.equal(current.fraud, false);
    const d = nextOutcome(current, incoming('declined', 'stolen card'), 1);
    assert.equal(d.label, 'updated');
    assert.equal(d.fraud, true);
    assert.equal(d.reason, 'stolen card');
  });

  it('declined resent with another wording of the same verdict is unchanged', () => {
    const current = record('declined', { reason: 'suspected fraud' });
    const d = nextOutcome(current, incoming('declined', 'fraudulent card'), 1);
    assert.equal(d.label, 'unchanged');
    assert.equal(d.write, false);
    assert.equal(d.reason, 'suspected fraud');
  });
});

describe('payment outcome record: sequences', () => {
  function run(steps: Array<[PaymentOutcome, number]>): Array<{ label: string; outcome: PaymentOutcome; status: string }> {
    let current: OutcomeRecord | null = null;
    const out: Array<{ label: string; outcome: PaymentOutcome; status: string }> = [];
    for (const [outcome, scored] of steps) {
      const d = nextOutcome(current, incoming(outcome), scored);
      current = apply(current, d);
      out.push({ label: d.label, outcome: d.outcome, status: d.status });
    }
    return out;
  }

  it('retries of the same feedback: created, then unchanged every time', () => {
    assert.deepEqual(run([['chargeback', 1], ['chargeback', 1], ['chargeback', 1]]), [
      { label: 'created', outcome: 'chargeback', status: 'applied' },
      { label: 'unchanged', outcome: 'chargeback', status: 'applied' },
      { label: 'unchanged', outcome: 'chargeback', status: 'applied' },
    ]);
  });

  it('approved then chargeback: the chargeback wins; the late approved does not undo it', () => {
    assert.deepEqual(run([['approved', 1], ['chargeback', 1], ['approved', 1]]), [
      { label: 'created', outcome: 'approved', status: 'applied' },
      { label: 'updated', outcome: 'chargeback', status: 'applied' },
      { label: 'unchanged', outcome: 'chargeback', status: 'applied' },
    ]);
  });

  it('arrival order decides: chargeback first, approved after, ends as chargeback either way', () => {
    const a = run([['approved', 1], ['chargeback', 1]]).at(-1);
    const b = run([['chargeback', 1], ['approved', 1]]).at(-1);
    assert.equal(a?.outcome, 'chargeback');
    assert.equal(b?.outcome, 'chargeback');
  });

  it('fraud_confirmed, legit_confirmed, then chargeback: each an update', () => {
    assert.deepEqual(run([['fraud_confirmed', 1], ['legit_confirmed', 1], ['chargeback', 1]]).map((s) => s.label), ['created', 'updated', 'updated']);
  });

  it('pending, then scored: the retry applies it', () => {
    assert.deepEqual(run([['refunded', 0], ['refunded', 0], ['refunded', 1], ['refunded', 1]]), [
      { label: 'created', outcome: 'refunded', status: 'pending' },
      { label: 'unchanged', outcome: 'refunded', status: 'pending' },
      { label: 'unchanged', outcome: 'refunded', status: 'applied' },
      { label: 'unchanged', outcome: 'refunded', status: 'applied' },
    ]);
  });
});

describe('countsAsFraud', () => {
  it('chargeback and fraud_confirmed always; approved, refunded and legit_confirmed never', () => {
    assert.equal(countsAsFraud('chargeback', null), true);
    assert.equal(countsAsFraud('fraud_confirmed', 'customer error'), true);
    assert.equal(countsAsFraud('approved', 'fraud'), false);
    assert.equal(countsAsFraud('refunded', 'stolen card'), false);
    assert.equal(countsAsFraud('legit_confirmed', 'suspected fraud'), false);
    assert.equal(countsAsFraud('declined', null), false);
  });

  const fraudReasons = [
    'Suspected fraud',
    'FRAUDULENT transaction',
    'fraudster',
    'Stolen card',
    'lost card',
    'Lost or stolen',
    'lost_card',
    'suspicious activity',
    'suspect transaction',
    'Unauthorized use',
    'unauthorised charge',
    'chargeback risk',
    'identity theft',
    'card compromised',
    'counterfeit card',
    'Pick up card',
    'pickup card',
    'pick-up card',
    'security violation',
    'card testing detected',
    'account takeover',
    'scam',
    'phishing',
    'anti-fraud screening declined',
    'insufficient funds; not fraud, but stolen',
  ];
  for (const reason of fraudReasons) {
    it(`declined "${reason}" counts as fraud`, () => {
      assert.equal(countsAsFraud('declined', reason), true);
    });
  }

  const otherReasons = ['insufficient funds', 'do not honor', 'expired card', 'not fraud', 'no fraud', 'non-fraudulent decline', 'Non fraud', 'defrauded?', 'antifraud', 'lost connection', 'card limit', ''];
  for (const reason of otherReasons) {
    it(`declined "${reason}" does not count as fraud`, () => {
      assert.equal(countsAsFraud('declined', reason), false);
    });
  }

  it('scans long hostile reasons quickly', () => {
    const started = process.hrtime.bigint();
    assert.equal(reasonMentionsFraud(`${' '.repeat(3990)}no `.repeat(3)), false);
    assert.equal(reasonMentionsFraud(`${'a'.repeat(5000)} fraud`), false, 'only the first 4000 characters are read');
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 500);
  });
});

describe('identity label: spec table', () => {
  const rows: Array<[current: 'fraud' | 'legit' | null, incoming: 'fraud' | 'legit', label: 'fraud' | 'legit', status: string]> = [
    [null, 'fraud', 'fraud', 'created'],
    [null, 'legit', 'legit', 'created'],
    ['fraud', 'fraud', 'fraud', 'unchanged'],
    ['legit', 'legit', 'legit', 'unchanged'],
    ['fraud', 'legit', 'legit', 'updated'],
    ['legit', 'fraud', 'fraud', 'updated'],
  ];
  for (const [current, next, label, status] of rows) {
    it(`${current ?? 'none'} + ${next} → ${label}, ${status}`, () => {
      assert.deepEqual(nextLabel(current, next), { label, status });
    });
  }

  it('retries and flips in sequence', () => {
    let current: 'fraud' | 'legit' | null = null;
    const statuses: string[] = [];
    for (const next of ['fraud', 'fraud', 'legit', 'legit', 'fraud'] as const) {
      const r = nextLabel(current, next);
      statuses.push(r.status);
      current = r.label;
    }
    assert.deepEqual(statuses, ['created', 'unchanged', 'updated', 'unchanged', 'updated']);
    assert.equal(current, 'fraud');
  });
});
