/**
 * Screenshots of every console page at 1280 and 360 px into docs/screenshots/ (`npm run screenshots`).
 * Starts a real server on 127.0.0.1 with a throwaway SQLite store, fills it through the public API (events,
 * payments, labels) and the services (a rule, list entries, a webhook), signs in as operator in Debian's
 * headless Chromium and saves one PNG per page and width.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { parseSeed } from '../src/accounts/seed.ts';
import { loadConfig } from '../src/config.ts';
import { loadEngineData } from '../src/data/engine-data.ts';
import { openCounters, openStore } from '../src/store/index.ts';
import { launchChromium } from '../test/helpers/browser.ts';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const ADMIN = 'screenshot-admin-token-0123456789';
const KEY = 'svc_live_demo000000000000000000001';
const dir = mkdtempSync(join(tmpdir(), 'vigil-shots-'));
// DATA_IMPORT_DIR with a small Tor exit list, imported from the model page before the screenshots.
const importDir = join(dir, 'import');
mkdirSync(importDir);
writeFileSync(join(importDir, 'tor-exit-nodes.txt'), '185.220.101.1\n185.220.101.2\n185.220.101.3\n');
const config = loadConfig({ DATA_IMPORT_DIR: importDir, DATA_DIR: dir, ADMIN_TOKEN: ADMIN, SECRET_KEY: 'screenshot-secret-0123456789abcdef012345', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8', NETWORK: 'off' });
const store = await openStore({ dataDir: dir });
const counters = await openCounters({});
const built = await buildApp({ config, store, counters, data: loadEngineData(), secret: config.secretKey!, cardSecret: 'card-secret-for-this-run-0123456789abcdef', logger: pino({ level: 'silent' }), processMetrics: false });
await built.accounts.ensureBuiltinPlans();
await built.applySeed(parseSeed(JSON.stringify({
  accounts: [
    {
      id: 'demo', plan: 'premium', keys: [KEY],
      blacklists: [{ type: 'ip', values: ['203.0.113.7', '198.51.100.0/24'] }, { type: 'email_domain', values: ['mailinator.com'] }],
      customRules: [{ title: 'Very large first purchase', group: 'payment', enabled: true, conditions: { all: [{ field: 'input.transaction_amount', op: 'gte', value: 2000 }] }, action: { type: 'overwrite_score', score: 85 } }],
      webhooks: [{ url: 'http://127.0.0.1:9/hook', secret: 'whsec_screenshots_0001' }],
    },
    { id: 'acme', plan: 'standard', keys: [] },
  ],
})));
const base = await built.app.listen({ host: '127.0.0.1', port: 0 });

const api = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<void> => {
  await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}key=${KEY}`, { method, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
};
for (const [i, email] of ['j.smith@mailinator.com', 'xkcd123@guerrillamail.com', 'buyer@10minutemail.com', 'asdfgh@yopmail.com'].entries()) {
  await api('GET', `/scoring/email?email=${encodeURIComponent(email)}&userID=user-${i}`);
}
await api('GET', '/lookup/bin?bin=41111112');
await api('GET', '/lookup/iban?iban=DE89370400440532013001');
for (let i = 0; i < 12; i++) {
  await api('POST', '/scoring/payment', {
    data: {
      transaction_id: `order-${1000 + i}`, customer_id: `cust-${i % 5}`, customer_email: i % 3 === 0 ? 'x@mailinator.com' : `shopper${i}@example.com`,
      customer_ip: i % 4 === 0 ? '185.220.101.1' : '81.2.69.160', card_number: i % 2 ? '4111111111111111' : '5555555555554444', transaction_amount: i % 5 === 0 ? 2500 : 40 + i * 7,
      transaction_currency: 'EUR', billing_country: 'GB', customer_country: i % 4 === 0 ? 'NG' : 'GB',
    },
  });
}
await api('POST', '/feedback/payment', { transaction_id: 'order-1000', outcome: 'chargeback' });
await api('POST', '/feedback/payment', { transaction_id: 'order-1001', outcome: 'approved' });
const [first] = await store.events.listEvents('demo', { limit: 1, kind: 'spam_email' });
if (first) await api('POST', '/feedback/event', { event_id: first.eventId, label: 'fraud' });
await built.recorder.flush();

const pages: Array<[string, string]> = [
  ['overview', '/dashboard/a/demo/overview'], ['events', '/dashboard/a/demo/events'], ['payments', '/dashboard/a/demo/payments'],
  ['rules', '/dashboard/a/demo/rules'], ['rule-new', '/dashboard/a/demo/rules/new?group=email'], ['lists', '/dashboard/a/demo/lists'],
  ['webhooks', '/dashboard/a/demo/webhooks'], ['model', '/dashboard/a/demo/model'], ['audit', '/dashboard/a/demo/audit'], ['accounts', '/dashboard/accounts'],
  ['plans', '/dashboard/plans'], ['plan-edit', '/dashboard/plans/standard/edit'],
];
const payment = (await store.events.listEvents('demo', { kind: 'fraud_payment', limit: 1 }))[0];
if (payment) pages.splice(2, 0, ['event', `/dashboard/a/demo/events/${payment.eventId}`]);
const email = (await store.events.listEvents('demo', { kind: 'spam_email', limit: 1 }))[0];
if (email) pages.splice(3, 0, ['event-email', `/dashboard/a/demo/events/${email.eventId}`]);

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  // One dataset update, run through the page as an operator would: its progress page is shot too.
  {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/sign-in`);
    await page.fill('#secret', ADMIN);
    await page.click('form:has(#secret) button[type=submit]');
    await page.waitForURL(/overview/);
    await page.goto(`${base}/dashboard/a/demo/model`);
    await page.selectOption('#path-dataset', 'tor-exit-nodes');
    await page.fill('#path-file', 'tor-exit-nodes.txt');
    await page.click('form:has(#path-file) button[type=submit]');
    await page.waitForURL(/model\/updates\/\d+$/);
    await page.locator('#update-state', { hasText: /done|failed/ }).waitFor({ timeout: 30_000 });
    pages.push(['update', new URL(page.url()).pathname]);
    await context.close();
  }
  for (const width of [1280, 360]) {
    const context = await browser.newContext({ viewport: { width, height: width === 360 ? 780 : 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/sign-in`);
    await page.screenshot({ path: join(OUT, `sign-in-${width}.png`) });
    await page.fill('#secret', ADMIN);
    await page.click('form:has(#secret) button[type=submit]');
    await page.waitForURL(/overview/);
    for (const [name, path] of pages) {
      await page.goto(`${base}${path}`);
      await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
    }
    await context.close();
  }
} finally {
  await browser.close();
  await built.app.close();
  await store.close();
  await counters.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`screenshots of ${pages.length + 1} pages at 1280 and 360 px in ${OUT}`);
