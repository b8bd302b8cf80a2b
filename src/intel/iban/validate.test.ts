import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ibanFormats } from './formats.ts';
import { italianCin, ownNationalCheck } from './national.ts';
import { ibanCheckDigits, parseIban, validateParsed } from './validate.ts';

/** A valid-looking IBAN from a country and BBAN: the ISO 7064 check digits are computed. */
const mk = (country: string, bban: string): string => `${country}${ibanCheckDigits(country, bban)}${bban}`;

function check(iban: string) {
  const p = parseIban(iban);
  assert.ok(p.ok, `${iban} parses`);
  return validateParsed(p);
}

/** Registry examples of the countries with national check digits, and where the national check sits in the BBAN. */
const NATIONAL: Array<[string, number]> = [
  ['BE68539007547034', 10], ['BA391290079401028494', 14], ['HR1210010051863000160', 16], ['CZ6508000000192000145399', 19],
  ['EE382200221020145685', 15], ['FR1420041010050500013M02606', 21], ['HU42117730161111101800000000', 23], ['IT60X0542811101000000123456', 0],
  ['MK07250120000058984', 13], ['MC5811222000010123456789030', 21], ['ME25505000012345678951', 16], ['NO9386011117947', 10],
  ['PL61109010140000071219812874', 7], ['PT50000201231234567890154', 19], ['SM86U0322509800000000270100', 0], ['RS35260005601001611379', 16],
  ['SK3112000000198742637541', 19], ['SI56191000000123438', 13], ['ES9121000418450200051332', 8], ['FI2112345600000785', 13],
];

/** Changes one character of the BBAN (digit +1, letter +1) and recomputes the IBAN check digits. */
function breakNational(iban: string, at: number): string {
  const country = iban.slice(0, 2);
  const bban = [...iban.slice(4)];
  const c = bban[at] ?? '0';
  bban[at] = /\d/.test(c) ? String((Number(c) + 1) % 10) : String.fromCharCode(((c.charCodeAt(0) - 65 + 1) % 26) + 65);
  return mk(country, bban.join(''));
}

describe('parseIban', () => {
  it('accepts spaces, tabs and lower case', () => {
    for (const s of ['de89 3704 0044 0532 0130 00', ' DE89370400440532013000 ', 'DE89\t3704\u00a00044 0532 0130 00']) {
      const p = parseIban(s);
      assert.ok(p.ok, s);
      assert.equal(p.iban, 'DE89370400440532013000');
    }
  });
  it('refuses what is not an IBAN at all', () => {
    for (const s of ['', '   ', 'DE', 'DE89', '89DE370400440532013000', 'DEXX370400440532013000', 'XX89370400440532013000', 'D€89370400440532013000',
      'DE89-3704-0044-0532-0130-00', `DE89${'1'.repeat(31)}`, 'x'.repeat(10_000), 'ÄE89370400440532013000', 'DE89370400440532013000\u0000', 'ﬀ89370400440532013000']) {
      assert.equal(parseIban(s).ok, false, JSON.stringify(s.slice(0, 40)));
    }
  });
});

describe('validateParsed', () => {
  it('a valid IBAN passes every check', () => {
    const v = check('DE89370400440532013000');
    assert.equal(v.isValid, true);
    assert.equal(v.failed, null);
  });
  it('wrong check digits, wrong length and wrong BBAN format fail', () => {
    assert.equal(check('DE88370400440532013000').failed, 'checkDigits');
    assert.equal(check('DE8937040044053201300').failed, 'length');
    assert.equal(check(mk('DE', '37040044053201300A')).failed, 'format');
  });
  for (const [iban, at] of NATIONAL) {
    it(`national check digits of ${iban.slice(0, 2)}`, () => {
      assert.equal(check(iban).isValid, true, `${iban} is valid`);
      assert.equal(check(iban).checks.nationalCheckDigits, true);
      const broken = breakNational(iban, at);
      const v = check(broken);
      assert.equal(v.checks.checkDigits, true, `${broken} keeps valid ISO check digits`);
      assert.equal(v.isValid, false, `${broken} fails its national check`);
      assert.equal(v.failed, 'nationalCheckDigits');
    });
  }
  it('countries without national check digits report null', () => {
    assert.equal(check('DE89370400440532013000').checks.nationalCheckDigits, null);
  });
});

describe('Finland and the Netherlands (IBAN registry examples)', () => {
  const cases: Array<{ iban: string; valid: boolean; national: boolean | null; failed: string | null }> = [
    { iban: 'FI2112345600000785', valid: true, national: true, failed: null },
    // Same account with its Luhn digit changed (5 -> 6), IBAN check digits recomputed.
    { iban: mk('FI', '12345600000786'), valid: false, national: false, failed: 'nationalCheckDigits' },
    // A Luhn-valid account of the other bank group of pear/Validate_FI (first digit 4 or 5).
    { iban: mk('FI', '40000010000000'), valid: true, national: true, failed: null },
    { iban: 'NL91ABNA0417164300', valid: true, national: null, failed: null },
    // Not 11-proof (the ibantools issue #11 account): still valid, the Netherlands has no national check.
    { iban: mk('NL', 'ABNA0517164300'), valid: true, national: null, failed: null },
    // A former Postbank number of 7 digits, zero-padded (fails the 11-test).
    { iban: mk('NL', 'INGB0001234567'), valid: true, national: null, failed: null },
  ];
  for (const c of cases) {
    it(`${c.iban}: ${c.valid ? 'valid' : `fails ${c.failed}`}`, () => {
      const v = check(c.iban);
      assert.equal(v.isValid, c.valid);
      assert.equal(v.checks.checkDigits, true);
      assert.equal(v.checks.nationalCheckDigits, c.national);
      assert.equal(v.failed, c.failed);
    });
  }
  it('the Finnish check is the Luhn digit over all 14 BBAN digits', () => {
    assert.equal(ownNationalCheck('FI', '12345600000785'), true);
    for (let d = 0; d <= 9; d++) if (d !== 5) assert.equal(ownNationalCheck('FI', `1234560000078${d}`), false, String(d));
    assert.equal(ownNationalCheck('FI', '1234560000078'), null, 'not 14 digits');
    assert.equal(ownNationalCheck('NL', 'ABNA0417164300'), null);
  });
});

describe('italianCin', () => {
  it('matches published examples', () => {
    assert.equal(italianCin('0542811101000000123456'), 'X');
    assert.equal(italianCin('0322509800000000270100'), 'U');
  });
});

describe('ibanFormats', () => {
  it('machine, human in groups of four, obfuscated keeping country, check digits and last four', () => {
    assert.deepEqual(ibanFormats('DE89370400440532013000'), { machine: 'DE89370400440532013000', human: 'DE89 3704 0044 0532 0130 00', obfuscated: 'DE89**************3000' });
    assert.equal(ibanFormats('NO9386011117947').human, 'NO93 8601 1117 947');
    assert.equal(ibanFormats('NO9386011117947').obfuscated, 'NO93*******7947');
  });
});
