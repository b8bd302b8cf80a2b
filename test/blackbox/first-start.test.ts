/**
 * The first start, as a newcomer meets it: `npm start` (the compiled build, as the README says) with the port
 * busy on the first try (the store and the first keys are created before the server listens), then a start on
 * a free port. The real server process throughout.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../helpers/build.ts';
import { freePort } from '../helpers/free-port.ts';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

/** Runs `npm start` to its end (it is expected to fail); resolves with its exit code and output. */
function serveUntilExit(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  ensureBuilt();
  return new Promise((resolve) => {
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      // The card key startServer gives the later starts (no card key file left beside the temp DATA_DIR).
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', CARD_KEY: 'blackbox-card-key-0123456789abcdef01234567', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The server prints its notice right after listening; the pipe may deliver it just after /healthz answers. */
async function printed(s: Running, re: RegExp): Promise<string> {
  for (let i = 0; i < 50 && !re.test(s.output()); i++) await new Promise((r) => setTimeout(r, 100));
  return s.output();
}

describe('black box: a first start that fails after creating the store does not lose the first keys', () => {
  let dir: string;
  let busy: Server;
  let busyPort: number;
  let s: Running | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-first-'));
    busyPort = await freePort();
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(busyPort, '127.0.0.1', resolve));
  });
  after(async () => {
    await stop(s);
    busy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('port busy: exits 1 naming PORT and the fix, with the account already stored and no key printed', async () => {
    const r = await serveUntilExit({ DATA_DIR: dir, PORT: String(busyPort) });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, new RegExp(`vigil: PORT: ${busyPort} is already in use on 127\\.0\\.0\\.1\\. Stop the program that holds it .* or set PORT to a free port`));
    assert.doesNotMatch(r.out, /live key:/);
    // The store was created before listening failed: the keys exist, only in the file.
    assert.ok(existsSync(join(dir, 'vigil.db')));
    assert.ok(existsSync(join(dir, 'bootstrap-keys.json')));
  });

  it('the next start on a free port prints the keys and they work', async () => {
    s = await startServer({ DATA_DIR: dir }, true);
    const key = /live key: (svc_live_[A-Za-z0-9]+)/.exec(await printed(s, /live key:/))?.[1];
    assert.ok(key, s.output());
    const saved = JSON.parse(readFileSync(join(dir, 'bootstrap-keys.json'), 'utf8')) as { liveKey: string; shownAt?: string };
    assert.equal(saved.liveKey, key);
    assert.ok(saved.shownAt, 'the file records that the keys were shown');
    const body = (await (await fetch(`http://127.0.0.1:${s.port}/lookup/country?CountryCode=DE&key=${key}`)).json()) as { status: string };
    assert.equal(body.status, 'success');
  });

  it('later starts name the file (not the keys) while it exists, and nothing once it is deleted', async () => {
    await stop(s);
    s = await startServer({ DATA_DIR: dir }, true);
    const file = join(dir, 'bootstrap-keys.json');
    await printed(s, /are in /);
    assert.doesNotMatch(s.output(), /live key:|svc_live_/);
    assert.ok(s.output().includes(`the keys of account "default" are in ${file}`), s.output());
    await stop(s);
    rmSync(file);
    s = await startServer({ DATA_DIR: dir }, true);
    assert.doesNotMatch(s.output(), /bootstrap-keys\.json|svc_live_/);
  });
});
