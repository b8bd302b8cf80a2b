/**
 * The console in a real browser (Debian's Chromium driven by playwright-core) against the real server on
 * 127.0.0.1: sign in, raise events through the API, find them, label one, create a rule after its backtest,
 * add a list entry, export CSV, keep an analyst to their own account (also by editing URLs), and no console
 * error or horizontal overflow on any page at 1280 and 360 px. One browser for the whole file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { ADMIN_TOKEN, liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';

const SHOP_KEY = liveKey('brshop');
const RIVAL_KEY = liveKey('brrival');

let t: TestApp;
let base: string;
let browser: Browser;
const consoleErrors: string[] = [];
/** DATA_IMPORT_DIR of the server, holding a Tor exit list an operator imports by path; and a file to upload. */
const importDir = mkdtempSync(join(tmpdir(), 'vigil-browser-import-'));
const uploadDir = mkdtempSync(join(tmpdir(), 'vigil-browser-upload-'));

before(async () => {
  writeFileSync(join(importDir, 'tor-exit-nodes.txt'), '198.51.100.31\n198.51.100.32\n');
  writeFileSync(join(uploadDir, 'tor-exit-nodes.txt'), '198.51.100.41\n198.51.100.42\n198.51.100.43\n');
  t = await makeTestApp({
    env: { DATA_IMPORT_DIR: importDir },
    seed: { accounts: [{ id: 'shop', plan: 'premium', keys: [SHOP_KEY] }, { id: 'rival', plan: 'premium', keys: [RIVAL_KEY] }] },
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
  rmSync(importDir, { recursive: true, force: true });
  rmSync(uploadDir, { recursive: true, force: true });
});

/** A page in a fresh context; its console errors are collected unless it visits refused pages on purpose (Chromium logs each 404). */
async function newPage(width = 1280, opts: { expect404s?: boolean; expect400s?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (opts.expect404s && /status of 404/.test(m.text())) return;
    if (opts.expect400s && /status of 400/.test(m.text())) return;
    consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
  return { context, page };
}

async function signIn(page: Page, secret: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel('Admin token or live API key').fill(secret);
  await page.locator('form:has(#secret) button[type=submit]').click();
  await page.waitForURL(/\/dashboard\/a\/[^/]+\/overview$/);
}

/** Raises spam_email events through the public API (disposable addresses score 2 or more). */
async function raiseEvents(key: string, emails: string[]): Promise<void> {
  for (const email of emails) {
    const res = await fetch(`${base}/scoring/email?key=${key}&email=${encodeURIComponent(email)}&userID=browser-user`);
    const body = (await res.json()) as { status: string };
    assert.equal(body.status, 'success');
  }
}

describe('the console in Chromium', () => {
  let operator: { context: BrowserContext; page: Page };
  let shopEventId = 0;

  before(async () => {
    operator = await newPage();
    await raiseEvents(SHOP_KEY, ['first@mailinator.com', 'second@guerrillamail.com']);
    await raiseEvents(RIVAL_KEY, ['rival-only@mailinator.com']);
  });
  after(() => operator.context.close());

  it('signs in as operator and finds the raised events in the filtered list', async () => {
    const { page } = operator;
    await signIn(page, ADMIN_TOKEN);
    await page.goto(`${base}/dashboard/a/shop/events`);
    await page.getByLabel('Kind').selectOption('spam_email');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/kind=spam_email/);
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 2);
    assert.match(await page.locator('tbody').innerText(), /second@guerrillamail\.com|guerrillamail/);
    const href = await rows.first().locator('a').getAttribute('href');
    shopEventId = Number(/events\/(\d+)$/.exec(href ?? '')?.[1]);
    assert.ok(shopEventId > 0);
  });

  it('labels an event Fraud and the label is stored as feedback by event_id', async () => {
    const { page } = operator;
    await page.goto(`${base}/dashboard/a/shop/events/${shopEventId}`);
    await page.getByRole('button', { name: 'Fraud' }).click();
    await page.waitForURL(/ok=labelled/);
    assert.equal(await page.locator('#label .tag').innerText(), 'fraud');
    assert.equal((await t.store.console.eventLabels('shop', [shopEventId])).get(shopEventId), 'fraud');
    await page.goto(`${base}/dashboard/a/shop/events?labelled=yes`);
    assert.equal(await page.locator('tbody tr').count(), 1);
  });

  it('shows what drove a non-payment event as a bar chart of its stored points', async () => {
    const { page } = operator;
    await page.goto(`${base}/dashboard/a/shop/events/${shopEventId}`);
    const event = await t.store.events.getEvent('shop', shopEventId);
    const points = (event!.summary.explanation as { contributions: Array<{ signal: string }> }).contributions;
    const chart = page.locator('svg.chart[role=img]').last();
    assert.match((await chart.locator('title').first().textContent()) ?? '', /Contributions to the score/);
    assert.equal(await chart.locator('rect').count(), points.length);
    for (const c of points) assert.ok((await chart.locator('text').allTextContents()).includes(`engine ${c.signal}`), c.signal);
  });

  it('operators create a plan, edit its quota and put an account on it', async () => {
    const { page } = operator;
    await page.goto(`${base}/dashboard/plans`);
    await page.getByRole('link', { name: 'New plan' }).click();
    await page.getByLabel('Plan id').fill('starter');
    await page.getByLabel('All methods, including those added later').uncheck();
    await page.getByLabel('lookup/ip', { exact: true }).check();
    await page.getByLabel('scoring/email', { exact: true }).check();
    await page.getByLabel('device').uncheck();
    await page.getByLabel('Monthly quota (calls; empty for none)').fill('1000');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page.waitForURL(/plans\?ok=plan-created/);
    assert.match(await page.locator('tr[data-plan="starter"]').innerText(), /lookup\/ip, scoring\/email\s+security\s+1,000/);
    await page.getByRole('link', { name: 'Edit starter' }).click();
    await page.getByLabel('Monthly quota (calls; empty for none)').fill('2000');
    await page.getByRole('button', { name: 'Save plan' }).click();
    await page.waitForURL(/ok=plan-updated/);
    assert.equal((await t.store.accounts.getPlan('starter'))?.monthlyQuota, 2000);
    await page.getByLabel('Account', { exact: true }).last().selectOption('rival');
    await page.locator('#assign-plan').selectOption('starter');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.waitForURL(/ok=plan-assigned/);
    assert.equal((await t.store.accounts.getAccount('rival'))?.planId, 'starter');
    assert.match(await page.locator('tr[data-plan="starter"]').innerText(), /2,000\s+1000 per 1 s\s+1/);
    await page.goto(`${base}/dashboard/audit`);
    assert.match(await page.locator('main').innerText(), /account\.plan\s+rival: premium → starter/);
  });

  it('imports a dataset from a file under DATA_IMPORT_DIR and from an upload, and keeps their history', async () => {
    // A path outside DATA_IMPORT_DIR is refused with the reason (a 400, which Chromium logs: a page of its own).
    const refused = await newPage(1280, { expect400s: true });
    try {
      await signIn(refused.page, ADMIN_TOKEN);
      await refused.page.goto(`${base}/dashboard/a/shop/model`);
      await refused.page.locator('#path-dataset').selectOption('tor-exit-nodes');
      await refused.page.getByLabel(/^File under /).fill(join(uploadDir, 'tor-exit-nodes.txt'));
      await refused.page.getByRole('button', { name: 'Import file' }).click();
      assert.match(await refused.page.locator('main').innerText(), /is outside DATA_IMPORT_DIR/);
    } finally {
      await refused.context.close();
    }
    const { page } = operator;
    await page.goto(`${base}/dashboard/a/shop/model`);
    await page.locator('#path-dataset').selectOption('tor-exit-nodes');
    await page.getByLabel(/^File under /).fill('tor-exit-nodes.txt');
    await page.getByRole('button', { name: 'Import file' }).click();
    await page.waitForURL(/model\/updates\/\d+$/);
    await page.locator('#update-state', { hasText: /done|failed/ }).waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('#update-state').innerText(), 'done');
    assert.match(await page.locator('#update-log').innerText(), /2 records, 0 rejected/);

    await page.goto(`${base}/dashboard/a/shop/model`);
    await page.locator('#upload-dataset').selectOption('tor-exit-nodes');
    await page.locator('#upload-file').setInputFiles(join(uploadDir, 'tor-exit-nodes.txt'));
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await page.waitForURL(/model\/updates\/\d+$/);
    await page.locator('#update-state', { hasText: /done|failed/ }).waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('#update-state').innerText(), 'done');
    assert.match(await page.locator('main').innerText(), /upload tor-exit-nodes\.txt/);
    await page.goto(`${base}/dashboard/a/shop/model`);
    const history = await page.locator('#update-history tbody tr').allInnerTexts();
    assert.equal(history.length, 2);
    assert.match(history[0]!, /tor-exit-nodes\s+upload tor-exit-nodes\.txt\s+operator\s+done/);
    assert.match(history[1]!, /tor-exit-nodes\s+file .*tor-exit-nodes\.txt\s+operator\s+done/);
  });

  it('creates a rule after testing and backtesting it', async () => {
    const { page } = operator;
    await page.goto(`${base}/dashboard/a/shop/rules/new?group=email`);
    await page.getByLabel('Title').fill('Disposable mailinator');
    await page.getByLabel('Field 1').fill('domain.name');
    await page.getByLabel('Value 1').fill('mailinator.com');
    await page.getByLabel('Action').selectOption('overwrite_score');
    await page.getByLabel('Score (overwrite_score)').fill('3');
    await page.getByLabel('Sample result (JSON, the computed answer)').fill('{"domain": {"name": "mailinator.com"}}');
    const day = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Backtest from').fill(day);
    await page.getByLabel('Backtest to').fill(day);
    await page.getByRole('button', { name: 'Test and backtest' }).click();
    await page.locator('#preview-results').waitFor();
    assert.match(await page.locator('#preview-results').innerText(), /Sample: matches/);
    assert.ok(Number(await page.locator('#bt-matched').innerText()) >= 1, 'the backtest found the logged mailinator evaluation');
    assert.equal((await t.policy.rules.list('shop')).length, 0, 'nothing saved by the preview');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.waitForURL(/rules\?ok=rule-saved/);
    assert.match(await page.locator('main table').innerText(), /Disposable mailinator/);
    assert.equal((await t.policy.rules.list('shop'))[0]?.title, 'Disposable mailinator');
  });

  it('adds a list entry', async () => {
    const { page } = operator;
    await page.goto(`${base}/dashboard/a/shop/lists`);
    await page.locator('#add-type').selectOption('email');
    await page.getByLabel('Values, one per line').fill('fraudster@example.com');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.waitForURL(/ok=list-added/);
    assert.equal(await page.locator('td[data-type="email"]').innerText(), '1');
    assert.match(await page.locator('main').innerText(), /fraudster@example\.com/);
  });

  it('exports the filtered events as CSV', async () => {
    const { page } = operator;
    await page.goto(`${base}/dashboard/a/shop/events?kind=spam_email`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export these events as CSV' }).click()]);
    const text = await readFile((await download.path()), 'utf8');
    const lines = text.trim().split('\r\n');
    assert.equal(lines[0], 'event_id,kind,risk,subject,user_id,operation,created_at,summary');
    assert.equal(lines.length, 3);
    assert.ok(lines.some((l) => l.startsWith(`${shopEventId},spam_email,`)));
  });

  it('an analyst of one account never sees another account, even by editing URLs', async () => {
    const analyst = await newPage(1280, { expect404s: true });
    try {
      const { page } = analyst;
      await signIn(page, RIVAL_KEY);
      assert.ok(page.url().endsWith('/dashboard/a/rival/overview'));
      await page.goto(`${base}/dashboard/a/rival/events`);
      const list = await page.locator('main').innerText();
      assert.match(list, /mailinator/);
      assert.doesNotMatch(list, /guerrillamail|first@/);
      for (const path of [`/dashboard/a/shop/events/${shopEventId}`, '/dashboard/a/shop/events', '/dashboard/a/shop/events/export.csv', '/dashboard/a/shop/lists', '/dashboard/accounts']) {
        const res = await page.goto(`${base}${path}`);
        assert.equal(res?.status(), 404, path);
        assert.doesNotMatch(await page.locator('body').innerText(), /guerrillamail|fraudster@example\.com|Disposable mailinator/);
      }
      // The shop's event id on the analyst's own account is the analyst's own event, or none.
      const own = await page.goto(`${base}/dashboard/a/rival/events/${shopEventId}`);
      if (own?.status() === 200) assert.doesNotMatch(await page.locator('main').innerText(), /guerrillamail|first@/);
      assert.equal(own?.status() === 200 || own?.status() === 404, true);
      assert.doesNotMatch(await page.locator('nav').innerText(), /Accounts, plans, keys/);
    } finally {
      await analyst.context.close();
    }
  });

  it('every page loads without console errors and fits 1280 and 360 px without sideways scrolling', async () => {
    const pages = ['overview', 'events', `events/${shopEventId}`, 'payments', 'rules', 'rules/new?group=payment', 'lists', 'webhooks', 'model', 'audit'].map((p) => `/dashboard/a/shop/${p}`);
    const [job] = await t.store.console.listUpdateJobs({ limit: 1 });
    if (job) pages.push(`/dashboard/a/shop/model/updates/${job.id}`);
    pages.push('/dashboard/accounts', '/dashboard/audit', '/dashboard/plans', '/dashboard/plans/new', '/dashboard/plans/premium/edit');
    for (const width of [1280, 360]) {
      await operator.page.setViewportSize({ width, height: 800 });
      for (const path of pages) {
        const res = await operator.page.goto(`${base}${path}`);
        assert.equal(res?.status(), 200, path);
        // A string: the test project has no DOM types; this runs in the page.
        const overflow = Number(await operator.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
        assert.ok(overflow <= 1, `${path} at ${width} px scrolls sideways by ${overflow} px`);
      }
    }
    const signInPage = await newPage(360);
    await signInPage.page.goto(`${base}/dashboard/sign-in`);
    await signInPage.context.close();
    assert.deepEqual(consoleErrors, []);
  });

  it('signs out', async () => {
    const { page } = operator;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/dashboard/a/shop/overview`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await page.goto(`${base}/dashboard/a/shop/events`);
    assert.match(page.url(), /\/dashboard\/sign-in\?next=/);
  });
});
