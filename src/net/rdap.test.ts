import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RDAP_BOOTSTRAP_FILE, isoDate, RdapBootstrap, registrationDate } from './rdap.ts';

describe('RDAP bootstrap', () => {
  const b = RdapBootstrap.fromJson({
    publication: '2026-01-01T00:00:00Z',
    services: [
      [['com', 'net'], ['http://plain.example/', 'https://rdap.example/com/']],
      [['uk'], ['https://uk.example/rdap']],
      [['co.uk'], ['https://co-uk.example/']],
      [['ftp'], ['ftp://nope.example/']],
    ],
  });
  it('maps a domain to its TLD server, preferring https and adding the trailing slash', () => {
    assert.equal(b.baseUrlFor('example.com'), 'https://rdap.example/com/');
    assert.equal(b.baseUrlFor('a.b.example.NET'), 'https://rdap.example/com/');
    assert.equal(b.baseUrlFor('example.org.uk'), 'https://uk.example/rdap/');
  });
  it('the longest matching suffix wins; unknown TLDs and non-HTTP servers give null', () => {
    assert.equal(b.baseUrlFor('example.co.uk'), 'https://co-uk.example/');
    assert.equal(b.baseUrlFor('example.zz'), null);
    assert.equal(b.baseUrlFor('example.ftp'), null);
    assert.equal(b.publication, '2026-01-01T00:00:00Z');
  });
  it('rejects a document that is not a bootstrap', () => {
    assert.throws(() => RdapBootstrap.fromJson({ services: 'x' }), /RDAP bootstrap/);
    assert.throws(() => RdapBootstrap.fromJson(null), /RDAP bootstrap/);
  });
  it('the shipped bootstrap loads and covers the major TLDs', () => {
    const shipped = RdapBootstrap.fromFile(DEFAULT_RDAP_BOOTSTRAP_FILE);
    for (const tld of ['com', 'net', 'org', 'info', 'dev', 'app', 'xyz', 'uk', 'fr', 'nl']) {
      assert.match(shipped.baseUrlFor(`example.${tld}`) ?? '', /^https:\/\/.+\/$/, tld);
    }
  });
});

describe('RDAP domain objects', () => {
  it('takes the registration event, normalised to UTC', () => {
    assert.equal(registrationDate({ events: [{ eventAction: 'expiration', eventDate: '2030-01-01T00:00:00Z' }, { eventAction: 'registration', eventDate: '1997-09-15T04:00:00Z' }] }), '1997-09-15T04:00:00Z');
    assert.equal(registrationDate({ events: [{ eventAction: 'Registration', eventDate: '2020-02-03T10:00:00.123+02:00' }] }), '2020-02-03T08:00:00.123Z');
  });
  it('null without a registration event or a readable date', () => {
    assert.equal(registrationDate({ events: [{ eventAction: 'last changed', eventDate: '2020-01-01T00:00:00Z' }] }), null);
    assert.equal(registrationDate({ events: [{ eventAction: 'registration', eventDate: 'yesterday' }] }), null);
    assert.equal(registrationDate({}), null);
    assert.equal(registrationDate('nope'), null);
    assert.equal(isoDate('2020-01-01'), '2020-01-01T00:00:00Z');
  });
});
