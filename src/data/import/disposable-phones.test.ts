import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { forEachStringPair, importDisposablePhones } from './disposable-phones.ts';
import { datasetDir } from './dataset-store.ts';

const pairs = (text: string): Array<[string, string]> | null => {
  const out: Array<[string, string]> = [];
  return forEachStringPair(text, (k, v) => out.push([k, v])) ? out : null;
};

describe('forEachStringPair', () => {
  it('gives what JSON.parse gives for flat objects of strings, escapes and spacing included', () => {
    for (const text of ['{}', ' { } ', '{"4915112345678":"2026-01-02"}', '{\n  "1": "a",\n  "2" : "b" \n}\n', '{"k\\"q":"v\\u00e9\\n","a\\\\b":""}']) {
      assert.deepEqual(pairs(text), Object.entries(JSON.parse(text) as Record<string, string>), text);
    }
  });
  it('refuses anything else, for the caller to parse whole', () => {
    for (const text of ['[]', '{"a":1}', '{"a":{"b":"c"}}', '{"a":"b"} x', '{"a":"b",}', '"text"', '{"a":"b" "c":"d"}', '']) assert.equal(pairs(text), null, text);
  });
});

describe('importDisposablePhones', () => {
  const root = mkdtempSync(join(tmpdir(), 'vigil-phones-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const importOf = (name: string, content: string) => {
    const dir = join(root, name);
    mkdirSync(join(dir, 'disposable-phone-numbers'), { recursive: true });
    writeFileSync(join(dir, 'disposable-phone-numbers', 'number-list.json.gz'), gzipSync(content));
    const data = join(root, `${name}-data`);
    const report = importDisposablePhones(data, dir, new Date('2026-11-27T00:00:00Z'));
    return { report, stored: readFileSync(join(datasetDir(data, 'disposable-phone-numbers'), report.manifest.version, 'numbers.tsv'), 'utf8') };
  };

  it('the published flat list and the same list with other values parse alike (valid entries sorted, the rest counted)', () => {
    const flat = importOf('flat', '{"4915112345678":"2026-01-02","447700900123":"2026-03-04","12":"2026-01-01","4915100000000":"not a day"}');
    assert.equal(flat.stored, '447700900123\t2026-03-04\n4915112345678\t2026-01-02\n');
    assert.equal(flat.report.rejected, 2);
    // A number value makes the reader fall back to JSON.parse: same stored lines, the odd entry rejected.
    const mixed = importOf('mixed', '{"4915112345678":"2026-01-02","447700900123":"2026-03-04","12":"2026-01-01","4915100000000":7}');
    assert.equal(mixed.stored, flat.stored);
    assert.equal(mixed.report.rejected, 2);
  });
});
