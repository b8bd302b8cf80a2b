import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BINS, cardOf, luhnCheckDigit, luhnValid } from '../../scripts/synth/cards.ts';
import { mulberry32, Random } from '../../scripts/synth/prng.ts';
import { parseLabel, parseTime, prepareRow } from '../../scripts/eval/rows.ts';

describe('synth: mulberry32', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 5 }, a);
    assert.deepEqual(Array.from({ length: 5 }, b), xs);
    assert.notDeepEqual(Array.from({ length: 5 }, c), xs);
    for (const x of xs) assert.ok(x >= 0 && x < 1);
  });
  it('is roughly uniform', () => {
    const r = new Random(mulberry32(1));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 40_000; i++) counts[r.int(0, 3)]!++;
    for (const n of counts) assert.ok(Math.abs(n - 10_000) < 400, String(counts));
  });
});

describe('synth: cards', () => {
  const cases: Array<[string, boolean]> = [
    ['4111111111111111', true], // the well-known Visa test number
    ['5555555555554444', true], // Mastercard test number
    ['79927398713', true], // Luhn's textbook example
    ['4111111111111112', false],
    ['79927398710', false],
  ];
  for (const [n, ok] of cases) it(`${n} is ${ok ? '' : 'not '}Luhn-valid`, () => assert.equal(luhnValid(n), ok));

  it('completes a number with its check digit', () => assert.equal(luhnCheckDigit('7992739871'), '3'));

  it('makes valid 16-digit numbers on the BINs of the country asked for', () => {
    const r = new Random(mulberry32(9));
    for (const [country, bins] of Object.entries(BINS)) {
      for (let i = 0; i < 20; i++) {
        const n = cardOf(r, country);
        assert.equal(n.length, 16);
        assert.ok(luhnValid(n), n);
        assert.ok(bins.includes(n.slice(0, 6)), `${country} ${n}`);
      }
    }
  });
});

describe('eval: rows', () => {
  it('sends spec fields with their JSON types, leaves out empty cells and the special columns', () => {
    const p = prepareRow(
      {
        time: '2026-01-01T00:00:00Z', pattern: 'legit', label: '0', account_age_seconds: '3600',
        transaction_amount: '12.50', customer_latitude: '-33.9', isDigitalProducts: 'true', cvv_result: 'FALSE', customer_2fa: '1',
        customer_id: '17', card_number: '4111111111111111', customer_phone: '', customer_zip: '02134',
      },
      3,
      1_800_000_000,
    );
    assert.deepEqual(p.data, {
      transaction_amount: 12.5, customer_latitude: -33.9, isDigitalProducts: true, cvv_result: false, customer_2fa: true,
      customer_id: '17', card_number: '4111111111111111', customer_zip: '02134',
      customer_registration_date: 1_800_000_000 - 3600, transaction_id: 'eval-3',
    });
    assert.equal(p.label, 'legit');
    assert.equal(p.pattern, 'legit');
    assert.equal(p.transactionId, 'eval-3');
  });
  it('keeps a given transaction_id and sends an unreadable number as text for the server to refuse', () => {
    const p = prepareRow({ transaction_id: 'T1', transaction_amount: '1,5', label: '' }, 1, 0);
    assert.deepEqual(p.data, { transaction_id: 'T1', transaction_amount: '1,5' });
    assert.equal(p.label, null);
  });
  const labels: Array<[string, 'fraud' | 'legit' | null]> = [['1', 'fraud'], ['Fraud', 'fraud'], ['true', 'fraud'], ['0', 'legit'], ['legit', 'legit'], ['FALSE', 'legit'], ['', null], [' ', null]];
  for (const [cell, want] of labels) it(`label "${cell}" is ${want}`, () => assert.equal(parseLabel(cell), want));
  it('refuses an unknown label', () => assert.throws(() => parseLabel('maybe'), /label "maybe"/));
  it('reads times as UNIX seconds or ISO dates', () => {
    assert.equal(parseTime('1700000000'), 1_700_000_000);
    assert.equal(parseTime('2026-01-01T00:00:00Z'), Date.UTC(2026, 0, 1) / 1000);
    assert.equal(parseTime(''), null);
    assert.equal(parseTime('soon'), null);
  });
});
