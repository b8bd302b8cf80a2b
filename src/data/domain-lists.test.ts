import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DISPOSABLE_SUPPLEMENT, DISPOSABLE_SUPPLEMENT_VERSION } from './disposable-supplement.ts';
import { bundledDisposableStatus, loadDomainLists } from './domain-lists.ts';
import { importDirectory } from './import/index.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-lists-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function importList(dataDir: string, text: string, name = 'dangerous-domains'): void {
  const src = temp();
  mkdirSync(join(src, name));
  writeFileSync(join(src, name, 'list.txt'), text);
  importDirectory(dataDir, src);
}

describe('loadDomainLists', () => {
  const lists = loadDomainLists({ dataDir: null });
  after(() => lists.close());

  const table: [string, boolean, boolean][] = [
    // domain, disposable, forwarding
    ['mailinator.com', true, false],
    ['inbox.mailinator.com', true, false],
    ['MAILINATOR.COM.', true, false],
    ['gmail.com', false, false],
    ['example.com', false, false],
    ['duck.com', false, true],
    ['simplelogin.com', false, true],
    ['alias.anonaddy.com', false, true],
    ['mozmail.com', false, true],
    ['privaterelay.appleid.com', false, true],
    // The union of the bundled sources: mailchecker only, disposable-email-domains only, its
    // wildcard list only (a subdomain counts), and Vigil's supplement only.
    ['0-attorney.com', true, false],
    ['0-180.com', true, false],
    ['x.solidplai.us', true, false],
    ['minuteinbox.com', true, false],
    ['mail.gw', true, false],
    ['tmailor.com', true, false],
  ];
  for (const [domain, disposable, forwarding] of table) {
    it(`${domain}: disposable ${disposable}, forwarding ${forwarding}`, () => {
      assert.deepEqual(lists.lists(domain), { is_dangerous: false, is_disposable: disposable, is_forwarding: forwarding });
    });
  }

  it('lists its datasets with versions; dangerous is not imported yet', () => {
    const names = lists.datasets.map((d) => d.name);
    assert.deepEqual(names, ['disposable-email-domains', 'mailchecker', 'disposable-supplement', 'forwarding-domains', 'disposable-domains', 'dangerous-domains']);
    assert.equal(lists.datasets.find((d) => d.name === 'disposable-supplement')?.version, DISPOSABLE_SUPPLEMENT_VERSION);
    assert.equal(lists.datasets.find((d) => d.name === 'dangerous-domains')?.version, 'none');
    assert.ok(lists.sizes.disposable > 100_000);
  });
});

describe('bundled disposable sources', () => {
  it('each reports its version and size; the supplement is sourced and holds only domains both packages miss', () => {
    const status = bundledDisposableStatus();
    assert.deepEqual(status.map((s) => s.name), ['disposable-email-domains', 'disposable-email-domains-wildcard', 'mailchecker', 'disposable-supplement']);
    for (const s of status) {
      assert.match(s.version, /^\d/, s.name);
      assert.ok(s.count > 0, s.name);
    }
    assert.equal(status.find((s) => s.name === 'disposable-supplement')?.count, DISPOSABLE_SUPPLEMENT.length);
    const shipped = new Set<string>(bundledEntries());
    for (const { domain, source } of DISPOSABLE_SUPPLEMENT) {
      assert.match(source, /^https:\/\//, domain);
      assert.equal(shipped.has(domain), false, `${domain} is in a package now: drop it from the supplement`);
    }
  });
});

/** Every entry of the two npm packages (not the supplement). */
function bundledEntries(): string[] {
  const require = createRequire(import.meta.url);
  const mailchecker = require('mailchecker') as { blacklist(): Set<string> };
  return [...(require('disposable-email-domains') as string[]), ...(require('disposable-email-domains/wildcard.json') as string[]), ...mailchecker.blacklist()];
}

describe('dangerous domains: imported, picked up at run time', () => {
  it('loads the current import, and a newer import replaces it without restart', async () => {
    const dataDir = temp();
    importList(dataDir, 'phish.example.com\n');
    const lists = loadDomainLists({ dataDir, reloadMs: 50 });
    after(() => lists.close());
    assert.equal(lists.lists('phish.example.com').is_dangerous, true);
    assert.equal(lists.lists('login.phish.example.com').is_dangerous, true, 'a subdomain of a listed domain');
    assert.equal(lists.lists('example.com').is_dangerous, false, 'not the parent');
    const v1 = lists.datasets.find((d) => d.name === 'dangerous-domains')?.version;

    importList(dataDir, 'malware.example.org\n');
    const deadline = Date.now() + 3000;
    while (lists.lists('malware.example.org').is_dangerous !== true && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.equal(lists.lists('malware.example.org').is_dangerous, true);
    assert.equal(lists.lists('phish.example.com').is_dangerous, false);
    assert.notEqual(lists.datasets.find((d) => d.name === 'dangerous-domains')?.version, v1);
  });

  it('a corrupt new version keeps the loaded set and reports the error', () => {
    const dataDir = temp();
    importList(dataDir, 'phish.example.com\n');
    const errors: unknown[] = [];
    const lists = loadDomainLists({ dataDir, reloadMs: 0, onReloadError: (e) => errors.push(e) });
    writeFileSync(join(dataDir, 'datasets', 'dangerous-domains', 'manifest.json'), '{"broken": ');
    assert.equal(lists.refresh(), false);
    assert.equal(errors.length, 1);
    assert.equal(lists.lists('phish.example.com').is_dangerous, true);
  });
});

describe('disposable domains: imported updates add to the npm-shipped lists', () => {
  it('a new throwaway provider is disposable once imported, subdomains too, without restart; forwarding still wins', async () => {
    const dataDir = temp();
    const lists = loadDomainLists({ dataDir, reloadMs: 50 });
    after(() => lists.close());
    assert.equal(lists.lists('brand-new-throwaway.example').is_disposable, false);
    importList(dataDir, '# weekly update\nbrand-new-throwaway.example\nduck.com\n', 'disposable-domains');
    const deadline = Date.now() + 3000;
    while (!lists.lists('brand-new-throwaway.example').is_disposable && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.equal(lists.lists('brand-new-throwaway.example').is_disposable, true);
    assert.equal(lists.lists('x.brand-new-throwaway.example').is_disposable, true);
    assert.equal(lists.lists('mailinator.com').is_disposable, true, 'the shipped lists still count');
    assert.deepEqual(lists.lists('duck.com'), { is_dangerous: false, is_disposable: false, is_forwarding: true });
    assert.notEqual(lists.datasets.find((d) => d.name === 'disposable-domains')?.version, 'none');
  });
});
