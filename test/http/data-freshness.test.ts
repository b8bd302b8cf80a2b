/**
 * Data age and freshness in a running server: /readyz details, vigil_dataset_age_seconds, the
 * start-up warning on old GeoLite2, the log line when new data is picked up (real server process),
 * and the DATA_UPDATE_INTERVAL schedule with its DATA_DIR lock. Real SQLite store, real files,
 * downloads from a local HTTP server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { makeTestApp, type TestApp } from '../helpers/harness.ts';
import { startServer, stop, type Running } from '../helpers/server-process.ts';
import { SHARED_DATA } from '../helpers/shared-data.ts';
import { IMPORTERS } from '../../src/data/import/index.ts';
import { readManifest } from '../../src/data/import/dataset-store.ts';
import { DEFAULT_SOURCES } from '../../src/data/import/update.ts';
import { bundledGeoLite2, GEOLITE2_MAX_AGE_DAYS } from '../../src/data/data-age.ts';
import { startDataUpdates, STALE_LOCK_MS, takeUpdateLock, releaseUpdateLock } from '../../src/ops/data-update-schedule.ts';
import { updateInChildProcess } from '../../src/ops/data-update-process.ts';
import { ROOT } from '../helpers/cli-runner.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-fresh-'));
  dirs.push(d);
  return d;
};

let t: TestApp;
let files: Server;
let base = '';
before(async () => {
  t = await makeTestApp();
  files = createServer((req, res) => {
    const [, dataset, file] = (req.url ?? '').split('/');
    let body: Buffer | null = null;
    try {
      body = dataset && file ? readFileSync(join(SHARED_DATA, dataset, file)) : null;
    } catch {
      body = null;
    }
    if (body === null) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
after(async () => {
  await t.close();
  await new Promise<void>((r) => files.close(() => r()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const DAY = 86_400;
type Details = Record<string, { origin: string; version: string; date: string; ageDays: number; builtAt: string | null; records: number | null }>;

describe('data age in /readyz and /metrics', () => {
  it('gives every dataset in use its date and age; imported ones replace the bundled figures', async () => {
    const bundled = bundledGeoLite2().find((b) => b.dataset === 'geolite2-city');
    assert.ok(bundled);
    let details = (JSON.parse((await t.app.inject({ url: '/readyz' })).body) as { details: { datasets: Details } }).details.datasets;
    assert.equal(details['geolite2-city']?.origin, 'bundled');
    assert.equal(details['geolite2-city']?.date, bundled.builtAt);
    assert.equal(details['tor-exit-nodes'], undefined, 'never imported, nothing bundled: not listed');

    IMPORTERS['tor-exit-nodes']!(t.dir, SHARED_DATA);
    const res = await t.app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 200, 'data age never fails readiness');
    details = (JSON.parse(res.body) as { details: { datasets: Details } }).details.datasets;
    assert.equal(details['tor-exit-nodes']?.origin, 'imported');
    assert.equal(details['tor-exit-nodes']?.ageDays, 0);
    assert.equal(details['tor-exit-nodes']?.records, readManifest(t.dir, 'tor-exit-nodes')?.count);

    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    const value = (dataset: string): number => Number(new RegExp(`^vigil_dataset_age_seconds\\{dataset="${dataset}"\\} (\\S+)$`, 'm').exec(metrics)?.[1]);
    const cityAge = (Date.now() - Date.parse(bundled.builtAt)) / 1000;
    assert.ok(Math.abs(value('geolite2-city') - cityAge) < 60, `${value('geolite2-city')} vs ${cityAge}`);
    assert.ok(value('tor-exit-nodes') >= 0 && value('tor-exit-nodes') < 60, String(value('tor-exit-nodes')));
    assert.match(metrics, /# TYPE vigil_dataset_age_seconds gauge/);
  });

  it('a corrupt manifest is a detail of /readyz, not a failed /readyz or /metrics', async () => {
    const r = await makeTestApp();
    try {
      IMPORTERS['datacenter-ipcat']!(r.dir, SHARED_DATA);
      writeFileSync(join(r.dir, 'datasets', 'datacenter-ipcat', 'manifest.json'), '{"name": 1}');
      const ready = await r.app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.match((JSON.parse(ready.body) as { details: { datasets: { error: string } } }).details.datasets.error, /not a dataset manifest/);
      const metrics = await r.app.inject({ url: '/metrics' });
      assert.equal(metrics.statusCode, 200);
      assert.match(metrics.body, /vigil_requests_total|vigil_records_dropped_total/);
    } finally {
      await r.close();
    }
  });
});

describe('a running server', () => {
  let server: Running | undefined;
  after(() => stop(server));

  it('warns at start when GeoLite2 is over 35 days old and logs the data it picks up', async () => {
    const DATA_DIR = temp();
    // The schedule is on (its sources all on the local server, so a run that starts during the test stays here).
    server = await startServer({ DATA_DIR, SECRET_KEY: 'x'.repeat(40), DATA_UPDATE_INTERVAL: '10m', DATA_SOURCES_FILE: sources() });
    const scheduled = server.output().split('\n').find((l) => l.includes('data updates scheduled (DATA_UPDATE_INTERVAL)'));
    assert.ok(scheduled, server.output());
    const plan = JSON.parse(scheduled) as { intervalMs: number; firstInMs: number; job: string };
    assert.equal(plan.intervalMs, 600_000);
    assert.equal(plan.job, 'data-update');
    assert.ok(plan.firstInMs >= 0 && plan.firstInMs <= 60_000, 'never run before: after the jitter only (a tenth of the interval at most)');
    const ageDays = Math.floor((Date.now() - Date.parse(bundledGeoLite2()[0]?.builtAt ?? '')) / (DAY * 1000));
    if (ageDays > GEOLITE2_MAX_AGE_DAYS) assert.match(server.output(), /geolite2-city is \d+ days old \(over 35\); the GeoLite2 licence asks for current data/);
    // An import by another process: the server's reload (every 5 s) picks it up and says so.
    const report = IMPORTERS['datacenter-ipcat']!(DATA_DIR, SHARED_DATA);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !server.output().includes('picked up new data: datacenter-ipcat')) await new Promise((r) => setTimeout(r, 200));
    const line = server.output().split('\n').find((l) => l.includes('picked up new data: datacenter-ipcat'));
    assert.ok(line, server.output());
    const entry = JSON.parse(line) as { dataset: string; version: string; records: number; level: number };
    assert.equal(entry.dataset, 'datacenter-ipcat');
    // The schedule's first run (after a jitter of up to 60 s) may import the same file again before the reload: the
    // server then picks up that later version of the same data (a CI run of 2026-11-28 did).
    if (entry.version !== report.manifest.version) {
      assert.ok(entry.version > report.manifest.version, `${entry.version} after ${report.manifest.version}`);
      assert.match(server.output(), /data update started/);
    }
    assert.equal(entry.records, report.manifest.count);
    assert.equal(entry.level, 30);
  });
});

/** Pino lines written by the schedule, parsed. */
function captureLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** Every default-source dataset pointed at the local server: datacenter-ipcat there, the others missing. */
function sources(): string {
  const all = Object.fromEntries(Object.keys(DEFAULT_SOURCES).map((name) => [
    name,
    name === 'datacenter-ipcat' ? [{ url: `${base}/datacenter-ipcat/datacenters.csv`, file: 'datacenters.csv' }] : [{ url: `${base}/none/${name}.txt`, file: 'list.txt' }],
  ]));
  const path = join(temp(), 'sources.json');
  writeFileSync(path, JSON.stringify(all));
  return path;
}

describe('DATA_UPDATE_INTERVAL schedule', () => {
  it('runs the update after the jitter, logs progress and a summary, and remembers when it ran', async () => {
    const dataDir = temp();
    const { logger, lines } = captureLogger();
    const schedule = startDataUpdates({ dataDir, intervalMs: 3_600_000, logger, update: { sourcesFile: sources() }, random: () => 0 });
    try {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !lines.some((l) => l.msg === 'data update finished')) await new Promise((r) => setTimeout(r, 100));
      const summary = lines.find((l) => l.msg === 'data update finished');
      assert.ok(summary, JSON.stringify(lines));
      assert.equal(summary.updated, 1);
      assert.equal(summary.failed, Object.keys(DEFAULT_SOURCES).length - 1);
      assert.ok(readManifest(dataDir, 'datacenter-ipcat') !== null);
      assert.ok(lines.some((l) => l.msg === 'dataset update failed; the current version stays in use' && l.dataset === 'tor-exit-nodes' && l.level === 40));
      assert.ok(lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('dataset 1 of ') && l.job === 'data-update'));
      assert.ok(existsSync(join(dataDir, 'datasets', '.last-update')));
      assert.equal(existsSync(join(dataDir, 'datasets', '.update.lock')), false, 'the lock is released');
    } finally {
      schedule.stop();
    }
    // A restart within the interval waits for the rest of it instead of updating again at once.
    const second = captureLogger();
    const again = startDataUpdates({ dataDir, intervalMs: 3_600_000, logger: second.logger, update: { sourcesFile: sources() }, random: () => 0 });
    again.stop();
    const planned = second.lines.find((l) => l.msg === 'data updates scheduled (DATA_UPDATE_INTERVAL)');
    assert.ok(typeof planned?.firstInMs === 'number' && planned.firstInMs > 3_500_000, JSON.stringify(planned));
  });

  it('one update per DATA_DIR at a time: a second process skips while the lock is held; a stale lock is taken over', async () => {
    const dataDir = temp();
    const now = new Date();
    assert.equal(takeUpdateLock(dataDir, now), true);
    assert.equal(takeUpdateLock(dataDir, now), false);
    const { logger, lines } = captureLogger();
    const schedule = startDataUpdates({ dataDir, intervalMs: 0, logger, update: { sourcesFile: sources() } });
    assert.equal(await schedule.runNow(), null);
    assert.ok(lines.some((l) => l.msg === 'data update skipped: another process is updating this DATA_DIR'));
    assert.equal(readManifest(dataDir, 'datacenter-ipcat'), null);
    // A lock left by a process killed mid-update (older than STALE_LOCK_MS) does not block for ever.
    const old = new Date(Date.now() - STALE_LOCK_MS - 60_000);
    utimesSync(join(dataDir, 'datasets', '.update.lock'), old, old);
    const outcomes = await schedule.runNow();
    assert.equal(outcomes?.find((o) => o.name === 'datacenter-ipcat')?.status, 'updated');
    releaseUpdateLock(dataDir);
    schedule.stop();
  });

  it('in the server the update runs as a child `vigil data update --all` (event loop and heap untouched), its progress in the log', async () => {
    const dataDir = temp();
    const { logger, lines } = captureLogger();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), DATA_DIR: dataDir, DATA_SOURCES_FILE: sources(), LOG_LEVEL: 'silent' };
    const schedule = startDataUpdates({
      dataDir, intervalMs: 0, logger, update: {},
      run: (progress) => updateInChildProcess({ execArgv: ['--import', 'tsx'], entry: 'src/cli/main.ts', cwd: ROOT, env, progress }),
    });
    const outcomes = await schedule.runNow();
    schedule.stop();
    assert.equal(outcomes?.find((o) => o.name === 'datacenter-ipcat')?.status, 'updated');
    assert.equal(outcomes?.filter((o) => o.status === 'failed').length, Object.keys(DEFAULT_SOURCES).length - 1);
    assert.ok(readManifest(dataDir, 'datacenter-ipcat') !== null);
    assert.ok(lines.some((l) => l.msg === `dataset 1 of ${Object.keys(DEFAULT_SOURCES).length}: tor-exit-nodes`), JSON.stringify(lines.map((l) => l.msg)));
    assert.ok(lines.some((l) => l.msg === 'data update finished' && l.updated === 1));
    // A child that prints no summary (a bad configuration) is an error naming what it said.
    await assert.rejects(
      updateInChildProcess({ execArgv: ['--import', 'tsx'], entry: 'src/cli/main.ts', cwd: ROOT, env: { ...env, DATA_UPDATE_INTERVAL: 'soon' }, progress: () => undefined }),
      /exited 1 without a summary: .*DATA_UPDATE_INTERVAL/,
    );
  });

  it('off (0) schedules nothing', () => {
    const { logger, lines } = captureLogger();
    startDataUpdates({ dataDir: temp(), intervalMs: 0, logger, update: {} }).stop();
    assert.equal(lines.length, 0);
  });
});
