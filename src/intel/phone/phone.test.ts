import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carrierLookup, decodeStringDocument } from '../../data/phone-data.ts';
import { dayNumber, DisposableIndex, HOT_BLOCK } from './disposable.ts';
import { evaluatePhone, FRAUD_LABEL_REASON } from './evaluate.ts';
import { fakeDisposableFacts } from './fake.ts';
import { LINE_TYPE_VALUES, lineTypeOf } from './line-type.ts';
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
    assert.match(evaluate('0909 8791234', 'GB').result.reason, /^Premium-rate number: not a mobile or fixed line/);
    assert.equal(evaluate('0909 8791234', 'GB').type, 'PREMIUM_RATE');
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

describe('fictional ranges', () => {
  /** Country read in, number, regulator named in the reason (null: a real range, left alone). */
  const table: Array<[string, string, string | null]> = [
    // NANPA 555-0100 to 555-0199, any area code, any NANP country.
    ['US', '+1 201 555 0123', 'NANPA'],
    ['US', '(415) 555-0100', 'NANPA'],
    ['US', '415 555 0199', 'NANPA'],
    ['CA', '604 555 0150', 'NANPA'],
    ['US', '+1 900 555 0123', 'NANPA'],
    ['US', '415 555 0200', null],
    ['US', '415 555 0099', null],
    ['US', '(415) 555-2671', null],
    // Ofcom drama numbers.
    ['GB', '0113 496 0000', 'Ofcom'],
    ['GB', '0118 496 0999', 'Ofcom'],
    ['GB', '0121 496 0123', 'Ofcom'],
    ['GB', '0161 496 0123', 'Ofcom'],
    ['GB', '0191 498 0123', 'Ofcom'],
    ['GB', '020 7946 0123', 'Ofcom'],
    ['GB', '+44 20 7946 0999', 'Ofcom'],
    ['GB', '028 9018 0123', 'Ofcom'],
    ['GB', '029 2018 0123', 'Ofcom'],
    ['GB', '01632 960123', 'Ofcom'],
    ['GB', '07700 900123', 'Ofcom'],
    ['GB', '08081 570123', 'Ofcom'],
    ['GB', '0909 879 0123', 'Ofcom'],
    ['GB', '03069 990123', 'Ofcom'],
    ['GB', '020 7946 1000', null],
    ['GB', '0119 496 0123', null],
    ['GB', '0171 496 0123', null],
    ['GB', '07700 901123', null],
    ['GB', '0113 496 1000', null],
    // ACMA numbers for creative works.
    ['AU', '02 5550 1234', 'ACMA'],
    ['AU', '03 7010 0000', 'ACMA'],
    ['AU', '07 5550 9999', 'ACMA'],
    ['AU', '08 7010 4321', 'ACMA'],
    ['AU', '1800 160 401', 'ACMA'],
    ['AU', '1800 975 707', 'ACMA'],
    ['AU', '1300 975 711', 'ACMA'],
    ['AU', '02 5551 1234', null],
    ['AU', '1800 975 712', null],
    ['AU', '0491 570 155', null],
    ['AU', '0412 345 678', null],
  ];
  for (const [cc, phone, regulator] of table) {
    it(`${phone} in ${cc}: ${regulator ?? 'real'}`, () => {
      const { result, fictional } = evaluate(phone, cc);
      assert.equal(fictional, regulator !== null);
      if (regulator === null) {
        assert.doesNotMatch(result.reason, /fiction/);
      } else {
        assert.equal(result.isValid, false);
        assert.equal(result.reason, `Reserved for fiction by ${regulator} (films, TV, books): no subscriber holds this number.`);
        assert.equal(result.carrier, '');
      }
    });
  }
  it('every one of the 30 ACMA mobile numbers, and none of their neighbours', () => {
    const acma = ['0491570006', '0491570156', '0491570157', '0491570158', '0491570159', '0491570110', '0491570313', '0491570737', '0491571266',
      '0491571491', '0491571804', '0491572549', '0491572665', '0491572983', '0491573770', '0491573087', '0491574118', '0491574632', '0491575254',
      '0491575789', '0491576398', '0491576801', '0491577426', '0491577644', '0491578957', '0491578148', '0491578888', '0491579212', '0491579760', '0491579455'];
    for (const n of acma) {
      assert.equal(evaluate(n, 'AU').fictional, true, n);
      const next = `${n.slice(0, -1)}${(Number(n.slice(-1)) + 5) % 10}`;
      if (!acma.includes(next)) assert.equal(evaluate(next, 'AU').fictional, false, next);
    }
    assert.equal(evaluate('0491570006', 'AU').result.lineType, 'mobile', 'lineType stays the type of the range');
  });
  it('a fraud label keeps both reasons', () => {
    assert.match(evaluate('+1 201 555 0123', 'US', CLEAN, 'fraud').result.reason, /^The number carries a fraud label\. Reserved for fiction by NANPA/);
  });
});

describe('lineType and country', () => {
  const table: Array<[string, string, string, string | null]> = [
    ['GB', '07400 123456', 'mobile', 'GB'],
    ['GB', '020 7123 4567', 'fixed_line', 'GB'],
    ['US', '(415) 555-2671', 'fixed_line_or_mobile', 'US'],
    ['US', '+1 604 555 2671', 'fixed_line_or_mobile', 'CA'],
    ['NL', '085 123 4567', 'voip', 'NL'],
    ['GB', '0800 123 4567', 'toll_free', 'GB'],
    ['GB', '0909 8791234', 'premium_rate', 'GB'],
    ['GB', '070 1234 5678', 'personal_number', 'GB'],
    ['GB', '076 0012 3456', 'pager', 'GB'],
    ['GB', '+44 1481 712345', 'fixed_line', 'GG'],
    ['GB', '12', 'unknown', null],
    ['US', '07400 123456', 'unknown', null],
  ];
  for (const [cc, phone, lineType, country] of table) {
    it(`${phone} in ${cc}: ${lineType}, ${String(country)}`, () => {
      const ev = evaluate(phone, cc);
      assert.equal(ev.result.lineType, lineType);
      assert.equal(ev.country, country);
    });
  }
  it('names every libphonenumber type in lower_snake_case', () => {
    assert.deepEqual(LINE_TYPE_VALUES, ['mobile', 'fixed_line', 'fixed_line_or_mobile', 'voip', 'toll_free', 'premium_rate', 'shared_cost', 'personal_number', 'pager', 'uan', 'voicemail', 'unknown']);
    assert.equal(lineTypeOf(null), 'unknown');
    assert.equal(lineTypeOf('SHARED_COST'), 'shared_cost');
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
