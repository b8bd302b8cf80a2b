import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBinIndex } from '../../data/bin-data.ts';
import { loadCountryData } from '../../data/countries.ts';
import { evaluateBin } from './evaluate.ts';
import { issuerTitleCase } from './issuer-name.ts';
import { DOMESTIC_SCHEMES } from './domestic.ts';
import { MADA_BINS } from './local-schemes.ts';
import { luhnValid, parseBinInput } from './parse.ts';
import type { BinRecord } from './types.ts';

const countries = loadCountryData();
const rec = (start: string, end: string, extra: Partial<BinRecord> = {}): BinRecord => ({
  start, end, scheme: '', brand: '', type: '', prepaid: null, commercial: null, country: '', bank: '', city: '', url: '', phone: '', logo: '',
  latitude: '', longitude: '', length: 0, luhn: null, ...extra,
});
const index = buildBinIndex([
  rec('457173', '457173', { scheme: 'visa', country: 'DK', bank: 'DANSKE BANK', type: 'debit' }),
  rec('45717360', '45717360', { scheme: 'visa', country: 'DK', bank: 'JYSKE BANK', type: 'debit', brand: 'Visa/Dankort' }),
  rec('371241', '371242', { scheme: 'amex', country: 'US', bank: 'AMERICAN EXPRESS', type: 'credit' }),
  rec('440647', '440647', { scheme: 'visa', country: 'SA', bank: 'AL RAJHI BANK', type: 'debit' }),
  rec('968208', '968208', { scheme: 'mada', country: 'SA', bank: 'SAUDI NATIONAL BANK', type: 'debit' }),
  rec('400000', '400000', { scheme: 'visa', country: 'US', bank: 'TEST BUSINESS BANK', type: 'credit', brand: 'Business', commercial: true, prepaid: true }),
]);
const data = { index, countries: countries.byCode };

/** A number of `length` digits starting with `prefix` whose last digit makes it pass Luhn. */
export function withLuhn(prefix: string, length = 16): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let d = 0; d <= 9; d++) if (luhnValid(body + String(d))) return body + String(d);
  throw new Error('unreachable');
}

function run(sent: string) {
  const p = parseBinInput(sent);
  assert.ok(p.ok, `${sent}: ${p.ok ? '' : p.problem}`);
  return evaluateBin(sent, p.value, data);
}

describe('parseBinInput', () => {
  const bad = ['', '   ', '12345', '4111-1', 'abcdef', '41111a', '4111111111111111111111', '41111111111111111111', 'XXXX411111', '411111+1', '４１１１１１', '4111\u000011'];
  for (const s of bad) it(`refuses ${JSON.stringify(s).slice(0, 30)}`, () => assert.equal(parseBinInput(s).ok, false));
  const good: Array<[string, string, string | null, number | null]> = [
    ['411111', '411111', null, null],
    ['4111111111111111', '41111111', '4111111111111111', 16],
    ['4111 1111 1111 1111', '41111111', '4111111111111111', 16],
    ['4111-1111-1111-1111', '41111111', '4111111111111111', 16],
    ['411111******1111', '411111', null, 16],
    ['4111 11XX XXXX 1111', '411111', null, 16],
    ['411111XXXXXXXXXX', '411111', null, null],
    ['4111111111111111111', '41111111', '4111111111111111111', 19],
  ];
  for (const [s, bin, full, total] of good) {
    it(`reads ${s}`, () => {
      const p = parseBinInput(s);
      assert.ok(p.ok);
      assert.equal(p.value.bin, bin);
      assert.equal(p.value.full, full);
      assert.equal(p.value.totalLength, total);
    });
  }
});

describe('every global scheme (published test numbers)', () => {
  const cards: Array<[string, string]> = [
    ['4111111111111111', 'Visa'], ['4012888888881881', 'Visa'], ['5555555555554444', 'Mastercard'], ['5105105105105100', 'Mastercard'],
    ['2223003122003222', 'Mastercard'], ['378282246310005', 'American Express'], ['371449635398431', 'American Express'],
    ['6011111111111117', 'Discover'], ['6011000990139424', 'Discover'], ['30569309025904', 'Diners Club'], ['38520000023237', 'Diners Club'],
    ['3530111333300000', 'JCB'], ['3566002020360505', 'JCB'], ['6200000000000005', 'UnionPay'], ['6759649826438453', 'Maestro'],
    ['6799990100000000019', 'Maestro'], ['2201382000000013', 'Mir'], ['5066991111111118', 'Elo'], ['6062825624254001', 'Hipercard'],
    ['9792030000000000', 'Troy'], ['5019717010103742', 'Dankort'], [withLuhn('506104'), 'Verve'], [withLuhn('652150'), 'RuPay'], [withLuhn('507803'), 'Meeza'],
  ];
  for (const [n, scheme] of cards) {
    it(`${n} is a valid ${scheme}`, () => {
      const r = run(n);
      assert.equal(r.info.scheme.name, scheme);
      assert.equal(r.isValid, true, r.reason);
      assert.equal(r.reason, '');
      assert.ok(r.info.syntax.lengths.includes(n.length));
      assert.ok(r.info.syntax.code.size >= 3);
    });
  }
  it('Amex syntax: 4-6-5 gaps, 15 digits, CID 4', () => {
    assert.deepEqual(run('378282').info.syntax, { gaps: [4, 10], lengths: [15], code: { name: 'CID', size: 4 } });
  });
  it('a Luhn failure is invalid with a reason; UnionPay does not require Luhn', () => {
    const r = run('4111111111111112');
    assert.equal(r.isValid, false);
    assert.match(r.reason, /Luhn/);
    assert.equal(run('6200000000000006').isValid, true);
    assert.equal(run('6200000000000006').info.scheme.isLuha, false);
  });
  it('a 13-digit Visa number with a valid Luhn digit is valid; with a wrong one it is not', () => {
    const r = run('4222222222222');
    assert.equal(r.info.scheme.name, 'Visa');
    assert.equal(r.isValid, true, r.reason);
    assert.deepEqual(r.info.syntax.lengths, [13, 16, 18, 19]);
    assert.equal(run(withLuhn('411111', 13)).isValid, true);
    assert.match(run('4222222222223').reason, /Luhn/);
    assert.match(run('42222222222220').reason, /Visa card numbers have 13, 16, 18, 19 digits, not 14/);
    assert.match(run('5555555555444').reason, /16 digits, not 13/, 'Mastercard keeps 16');
  });
  it('a wrong length is invalid', () => {
    const r = run('37828224631000');
    assert.equal(r.isValid, false);
    assert.match(r.reason, /15 digits, not 14/);
    assert.equal(run('378282*****0005').isValid, true);
    assert.equal(run('378282******0005').isValid, false);
  });
  it('no scheme: invalid, syntax still given, bank and country null', () => {
    const r = run('99999999');
    assert.equal(r.isValid, false);
    assert.equal(r.info.scheme.name, null);
    assert.equal(r.info.bank, null);
    assert.equal(r.info.country, null);
    assert.deepEqual(r.info.syntax.lengths, [16]);
  });
});

describe('local schemes and co-badging', () => {
  it('mada ranges co-badged with Visa and Mastercard; mada-only ranges', () => {
    for (const bin of MADA_BINS) {
      const r = run(withLuhn(bin));
      assert.equal(r.isValid, true, bin);
      if (bin.startsWith('4')) assert.deepEqual([r.info.scheme.name, r.info.scheme.coName], ['Visa', 'mada'], bin);
      else if (/^(5[1-5]|2[2-7])/.test(bin)) assert.deepEqual([r.info.scheme.name, r.info.scheme.coName], ['Mastercard', 'mada'], bin);
      else assert.deepEqual([r.info.scheme.name, r.info.scheme.coName], ['mada', null], bin);
    }
  });
  it('8-digit mada account ranges match on 8 digits only', () => {
    assert.deepEqual([run(withLuhn('22337902')).info.scheme.name, run(withLuhn('22337902')).info.scheme.coName], ['Mastercard', 'mada']);
    assert.equal(run(withLuhn('22337903')).info.scheme.coName, null);
    assert.equal(run('223379').info.scheme.coName, null, 'six digits do not reach an 8-digit range');
    assert.equal(run(withLuhn('40545400')).info.scheme.coName, 'mada');
  });
  it('BINs no mada list has are not mada', () => {
    for (const bin of ['428367', '440682', '455707', '465828', '484784', '486093', '543359', '549184', '552363', '559406', '585288', '636160']) {
      const r = run(withLuhn(bin));
      assert.notEqual(r.info.scheme.name, 'mada', bin);
      assert.notEqual(r.info.scheme.coName, 'mada', bin);
    }
  });
  it('Meeza is 507803 and 507809-507811', () => {
    for (const bin of ['507803', '507809', '507810', '507811']) assert.equal(run(withLuhn(bin)).info.scheme.name, 'Meeza', bin);
    for (const bin of ['507804', '507808', '507812']) assert.notEqual(run(withLuhn(bin)).info.scheme.name, 'Meeza', bin);
  });
  it('Visa/Dankort is co-badged', () => {
    const r = run('4571736000000000');
    assert.equal(r.info.scheme.name, 'Visa');
    assert.equal(r.info.scheme.coName, 'Dankort');
  });
});

describe('issuer records', () => {
  it('the longest known prefix wins, with bank and country facts', () => {
    const r = run('45717360');
    assert.equal(r.info.bank?.name, 'Jyske Bank');
    assert.equal(r.info.bank?.identifier, '45717360');
    assert.equal(r.info.scheme.brand, 'Visa/Dankort');
    assert.equal(r.info.scheme.type, 'debit');
    assert.equal(r.info.scheme.currency, 'DKK');
    assert.deepEqual(r.info.country, {
      alpha2: 'DK', name: 'Denmark', code: '45', numeric: '208', emoji: '🇩🇰', continent: 'Europe', languageCode: 'da', languageNative: 'Dansk', source: 'issuer',
    });
    assert.equal(run('45717399').info.bank?.name, 'Danske Bank');
  });
  it('ranges match inside, not outside', () => {
    assert.equal(run('371242').info.bank?.name, 'American Express');
    assert.equal(run('371241').info.bank?.identifier, '371241-371242');
    assert.equal(run('371243').info.bank, null);
  });
  it('flags from the record; a record scheme names a number no range knows', () => {
    const r = run('400000');
    assert.equal(r.info.scheme.isCommercial, true);
    assert.equal(r.info.scheme.isPrepaid, true);
    assert.equal(run('968208').info.scheme.name, 'mada');
    assert.equal(run('968208').info.country?.alpha2, 'SA');
  });
  it('records are matched on the BIN (8 digits at most): a 9-digit record never names more of the number', () => {
    const idx = buildBinIndex([rec('621056801', '621056801', { scheme: 'unionpay', bank: 'NINE DIGITS' }), rec('62105680', '62105680', { bank: 'EIGHT DIGITS', type: 'debit' })]);
    const p = parseBinInput('6210568010000000000');
    assert.ok(p.ok);
    const r = evaluateBin('6210568010000000000', p.value, { index: idx, countries: data.countries });
    assert.deepEqual([r.info.bank?.name, r.info.bank?.identifier, r.info.scheme.type], ['Eight Digits', '62105680', 'debit']);
  });
  it('a record with no bank name still gives the country', () => {
    const idx = buildBinIndex([rec('411111', '411111', { country: 'US' })]);
    const p = parseBinInput('411111');
    assert.ok(p.ok);
    const r = evaluateBin('411111', p.value, { index: idx, countries: data.countries });
    assert.equal(r.info.bank, null);
    assert.equal(r.info.country?.alpha2, 'US');
  });
});

/**
 * The customer's known BINs (issue "Accurate answers"): without any issuer record, a domestic
 * scheme names its country and currency, and mada and Dankort their type. Sources of each fact are
 * in domestic.ts and local-schemes.ts; the BINs' schemes:
 *   588845 mada-only, 440647 Visa + mada: the mada lists cited in local-schemes.ts;
 *   817200, 820000, 508500, 606985, 652150: RuPay (Wikipedia "Payment card number" 81, 82, 508; NPCI ranges as in juspay/card-validator);
 *   2200xx Mir (Wikipedia: 2200-2204); 506699 Elo, 606282 Hipercard, 979200 Troy, 506099 Verve (credit-card-type, Wikipedia);
 *   507803 Meeza (creditcards-types meeza.js); 5019 Dankort, 4571 Visa/Dankort (Wikipedia IIN table).
 */
describe('domestic schemes imply country, currency and (debit-only ones) type', () => {
  const cases: Array<[bin: string, name: string, coName: string | null, country: string, currency: string, type: string | null]> = [
    ['588845', 'mada', null, 'SA', 'SAR', 'debit'],
    ['440647', 'Visa', 'mada', 'SA', 'SAR', 'debit'],
    ['529741', 'Mastercard', 'mada', 'SA', 'SAR', 'debit'],
    ['817200', 'RuPay', null, 'IN', 'INR', null],
    ['820000', 'RuPay', null, 'IN', 'INR', null],
    ['829999', 'RuPay', null, 'IN', 'INR', null],
    ['508500', 'RuPay', null, 'IN', 'INR', null],
    ['508001', 'RuPay', null, 'IN', 'INR', null],
    ['606985', 'RuPay', null, 'IN', 'INR', null],
    ['652150', 'RuPay', null, 'IN', 'INR', null],
    ['220012', 'Mir', null, 'RU', 'RUB', null],
    ['220412', 'Mir', null, 'RU', 'RUB', null],
    ['506699', 'Elo', null, 'BR', 'BRL', null],
    ['606282', 'Hipercard', null, 'BR', 'BRL', null],
    ['979200', 'Troy', null, 'TR', 'TRY', null],
    ['506099', 'Verve', null, 'NG', 'NGN', null],
    ['507803', 'Meeza', null, 'EG', 'EGP', null],
    ['501912', 'Dankort', null, 'DK', 'DKK', 'debit'],
    ['457100', 'Visa', 'Dankort', 'DK', 'DKK', 'debit'],
  ];
  for (const [bin, name, coName, country, currency, type] of cases) {
    it(`${bin}: ${name}${coName ? ` + ${coName}` : ''} -> ${country} ${currency} ${type ?? '(type unknown)'}`, () => {
      const idx = buildBinIndex([]);
      const p = parseBinInput(withLuhn(bin));
      assert.ok(p.ok);
      const r = evaluateBin(bin, p.value, { index: idx, countries: data.countries });
      assert.deepEqual([r.info.scheme.name, r.info.scheme.coName], [name, coName]);
      assert.equal(r.isValid, true, r.reason);
      assert.equal(r.info.country?.alpha2, country);
      assert.equal(r.info.country?.source, 'scheme');
      assert.equal(r.info.scheme.currency, currency);
      assert.equal(r.info.scheme.type, type);
      assert.equal(r.info.bank, null);
    });
  }
  it('international schemes imply nothing', () => {
    for (const bin of ['411111', '555555', '378282', '601100', '353011', '620000', '810000']) {
      const r = run(withLuhn(bin));
      assert.equal(r.info.country, null, bin);
      assert.equal(r.info.scheme.currency, null, bin);
      assert.equal(r.info.scheme.type, null, bin);
    }
  });
  it('every domestic scheme has a country the country data knows', () => {
    for (const [scheme, f] of DOMESTIC_SCHEMES) assert.ok(data.countries.get(f.country)?.currency?.code, scheme);
  });
  it('an issuer record says otherwise: its country, type and currency win', () => {
    const idx = buildBinIndex([
      rec('220070', '220070', { scheme: 'mir', country: 'AM', type: 'credit', bank: 'ARMENIAN BANK' }),
      rec('588845', '588845', { scheme: 'mada', type: '', country: '' , bank: 'AL RAJHI BANK' }),
    ]);
    const at = (bin: string) => {
      const p = parseBinInput(bin);
      assert.ok(p.ok);
      return evaluateBin(bin, p.value, { index: idx, countries: data.countries });
    };
    const mir = at('220070');
    assert.deepEqual([mir.info.country?.alpha2, mir.info.country?.source, mir.info.scheme.currency, mir.info.scheme.type], ['AM', 'issuer', 'AMD', 'credit']);
    const mada = at('588845');
    assert.deepEqual([mada.info.country?.alpha2, mada.info.country?.source, mada.info.scheme.type, mada.info.bank?.name], ['SA', 'scheme', 'debit', 'Al Rajhi Bank']);
  });
});

/**
 * Precedence where ranges collide (docs/api-decisions.md "BIN"). Sources: Wikipedia "Payment card
 * number" (Discover 6011, 644-649, 65; RuPay 60, 65, 81, 82, 508, 353, 356; JCB 3528-3589; GPN 60-63);
 * UnionPay 81000000-81719999 (processor bulletin in braintree/credit-card-type issue #95); NPCI
 * RuPay ranges as in juspay/card-validator.
 */
describe('scheme precedence in shared ranges', () => {
  const cases: Array<[bin: string, name: string | null, coName: string | null, why: string]> = [
    ['601100', 'Discover', null, '6011 is Discover: more specific than anything local'],
    ['606282', 'Hipercard', null, 'Hipercard 606282 is more specific than RuPay 60'],
    ['604906', 'mada', null, 'a mada BIN inside 60'],
    ['601300', 'Maestro', null, 'the rest of 60 is shared with GPN (ID) and others: not RuPay, no country'],
    ['606985', 'RuPay', null, 'NPCI range in 60'],
    ['652150', 'RuPay', null, "NPCI range beats Discover's 65"],
    ['653149', 'RuPay', null, 'last BIN of the NPCI 65 range'],
    ['653150', 'Discover', null, 'outside it, 65 is Discover'],
    ['650031', 'Elo', null, 'Elo inside 65'],
    ['508000', 'RuPay', null, 'RuPay 508 beats the Maestro catch-all'],
    ['508160', 'mada', null, 'mada 508160 is more specific than RuPay 508'],
    ['810000', 'UnionPay', null, 'UnionPay 8 series'],
    ['817199', 'UnionPay', null, 'last UnionPay BIN of the 8 series'],
    ['817200', 'RuPay', null, 'RuPay starts where UnionPay ends'],
    ['820199', 'RuPay', null, '82 is RuPay'],
    ['353011', 'JCB', null, "353 is JCB's: Japanese JCB cards too"],
    ['356600', 'JCB', null, "356 is JCB's"],
    ['457100', 'Visa', 'Dankort', 'inside Visa a local range is a co-badge'],
  ];
  for (const [bin, name, coName, why] of cases) {
    it(`${bin}: ${why}`, () => {
      const r = run(withLuhn(bin));
      assert.deepEqual([r.info.scheme.name, r.info.scheme.coName], [name, coName]);
      assert.equal(r.isValid, true, r.reason);
    });
  }
  it('a record naming RuPay inside JCB or Discover space makes a co-badge with the record\'s country', () => {
    const idx = buildBinIndex([
      rec('356101', '356101', { scheme: 'rupay', country: 'IN', bank: 'STATE BANK OF INDIA', type: 'credit' }),
      rec('353011', '353011', { scheme: 'jcb', country: 'JP', bank: 'JCB CO., LTD.' }),
    ]);
    const at = (bin: string) => {
      const p = parseBinInput(withLuhn(bin));
      assert.ok(p.ok);
      return evaluateBin(bin, p.value, { index: idx, countries: data.countries });
    };
    const rupay = at('356101');
    assert.deepEqual([rupay.info.scheme.name, rupay.info.scheme.coName, rupay.info.country?.alpha2, rupay.info.scheme.currency], ['JCB', 'RuPay', 'IN', 'INR']);
    const jcb = at('353011');
    assert.deepEqual([jcb.info.scheme.name, jcb.info.scheme.coName, jcb.info.country?.alpha2], ['JCB', null, 'JP']);
  });
});

describe('issuerTitleCase', () => {
  const cases: Array<[string, string]> = [
    ['BANK OF AMERICA, N.A. (USA)', 'Bank of America, N.A. (USA)'],
    ['HSBC BANK PLC', 'HSBC Bank PLC'],
    ['BNP PARIBAS', 'BNP Paribas'],
    ['JPMORGAN CHASE BANK, N.A.', 'JPMorgan Chase Bank, N.A.'],
    ['KOREA EXCHANGE BANK CREDIT SERVICE CO., LTD.', 'Korea Exchange Bank Credit Service Co., Ltd.'],
    ['DINERS CLUB DEL ECUADOR S.A.', 'Diners Club del Ecuador S.A.'],
    ['Banco Davivienda S.A.', 'Banco Davivienda S.A.'],
    ['icici bank limited', 'ICICI Bank Limited'],
    ["CREDIT AGRICOLE-CORPORATE D'INVESTISSEMENT", "Credit Agricole-Corporate D'Investissement"],
    ['中国工商银行 (ICBC)', '中国工商银行 (ICBC)'],
    ['', ''],
  ];
  for (const [raw, want] of cases) it(`${raw} -> ${want}`, () => assert.equal(issuerTitleCase(raw), want));
});
