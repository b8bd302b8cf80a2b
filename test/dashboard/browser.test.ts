/**
 * The console in a real browser (Debian's Chromium driven by playwright-core) against the real server on
 * 127.0.0.1: sign in, raise events through the API, find them, label one, create a rule after its backtest,
 * add a list entry, export CSV, keep an analyst to their own account (also by editing URLs), and no console
 * error or horizontal overflow on any page at 1280 and 360 px. One browser for the whole file.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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

before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'shop', plan: 'premium', keys: [SHOP_KEY] }, { id: 'rival', plan: 'premium', keys: [RIVAL_KEY] }] } });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

/** A page in a fresh context; its console errors are collected unless it visits refused pages on purpose (Chromium logs each 404). */
async function newPage(width = 1280, opts: { expect404s?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (opts.expect404s && /status of 404/.test(m.text())) return;
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
    pages.push('/dashboard/accounts', '/dashboard/audit');
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
