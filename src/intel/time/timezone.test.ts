import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numericAbbreviation } from './abbreviation.ts';
import { timezoneBlock } from './timezone.ts';
import { durationText, parseLongOffset, readZone, readZoneWithIcu } from './zone-clock.ts';

const BERLIN = [52.52, 13.405] as const;
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

function minutesOf(clock: string | null): number {
  assert.ok(clock !== null);
  const [h, m] = clock.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

describe('timezoneBlock: offset, DST and abbreviation', () => {
  const cases: [label: string, zone: string, at: string, offset: number, isDST: boolean, abbreviation: string][] = [
    ['Berlin in July', 'Europe/Berlin', '2025-07-15T10:00:00Z', 7200, true, 'CEST'],
    ['Berlin in January', 'Europe/Berlin', '2025-01-15T10:00:00Z', 3600, false, 'CET'],
    ['London in summer', 'Europe/London', '2025-07-15T10:00:00Z', 3600, true, 'BST'],
    ['London in winter', 'Europe/London', '2025-01-15T10:00:00Z', 0, false, 'GMT'],
    ['New York in summer', 'America/New_York', '2025-07-15T10:00:00Z', -14400, true, 'EDT'],
    ['New York in winter', 'America/New_York', '2025-01-15T10:00:00Z', -18000, false, 'EST'],
    ['Sydney in January (southern summer)', 'Australia/Sydney', '2025-01-15T10:00:00Z', 39600, true, 'AEDT'],
    ['Sydney in July', 'Australia/Sydney', '2025-07-15T10:00:00Z', 36000, false, 'AEST'],
    ["St John's half-hour DST", 'America/St_Johns', '2025-07-15T10:00:00Z', -9000, true, 'NDT'],
    ['Kolkata', 'Asia/Kolkata', '2025-07-15T10:00:00Z', 19800, false, 'IST'],
    ['Riyadh: no abbreviation anywhere, tzdata numeric form', 'Asia/Riyadh', '2025-07-15T10:00:00Z', 10800, false, '+03'],
    ['Kathmandu: quarter-hour offset', 'Asia/Kathmandu', '2025-07-15T10:00:00Z', 20700, false, '+0545'],
    ['Tokyo: tzdata name CLDR lacks', 'Asia/Tokyo', '2025-07-15T10:00:00Z', 32400, false, 'JST'],
    ['Moscow: tzdata name CLDR lacks', 'Europe/Moscow', '2025-07-15T10:00:00Z', 10800, false, 'MSK'],
    ['Jerusalem in summer', 'Asia/Jerusalem', '2025-07-15T10:00:00Z', 10800, true, 'IDT'],
    ['fixed-offset Etc zone', 'Etc/GMT-1', '2025-07-15T10:00:00Z', 3600, false, '+01'],
    ['UTC', 'Etc/UTC', '2025-07-15T10:00:00Z', 0, false, 'UTC'],
    ['old link name', 'US/Eastern', '2025-07-15T10:00:00Z', -14400, true, 'EDT'],
  ];
  for (const [label, zone, at, offset, isDST, abbreviation] of cases) {
    it(label, () => {
      const block = timezoneBlock(zone, 0, 0, new Date(at));
      assert.equal(block.name, zone);
      assert.equal(block.offset, offset);
      assert.equal(block.isDST, isDST);
      assert.equal(block.abbreviation, abbreviation);
    });
  }
});

describe('timezoneBlock: clock', () => {
  it('gives local time of day and unix seconds of `now`', () => {
    const block = timezoneBlock('Europe/Berlin', ...BERLIN, new Date('2025-07-15T10:11:12.999Z'));
    assert.equal(block.currentTime, '12:11:12');
    assert.equal(block.currentTimestamp, 1752574272);
  });

  it('writes midnight as 00, not 24', () => {
    assert.equal(timezoneBlock('Europe/Berlin', ...BERLIN, new Date('2025-07-14T22:00:00Z')).currentTime, '00:00:00');
  });

  it('is pure: same inputs, equal blocks', () => {
    const now = new Date('2025-03-30T00:30:00Z');
    assert.deepEqual(timezoneBlock('Europe/Berlin', ...BERLIN, now), timezoneBlock('Europe/Berlin', ...BERLIN, now));
    assert.equal(now.toISOString(), '2025-03-30T00:30:00.000Z');
  });
});

describe('timezoneBlock: sun', () => {
  it('gives Berlin midsummer times within a few minutes of the published ones', () => {
    const sun = timezoneBlock('Europe/Berlin', ...BERLIN, new Date('2025-06-21T10:00:00Z')).sunInfo;
    // Published for Berlin on 21 June: sunrise 04:43, sunset 21:33, solar noon 13:08.
    assert.ok(Math.abs(minutesOf(sun.sunrise) - (4 * 60 + 43)) <= 3, `sunrise ${sun.sunrise}`);
    assert.ok(Math.abs(minutesOf(sun.sunset) - (21 * 60 + 33)) <= 3, `sunset ${sun.sunset}`);
    assert.ok(Math.abs(minutesOf(sun.transit) - (13 * 60 + 8)) <= 3, `transit ${sun.transit}`);
    assert.match(sun.dayLength, /^16:(4[5-9]|5\d):\d\d$/);
    // No astronomical night at 52.5°N in June.
    assert.equal(sun.astronomicalTwilightBegin, null);
    assert.equal(sun.astronomicalTwilightEnd, null);
    for (const t of [sun.civilTwilightBegin, sun.civilTwilightEnd, sun.nauticalTwilightBegin, sun.nauticalTwilightEnd]) {
      assert.match(t ?? '', CLOCK);
    }
  });

  it('orders the events of an ordinary day', () => {
    const sun = timezoneBlock('America/New_York', 38.8951, -77.0364, new Date('2025-01-15T17:00:00Z')).sunInfo;
    const order = [
      sun.astronomicalTwilightBegin,
      sun.nauticalTwilightBegin,
      sun.civilTwilightBegin,
      sun.sunrise,
      sun.transit,
      sun.sunset,
      sun.civilTwilightEnd,
      sun.nauticalTwilightEnd,
      sun.astronomicalTwilightEnd,
    ].map(minutesOf);
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
  });

  it('handles polar day (Svalbard in June) with nulls and 24:00:00', () => {
    const sun = timezoneBlock('Arctic/Longyearbyen', 78.22, 15.65, new Date('2025-06-21T12:00:00Z')).sunInfo;
    assert.equal(sun.sunrise, null);
    assert.equal(sun.sunset, null);
    assert.equal(sun.civilTwilightBegin, null);
    assert.equal(sun.dayLength, '24:00:00');
    assert.match(sun.transit, CLOCK);
  });

  it('handles polar night (Svalbard in December) with 00:00:00', () => {
    const sun = timezoneBlock('Arctic/Longyearbyen', 78.22, 15.65, new Date('2025-12-21T12:00:00Z')).sunInfo;
    assert.equal(sun.sunrise, null);
    assert.equal(sun.dayLength, '00:00:00');
  });

  it('handles Antarctica in June and the South Pole', () => {
    assert.equal(timezoneBlock('Antarctica/McMurdo', -77.84, 166.69, new Date('2025-06-21T12:00:00Z')).sunInfo.dayLength, '00:00:00');
    assert.equal(timezoneBlock('Antarctica/McMurdo', -90, 0, new Date('2025-12-21T12:00:00Z')).sunInfo.dayLength, '24:00:00');
  });

  it("computes the zone's local day even far from the longitude's offset (Kiritimati, UTC+14)", () => {
    // 2025-06-21T12:00Z is 02:00 on 22 June in Kiritimati; solar noon there is about 12:30 local.
    const sun = timezoneBlock('Pacific/Kiritimati', 1.87, -157.4, new Date('2025-06-21T12:00:00Z')).sunInfo;
    assert.ok(Math.abs(minutesOf(sun.transit) - 12 * 60 - 30) <= 10, sun.transit);
  });
});

describe('timezoneBlock: bad input', () => {
  it('throws RangeError for an unknown zone', () => {
    assert.throws(() => timezoneBlock('Mars/Olympus_Mons', 0, 0, new Date()), RangeError);
  });

  it('throws RangeError for coordinates off the globe or an invalid date', () => {
    assert.throws(() => timezoneBlock('Europe/Berlin', 91, 0, new Date()), RangeError);
    assert.throws(() => timezoneBlock('Europe/Berlin', 0, Number.NaN, new Date()), RangeError);
    assert.throws(() => timezoneBlock('Europe/Berlin', 0, 0, new Date(Number.NaN)), RangeError);
  });
});

describe('time helpers', () => {
  it('writes tzdata numeric abbreviations', () => {
    const cases: [number, string][] = [
      [10800, '+03'],
      [19800, '+0530'],
      [20700, '+0545'],
      [-9000, '-0230'],
      [-10800, '-03'],
      [0, '+00'],
    ];
    for (const [offset, text] of cases) assert.equal(numericAbbreviation(offset), text);
  });

  it('parses ICU long offsets', () => {
    const cases: [string, number][] = [
      ['GMT', 0],
      ['GMT+05:30', 19800],
      ['GMT-03:00', -10800],
      ['GMT\u221203:30', -12600],
      ['GMT+00:17:30', 1050],
    ];
    for (const [text, seconds] of cases) assert.equal(parseLongOffset(text), seconds);
    assert.throws(() => parseLongOffset('UTC+1'), RangeError);
  });

  it('writes durations as HH:mm:ss', () => {
    assert.equal(durationText(0), '00:00:00');
    assert.equal(durationText(59.6), '00:01:00');
    assert.equal(durationText(58_813), '16:20:13');
    assert.equal(durationText(86_400), '24:00:00');
  });
});

describe('readZone memoised offsets agree with ICU', () => {
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'Africa/Casablanca', 'UTC'];
  // Instants around the 2026 DST changes and a spread through the year, including the minute edges.
  const instants = [
    Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1, 0, 0), Date.UTC(2026, 2, 8, 6, 59, 59), Date.UTC(2026, 2, 8, 7, 0, 0),
    Date.UTC(2026, 9, 25, 0, 59, 59), Date.UTC(2026, 9, 25, 1, 0, 0), Date.UTC(2026, 3, 5, 15, 29, 59), Date.UTC(2026, 3, 5, 15, 30, 0),
    ...Array.from({ length: 40 }, (_, i) => Date.UTC(2026, 0, 1) + i * 9_123_457_000),
  ];
  it('for every zone and instant', () => {
    for (const zone of zones) {
      for (const t of instants) assert.deepEqual(readZone(zone, t), readZoneWithIcu(zone, t), `${zone} ${new Date(t).toISOString()}`);
    }
  });
});
