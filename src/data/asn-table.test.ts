import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AsnTable } from './asn-table.ts';

describe('AsnTable', () => {
  it('finds rows by ASN and cuts fields, short rows read empty', () => {
    const t = AsnTable.parse('2\tUniversity of Delaware\tEyeball\tUS\tuni\n13335\tCloudflare, Inc.\tContent\tUS\tcdn,vpn\n64500\n64501\tOnly name\n');
    assert.equal(t.size, 4);
    const cf = t.find(13335);
    assert.equal(t.field(cf, 0), 'Cloudflare, Inc.');
    assert.equal(t.field(cf, 3), 'cdn,vpn');
    assert.equal(t.field(cf, 4), '');
    assert.equal(t.field(t.find(2), 1), 'Eyeball');
    assert.equal(t.field(t.find(64500), 0), '');
    assert.equal(t.field(t.find(64501), 0), 'Only name');
    assert.equal(t.field(t.find(64501), 1), '');
    assert.equal(t.find(3), -1);
    assert.equal(t.find(99999), -1);
  });

  it('sorts an unsorted file, keeps the first of a repeated ASN, skips rows without an ASN', () => {
    const t = AsnTable.parse('300\tc\n100\ta\nnot-a-number\tx\n200\tb\n100\tsecond\n\n0\tzero\n');
    assert.equal(t.size, 4);
    assert.equal(t.field(t.find(100), 0), 'a');
    assert.equal(t.field(t.find(200), 0), 'b');
    assert.equal(t.field(t.find(300), 0), 'c');
    assert.equal(t.find(0), -1);
  });

  it('an empty text is the empty table', () => {
    assert.equal(AsnTable.parse('').size, 0);
    assert.equal(AsnTable.EMPTY.find(1), -1);
  });
});
