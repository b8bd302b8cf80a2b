import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeEmail } from './normalize.ts';
import { parseEmail } from './syntax.ts';

const label = (n: number, c = 'a'): string => c.repeat(n);
/** A domain of exactly `n` characters (labels of 63 joined by dots, ending in `.com`). */
function domainOf(n: number): string {
  const labels: string[] = [];
  let left = n - 4; // ".com"
  while (left > 0) {
    const take = Math.min(63, left);
    labels.push(label(take, 'd'));
    left -= take + 1;
  }
  const d = `${labels.join('.')}.com`;
  return d.length === n ? d : `${labels.join('.').slice(0, n - 4)}.com`;
}

/** [address, parsed domain] — accepted. */
const VALID: Array<[string, string]> = [
  ['jane.doe@example.com', 'example.com'],
  ['a@b.co', 'b.co'],
  ['Jane.Doe@Example.COM', 'example.com'],
  ['first_last-1@sub.example.co.uk', 'sub.example.co.uk'],
  ['user+tag@gmail.com', 'gmail.com'],
  ["o'brien@example.ie", 'example.ie'],
  ['x!#$%&*/=?^`{|}~@example.org', 'example.org'],
  ['user@münchen.de', 'xn--mnchen-3ya.de'],
  ['user@xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
  ['user@例子.广告', 'xn--fsqu00a.xn--4rr70v'],
  ['josé@example.es', 'example.es'],
  ['用户@example.cn', 'example.cn'],
  ['иван@пример.рф', 'xn--e1afmkfd.xn--p1ai'],
  ['123456789@qq.com', 'qq.com'],
  [`${label(64)}@example.com`, 'example.com'],
  [`a@${label(63)}.com`, `${label(63)}.com`],
];

/** [address, why] — refused (119). */
const INVALID: Array<[string, string]> = [
  ['', 'empty'],
  ['   ', 'blank'],
  ['plainaddress', 'no @'],
  ['@example.com', 'empty local part'],
  ['user@', 'empty domain'],
  ['a@@example.com', 'two @'],
  ['a@b@example.com', 'two @'],
  ['"john doe"@example.com', 'quoted local part with a blank'],
  ['"john"@example.com', 'quoted local part'],
  ['john..doe@example.com', 'consecutive dots'],
  ['.john@example.com', 'leading dot'],
  ['john.@example.com', 'trailing dot in local part'],
  ['john doe@example.com', 'blank inside'],
  [' john@example.com', 'leading blank'],
  ['john@example.com ', 'trailing blank'],
  ['john@example.com.', 'trailing dot in domain'],
  ['john@.example.com', 'leading dot in domain'],
  ['john@example..com', 'consecutive dots in domain'],
  ['john@localhost', 'single-label domain'],
  ['john@[192.0.2.1]', 'address literal'],
  ['john@192.0.2.1', 'IP as domain'],
  ['john@-example.com', 'label starting with a hyphen'],
  ['john@example-.com', 'label ending with a hyphen'],
  ['john@exa_mple.com', 'underscore in domain'],
  ['john@example.c0m', 'numeric-ish TLD? letters only'],
  ['jo(hn)@example.com', 'comment characters'],
  ['jo,hn@example.com', 'comma'],
  ['jo;hn@example.com', 'semicolon'],
  ['jo<hn>@example.com', 'angle brackets'],
  ['jo\\hn@example.com', 'backslash'],
  ['jo\u200bhn@example.com', 'zero-width space'],
  ['jo\u202ehn@example.com', 'bidi override'],
  ['jo\u0000hn@example.com', 'NUL'],
  ['jo\nhn@example.com', 'newline'],
  ['jo😀@example.com', 'emoji'],
  [`${label(65)}@example.com`, 'local part of 65 octets'],
  [`${'é'.repeat(33)}@example.com`, 'local part of 66 UTF-8 octets'],
  [`a@${label(64)}.com`, 'label of 64'],
  [`${label(64)}@${domainOf(190)}`, '255 octets in all'],
  [`a@${domainOf(254)}`, 'domain of 254'],
  ['a'.repeat(5000) + '@example.com', 'very long input'],
  ['<script>@example.com', 'markup'],
  ["'; DROP TABLE x; --@example.com", 'SQL'],
];

describe('parseEmail', () => {
  for (const [address, domain] of VALID) {
    it(`accepts ${JSON.stringify(address).slice(0, 60)}`, () => {
      const r = parseEmail(address);
      assert.ok(r.ok, r.ok ? '' : r.problem);
      assert.equal(r.email.domain, domain);
    });
  }
  for (const [address, why] of INVALID) {
    it(`refuses ${why}`, () => {
      const r = parseEmail(address);
      assert.equal(r.ok, false, JSON.stringify(address));
      if (!r.ok) assert.ok(r.problem.length > 10);
    });
  }

  it('accepts exactly 254 octets and refuses 255', () => {
    const ok = `${label(64)}@${domainOf(189)}`;
    assert.equal(ok.length, 254);
    assert.ok(parseEmail(ok).ok);
    const tooLong = `${label(64)}@${domainOf(190)}`;
    assert.equal(tooLong.length, 255);
    assert.equal(parseEmail(tooLong).ok, false);
  });

  it('counts an IDN domain in its punycode length', () => {
    // 60 ü in Unicode are 60 characters but a 67-character A-label: over the 63 limit.
    assert.equal(parseEmail(`a@${'ü'.repeat(60)}.de`).ok, false);
  });

  it('reads a decomposed accent like the composed one (NFC)', () => {
    const a = parseEmail('jose\u0301@example.es');
    const b = parseEmail('josé@example.es');
    assert.ok(a.ok && b.ok);
    assert.equal(a.email.local, b.email.local);
  });
});

/** [address, normalized] */
const NORMALIZED: Array<[string, string]> = [
  ['Jane.Doe@Example.com', 'jane.doe@example.com'],
  ['jane.doe+news@example.com', 'jane.doe@example.com'],
  ['J.a.n.e.Doe+x+y@Gmail.com', 'janedoe@gmail.com'],
  ['jane.doe@googlemail.com', 'janedoe@gmail.com'],
  ['jane.doe@outlook.com', 'jane.doe@outlook.com'],
  ['+only@example.com', '+only@example.com'],
  ['user@münchen.de', 'user@xn--mnchen-3ya.de'],
  ['ÉLODIE@example.fr', 'élodie@example.fr'],
  // Gmail: dots and tag, googlemail.com folded.
  ['j.d.x@gmail.com', 'jdx@gmail.com'],
  ['J.Doe+Shop@GoogleMail.com', 'jdoe@gmail.com'],
  ['jane-doe@gmail.com', 'jane-doe@gmail.com'],
  // Yahoo disposable addresses: basename-keyword, on every Yahoo consumer domain.
  ['jdoe-shopping@yahoo.com', 'jdoe@yahoo.com'],
  ['JDoe-a-b@Yahoo.co.uk', 'jdoe@yahoo.co.uk'],
  ['jdoe-news@yahoo.com.br', 'jdoe@yahoo.com.br'],
  ['jdoe-news@yahoo.fr', 'jdoe@yahoo.fr'],
  ['jdoe-news@ymail.com', 'jdoe@ymail.com'],
  ['jdoe-news@rocketmail.com', 'jdoe@rocketmail.com'],
  ['j.doe@yahoo.com', 'j.doe@yahoo.com'],
  ['-news@yahoo.com', '-news@yahoo.com'],
  ['jdoe-news@yahoo.example.com', 'jdoe-news@yahoo.example.com'],
  ['jdoe-news@notyahoo.com', 'jdoe-news@notyahoo.com'],
  ['jdoe-news@outlook.com', 'jdoe-news@outlook.com'],
  // Outlook.com, iCloud, Proton Mail: the tag only (dots and dashes are part of the name).
  ['j.doe+shop@outlook.com', 'j.doe@outlook.com'],
  ['j.doe+shop@hotmail.co.uk', 'j.doe@hotmail.co.uk'],
  ['j.doe+shop@live.com', 'j.doe@live.com'],
  ['j.doe+shop@msn.com', 'j.doe@msn.com'],
  ['j.doe+shop@icloud.com', 'j.doe@icloud.com'],
  ['j.doe+shop@me.com', 'j.doe@me.com'],
  ['j.doe+shop@mac.com', 'j.doe@mac.com'],
  ['j.doe+shop@proton.me', 'j.doe@proton.me'],
  ['j.doe+shop@protonmail.com', 'j.doe@protonmail.com'],
  ['j.doe+shop@pm.me', 'j.doe@pm.me'],
  // Fastmail: tag, and subdomain addressing (folder@user.fastmail.com).
  ['jdoe+lists@fastmail.com', 'jdoe@fastmail.com'],
  ['shop@jdoe.fastmail.com', 'jdoe@fastmail.com'],
  ['Shop+x@JDoe.FastMail.fm', 'jdoe@fastmail.fm'],
  ['shop@a.jdoe.fastmail.com', 'shop@a.jdoe.fastmail.com'],
  ['shop@jdoe.fastmail.example', 'shop@jdoe.fastmail.example'],
];

describe('normalizeEmail', () => {
  for (const [address, expected] of NORMALIZED) {
    it(`${address} -> ${expected}`, () => {
      const r = parseEmail(address);
      assert.ok(r.ok);
      assert.equal(normalizeEmail(r.email), expected);
    });
  }
});
