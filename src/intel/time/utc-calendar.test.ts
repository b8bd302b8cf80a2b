import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utcDay, utcMonth } from './utc-calendar.ts';

describe('utcDay and utcMonth', () => {
  it('agree with toISOString at every edge of a day, in any order', () => {
    const instants = [
      '2026-11-23T00:00:00.000Z', '2026-11-23T23:59:59.999Z', '2026-11-24T00:00:00.000Z', '2026-11-22T23:59:59.999Z',
      '2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z', '2024-02-29T12:00:00Z', '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z', '2026-11-23T12:00:00Z', '2026-11-23T12:00:00Z',
    ].map((s) => new Date(s));
    for (const d of [...instants, ...instants.reverse()]) {
      assert.equal(utcDay(d), d.toISOString().slice(0, 10), d.toISOString());
      assert.equal(utcMonth(d), d.toISOString().slice(0, 7), d.toISOString());
    }
  });

  it('follows many random instants', () => {
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const d = new Date(1_600_000_000_000 + (seed % 400) * 3_600_000 + (i % 3) * 86_399_999);
      assert.equal(utcDay(d), d.toISOString().slice(0, 10));
    }
  });
});
