/** `vigil data update NAME` without --from: every default source file, fetched from a local HTTP server standing in for GitHub. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SHARED_DATA } from '../../../test/helpers/shared-data.ts';
import { vigil } from '../../../test/helpers/cli-runner.ts';
import { ASN_BGPTOOLS, ASN_NAMES_ASN2ORG } from './asn-lists.ts';
import { readManifest } from './dataset-store.ts';
import { CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, TOR_EXIT_NODES, VPN_DATACENTER_X4BNET } from './ip-lists.ts';
import { DEFAULT_SOURCES, datasetSources, loadSources, updateDataset, type SourceFile } from './update.ts';

const SHARED = SHARED_DATA;
const NAMES = [TOR_EXIT_NODES, VPN_DATACENTER_X4BNET, CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, ASN_BGPTOOLS, ASN_NAMES_ASN2ORG];

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-sources-'));
  dirs.push(d);
  return d;
};

/**
 * The shared file that stands in for a default source: same name, gzipped twin (the server
 * serves gzip bytes where upstream serves plain text; the importers judge by content), the mirror's
 * tags/ folder, or the dated name of the relay snapshot.
 */
function sharedFile(dataset: string, file: string): string | null {
  const special: Record<string, string> = { 'tor-all-relays.txt': 'tor-all-relays-2024-02.txt' };
  for (const candidate of [special[file] ?? file, `${file}.gz`, `tags/${file}`]) {
    const p = join(SHARED, dataset, candidate);
    if (existsSync(p)) return p;
  }
  return null;
}

let server: Server;
let base = '';
const hits: string[] = [];
before(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const [, dataset, file] = (req.url ?? '').split('/');
    const path = dataset && file ? sharedFile(dataset, file) : null;
    if (path === null) res.writeHead(404).end('not here');
    else res.writeHead(200).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A DATA_SOURCES_FILE pointing each dataset's default file names at the local server. */
function localSources(names: readonly string[], edit: (name: string, files: SourceFile[]) => SourceFile[] = (_, f) => f): string {
  const out: Record<string, SourceFile[]> = {};
  for (const name of names) out[name] = edit(name, (DEFAULT_SOURCES[name] ?? []).map((s) => ({ url: `${base}/${name}/${s.file}`, file: s.file })));
  const path = join(temp(), 'sources.json');
  writeFileSync(path, JSON.stringify(out));
  return path;
}

describe('DEFAULT_SOURCES', () => {
  it('names raw GitHub files for every IP-list and ASN dataset, with unique safe file names', () => {
    for (const name of NAMES) {
      const files = DEFAULT_SOURCES[name];
      assert.ok(files && files.length > 0, name);
      for (const f of files) {
        assert.match(f.url, /^https:\/\/raw\.githubusercontent\.com\/[^/]+\/[^/]+\/[^/]+\/\S+$/, f.url);
        assert.match(f.file, /^[A-Za-z0-9][A-Za-z0-9._-]*$/);
      }
      assert.equal(new Set(files.map((f) => f.file)).size, files.length, name);
    }
    assert.equal(datasetSources('bin-list', undefined), null);
  });
});

describe('updateDataset without --from', () => {
  it('fetches every default file of each dataset (by its default name) and imports them', async () => {
    const dataDir = temp();
    const sourcesFile = localSources(NAMES);
    for (const name of NAMES) {
      const progress: string[] = [];
      const r = await updateDataset(dataDir, name, { sourcesFile, progress: (l) => progress.push(l) });
      const expected = (DEFAULT_SOURCES[name] ?? []).map((s) => s.file);
      assert.deepEqual([...r.files].sort(), [...expected].sort(), name);
      assert.ok(r.manifest.count > 1000, `${name}: ${r.manifest.count}`);
      assert.equal(readManifest(dataDir, name)?.version, r.manifest.version);
      assert.ok(progress.some((l) => l.startsWith(`downloading ${base}/${name}/`)), name);
      if (expected.length > 1) assert.ok(progress.includes(`file 1 of ${expected.length}: ${expected[0]}`), name);
    }
  });

  it('one failed download imports nothing and keeps the current version', async () => {
    const dataDir = temp();
    const good = await updateDataset(dataDir, ICLOUD_PRIVATE_RELAY, { sourcesFile: localSources([ICLOUD_PRIVATE_RELAY]) });
    const broken = localSources([ICLOUD_PRIVATE_RELAY], (_, files) => [...files, { url: `${base}/${ICLOUD_PRIVATE_RELAY}/missing.txt`, file: 'missing.txt' }]);
    await assert.rejects(updateDataset(dataDir, ICLOUD_PRIVATE_RELAY, { sourcesFile: broken }), /HTTP 404/);
    assert.equal(readManifest(dataDir, ICLOUD_PRIVATE_RELAY)?.version, good.manifest.version);
  });

  it('--sha256 only with a single file', async () => {
    const dataDir = temp();
    const sha = createHash('sha256').update(readFileSync(join(SHARED, DATACENTER_IPCAT, 'datacenters.csv'))).digest('hex');
    const r = await updateDataset(dataDir, DATACENTER_IPCAT, { sourcesFile: localSources([DATACENTER_IPCAT]), sha256: sha });
    assert.ok(r.manifest.count > 0);
    await assert.rejects(updateDataset(dataDir, DATACENTER_IPCAT, { sourcesFile: localSources([DATACENTER_IPCAT]), sha256: '0'.repeat(64) }), /sha256 mismatch/);
    await assert.rejects(updateDataset(dataDir, TOR_EXIT_NODES, { sourcesFile: localSources([TOR_EXIT_NODES]), sha256: sha }), /--sha256 needs a single file/);
  });

  it('a dataset without sources needs --from', async () => {
    await assert.rejects(updateDataset(temp(), 'bin-list', { sourcesFile: undefined }), /no default sources/);
  });
});

describe('DATA_SOURCES_FILE', () => {
  const write = (content: string): string => {
    const p = join(temp(), 'sources.json');
    writeFileSync(p, content);
    return p;
  };

  it('replaces only the datasets it lists', () => {
    const s = loadSources(write(JSON.stringify({ [DATACENTER_IPCAT]: [{ url: '/srv/mirror/datacenters.csv', file: 'datacenters.csv' }] })));
    assert.deepEqual(s[DATACENTER_IPCAT], [{ url: '/srv/mirror/datacenters.csv', file: 'datacenters.csv' }]);
    assert.deepEqual(s[TOR_EXIT_NODES], DEFAULT_SOURCES[TOR_EXIT_NODES]);
    assert.deepEqual(loadSources(undefined), DEFAULT_SOURCES);
    assert.deepEqual(loadSources(''), DEFAULT_SOURCES);
  });

  it('is validated with a clear message', () => {
    const cases: Array<[string, RegExp]> = [
      ['{not json', /DATA_SOURCES_FILE .*sources\.json: .*JSON/],
      ['[]', /DATA_SOURCES_FILE .*: \(top level\): /],
      [JSON.stringify({ 'tor-exit-nodes': [] }), /tor-exit-nodes: must list at least one file/],
      [JSON.stringify({ 'tor-exit-nodes': [{ url: 'https://x/y', file: '../escape' }] }), /tor-exit-nodes\.0\.file: must be a plain file name/],
      [JSON.stringify({ 'tor-exit-nodes': [{ url: 'ftp://x/y', file: 'a.txt' }] }), /tor-exit-nodes\.0\.url: must be an http\(s\) URL or a file path/],
      [JSON.stringify({ 'tor-exit-nodes': [{ url: 'https://x/a', file: 'a.txt' }, { url: 'https://x/b', file: 'a.txt' }] }), /file names must be unique/],
      [JSON.stringify({ 'tor-exit-nodes': [{ url: 'https://x/a', file: 'a.txt', extra: 1 }] }), /tor-exit-nodes\.0/],
      [JSON.stringify({ 'tor-exit-node': [{ url: 'https://x/a', file: 'a.txt' }] }), /unknown dataset "tor-exit-node" \(known: .*tor-exit-nodes/],
    ];
    for (const [content, why] of cases) assert.throws(() => loadSources(write(content)), why, content);
    assert.throws(() => loadSources(join(temp(), 'absent.json')), /DATA_SOURCES_FILE .*absent\.json: ENOENT/);
  });
});

describe('vigil data update NAME (CLI, no --from)', () => {
  it('fetches the sources named by DATA_SOURCES_FILE; a dataset without sources is a usage error', async () => {
    const DATA_DIR = temp();
    const r = await vigil(['data', 'update', DATACENTER_IPCAT], { DATA_DIR, DATA_SOURCES_FILE: localSources([DATACENTER_IPCAT]) });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { name: string; count: number; files: string[] };
    assert.equal(out.name, DATACENTER_IPCAT);
    assert.deepEqual(out.files, ['datacenters.csv']);
    assert.match(r.stderr, /downloading http:\/\/127\.0\.0\.1/);
    const bad = await vigil(['data', 'update', DATACENTER_IPCAT], { DATA_DIR, DATA_SOURCES_FILE: join(DATA_DIR, 'nope.json') });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /DATA_SOURCES_FILE/);
    const usage = await vigil(['data', 'update', 'bin-list'], { DATA_DIR });
    assert.equal(usage.code, 2);
  });
});
