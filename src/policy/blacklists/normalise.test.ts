import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import { BLACKLIST_TYPES, type BlacklistType, type ListProbe } from '../types.ts';
import { toAsciiDomain } from './domain.ts';
import { normaliseEntry, probeKeys } from './normalise.ts';

/** [raw, canonical] for valid entries, [raw, null] for refused ones. */
const ENTRIES: Record<BlacklistType, Array<[string, string | null]>> = {
  ip: [
    ['1.2.3.4', '1.2.3.4'],
    [' 1.2.3.4 ', '1.2.3.4'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['1.2.3.4/32', '1.2.3.4'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8:0000::0001', '2001:db8::1'],
    ['2001:db8::1/128', '2001:db8::1'],
    ['2001:db8:1234::/32', '2001:db8::/32'],
    ['::/0', '::/0'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::ffff:0102:0304', '1.2.3.4'],
    ['::ffff:10.9.8.7/104', '10.0.0.0/8'],
    ['10.0.0.0/33', null],
    ['2001:db8::/129', null],
    ['fe80::1%eth0', null],
    ['fe80::1%eth0/64', null],
    ['1.2.3', null],
    ['01.2.3.4', null],
    ['1.2.3.4 /8', null],
    ['example.com', null],
  ],
  email: [
    ['John.Doe@Example.COM', 'john.doe@example.com'],
    ['  a+tag@example.com\t', 'a+tag@example.com'],
    ['user@Bücher.de', 'user@xn--bcher-kva.de'],
    ['ÜSER@example.com', 'üser@example.com'],
    ['user@example.com.', 'user@example.com'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['user@sub.example.co.uk', 'user@sub.example.co.uk'],
    ['@example.com', null],
    ['user@', null],
    ['userexample.com', null],
    ['a@b@example.com', null],
    ['user@localhost', null],
    ['user@1.2.3.4', null],
    ['user@[1.2.3.4]', null],
    ['us er@example.com', null],
    ['user@exa mple.com', null],
    ['user@-example.com', null],
    ['user@example..com', null],
    ['user@under_score.com', null],
    [`${'a'.repeat(250)}@example.com`, null],
  ],
  email_domain: [
    ['Example.COM', 'example.com'],
    ['@example.com', 'example.com'],
    ['example.com.', 'example.com'],
    ['  mail.example.com ', 'mail.example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['a-b.example', 'a-b.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    ['1a.example.1a', '1a.example.1a'],
    ['example.123', null],
    ['example', null],
    ['.com', null],
    ['example..com', null],
    ['-example.com', null],
    ['example-.com', null],
    ['exa_mple.com', null],
    [`${'a'.repeat(64)}.com`, null],
    ['1.2.3.4', null],
    ['user@example.com', null],
    ['http://example.com', null],
  ],
  phone: [
    ['+44 20 7946 0958', '442079460958'],
    ['0044 20 7946 0958', '442079460958'],
    ['+44 (0)20 7946 0958', '442079460958'],
    ['+1 (202) 555-0101', '12025550101'],
    ['1 (202) 555-0101', '12025550101'],
    ['+49.30.1234567', '49301234567'],
    ['442079460958', '442079460958'],
    ['+1234567', '1234567'],
    ['+123456789012345', '123456789012345'],
    ['020 7946 0958', null],
    ['+0044 20 7946 0958', null],
    ['+123456', null],
    ['+1234567890123456', null],
    ['+1 800 FLOWERS', null],
    ['+44 20 7946 0958 ext 12', null],
    ['+44/20/7946/0958', null],
    ['++44 20 7946 0958', null],
  ],
  customer_id: [
    ['cus_123', 'cus_123'],
    ['  Cus_ABC  ', 'Cus_ABC'],
    ["' OR 1=1 --", "' OR 1=1 --"],
    ['<script>alert(1)</script>', '<script>alert(1)</script>'],
    ['顧客-42', '顧客-42'],
    ['x'.repeat(255), 'x'.repeat(255)],
    ['😀'.repeat(255), '😀'.repeat(255)],
    ['x'.repeat(256), null],
    ['a\u0000b', null],
    ['a\u001bb', null],
    ['a\ud800b', null],
  ],
  card_bin: [
    ['411111', '411111'],
    ['4111 1111', '41111111'],
    ['4111-111', '4111111'],
    ['41111', null],
    ['411111111', null],
    ['4111x1', null],
    ['４１１１１１', null],
  ],
  card_country: [
    ['de', 'DE'],
    [' Gb ', 'GB'],
    ['XK', 'XK'],
    ['UK', null],
    ['ZZ', null],
    ['DEU', null],
    ['D', null],
    ['1A', null],
  ],
  confirmed_fraud: [
    ['email:0123456789abcdef', 'email:0123456789abcdef'],
    [`card:${'f'.repeat(128)}`, `card:${'f'.repeat(128)}`],
    ['device_id:00112233445566778899aabbccddeeff', 'device_id:00112233445566778899aabbccddeeff'],
    ['email:0123456789ABCDEF', null],
    ['email:0123456789abcde', null],
    [`card:${'f'.repeat(129)}`, null],
    ['iban:0123456789abcdef', null],
    [' email:0123456789abcdef', null],
    ['email:0123456789abcdeg', null],
    ['email 0123456789abcdef', null],
  ],
};

/** Hostile or empty input every type must refuse or keep verbatim, never throw on. */
const HOSTILE = ['', '   ', '\t\n', 'x'.repeat(10_000), ' '.repeat(10_000), "' OR 1=1 --", '<script>alert(1)</script>', 'a\u0000b', '\u0000', '\u202e', '😀😀😀', '%00', '../../etc/passwd'];

describe('normaliseEntry', () => {
  for (const type of BLACKLIST_TYPES) {
    for (const [raw, expected] of ENTRIES[type]) {
      const label = raw.length > 40 ? `${raw.slice(0, 40)}… (${raw.length})` : raw;
      it(`${type} ${JSON.stringify(label)} -> ${expected === null ? 'refused' : JSON.stringify(expected.slice(0, 40))}`, () => {
        const r = normaliseEntry(type, raw);
        if (expected === null) {
          assert.equal(r.ok, false, `accepted as ${r.ok ? r.value : ''}`);
          if (!r.ok) assert.ok(r.error.length > 0 && r.error.length < 200, r.error);
        } else {
          assert.deepEqual(r, { ok: true, value: expected });
          // Canonical text is a fixed point: storing it again changes nothing.
          assert.deepEqual(normaliseEntry(type, expected), r);
        }
      });
    }
  }

  it('refuses or keeps verbatim hostile input for every type, with short errors', () => {
    for (const type of BLACKLIST_TYPES) {
      for (const raw of HOSTILE) {
        const r = normaliseEntry(type, raw);
        if (r.ok) {
          assert.equal(type, 'customer_id', `${type} accepted ${JSON.stringify(raw.slice(0, 20))}`);
          assert.equal(r.value, raw.trim());
        } else {
          assert.ok(r.error.length < 200, r.error);
          assert.ok(!r.error.includes('\u0000'), 'NUL must be escaped in error text');
        }
      }
    }
  });

  it('words errors for operators', () => {
    assert.deepEqual(normaliseEntry('ip', '10.0.0.0/33'), { ok: false, error: '"10.0.0.0/33" is not an IP address or CIDR range' });
    assert.deepEqual(normaliseEntry('ip', 'fe80::1%eth0'), { ok: false, error: '"fe80::1%eth0" has a zone id: list the address without %zone' });
    assert.deepEqual(normaliseEntry('phone', '020 7946 0958'), { ok: false, error: '"020 7946 0958" must start with the country code (no leading 0)' });
    assert.deepEqual(normaliseEntry('email', 'x'.repeat(10_000)), { ok: false, error: 'value is too long (10000 characters, at most 1024)' });
    assert.deepEqual(normaliseEntry('customer_id', '  '), { ok: false, error: 'value is empty' });
    assert.deepEqual(normaliseEntry('email', 'a\u0000b@x.com'), { ok: false, error: '"a\\u0000b@x.com" is not an email address: the part before @ has spaces, controls or "(),:;<>[\\]' });
  });
});

describe('probeKeys', () => {
  const table: Array<[ListProbe, string[]]> = [
    [{ type: 'ip', value: '1.2.3.4' }, ['1.2.3.4']],
    [{ type: 'ip', value: ' ::FFFF:1.2.3.4 ' }, ['1.2.3.4']],
    [{ type: 'ip', value: '2001:DB8:0::1' }, ['2001:db8::1']],
    [{ type: 'ip', value: '10.0.0.0/8' }, []],
    [{ type: 'ip', value: 'fe80::1%eth0' }, []],
    [{ type: 'ip', value: 'not an ip' }, []],
    [{ type: 'email', value: ' John@Example.COM ' }, ['john@example.com']],
    [{ type: 'email', value: 'john@bücher.de' }, ['john@xn--bcher-kva.de']],
    [{ type: 'email', value: 'john' }, []],
    [{ type: 'email_domain', value: 'example.com' }, ['example.com']],
    [{ type: 'email_domain', value: 'Mail.EU.Example.com.' }, ['mail.eu.example.com', 'eu.example.com', 'example.com']],
    [{ type: 'email_domain', value: '@mail.bücher.de' }, ['mail.xn--bcher-kva.de', 'xn--bcher-kva.de']],
    [{ type: 'email_domain', value: 'example.co.uk' }, ['example.co.uk', 'co.uk']],
    [{ type: 'email_domain', value: 'com' }, []],
    [{ type: 'phone', value: '+44 20 7946 0958' }, ['442079460958']],
    [{ type: 'phone', value: '0044 (0)20 7946 0958' }, ['442079460958']],
    [{ type: 'phone', value: '+1 (202) 555-0101' }, ['12025550101']],
    [{ type: 'phone', value: '(202) 555-0101' }, ['2025550101']],
    [{ type: 'phone', value: '020 7946 0958' }, []],
    [{ type: 'card_bin', value: '411111' }, ['411111']],
    [{ type: 'card_bin', value: '41111111' }, ['411111', '4111111', '41111111']],
    [{ type: 'card_bin', value: '4111111111111111' }, ['411111', '4111111', '41111111']],
    [{ type: 'card_bin', value: '4111 1111 1111 1111' }, ['411111', '4111111', '41111111']],
    [{ type: 'card_bin', value: '411111******1111' }, ['411111']],
    [{ type: 'card_bin', value: '4111 11XX XXXX 1111' }, ['411111']],
    [{ type: 'card_bin', value: '4111-112x-xxxx-1111' }, ['411111', '4111112']],
    [{ type: 'card_bin', value: '411111••••••1111' }, ['411111']],
    [{ type: 'card_bin', value: '41111' }, []],
    [{ type: 'card_bin', value: '4111**111111' }, []],
    [{ type: 'card_bin', value: '41111111111111111111' }, []],
    [{ type: 'card_bin', value: '411111abc' }, []],
    [{ type: 'card_country', value: ' de ' }, ['DE']],
    [{ type: 'card_country', value: 'DEU' }, []],
    [{ type: 'customer_id', value: ' cus_1 ' }, ['cus_1']],
    [{ type: 'customer_id', value: 'a\u0000' }, []],
    [{ type: 'confirmed_fraud', value: 'phone:0123456789abcdef' }, ['phone:0123456789abcdef']],
    [{ type: 'confirmed_fraud', value: 'phone:XYZ' }, []],
  ];
  for (const [probe, keys] of table) {
    it(`${probe.type} ${JSON.stringify(probe.value)} -> ${JSON.stringify(keys)}`, () => {
      assert.deepEqual(probeKeys(probe), keys);
    });
  }

  it('gives [] for hostile values, unknown types and non-strings instead of throwing', () => {
    for (const type of BLACKLIST_TYPES) {
      for (const value of HOSTILE) {
        if (type === 'customer_id' && value.trim() !== '' && !value.includes('\u0000') && value.length <= 255) continue;
        assert.deepEqual(probeKeys({ type, value }), [], `${type} ${JSON.stringify(value.slice(0, 20))}`);
      }
    }
    assert.deepEqual(probeKeys({ type: '__proto__', value: 'x' } as unknown as ListProbe), []);
    assert.deepEqual(probeKeys({ type: 'email', value: 42 } as unknown as ListProbe), []);
  });

  it('meets every valid entry: the probe of an entry spelling gives the stored value as a key', () => {
    for (const type of BLACKLIST_TYPES) {
      for (const [raw, expected] of ENTRIES[type]) {
        // Probes are single addresses; ranges are IpSet's business.
        if (expected === null || (type === 'ip' && raw.includes('/'))) continue;
        assert.ok(probeKeys({ type, value: raw }).includes(expected), `${type} ${raw}`);
      }
    }
  });
});

describe('toAsciiDomain', () => {
  it('answers exactly what url.domainToASCII answers (its ASCII fast path is the identity)', () => {
    const pieces = ['a', 'z', '0', '9', '-', '.', 'xn--', 'xn--bcher-kva', '0x', 'ab--c', 'com', '1'];
    let a = 99;
    const next = (): number => (a = (a * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 50_000; n++) {
      let s = '';
      for (let k = 1 + (next() % 8); k > 0; k--) s += pieces[next() % pieces.length]!;
      assert.equal(toAsciiDomain(s), domainToASCII(s), s);
    }
    for (const s of ['bücher.de', 'example.com', 'a.0x7f', '0x7f.1', 'xn--zz.com', 'mail.xn--bcher-kva.de', 'a..b', '.com', 'com.']) {
      assert.equal(toAsciiDomain(s), domainToASCII(s), s);
    }
  });
});
