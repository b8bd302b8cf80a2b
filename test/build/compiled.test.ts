/**
 * The compiled build (dist/, what `npm ci` builds and `npm start` runs): plain JavaScript with no
 * TypeScript loader, the data files it reads beside itself copied, and a server that answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../helpers/build.ts';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

const DIST = join(ROOT, 'dist');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

describe('compiled build', () => {
  before(() => ensureBuilt());

  it('dist/ is JavaScript importing no .ts file and nothing of tsx', () => {
    const files = jsFiles(DIST);
    assert.ok(files.length > 100, `${files.length} files`);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      assert.doesNotMatch(text, /(from|import\()\s*['"][^'"]+\.ts['"]/, f);
      assert.doesNotMatch(text, /['"]tsx(\/[^'"]*)?['"]/, f);
    }
  });

  it('the data files the code reads beside itself are copied', () => {
    for (const f of ['data/rdap-bootstrap.json', 'data/rdap-asn-bootstrap.json', 'data/crawler-ranges.json', 'data/reshippers.csv', 'data/models/text-model.json']) {
      assert.ok(existsSync(join(DIST, f)), f);
    }
  });

  it('bin/vigil.js --version runs the compiled CLI', () => {
    assert.equal(execFileSync(process.execPath, [join(ROOT, 'bin', 'vigil.js'), '--version'], { encoding: 'utf8' }), `vigil ${VERSION}\n`);
  });

  describe('npm start serves from dist/', () => {
    let dir: string;
    let s: Running;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'vigil-dist-'));
      s = await startServer({ DATA_DIR: dir }, true);
    });
    after(async () => {
      await stop(s);
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers /healthz with its version, and a method backed by the bundled text model', async () => {
      const health = await fetch(`http://127.0.0.1:${s.port}/healthz`);
      assert.deepEqual(await health.json(), { status: 'ok', version: VERSION });
      assert.equal(health.headers.get('x-vigil-version'), VERSION);
      let key: string | undefined;
      for (let i = 0; i < 50 && key === undefined; i++) {
        key = /live key: (svc_live_[A-Za-z0-9]+)/.exec(s.output())?.[1];
        if (key === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(key, s.output());
      const text = (await (await fetch(`http://127.0.0.1:${s.port}/scoring/profanity?text=${encodeURIComponent('have a nice day')}&key=${key}`)).json()) as { status: string };
      assert.equal(text.status, 'success', JSON.stringify(text));
    });
  });
});
