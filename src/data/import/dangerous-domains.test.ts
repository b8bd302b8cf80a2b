import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseDomainList } from './dangerous-domains.ts';
import { readCurrent, readManifest, sha256 } from './dataset-store.ts';
import { DatasetError, importDirectory, rollback } from './index.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-import-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function source(files: Record<string, string>): string {
  const dir = temp();
  mkdirSync(join(dir, 'dangerous-domains'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'dangerous-domains', name), text);
  return dir;
}

describe('parseDomainList', () => {
  it('reads plain and hosts-file lines, comments, IDN, and rejects what is not a domain', () => {
    const parsed = parseDomainList([
      '# a comment',
      '',
      'Evil.Example.COM.',
      'phish.example.net   # inline comment',
      '0.0.0.0 a.example.org b.example.org',
      '127.0.0.1 localhost',
      '::1 ip6-localhost',
      'bücher-phish.de',
      'not a domain',
      '1.2.3.4',
      '0.0.0.0 bad_name.example',
    ].join('\r\n'));
    assert.deepEqual(parsed.domains, ['evil.example.com', 'phish.example.net', 'a.example.org', 'b.example.org', 'xn--bcher-phish-thb.de']);
    assert.equal(parsed.rejected, 3);
    assert.deepEqual(parsed.samples, ['not a domain', '1.2.3.4', '0.0.0.0 bad_name.example']);
  });
});

describe('importDirectory (dangerous-domains)', () => {
  it('writes a version with a manifest, keeps the previous one, prunes older ones, and rolls back', () => {
    const dataDir = temp();
    const v1 = importDirectory(dataDir, source({ 'a.txt': 'one.example.com\ntwo.example.com\n', 'b.hosts': '0.0.0.0 two.example.com three.example.com\n' }), new Date('2026-01-01T00:00:00Z'));
    assert.equal(v1.length, 1);
    const m1 = v1[0]?.manifest;
    assert.ok(m1);
    assert.equal(m1.name, 'dangerous-domains');
    assert.equal(m1.version, '20260101T000000000Z');
    assert.equal(m1.count, 3);
    assert.equal(m1.previous, null);
    assert.match(m1.source, /a\.txt, b\.hosts/);
    const file = join(dataDir, 'datasets', 'dangerous-domains', m1.version, 'domains.txt');
    assert.equal(readFileSync(file, 'utf8'), 'one.example.com\nthree.example.com\ntwo.example.com\n');
    assert.equal(m1.sha256, sha256(readFileSync(file)));

    const m2 = importDirectory(dataDir, source({ 'c.txt': 'four.example.com\n' }), new Date('2026-02-01T00:00:00Z'))[0]?.manifest;
    const m3 = importDirectory(dataDir, source({ 'c.txt': 'five.example.com\n' }), new Date('2026-03-01T00:00:00Z'))[0]?.manifest;
    assert.equal(m3?.previous, m2?.version);
    const versions = readdirSync(join(dataDir, 'datasets', 'dangerous-domains')).filter((n) => n !== 'manifest.json').sort();
    assert.deepEqual(versions, [m2?.version, m3?.version], 'only current and previous are kept');

    const back = rollback(dataDir, 'dangerous-domains');
    assert.equal(back.version, m2?.version);
    assert.equal(back.previous, m3?.version);
    assert.equal(readCurrent(dataDir, 'dangerous-domains')?.content, 'four.example.com\n');
  });

  it('refuses an empty or missing source and leaves the current version alone', () => {
    const dataDir = temp();
    assert.throws(() => importDirectory(dataDir, temp()), DatasetError);
    assert.throws(() => importDirectory(dataDir, join(temp(), 'nope')), DatasetError);
    assert.throws(() => importDirectory(dataDir, source({ 'a.txt': '# nothing\nnot a domain\n' })), /no valid domain/);
    assert.throws(() => rollback(dataDir, 'dangerous-domains'), /never been imported/);
    assert.equal(readManifest(dataDir, 'dangerous-domains'), null);
    assert.equal(existsSync(join(dataDir, 'datasets', 'dangerous-domains', 'manifest.json')), false);
  });

  it('a data file that does not match its manifest is not read', () => {
    const dataDir = temp();
    const m = importDirectory(dataDir, source({ 'a.txt': 'one.example.com\n' }))[0]?.manifest;
    assert.ok(m);
    writeFileSync(join(dataDir, 'datasets', 'dangerous-domains', m.version, 'domains.txt'), 'tampered.example.com\n');
    assert.throws(() => readCurrent(dataDir, 'dangerous-domains'), /sha256/);
  });
});
