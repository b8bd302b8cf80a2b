import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isValidBIC } from 'ibantools';
import { AE_BANKS, BIC_CODE_BANKS, NATIONAL_BANK_TABLES, SA_BANKS } from './gulf-banks.ts';
import { bicBankTables } from './iban-data.ts';
import { parseBicJson } from './import/swift-bic.ts';
import { ibanBank } from '../intel/iban/lookup.ts';
import type { IbanEngineData } from '../intel/iban/types.ts';
import { ibanCheckDigits, parseIban, validateParsed } from '../intel/iban/validate.ts';

const RAW = join(import.meta.dirname, '../../../shared/data/swift-bic-codes/gcc-jo-raw');

const bicTables = bicBankTables('');
const engine: IbanEngineData = { country: () => null, registry: new Map(), banks: (c) => NATIONAL_BANK_TABLES.get(c) ?? bicTables.get(c) };

const TABLES = [
  { country: 'SA', banks: SA_BANKS, code: /^\d{2}$/, account: '000000608010167519' },
  { country: 'AE', banks: AE_BANKS, code: /^\d{3}$/, account: '1234567890123456' },
  { country: 'KW', banks: BIC_CODE_BANKS.KW, code: /^[A-Z]{4}$/, account: '0000000000001234560101' },
  { country: 'BH', banks: BIC_CODE_BANKS.BH, code: /^[A-Z]{4}$/, account: '00001299123456' },
  { country: 'QA', banks: BIC_CODE_BANKS.QA, code: /^[A-Z]{4}$/, account: '00001234567890ABCDEFG' },
  { country: 'JO', banks: BIC_CODE_BANKS.JO, code: /^[A-Z]{4}$/, account: '0010000000000131000302' },
] as const;

/** The BICs of the SWIFT directory snapshot, when the shared data is there. */
function directory(): Set<string> | null {
  if (!existsSync(RAW)) return null;
  const out = new Set<string>();
  for (const f of readdirSync(RAW)) for (const r of parseBicJson(readFileSync(join(RAW, f), 'utf8')).records) out.add(r.bic);
  return out;
}

for (const t of TABLES) {
  describe(`${t.country} bank codes`, () => {
    const names = new Set(t.banks.map((b) => b.name));
    it('codes are unique', () => assert.equal(new Set(t.banks.map((b) => b.code)).size, t.banks.length));
    for (const b of t.banks) {
      it(`${b.code} ${b.name}`, () => {
        assert.match(b.code, t.code);
        assert.ok(b.name.length > 2);
        assert.match(b.nameAr ?? '', /[\u0600-\u06ff]/, 'an Arabic name');
        assert.ok(b.swift !== null && isValidBIC(b.swift), `${b.swift} is a BIC`);
        assert.equal(b.swift.slice(4, 6), t.country, 'the BIC is of the same country');
        if (/[A-Z]{4}/.test(b.code)) assert.equal(b.swift.slice(0, 4), b.code, 'the bank code is the BIC\'s first four letters');
        if (b.mergedInto !== null) assert.ok(names.has(b.mergedInto), `${b.mergedInto} is a bank of the table`);
        // Through the engine: a valid IBAN with this bank code names the bank.
        const bban = `${b.code}${t.account}`;
        const iban = `${t.country}${ibanCheckDigits(t.country, bban)}${bban}`;
        const p = parseIban(iban);
        assert.ok(p.ok);
        assert.equal(validateParsed(p).isValid, true, iban);
        assert.deepEqual(ibanBank(t.country, iban, engine), { code: b.code, name: b.name, nameAr: b.nameAr, swift: b.swift, mergedInto: b.mergedInto });
      });
    }
    it('every BIC is in the SWIFT directory snapshot', (ctx) => {
      const dir = directory();
      if (dir === null) return ctx.skip('shared data absent');
      for (const b of t.banks) assert.ok(dir.has(b.swift ?? ''), `${b.swift} (${b.name})`);
    });
  });
}

describe('merges', () => {
  it('AUB Kuwait is KFH, Al Khalij is Masraf Al Rayan, IBQ is Dukhan Bank', () => {
    assert.equal(bicTables.get('KW')?.get('BKME')?.mergedInto, 'Kuwait Finance House');
    assert.equal(bicTables.get('QA')?.get('KLJI')?.mergedInto, 'Masraf Al Rayan');
    assert.equal(bicTables.get('QA')?.get('IBOQ')?.mergedInto, 'Dukhan Bank');
  });
  it('Samba and NCB are SNB (2021), Alawwal and SABB are SAB (2019)', () => {
    const sa = NATIONAL_BANK_TABLES.get('SA');
    assert.equal(sa?.get('40')?.mergedInto, 'The Saudi National Bank (SNB)');
    assert.equal(sa?.get('10')?.mergedInto, null);
    assert.equal(sa?.get('50')?.mergedInto, 'Saudi Awwal Bank (SAB)');
    assert.equal(sa?.get('45')?.mergedInto, null);
  });
  it('Union National Bank (045) is ADCB (003), Noor Bank (052) is DIB (024)', () => {
    const ae = NATIONAL_BANK_TABLES.get('AE');
    assert.equal(ae?.get('045')?.mergedInto, 'Abu Dhabi Commercial Bank');
    assert.equal(ae?.get('003')?.name, 'Abu Dhabi Commercial Bank');
    assert.equal(ae?.get('052')?.mergedInto, 'Dubai Islamic Bank');
    assert.equal(ae?.get('024')?.name, 'Dubai Islamic Bank');
  });
  it('an unknown code names no bank', () => {
    const bban = '99000000608010167519';
    assert.equal(ibanBank('SA', `SA${ibanCheckDigits('SA', bban)}${bban}`, engine), null);
    assert.equal(ibanBank('DE', 'DE89370400440532013000', engine), null);
  });
});

describe('AE codes of the HSBC UAE beneficiary bank code list (March 2022)', () => {
  const ae = (code: string): string | null | undefined => NATIONAL_BANK_TABLES.get('AE')?.get(code)?.swift;
  const listed: Array<[string, string]> = [
    ['003', 'ADCBAEAA'], ['023', 'CBDUAEAD'], ['024', 'DUIBAEAD'], ['026', 'EBILAEAD'], ['033', 'BOMLAEAD'], ['034', 'MEBLAEAD'],
    ['035', 'NBADAEAA'], ['038', 'NBFUAEAF'], ['040', 'NRAKAEAK'], ['041', 'NBSHAEAS'], ['045', 'UNBEAEAA'], ['050', 'ABDIAEAD'], ['052', 'NISLAEAD'],
  ];
  for (const [code, bic] of listed) it(`${code} is ${bic}`, () => assert.equal(ae(code), bic));
  it('every AE code of the table is in that list', () => {
    assert.deepEqual(AE_BANKS.map((b) => b.code).sort(), listed.map(([c]) => c).sort());
  });
  it('030 (Investbank) and 044 (Standard Chartered) are not ADCB and Union National Bank', () => {
    for (const code of ['030', '044']) {
      const bban = `${code}0000001234567890`;
      assert.equal(ibanBank('AE', `AE${ibanCheckDigits('AE', bban)}${bban}`, engine), null, code);
    }
  });
});
