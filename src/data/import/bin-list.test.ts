import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildBinIndex, loadBinData } from '../bin-data.ts';
import { loadCountryData } from '../countries.ts';
import { evaluateBin } from '../../intel/bin/evaluate.ts';
import { parseBinInput } from '../../intel/bin/parse.ts';
import { prng } from '../../intel/text/train.ts';
import { BIN_LIST, importBinList, mergeBinRecords, parseBinCsv, parseBinTsv, parseCsv } from './bin-list.ts';
import { readCurrent } from './dataset-store.ts';
import { importDirectory } from './index.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-bin-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const RANGES = `iin_start,iin_end,number_length,number_luhn,scheme,brand,type,prepaid,country,bank_name,bank_logo,bank_url,bank_phone,bank_city
371241,371242,,,amex,,credit,,US,AMERICAN EXPRESS,,www.americanexpress.com,8005284800,
400390,,,,visa,,credit,,US,"BANK OF AMERICA, N.A. (USA)",,,8006731044,
45717360,,16,true,visa,Visa/Dankort,debit,,DK,Jyske Bank,,www.jyskebank.dk,+4589893300,Hjørring
x12345,,,,visa,,debit,,US,Broken,,,,
`;
const CONTRIB = `iin,card_brand,card_sub_brand,card_type,card_category,country_code,bank_name,bank_url,bank_phone,bank_city
400390,VISA,,CREDIT,PLATINUM,US,BANK OF AMERICA,www.bankofamerica.com,,Charlotte
510000,MASTERCARD,,DEBIT,BUSINESS,GB,HSBC BANK PLC,www.hsbc.co.uk,,London
`;
const IANNUTTALL = `bin,brand,type,category,issuer,alpha_2,alpha_3,country,latitude,longitude,bank_phone,bank_url
440647,VISA,DEBIT,CLASSIC,AL RAJHI BANKING AND INVESTMENT CORP.,SA,SAU,Saudi Arabia,25,45,+966 1 211 6000,www.alrajhibank.com.sa
520058,MASTERCARD,DEBIT,PREPAID,"SAUDI BRITISH BANK, THE",SA,SAU,Saudi Arabia,25,45,,
`;
const VENELIN = `\uFEFFBIN,Brand,Type,Category,Issuer,IssuerPhone,IssuerUrl,isoCode2,isoCode3,CountryName
968208,MADA,DEBIT,STANDARD,SAUDI NATIONAL BANK,+966 920001000,www.alahli.com,SA,SAU,Saudi Arabia
62123456,UNIONPAY,CREDIT,CORPORATE,BANK OF CHINA,,,CN,CHN,China
`;

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, embedded newlines and CRLF', () => {
    const rows: string[][] = [];
    parseCsv('a,"b,c","d ""e""",\r\n"x\ny",z\n', (r) => rows.push(r));
    assert.deepEqual(rows, [['a', 'b,c', 'd "e"', ''], ['x\ny', 'z']]);
  });
  /** The reader before it cut fields with slice (one character at a time): the rows must not change. */
  function reference(text: string): string[][] {
    const out: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') { field += '"'; i++; continue; }
          quoted = false;
        } else field += ch;
        continue;
      }
      if (ch === '"' && field === '') quoted = true;
      else if (ch === ',') { row.push(field); field = ''; }
      else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        row.push(field);
        out.push(row);
        row = [];
        field = '';
      } else field += ch;
    }
    if (field !== '' || row.length > 0) { row.push(field); out.push(row); }
    return out;
  }
  const read = (text: string): string[][] => {
    const rows: string[][] = [];
    parseCsv(text, (r) => rows.push(r));
    return rows;
  };

  const cases = ['', 'a', 'a,', ',', 'a,b\n', 'a,b\r\nc', '\n\n', '"a"b,c', 'ab"c,d', '"a""b"', '"""a"', '"unterminated\nx', 'x,"', '"a",\n', '"a"\r\n"b"', 'a\rb'];
  for (const text of cases) it(`reads ${JSON.stringify(text)} as before`, () => assert.deepEqual(read(text), reference(text)));
  it('reads 5,000 random texts of commas, quotes, CR, LF and letters as before', () => {
    const rnd = prng(5);
    const alphabet = ['a', 'b', ',', '"', '\n', '\r', ' '];
    for (let k = 0; k < 5000; k++) {
      let text = '';
      const len = Math.floor(rnd() * 24) + 1;
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rnd() * alphabet.length)];
      assert.deepEqual(read(text), reference(text), JSON.stringify(text));
    }
  });
});

describe('mergeBinRecords', () => {
  it('fills gaps from a later layout without changing the input records', () => {
    const a = parseBinCsv(RANGES);
    const b = parseBinCsv(CONTRIB);
    assert.ok(a && b);
    const before = JSON.stringify([a.records, b.records]);
    const merged = mergeBinRecords([b, a]);
    assert.equal(JSON.stringify([a.records, b.records]), before);
    const boa = merged.find((r) => r.start === '400390');
    assert.deepEqual([boa?.bank, boa?.brand, boa?.city, boa?.url], ['BANK OF AMERICA, N.A. (USA)', 'Platinum', 'Charlotte', 'www.bankofamerica.com']);
    assert.equal(merged.find((r) => r.start === '510000')?.bank, 'HSBC BANK PLC');
  });
});

describe('BIN CSV layouts (detected by header)', () => {
  it('binlist ranges.csv', () => {
    const p = parseBinCsv(RANGES);
    assert.equal(p?.layout, 'binlist-ranges');
    assert.equal(p?.records.length, 3);
    assert.equal(p?.rejected, 1);
    assert.deepEqual(p?.records.map((r) => [r.start, r.end]), [['371241', '371242'], ['400390', '400390'], ['45717360', '45717360']]);
    assert.equal(p?.records[1]?.bank, 'BANK OF AMERICA, N.A. (USA)');
    assert.equal(p?.records[2]?.length, 16);
    assert.equal(p?.records[2]?.luhn, true);
  });
  it('binlist iin-user-contributions.csv', () => {
    const p = parseBinCsv(CONTRIB);
    assert.equal(p?.layout, 'binlist-contributions');
    assert.equal(p?.records[1]?.brand, 'Business');
    assert.equal(p?.records[1]?.commercial, true);
    assert.equal(p?.records[1]?.type, 'debit');
  });
  it('iannuttall binlist-data.csv', () => {
    const p = parseBinCsv(IANNUTTALL);
    assert.equal(p?.layout, 'iannuttall');
    assert.equal(p?.records[0]?.country, 'SA');
    assert.equal(p?.records[0]?.latitude, '25');
    assert.equal(p?.records[1]?.prepaid, true);
    assert.equal(p?.records[1]?.bank, 'SAUDI BRITISH BANK, THE');
  });
  it('venelinkochev bin-list-data.csv (8-digit BINs too)', () => {
    const p = parseBinCsv(VENELIN);
    assert.equal(p?.layout, 'venelinkochev');
    assert.equal(p?.records.length, 2);
    assert.equal(p?.records[1]?.start, '62123456');
    assert.equal(p?.records[1]?.commercial, true);
    assert.equal(p?.records[0]?.scheme, 'mada');
  });
  it('an unknown header is not a BIN file', () => {
    assert.equal(parseBinCsv('a,b,c\n1,2,3\n'), null);
  });
});

describe('importBinList', () => {
  it('merges the layouts (curated first, gaps filled), stores them and serves longest-prefix lookups', () => {
    const src = temp();
    mkdirSync(join(src, BIN_LIST));
    writeFileSync(join(src, BIN_LIST, 'ranges.csv'), RANGES);
    writeFileSync(join(src, BIN_LIST, 'iin-user-contributions.csv'), CONTRIB);
    writeFileSync(join(src, BIN_LIST, 'binlist-data.csv'), IANNUTTALL);
    writeFileSync(join(src, BIN_LIST, 'bin-list-data.csv'), VENELIN);
    writeFileSync(join(src, BIN_LIST, 'notes.csv'), 'a,b\n1,2\n');
    const dataDir = temp();
    const [report] = importDirectory(dataDir, src, new Date('2026-01-01T00:00:00Z'));
    assert.equal(report?.manifest.name, BIN_LIST);
    assert.equal(report?.manifest.count, 8);
    assert.equal(report?.rejected, 1);
    assert.deepEqual(report?.files, ['bin-list-data.csv', 'binlist-data.csv', 'iin-user-contributions.csv', 'ranges.csv']);
    assert.ok(report?.samples.some((s) => s.startsWith('notes.csv')));
    const current = readCurrent(dataDir, BIN_LIST);
    assert.ok(current);
    const records = parseBinTsv(current.content);
    const boa = records.find((r) => r.start === '400390');
    assert.equal(boa?.bank, 'BANK OF AMERICA, N.A. (USA)', 'ranges.csv wins');
    assert.equal(boa?.brand, 'Platinum', 'the gap is filled from the contributions');
    assert.equal(boa?.city, 'Charlotte');
    const data = loadBinData({ dataDir });
    try {
      assert.equal(data.index.find('4571736012345678')?.bank, 'Jyske Bank');
      assert.equal(data.index.find('371242')?.end, '371242');
      assert.equal(data.index.find('6212345699')?.start, '62123456');
      assert.equal(data.index.find('999999'), null);
      assert.equal(data.datasets[0]?.name, BIN_LIST);
    } finally {
      data.close();
    }
  });

  // Rows of hexindai/bcbc (MIT) data/bin.csv and data/name.csv: ICBC's and Bank of
  // Communications' UnionPay debit BINs, a Ping An credit BIN, a quasi-credit (SCC) BIN, a 3-digit
  // row (rejected) and a 9-digit one (kept, never matched: lookups use the BIN).
  it('bcbc bin.csv with its name.csv: type and issuer of Chinese UnionPay BINs', () => {
    const src = temp();
    mkdirSync(join(src, BIN_LIST));
    writeFileSync(join(src, BIN_LIST, 'bin.csv'), 'bin,bank,type,length\n103,ABC,DC,19\n621226,ICBC,DC,19\n621056801,COMM,DC,19\n622155,SPABANK,CC,16\n622254,COMM,SCC,16\n');
    writeFileSync(join(src, BIN_LIST, 'name.csv'), 'bank,name\nICBC,中国工商银行\n\nCOMM,交通银行\n');
    const dataDir = temp();
    const report = importBinList(dataDir, src);
    assert.deepEqual(report.files, ['bin.csv']);
    assert.equal(report.manifest.count, 4);
    assert.equal(report.rejected, 1);
    const data = loadBinData({ dataDir });
    try {
      const icbc = data.index.find('621226');
      assert.deepEqual([icbc?.bank, icbc?.type, icbc?.length, icbc?.country], ['中国工商银行 (ICBC)', 'debit', 19, '']);
      assert.deepEqual([data.index.find('622155')?.bank, data.index.find('622155')?.type], ['SPABANK', 'credit']);
      assert.equal(data.index.find('622254')?.type, 'credit');
      const p = parseBinInput('6212261234567890123');
      assert.ok(p.ok);
      const r = evaluateBin('621226', p.value, { index: data.index, countries: loadCountryData().byCode });
      assert.deepEqual([r.info.scheme.name, r.info.scheme.type, r.info.bank?.name, r.info.bank?.id, r.info.country], ['UnionPay', 'debit', '中国工商银行 (ICBC)', 'icbc', null]);
    } finally {
      data.close();
    }
  });

  it('refuses a directory without BIN files', () => {
    const src = temp();
    mkdirSync(join(src, 'bin-binlist'));
    assert.throws(() => importBinList(temp(), src), /no \.csv file/);
    writeFileSync(join(src, 'bin-binlist', 'x.csv'), 'a,b\n');
    assert.throws(() => importBinList(temp(), src), /no BIN record/);
    assert.throws(() => importBinList(temp(), temp()), /holds no bin-list or bin-binlist/);
  });

  it('a record stores prefixes only: no number longer than 11 digits', () => {
    const p = parseBinCsv('bin,brand,type,category,issuer,alpha_2\n4111111111111111,VISA,CREDIT,,X,US\n411111,VISA,CREDIT,,X,US\n');
    assert.equal(p?.records.length, 1);
    assert.equal(p?.rejected, 1);
  });

  it('the index prefers an 8-digit BIN over its 6-digit range', () => {
    const mk = (start: string, end: string, bank: string) => ({ ...parseBinTsv(`h\n${start}\t${end}`)[0], bank } as ReturnType<typeof parseBinTsv>[number]);
    const idx = buildBinIndex([mk('400000', '409999', 'wide'), mk('40123456', '40123456', 'narrow'), mk('401234', '401234', 'six')]);
    assert.equal(idx.find('40123456')?.bank, 'narrow');
    assert.equal(idx.find('40123457')?.bank, 'six');
    assert.equal(idx.find('40500000')?.bank, 'wide');
  });
});

const SHARED = join(process.cwd(), '..', 'shared', 'data');
describe('the shared binlist snapshot', { skip: !existsSync(join(SHARED, 'bin-binlist')) && 'no ../shared/data/bin-binlist' }, () => {
  it('imports every row of ranges.csv and iin-user-contributions.csv', () => {
    const dataDir = temp();
    const report = importBinList(dataDir, SHARED);
    assert.deepEqual(report.files, ['iin-user-contributions.csv', 'ranges.csv']);
    assert.ok(report.manifest.count > 7000, String(report.manifest.count));
    assert.equal(report.rejected, 0);
    const content = readFileSync(join(dataDir, 'datasets', BIN_LIST, report.manifest.version, 'bins.tsv'), 'utf8');
    assert.match(content, /^45717360\t/m);
  });
});
