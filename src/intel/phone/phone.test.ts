import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carrierLookup, decodeStringDocument } from '../../data/phone-data.ts';
import { dayNumber, DisposableIndex, HOT_BLOCK } from './disposable.ts';
import { evaluatePhone, FRAUD_LABEL_REASON } from './evaluate.ts';
import { fakeDisposableFacts } from './fake.ts';
import { numberType } from './number-type.ts';
import { checkCountry, lengthProblemOf, parsePhone } from './parse.ts';
import type { DisposableFacts } from './types.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const CLEAN: DisposableFacts = { listedOn: null, recent: false, blockRecent: 0 };
const carrier = carrierLookup();

function evaluate(phone: string, cc: string, disposable = CLEAN, label: 'fraud' | 'legit' | null = null) {
  const country = checkCountry(cc);
  assert.ok(country.ok, cc);
  const parsed = parsePhone(phone, country.region);
  assert.ok(parsed.ok, phone);
  return evaluatePhone(cc, parsed.phone, country.region, { disposable, carrier, label });
}

describe('checkCountry', () => {
  for (const [code, ok] of [['GB', true], ['gb', true], [' us ', true], ['XK', true], ['UK', false], ['ZZ', false], ['GBR', false], ['G', false], ['1A', false]] as const) {
    it(`${code} -> ${String(ok)}`, () => assert.equal(checkCountry(code).ok, ok));
  }
});

describe('parsePhone', () => {
  const table: Array<[string, string, string | null]> = [
    ['+44 7400 123456', 'US', '+447400123456'],
    ['0044 7400 123456', 'US', '+447400123456'],
    ['011 44 7400 123456', 'US', '+447400123456'],
    ['07400 123456', 'GB', '+447400123456'],
    ['1-800-FLOWERS', 'US', '+18003569377'],
    ['+1 415 555 2671 ext. 7', 'US', '+14155552671'],
    ['abc', 'US', null],
    ['+', 'US', null],
    ['4+4', 'US', null],
    ['<b>1</b>', 'US', null],
    ['9'.repeat(65), 'US', null],
  ];
  for (const [phone, cc, e164] of table) {
    it(`${phone} in ${cc}`, () => {
      const country = checkCountry(cc);
      assert.ok(country.ok);
      const r = parsePhone(phone, country.region);
      if (e164 === null) assert.equal(r.ok, false);
      else assert.equal(r.ok && r.phone.number.number, e164);
    });
  }
});

describe('evaluatePhone', () => {
  it('types that are not a person\'s number are invalid with a reason', () => {
    assert.match(evaluate('0909 8790000', 'GB').result.reason, /^Premium-rate number: not a mobile or fixed line/);
    assert.equal(evaluate('0909 8790000', 'GB').type, 'PREMIUM_RATE');
    assert.equal(evaluate('07400 123456', 'GB').type, 'MOBILE');
    assert.equal(evaluate('085 123 4567', 'NL').result.isValid, true);
  });

  it('disposable: recent record, hot block, and VOIP with less evidence', () => {
    assert.equal(evaluate('07400 123456', 'GB', { listedOn: '2026-01-01', recent: true, blockRecent: 1 }).result.disposable, true);
    assert.equal(evaluate('07400 123456', 'GB', { listedOn: '2019-01-01', recent: false, blockRecent: 0 }).result.disposable, false);
    assert.equal(evaluate('07400 123456', 'GB', { listedOn: null, recent: false, blockRecent: HOT_BLOCK - 1 }).result.disposable, false);
    assert.equal(evaluate('07400 123456', 'GB', { listedOn: null, recent: false, blockRecent: HOT_BLOCK }).result.disposable, true);
    assert.equal(evaluate('085 123 4567', 'NL', { listedOn: '2019-01-01', recent: false, blockRecent: 0 }).result.disposable, true);
    assert.equal(evaluate('085 123 4567', 'NL', { listedOn: null, recent: false, blockRecent: 1 }).result.disposable, true);
  });

  it('a fraud label marks the number invalid with a reason (learning seam)', () => {
    const r = evaluate('07400 123456', 'GB', CLEAN, 'fraud').result;
    assert.equal(r.isValid, false);
    assert.equal(r.reason, FRAUD_LABEL_REASON);
    assert.equal(evaluate('07400 123456', 'GB', CLEAN, 'legit').result.isValid, true);
  });
});

describe('DisposableIndex', () => {
  it('judges recency against now and counts recent numbers per block of 1,000', () => {
    const idx = DisposableIndex.parse('447400123456\t2026-05-01\n447400123457\t2020-01-01\n447400123999\t2026-01-01\nbad\n447400124000\tnot-a-date\n');
    assert.equal(idx.size, 3);
    assert.deepEqual(idx.facts('447400123456', NOW), { listedOn: '2026-05-01', recent: true, blockRecent: 2 });
    assert.deepEqual(idx.facts('447400123457', NOW), { listedOn: '2020-01-01', recent: false, blockRecent: 2 });
    assert.deepEqual(idx.facts('447400123000', NOW), { listedOn: null, recent: false, blockRecent: 2 });
    assert.deepEqual(idx.facts('447400124000', NOW), { listedOn: null, recent: false, blockRecent: 0 });
    assert.equal(idx.facts('447400123456', new Date('2028-06-01T00:00:00Z')).recent, false, 'two years later it has rotated');
  });

  it('dayNumber refuses dates that do not exist', () => {
    assert.equal(dayNumber('1970-01-02'), 1);
    assert.ok(Number.isNaN(dayNumber('2024-02-30')));
    assert.ok(Number.isNaN(dayNumber('2024-1-1')));
  });

  it('test mode fakes a listed number for digits ending in 0000', () => {
    assert.equal(fakeDisposableFacts('447400120000').recent, true);
    assert.equal(fakeDisposableFacts('447400123456').recent, false);
  });
});

describe('carrier data', () => {
  it('decodes the flat BSON documents and finds the longest prefix', () => {
    assert.equal(carrier('33', '612345678'), 'SFR');
    assert.equal(carrier('1', '4155552671'), '');
    assert.equal(carrier('999', '1'), '');
    assert.equal(carrier('../x', '1'), '');
    assert.throws(() => decodeStringDocument(Buffer.from([5, 0, 0, 0])), /size/);
    assert.deepEqual([...decodeStringDocument(Buffer.from([14, 0, 0, 0, 2, 0x37, 0, 2, 0, 0, 0, 0x41, 0, 0]))], [['7', 'A']]);
    assert.throws(() => decodeStringDocument(Buffer.from([13, 0, 0, 0, 16, 0x37, 0, 1, 0, 0, 0, 0, 0])), /element type/);
  });
});

describe('numberType', () => {
  it('agrees with libphonenumber-js getType() on every example number and on this file\'s numbers', async () => {
    const { default: examples } = await import('libphonenumber-js/mobile/examples');
    const { getCountries, getExampleNumber, parsePhoneNumberFromString } = await import('libphonenumber-js/max');
    let checked = 0;
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const nsn = example.nationalNumber;
      // The example, a neighbour, a shorter and a longer variant: valid and invalid numbers alike.
      for (const digits of [nsn, `${nsn.slice(0, -1)}${(Number(nsn.slice(-1)) + 1) % 10}`, nsn.slice(0, -1), `${nsn}0`, `9${nsn.slice(1)}`, `1${nsn.slice(1)}`]) {
        const n = parsePhoneNumberFromString(`+${example.countryCallingCode}${digits}`);
        if (!n) continue;
        assert.equal(numberType(n), n.getType() ?? null, `${country} ${digits}`);
        checked++;
      }
    }
    for (const [phone, cc] of [['0909 8790000', 'GB'], ['070 1234 5678', 'GB'], ['076 0012 3456', 'GB'], ['085 123 4567', 'NL'], ['0120-123-456', 'JP'], ['(415) 555-2671', 'US'], ['+44 7700 900123', 'GB']] as const) {
      const n = parsePhoneNumberFromString(phone, cc);
      assert.ok(n);
      assert.equal(numberType(n), n.getType() ?? null, phone);
    }
    assert.ok(checked > 1000, String(checked));
  });
});

describe('lengthProblem', () => {
  it('agrees with libphonenumber-js validatePhoneNumberLength on the parsed text, for every region and form', async () => {
    const { default: examples } = await import('libphonenumber-js/mobile/examples');
    const { getCountries, getExampleNumber, validatePhoneNumberLength } = await import('libphonenumber-js/max');
    const verdicts = new Map<string, number>();
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const nsn = example.nationalNumber;
      // From far too short to far too long, written nationally, with + and with another region's default.
      for (let cut = -4; cut <= 5; cut++) {
        const digits = cut <= 0 ? nsn.slice(0, nsn.length + cut) : `${nsn}${'7'.repeat(cut)}`;
        for (const [text, region] of [[digits, country], [`+${example.countryCallingCode} ${digits}`, country], [`+${example.countryCallingCode}${digits}`, 'US']] as const) {
          const parsed = parsePhone(text, region);
          if (!parsed.ok) continue;
          const want = validatePhoneNumberLength(text, { defaultCountry: region });
          assert.equal(lengthProblemOf(parsed.phone), want, `${country} ${text} in ${region}`);
          verdicts.set(String(want), (verdicts.get(String(want)) ?? 0) + 1);
        }
      }
    }
    // Every verdict a parsed number can get was met, many times.
    for (const v of ['undefined', 'TOO_SHORT', 'TOO_LONG', 'INVALID_LENGTH']) assert.ok((verdicts.get(v) ?? 0) > 50, `${v}: ${JSON.stringify([...verdicts])}`);
  });
});
