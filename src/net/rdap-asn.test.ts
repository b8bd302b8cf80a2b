import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { startRdapAsnServer, type RdapAsnTestServer } from '../../test/helpers/rdap-asn-server.ts';
import { AsnBootstrap, AsnRegistry, contactsFromAutnum, DEFAULT_RDAP_ASN_BOOTSTRAP_FILE, NO_CONTACTS, registryName, type AsnRegistryOptions } from './rdap-asn.ts';

const vcard = (...props: unknown[]): unknown[] => ['vcard', [['version', {}, 'text', '4.0'], ...props]];

/** ARIN-style: contacts nested under the registrant organisation, abuse among them. */
const ARIN_AUTNUM = {
  objectClassName: 'autnum',
  handle: 'AS64500',
  startAutnum: 64500,
  endAutnum: 64500,
  name: 'EXAMPLE-NET',
  status: ['active'],
  port43: 'whois.arin.net',
  events: [
    { eventAction: 'last changed', eventDate: '2012-02-24T09:44:34-05:00' },
    { eventAction: 'registration', eventDate: '2000-03-30T00:00:00-05:00' },
  ],
  links: [{ value: 'https://rdap.arin.net/registry/autnum/64500', rel: 'self', href: 'https://rdap.arin.net/registry/autnum/64500' }],
  entities: [
    {
      handle: 'EXNET',
      roles: ['registrant'],
      vcardArray: vcard(['fn', {}, 'text', 'Example Networks'], ['kind', {}, 'text', 'org']),
      entities: [
        {
          handle: 'TECH1-ARIN',
          roles: ['technical', 'administrative'],
          vcardArray: vcard(['fn', {}, 'text', 'Tech'], ['tel', { type: ['work', 'voice'] }, 'text', '+1-650-555-0100'], ['email', {}, 'text', 'noc@example.net']),
        },
        {
          handle: 'ABUSE1-ARIN',
          roles: ['abuse'],
          vcardArray: vcard(['fn', {}, 'text', 'Abuse'], ['tel', { type: ['work', 'voice'] }, 'text', '+1-650-555-0199'], ['email', {}, 'text', 'abuse@example.net']),
        },
      ],
    },
  ],
};

/** RIPE-style: only a technical contact, tel as a URI, a fax before the voice number. */
const RIPE_AUTNUM = {
  objectClassName: 'autnum',
  handle: 'AS64501',
  port43: 'whois.ripe.net',
  status: ['active'],
  events: [{ eventAction: 'registration', eventDate: '1993-09-01T12:00:00Z' }],
  entities: [
    { handle: 'EX-MNT', roles: ['registrant'] },
    {
      handle: 'TECH-RIPE',
      roles: ['technical'],
      vcardArray: vcard(['fn', {}, 'text', 'Tech'], ['tel', { type: 'fax' }, 'text', '+31 20 555 0001'], ['tel', { type: 'voice' }, 'uri', 'tel:+31-20-555-0000'], ['email', { type: 'email' }, 'text', 'mailto:tech@example.nl']),
    },
  ],
};

describe('contactsFromAutnum', () => {
  it('prefers the abuse contact, nested entities included; dates and registry from the object', () => {
    assert.deepEqual(contactsFromAutnum(ARIN_AUTNUM), { phone: '+1-650-555-0199', email: 'abuse@example.net', created: '2000-03-30', registry: 'ARIN', status: 'active' });
  });

  it('falls back to the technical contact; tel: and mailto: removed; voice before fax', () => {
    assert.deepEqual(contactsFromAutnum(RIPE_AUTNUM), { phone: '+31-20-555-0000', email: 'tech@example.nl', created: '1993-09-01', registry: 'RIPE', status: 'active' });
  });

  it('takes phone and e-mail each from the best contact that has one', () => {
    const doc = {
      entities: [
        { roles: ['abuse'], vcardArray: vcard(['email', {}, 'text', 'abuse@example.org']) },
        { roles: ['technical'], vcardArray: vcard(['tel', {}, 'text', '+44 20 7946 0000'], ['email', {}, 'text', 'tech@example.org']) },
      ],
    };
    const c = contactsFromAutnum(doc, 'APNIC');
    assert.equal(c.email, 'abuse@example.org');
    assert.equal(c.phone, '+44 20 7946 0000');
    assert.equal(c.registry, 'APNIC');
    assert.equal(c.created, null);
    assert.equal(c.status, null);
  });

  it('a fax is used when it is the only number; registry from the self link when there is no port43', () => {
    const c = contactsFromAutnum({
      links: [{ rel: 'self', href: 'https://rdap.lacnic.net/rdap/autnum/28000' }],
      entities: [{ roles: ['administrative'], vcardArray: vcard(['tel', { type: 'fax' }, 'text', '+598 2604 2222']) }],
    });
    assert.equal(c.phone, '+598 2604 2222');
    assert.equal(c.registry, 'LACNIC');
  });

  it('ignores roles it does not rank, malformed vCards and junk without throwing', () => {
    assert.deepEqual(contactsFromAutnum({ entities: [{ roles: ['registrar'], vcardArray: vcard(['email', {}, 'text', 'x@y.z']) }] }), NO_CONTACTS);
    for (const junk of [null, 'x', 42, [], { entities: 'x' }, { entities: [null, { roles: 'abuse', vcardArray: ['vcard', 'x'] }] }, { events: [{ eventAction: 'registration', eventDate: 'soon' }] }]) {
      const c = contactsFromAutnum(junk);
      assert.equal(c.email, null);
      assert.equal(c.created, null);
    }
  });

  it('deep nesting is bounded', () => {
    let e: Record<string, unknown> = { roles: ['abuse'], vcardArray: vcard(['email', {}, 'text', 'deep@example.net']) };
    for (let i = 0; i < 50; i++) e = { roles: ['registrant'], entities: [e] };
    assert.equal(contactsFromAutnum({ entities: [e] }).email, null);
  });
});

describe('registryName', () => {
  it('names RIRs and NIRs from hosts, port43 names and URLs', () => {
    assert.equal(registryName('whois.arin.net'), 'ARIN');
    assert.equal(registryName('https://rdap.db.ripe.net/autnum/3333'), 'RIPE');
    assert.equal(registryName('rdap.apnic.net'), 'APNIC');
    assert.equal(registryName('whois.afrinic.net.'), 'AFRINIC');
    assert.equal(registryName('whois.nic.ad.jp'), 'JPNIC');
    assert.equal(registryName('127.0.0.1'), null);
    assert.equal(registryName('notarin.net'), null);
    assert.equal(registryName('http://['), null);
  });
});

describe('AsnBootstrap', () => {
  it('maps ranges and single ASNs, prefers https, adds the trailing slash', () => {
    const b = AsnBootstrap.fromJson({
      services: [
        [['1-1876', '2043'], ['http://plain.example/', 'https://rdap.example/registry']],
        [['196608-197631'], ['https://ripe.example/']],
        [['64496-64511'], ['ftp://nope.example/']],
      ],
    });
    assert.equal(b.baseUrlFor(1), 'https://rdap.example/registry/');
    assert.equal(b.baseUrlFor(1876), 'https://rdap.example/registry/');
    assert.equal(b.baseUrlFor(2043), 'https://rdap.example/registry/');
    assert.equal(b.baseUrlFor(1877), null);
    assert.equal(b.baseUrlFor(197000), 'https://ripe.example/');
    assert.equal(b.baseUrlFor(64500), null);
    assert.equal(b.baseUrlFor(0), null);
    assert.equal(b.baseUrlFor(-1), null);
    assert.equal(b.baseUrlFor(1.5), null);
    assert.equal(b.size, 3);
  });

  it('rejects malformed and overlapping documents', () => {
    assert.throws(() => AsnBootstrap.fromJson({ services: 'x' }), /RDAP ASN bootstrap/);
    assert.throws(() => AsnBootstrap.fromJson({ services: [[['ten'], ['https://a/']]] }), /not an ASN range/);
    assert.throws(() => AsnBootstrap.fromJson({ services: [[['9-1'], ['https://a/']]] }), /not an ASN range/);
    assert.throws(() => AsnBootstrap.fromJson({ services: [[['1-10'], ['https://a/']], [['5'], ['https://b/']]] }), /overlap/);
  });

  it('the shipped bootstrap sends each RIR its blocks', () => {
    const b = AsnBootstrap.fromFile(DEFAULT_RDAP_ASN_BOOTSTRAP_FILE);
    const cases: Array<[number, string | null]> = [
      [15169, 'https://rdap.arin.net/registry/'],
      [13335, 'https://rdap.arin.net/registry/'],
      [3320, 'https://rdap.db.ripe.net/'],
      [200000, 'https://rdap.db.ripe.net/'],
      [9498, 'https://rdap.apnic.net/'],
      [131072, 'https://rdap.apnic.net/'],
      [28000, 'https://rdap.lacnic.net/rdap/'],
      [262144, 'https://rdap.lacnic.net/rdap/'],
      [37100, 'https://rdap.afrinic.net/rdap/'],
      [328000, 'https://rdap.afrinic.net/rdap/'],
      [393216, 'https://rdap.arin.net/registry/'],
      [23456, null], // AS_TRANS
      [64512, null], // private use
      [4200000000, null],
    ];
    for (const [asn, base] of cases) assert.equal(b.baseUrlFor(asn), base, `AS${asn}`);
  });

  it('registryOf names the RIR from the shipped bootstrap, lookups off or not', () => {
    const r = new AsnRegistry({ network: false });
    assert.equal(r.registryOf(15169), 'ARIN');
    assert.equal(r.registryOf(3320), 'RIPE');
    assert.equal(r.registryOf(9498), 'APNIC');
    assert.equal(r.registryOf(28000), 'LACNIC');
    assert.equal(r.registryOf(37100), 'AFRINIC');
    assert.equal(r.registryOf(64512), null);
  });
});

describe('AsnRegistry against a real RDAP server', () => {
  let srv: RdapAsnTestServer;
  const ALL = ['64500-64520', '65000-65010'];

  before(async () => {
    srv = await startRdapAsnServer({
      64500: { body: ARIN_AUTNUM },
      64501: { body: RIPE_AUTNUM },
      // 64502: absent -> 404
      64503: { body: ARIN_AUTNUM, delayMs: 1500 },
      64504: { raw: '{"objectClassName": "autnum", "entities": [' },
      64505: { status: 503, body: { errorCode: 503 } },
      64506: { raw: JSON.stringify({ ...ARIN_AUTNUM, remarks: [{ description: ['x'.repeat(20_000)] }] }) },
      64507: { body: RIPE_AUTNUM, delayMs: 150 },
      64508: { redirectTo: '/rdap/autnum/64501' },
      64509: { body: ARIN_AUTNUM, delayMs: 100 },
      64510: { raw: '[1, 2, 3]' },
      64511: { body: RIPE_AUTNUM, delayMs: 600 },
    });
  });
  after(async () => srv.close());

  const registry = (opts: Partial<AsnRegistryOptions> = {}): AsnRegistry =>
    new AsnRegistry({ bootstrap: AsnBootstrap.fromJson(srv.bootstrap(ALL)), timeoutMs: 400, ...opts });

  const countOf = (asn: number): number => srv.requests.filter((a) => a === asn).length;

  it('lookup: abuse contact, cached for the next call', async () => {
    const before = countOf(64500);
    const r = registry();
    assert.deepEqual(await r.lookup(64500), { phone: '+1-650-555-0199', email: 'abuse@example.net', created: '2000-03-30', registry: 'ARIN', status: 'active' });
    assert.equal((await r.lookup(64500)).email, 'abuse@example.net');
    assert.equal(r.peek(64500)?.email, 'abuse@example.net');
    assert.equal(countOf(64500) - before, 1);
  });

  it('lookup: only a technical contact', async () => {
    const c = await registry().lookup(64501);
    assert.equal(c.email, 'tech@example.nl');
    assert.equal(c.phone, '+31-20-555-0000');
    assert.equal(c.registry, 'RIPE');
  });

  it('failures give nulls and are cached: 404, 503, malformed JSON, a non-object, a body too large, a timeout', async () => {
    const failures: Array<[number, string]> = [];
    const r = registry({ maxBytes: 8 * 1024, onFailure: (asn, code) => failures.push([asn, code]) });
    const started = performance.now();
    const results = await Promise.all([64502, 64505, 64504, 64510, 64506, 64503].map((a) => r.lookup(a)));
    assert.ok(performance.now() - started < 1400, 'the 1.5 s answer is cut at the 400 ms timeout');
    for (const c of results) assert.deepEqual(c, NO_CONTACTS);
    assert.deepEqual(
      failures.sort((a, b) => a[0] - b[0]),
      [
        [64502, 'NOT_FOUND'],
        [64503, 'ETIMEOUT'],
        [64504, 'BAD_JSON'],
        [64505, 'HTTP_503'],
        [64506, 'TOO_LARGE'],
        [64510, 'BAD_JSON'],
      ],
    );
    const asked = srv.requests.length;
    for (const a of [64502, 64503, 64504, 64505, 64506, 64510]) assert.deepEqual(r.peek(a), NO_CONTACTS);
    assert.equal(srv.requests.length, asked, 'cached failures ask nothing');
  });

  it('peek: undefined at once, one background request, then the cache answers', async () => {
    const r = registry();
    const before = countOf(64507);
    const started = performance.now();
    assert.equal(r.peek(64507), undefined);
    assert.ok(performance.now() - started < 100, 'peek does not wait');
    assert.equal(r.pending, 1);
    for (let i = 0; i < 200 && r.pending > 0; i++) await sleep(10);
    assert.equal(r.pending, 0);
    assert.equal(r.peek(64507)?.email, 'tech@example.nl');
    assert.equal(countOf(64507) - before, 1);
  });

  it('concurrent peeks and lookups of one ASN start one request', async () => {
    const r = registry();
    const before = countOf(64509);
    for (let i = 0; i < 10; i++) assert.equal(r.peek(64509), undefined);
    const all = await Promise.all([r.lookup(64509), r.lookup(64509), r.lookupWithin(64509, 5000)]);
    assert.ok(all.every((c) => c.email === 'abuse@example.net'));
    assert.equal(countOf(64509) - before, 1);
  });

  it('lookupWithin: answers nulls at the budget while the lookup goes on and fills the cache', async () => {
    const r = registry({ timeoutMs: 3000 });
    const before = countOf(64511);
    const started = performance.now();
    assert.deepEqual(await r.lookupWithin(64511, 30), NO_CONTACTS);
    assert.ok(performance.now() - started < 400, 'did not wait for the 600 ms answer');
    assert.equal(r.pending, 1);
    for (let i = 0; i < 300 && r.pending > 0; i++) await sleep(10);
    assert.equal((await r.lookupWithin(64511, 30)).email, 'tech@example.nl');
    assert.equal(countOf(64511) - before, 1);
  });

  it('follows a redirect to another registry server', async () => {
    const c = await registry().lookup(64508);
    assert.equal(c.email, 'tech@example.nl');
  });

  it('network: false asks nothing and answers nulls', async () => {
    const asked = srv.requests.length;
    const r = registry({ network: false });
    assert.deepEqual(r.peek(64500), NO_CONTACTS);
    assert.deepEqual(await r.lookup(64500), NO_CONTACTS);
    assert.deepEqual(await r.lookupWithin(64500, 100), NO_CONTACTS);
    assert.equal(srv.requests.length, asked);
  });

  it('an ASN without a server or an invalid one answers nulls without asking', async () => {
    const asked = srv.requests.length;
    const r = registry();
    assert.deepEqual(r.peek(1), NO_CONTACTS);
    assert.deepEqual(r.peek(-5), NO_CONTACTS);
    assert.deepEqual(await r.lookup(2 ** 40), NO_CONTACTS);
    assert.equal(srv.requests.length, asked);
  });

  it('answers expire after the success TTL, failures after the failure TTL', async () => {
    let now = 1_000_000;
    const r = registry({ now: () => now, successTtlMs: 1000, failureTtlMs: 100 });
    const okBefore = countOf(64500);
    const failBefore = countOf(64502);
    await r.lookup(64500);
    await r.lookup(64502);
    now += 150;
    assert.equal(r.peek(64500)?.email, 'abuse@example.net');
    assert.equal(r.peek(64502), undefined, 'the failure expired: a new lookup starts');
    now += 1000;
    assert.equal(r.peek(64500), undefined, 'the answer expired');
    for (let i = 0; i < 200 && r.pending > 0; i++) await sleep(10);
    assert.equal(countOf(64500) - okBefore, 2);
    assert.equal(countOf(64502) - failBefore, 2);
  });

  it('the cache is bounded; in-flight lookups are capped', async () => {
    const r = registry({ maxEntries: 2, maxInFlight: 1 });
    await r.lookup(64500);
    await r.lookup(64501);
    await r.lookup(64502);
    assert.equal(r.cached, 2);
    assert.equal(r.peek(64509), undefined);
    // The one slot is taken: a second miss answers nulls without asking.
    const asked = srv.requests.length;
    assert.deepEqual(await r.lookup(64507), NO_CONTACTS);
    assert.equal(srv.requests.length, asked);
    for (let i = 0; i < 200 && r.pending > 0; i++) await sleep(10);
  });

  it('an unreachable server gives nulls, not a rejection', async () => {
    const r = new AsnRegistry({ bootstrap: AsnBootstrap.fromJson({ services: [[['64500'], ['http://127.0.0.1:9/rdap/']]] }), timeoutMs: 400 });
    assert.deepEqual(await r.lookup(64500), NO_CONTACTS);
  });

  it('a throwing onFailure observer changes nothing', async () => {
    const r = registry({
      onFailure: () => {
        throw new Error('observer');
      },
    });
    assert.deepEqual(await r.lookup(64502), NO_CONTACTS);
  });
});
