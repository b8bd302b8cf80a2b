import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BlacklistType, ListProbe } from '../types.ts';
import { BlacklistIndex } from './index.ts';

const ENTRIES: Array<[BlacklistType, string]> = [
  ['ip', '10.0.0.0/8'],
  ['ip', '2001:db8::/32'],
  ['ip', '1.2.3.4'],
  ['email', 'fraud@example.com'],
  ['email_domain', 'spam.example'],
  ['phone', '442079460958'],
  ['customer_id', 'Cus_42'],
  ['card_bin', '411111'],
  ['card_bin', '55555555'],
  ['card_country', 'NG'],
  ['confirmed_fraud', 'email:0123456789abcdef'],
];
const index = BlacklistIndex.build(ENTRIES);

describe('BlacklistIndex.has', () => {
  const table: Array<[ListProbe, boolean]> = [
    [{ type: 'ip', value: '10.20.30.40' }, true],
    [{ type: 'ip', value: '::ffff:10.20.30.40' }, true],
    [{ type: 'ip', value: '11.0.0.0' }, false],
    [{ type: 'ip', value: '2001:DB8:1::1' }, true],
    [{ type: 'ip', value: '::ffff:1.2.3.4' }, true],
    [{ type: 'email', value: ' Fraud@EXAMPLE.com ' }, true],
    [{ type: 'email', value: 'other@example.com' }, false],
    [{ type: 'email_domain', value: 'spam.example' }, true],
    [{ type: 'email_domain', value: 'mx1.Mail.SPAM.example.' }, true],
    [{ type: 'email_domain', value: 'notspam.example' }, false],
    [{ type: 'email_domain', value: 'example' }, false],
    [{ type: 'phone', value: '+44 (0)20 7946 0958' }, true],
    [{ type: 'phone', value: '0044 20 7946 0958' }, true],
    [{ type: 'phone', value: '020 7946 0958' }, false],
    [{ type: 'customer_id', value: ' Cus_42 ' }, true],
    [{ type: 'customer_id', value: 'cus_42' }, false],
    [{ type: 'card_bin', value: '4111 11XX XXXX 1111' }, true],
    [{ type: 'card_bin', value: '4111111111111111' }, true],
    [{ type: 'card_bin', value: '5555 5555 4444 4444' }, true],
    [{ type: 'card_bin', value: '555555******4444' }, false],
    [{ type: 'card_country', value: 'ng' }, true],
    [{ type: 'card_country', value: 'NE' }, false],
    [{ type: 'confirmed_fraud', value: 'email:0123456789abcdef' }, true],
    [{ type: 'confirmed_fraud', value: 'phone:0123456789abcdef' }, false],
    [{ type: 'ip', value: "' OR 1=1 --" }, false],
    [{ type: 'email', value: 'x'.repeat(10_000) }, false],
    [{ type: '__proto__', value: 'x' } as unknown as ListProbe, false],
    [{ type: 'email', value: null } as unknown as ListProbe, false],
  ];
  for (const [probe, listed] of table) {
    it(`${probe.type} ${JSON.stringify(String(probe.value).slice(0, 30))} -> ${listed}`, () => {
      assert.equal(index.has(probe), listed);
    });
  }
});

describe('BlacklistIndex.hits', () => {
  it('returns the matching probes in the order given, the same objects', () => {
    const probes: ListProbe[] = [
      { type: 'card_country', value: 'NG' },
      { type: 'email', value: 'ok@example.com' },
      { type: 'ip', value: '10.1.1.1' },
      { type: 'email_domain', value: 'a.spam.example' },
      { type: 'ip', value: '8.8.8.8' },
      { type: 'card_country', value: 'NG' },
    ];
    const hits = index.hits(probes);
    assert.deepEqual(hits, [probes[0], probes[2], probes[3], probes[5]]);
    assert.equal(hits[0], probes[0]);
  });

  it('is empty for no probes and for the empty index', () => {
    assert.deepEqual(index.hits([]), []);
    assert.deepEqual(BlacklistIndex.EMPTY.hits([{ type: 'ip', value: '10.0.0.1' }]), []);
    assert.equal(BlacklistIndex.EMPTY.has({ type: 'email', value: 'fraud@example.com' }), false);
  });
});

describe('BlacklistIndex.build', () => {
  it('counts distinct entries, skips unknown types and unparsable ip rows', () => {
    assert.equal(index.size, ENTRIES.length);
    const other = BlacklistIndex.build([
      ['email', 'a@example.com'],
      ['email', 'a@example.com'],
      ['ip', 'garbage'],
      ['iban' as BlacklistType, 'DE00'],
      ['__proto__' as BlacklistType, 'x'],
    ]);
    assert.equal(other.size, 1);
    assert.equal(BlacklistIndex.build([]), BlacklistIndex.EMPTY);
    assert.equal(BlacklistIndex.EMPTY.size, 0);
  });

  it('matches by type only: an email entry does not list the same text as a customer id', () => {
    const only = BlacklistIndex.build([['email', 'a@example.com']]);
    assert.equal(only.has({ type: 'customer_id', value: 'a@example.com' }), false);
    assert.equal(only.has({ type: 'email_domain', value: 'example.com' }), false);
  });
});
