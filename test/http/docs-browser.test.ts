/**
 * /docs as a newcomer uses it, in a real browser (Debian's Chromium driven by playwright-core) against the
 * real server on 127.0.0.1: the page lists the API, "Authorize" takes a live key, and "Try it out" on
 * POST /scoring/payment sends the documented example body and shows a scored answer. Also the admin
 * document in the same page, and no console error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('docs');

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'docs', plan: 'premium', keys: [KEY] }] } });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
});
after(async () => {
  await browser?.close();
  await t?.close();
});

describe('/docs in Chromium', () => {
  it('lists the operations by tag, and the operator API as a second document', async () => {
    await page.goto(`${base}/docs/`);
    await page.locator('.opblock-summary-path', { hasText: '/scoring/payment' }).first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    for (const p of ['/lookup/ip', '/lookup/country', '/scoring/payment', '/feedback/payment', '/account/users/delete']) assert.ok(paths.some((x) => x.replace(/\u200b/g, '') === p), `${p} in ${paths.join(' ')}`);
    const documents = await page.locator('select#select option').allTextContents();
    assert.deepEqual(documents, ['Vigil API', 'Admin API (ADMIN_TOKEN)']);
  });

  it('Authorize with a live key, then "Try it out" on POST /scoring/payment: the example body is scored', async () => {
    await page.locator('button.authorize').first().click();
    const dialog = page.locator('.dialog-ux');
    // The first scheme is the `key` query parameter.
    await dialog.locator('input').first().fill(KEY);
    await dialog.locator('button.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();

    const op = page.locator('.opblock-post', { has: page.locator('.opblock-summary-path', { hasText: '/scoring/payment' }) });
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    const body = await op.locator('textarea.body-param__text').inputValue();
    assert.match(body, /"transaction_id": "ord-1001"/, 'the documented example is the body');
    await op.locator('button.execute').click();
    const answer = op.locator('.live-responses-table .response-col_description pre').first();
    await answer.waitFor();
    const text = (await answer.textContent()) ?? '';
    const parsed = JSON.parse(text) as { status: string; data?: { score?: number; rulesChecked?: number } };
    assert.equal(parsed.status, 'success', text);
    assert.equal(typeof parsed.data?.score, 'number');
    assert.equal(await op.locator('.live-responses-table tbody .response-col_status').first().textContent(), '200');
    // The request went out with the key as the query parameter, to this server.
    const url = (await op.locator('.request-url pre').textContent()) ?? '';
    assert.ok(url.startsWith(`${base}/scoring/payment?key=`), url);
  });

  it('no console error on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
