import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { bicBankTables } from '../iban-data.ts';
import { readCurrent, DatasetError } from './dataset-store.ts';
import { IBAN_REGISTRY, importIbanRegistry, parseIbanRegistry, readIbanRegistry } from './iban-registry.ts';
import { importSwiftBic, parseBicCsv, SWIFT_BIC } from './swift-bic.ts';

const HEADER = 'country_code|country_name|domestic_example|bban_example|bban_format_swift|bban_format_regex|bban_length|iban_example|iban_format_swift|iban_format_regex|iban_length|bban_bankid_start_offset|bban_bankid_stop_offset|bban_branchid_start_offset|bban_branchid_stop_offset|registry_edition|country_sepa|swift_official|bban_checksum_start_offset|bban_checksum_stop_offset|country_code_iana|country_code_iso3166_1_alpha2|parent_registrar|currency_iso4217|central_bank_url|central_bank_name|membership';
const DE = 'DE|Germany|x|370400440532013000|8!n10!n|^x$|18|DE89370400440532013000|x|^x$|22|0|7|||2011-06-20|1|1|||de|DE||EUR|www.bundesbank.de|Deutsche Bundesbank|eu_member';

const tmp: string[] = [];
const mkTmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-iban-import-'));
  tmp.push(d);
  return d;
};
after(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('iban-registry importer', () => {
  it('parses the columns Vigil uses and counts lines that are not a country', () => {
    const { entries, rejected } = parseIbanRegistry(`${HEADER}\n${DE}\nnot a line\n`);
    assert.equal(rejected, 1);
    assert.deepEqual(entries, [{
      code: 'DE', name: 'Germany', ibanExample: 'DE89370400440532013000', ibanLength: 22, bankIdStart: 0, bankIdStop: 7, sepa: true,
      swiftOfficial: true, iana: 'de', currency: 'EUR', centralBankUrl: 'https://www.bundesbank.de', centralBankName: 'Deutsche Bundesbank', membership: 'eu_member',
    }]);
  });
  it('refuses a file that is not the registry', () => {
    assert.throws(() => parseIbanRegistry('a|b|c\n1|2|3\n'), DatasetError);
  });
  it('imports DIR/iban-registry/registry.txt as a dataset version with its licence', () => {
    const src = mkTmp();
    const data = mkTmp();
    mkdirSync(join(src, IBAN_REGISTRY));
    writeFileSync(join(src, IBAN_REGISTRY, 'registry.txt'), `${HEADER}\n${DE}\n`);
    const report = importIbanRegistry(data, src, new Date('2026-01-01T00:00:00Z'));
    assert.equal(report.manifest.count, 1);
    assert.match(report.manifest.license, /LGPL-3\.0/);
    const current = readCurrent(data, IBAN_REGISTRY);
    assert.equal(readIbanRegistry(current?.content ?? '').get('DE')?.centralBankName, 'Deutsche Bundesbank');
    assert.throws(() => importIbanRegistry(data, mkTmp()), DatasetError);
  });
});

describe('swift-bic-codes importer', () => {
  it('reads the CSV with quoted fields, keeping the six Gulf countries', () => {
    const csv = 'country_code,country,bank,city,branch,swift_code\nKW,Kuwait,"GULF BANK K.S.C.P., THE",KUWAIT,,GULBKWKWXXX\nDE,Germany,X,Y,,DEUTDEFF\nKW,Kuwait,BAD,,,NOT-A-BIC\n';
    const { records, rejected } = parseBicCsv(csv);
    assert.deepEqual(records, [{ country: 'KW', bic: 'GULBKWKW', bank: 'GULF BANK K.S.C.P., THE' }]);
    assert.equal(rejected, 1);
  });
  it('imports the gzip CSV and the JSON files; KW/BH/QA/JO banks are keyed by the BIC\'s first four letters', () => {
    const src = mkTmp();
    const data = mkTmp();
    mkdirSync(join(src, SWIFT_BIC, 'gcc-jo-raw'), { recursive: true });
    writeFileSync(join(src, SWIFT_BIC, 'swift_codes_all_countries.csv.gz'), gzipSync('country_code,country,bank,city,branch,swift_code\nQA,Qatar,DOHA BANK,DOHA,,DOHBQAQA\n'));
    writeFileSync(join(src, SWIFT_BIC, 'gcc-jo-raw', 'JO.json'), JSON.stringify({ country_code: 'JO', list: [{ bank: 'CITIBANK N.A.', swift_code: 'CITIJOAX100' }, { bank: 'CITIBANK N.A.', swift_code: 'CITIJOAX' }, { bank: 'ARAB BANK PLC', swift_code: 'ARABJOA1' }] }));
    const report = importSwiftBic(data, src);
    assert.equal(report.manifest.count, 3);
    const tables = bicBankTables(readCurrent(data, SWIFT_BIC)?.content ?? '');
    assert.deepEqual(tables.get('JO')?.get('CITI'), { code: 'CITI', name: 'CITIBANK N.A.', nameAr: null, swift: 'CITIJOAX', mergedInto: null });
    assert.equal(tables.get('JO')?.get('ARAB')?.nameAr, 'البنك العربي', 'a curated bank keeps its curated entry');
    assert.equal(tables.get('QA')?.get('DOHB')?.swift, 'DOHBQAQA');
    assert.throws(() => importSwiftBic(data, mkTmp()), DatasetError);
  });
});
