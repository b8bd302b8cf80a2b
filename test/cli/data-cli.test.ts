/** `vigil data import|status|rollback` run as the real CLI against a temp DATA_DIR. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { failed, ok, tempDir, vigil } from '../helpers/cli-runner.ts';

interface Imported { name: string; version: string; count: number; sha256: string; previous: string | null; files: string[]; rejectedLines: number; rejectedSamples?: string[] }
interface Manifest { name: string; version: string; count: number; source: string; previous: string | null }

function feed(files: Record<string, string>): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'dangerous-domains'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'dangerous-domains', name), text);
  return dir;
}

describe('vigil data', () => {
  it('imports dangerous domains, reports them, and keeps the previous version for rollback', async () => {
    const DATA_DIR = tempDir();
    const first = ok<Imported[]>(await vigil(['data', 'import', feed({ 'list.txt': 'phish.example.com\n# c\nbad line here\n', 'hosts': '0.0.0.0 malware.example.net\n' })], { DATA_DIR }));
    assert.equal(first.length, 1);
    assert.equal(first[0]?.name, 'dangerous-domains');
    assert.equal(first[0]?.count, 2);
    assert.equal(first[0]?.rejectedLines, 1);
    assert.deepEqual(first[0]?.files, ['hosts', 'list.txt']);
    const v1 = first[0]?.version ?? '';
    assert.equal(readFileSync(join(DATA_DIR, 'datasets', 'dangerous-domains', v1, 'domains.txt'), 'utf8'), 'malware.example.net\nphish.example.com\n');

    const second = ok<Imported[]>(await vigil(['data', 'import', feed({ 'list.txt': 'other.example.org\n' })], { DATA_DIR }));
    assert.equal(second[0]?.previous, v1);
    const status = ok<Record<string, Manifest | null>>(await vigil(['data', 'status'], { DATA_DIR }));
    assert.equal(status['dangerous-domains']?.version, second[0]?.version);

    const back = ok<Manifest>(await vigil(['data', 'rollback', 'dangerous-domains'], { DATA_DIR }));
    assert.equal(back.version, v1);
    assert.equal(back.count, 2);
    assert.equal(existsSync(join(DATA_DIR, 'datasets', 'dangerous-domains', second[0]?.version ?? '', 'domains.txt')), true);
  });

  it('imports disposable-domain updates from every file of DIR/disposable-domains; status names the bundled sources with versions', async () => {
    const DATA_DIR = tempDir();
    const dir = tempDir();
    mkdirSync(join(dir, 'disposable-domains'));
    writeFileSync(join(dir, 'disposable-domains', 'source-a.txt'), 'new-throwaway.example\nshared.example\n');
    writeFileSync(join(dir, 'disposable-domains', 'source-b.txt'), '# another public list\nshared.example\nother-throwaway.example\n');
    const [report] = ok<Imported[]>(await vigil(['data', 'import', dir], { DATA_DIR }));
    assert.equal(report?.name, 'disposable-domains');
    assert.deepEqual(report?.files, ['source-a.txt', 'source-b.txt']);
    assert.equal(report?.count, 3, 'the union of both files');
    const status = ok<Record<string, unknown> & { bundled: { 'disposable-domains': Array<{ name: string; version: string; count: number }> } }>(await vigil(['data', 'status'], { DATA_DIR }));
    assert.equal((status['disposable-domains'] as Manifest | null)?.count, 3);
    const bundled = status.bundled['disposable-domains'];
    assert.deepEqual(bundled.map((b) => b.name), ['disposable-email-domains', 'disposable-email-domains-wildcard', 'mailchecker', 'disposable-supplement']);
    for (const b of bundled) assert.ok(b.version !== '' && b.count > 0, JSON.stringify(b));
  });

  it('tells its progress on stderr, one line per step when it is not a terminal (the report alone on stdout)', async () => {
    const dir = feed({ 'list.txt': 'phish.example.com\n' });
    mkdirSync(join(dir, 'disposable-domains'));
    writeFileSync(join(dir, 'disposable-domains', 'list.txt'), 'throwaway.example\n');
    const r = await vigil(['data', 'import', dir], { DATA_DIR: tempDir() });
    assert.equal(ok<Imported[]>(r).length, 2);
    const lines = r.stderr.trim().split('\n');
    assert.match(lines[0] ?? '', /^vigil: importing dangerous-domains \(1 of 2\)$/);
    assert.match(lines[1] ?? '', /^vigil: dangerous-domains \d{8}T\d{6}\d*Z: 1 records in \d+\.\d s$/);
    assert.match(lines[2] ?? '', /^vigil: importing disposable-domains \(2 of 2\)$/);
    assert.match(lines[3] ?? '', /^vigil: disposable-domains .*: 1 records in \d+\.\d s$/);
    assert.doesNotMatch(r.stderr, /\r/, 'no bar drawn on a pipe');
  });

  it('fails with a message (exit 1) on a directory without datasets or without valid domains', async () => {
    const DATA_DIR = tempDir();
    failed(await vigil(['data', 'import', tempDir()], { DATA_DIR }), /none of the dataset directories.*dangerous-domains/);
    failed(await vigil(['data', 'import', join(tempDir(), 'missing')], { DATA_DIR }), /is not a directory/);
    failed(await vigil(['data', 'import', feed({ 'x.txt': 'nothing valid\n' })], { DATA_DIR }), /no valid domain/);
    failed(await vigil(['data', 'rollback', 'dangerous-domains'], { DATA_DIR }), /never been imported/);
    failed(await vigil(['data', 'rollback', 'nope'], { DATA_DIR }), /unknown dataset/);
  });

  it('a usage error (exit 2) without DIR', async () => {
    const r = await vigil(['data', 'import'], { DATA_DIR: tempDir() });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /vigil data import DIR/);
  });
});
