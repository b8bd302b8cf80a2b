import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadEmailData } from '../../data/email-lists.ts';
import type { DomainListFacts, DomainNetworkFacts } from '../domain/types.ts';
import { EMAIL_WEIGHTS, evaluateEmail, roleKey } from './evaluate.ts';
import { fakeNetworkFacts } from './fake.ts';
import { parseEmail } from './syntax.ts';
import type { EmailInputs, IdentityLabel } from './types.ts';

const { lists } = loadEmailData();

const CLEAN_LISTS: DomainListFacts = { is_dangerous: false, is_disposable: false, is_forwarding: false };
const UNKNOWN: DomainNetworkFacts = { is_mx: null, is_spf: null, is_dmarc: null, is_dkim: null, is_bimi: null, created_at: null, is_new: null };
const MAIL: DomainNetworkFacts = { is_mx: true, is_spf: true, is_dmarc: true, is_dkim: false, is_bimi: false, created_at: '2001-01-01T00:00:00Z', is_new: false };
const NO_MX: DomainNetworkFacts = { ...MAIL, is_mx: false };
const NEW: DomainNetworkFacts = { ...MAIL, created_at: '2025-05-01T00:00:00Z', is_new: true };

function run(address: string, facts: { lists?: Partial<DomainListFacts>; network?: DomainNetworkFacts; label?: IdentityLabel | null } = {}) {
  const parsed = parseEmail(address);
  assert.ok(parsed.ok, address);
  const inputs: EmailInputs = { domainLists: { ...CLEAN_LISTS, ...facts.lists }, network: facts.network ?? UNKNOWN, label: facts.label ?? null };
  return evaluateEmail(address, parsed.email, lists, inputs);
}

/** [case, address, facts, score, isValid] — the spec's scoring rules and docs/email-scoring.md. */
const SCORES: Array<[string, string, Parameters<typeof run>[1], number, boolean]> = [
  ['a plain address, facts unknown', 'jane.doe@example.com', {}, 0, true],
  ['a plain address on a domain that takes mail', 'jane.doe@example.com', { network: MAIL }, 0, true],
  ['a typo domain with no MX scores 3', 'jane@gmial.com', { network: NO_MX }, 3, false],
  ['a typo domain that receives mail scores at least 2', 'jane@gmial.com', { network: MAIL }, 2, true],
  ['a typo domain, MX unknown', 'jane@gmail.con', {}, 2, true],
  ['gibberish scores at least 1', 'xkqzvbwp@example.com', { network: MAIL }, 1, true],
  ['disposable is high risk', 'jane@mailinator.com', { lists: { is_disposable: true }, network: MAIL }, 2, true],
  ['disposable and gibberish', 'asdfghjkl@mailinator.com', { lists: { is_disposable: true }, network: MAIL }, 3, true],
  ['a new domain raises the score', 'jane@brand-new.example', { network: NEW }, 1, true],
  ['a domain without MX raises the score and cannot receive mail', 'jane@example.com', { network: NO_MX }, 2, false],
  ['new and without MX', 'jane@example.com', { network: { ...NEW, is_mx: false } }, 3, false],
  ['a dangerous domain makes the address invalid', 'jane@phish.example', { lists: { is_dangerous: true }, network: MAIL }, 3, false],
  ['a fraud label makes the address invalid', 'jane.doe@example.com', { network: MAIL, label: 'fraud' }, 3, false],
  ['a legit label changes nothing by itself', 'jane.doe@example.com', { network: MAIL, label: 'legit' }, 0, true],
  ['role and free addresses are not risky by themselves', 'info@gmail.com', { network: MAIL }, 0, true],
];

describe('evaluateEmail scores', () => {
  for (const [name, address, facts, score, valid] of SCORES) {
    it(name, () => {
      const { result, contributions } = run(address, facts);
      assert.equal(result.score, score, result.reason);
      assert.equal(result.isValid, valid);
      assert.equal(result.reason === '', score === 0, `reason "${result.reason}"`);
      assert.equal(contributions.reduce((s, c) => s + c.points, 0), result.score, 'contributions sum to the score');
    });
  }

  it('caps at 3 and still explains every signal', () => {
    const { result, contributions } = run('asdfghjkl@gmial.com', { lists: { is_disposable: true }, network: { ...NEW, is_mx: false } });
    assert.equal(result.score, 3);
    assert.deepEqual(contributions.map((c) => c.signal), ['disposable', 'typo', 'no_mx', 'new_domain', 'gibberish']);
    assert.match(result.reason, /disposable/);
    assert.match(result.reason, /typo of gmail\.com/);
  });

  it('documents a weight for every signal', () => {
    for (const w of Object.values(EMAIL_WEIGHTS)) assert.ok(w >= 1 && w <= 3);
  });
});

describe('evaluateEmail flags', () => {
  it('answers the spec fields in order', () => {
    const { result } = run('Jane.Doe+news@GoogleMail.com', { network: MAIL });
    assert.deepEqual(Object.keys(result), [
      'score', 'reason', 'isValid', 'isFree', 'isRoleBased', 'isEducational', 'isDisposable', 'blacklisted', 'email', 'suggestion',
      'isGibberish', 'normalized', 'domain', 'custom_rules_applied',
    ]);
    assert.deepEqual(Object.keys(result.domain), ['name', 'is_dangerous', 'is_spf', 'is_dmarc', 'is_dkim', 'is_mx', 'is_bimi', 'created_at', 'is_new']);
    assert.equal(result.email, 'Jane.Doe+news@GoogleMail.com');
    assert.equal(result.normalized, 'janedoe@gmail.com');
    assert.equal(result.domain.name, 'googlemail.com');
    assert.equal(result.isFree, true);
  });

  it('suggests the corrected address, keeping the local part as sent', () => {
    assert.equal(run('Jane.Doe@hotmial.com').result.suggestion, 'Jane.Doe@hotmail.com');
    assert.equal(run('jane@yaho.com').result.suggestion, 'jane@yahoo.com');
    assert.equal(run('jane@gmx.de').result.suggestion, null);
  });

  it('isFree: webmail, but not disposable or typo domains that the list also holds', () => {
    assert.equal(run('a@gmail.com').result.isFree, true);
    assert.equal(run('a@gmx.de').result.isFree, true);
    assert.equal(run('a@example.com').result.isFree, false);
    // free-email-domains lists mailinator.com and gmial.com; Vigil does not call them webmail.
    assert.ok(lists.free.has('mailinator.com') && lists.free.has('gmial.com'));
    assert.equal(run('a@mailinator.com', { lists: { is_disposable: true } }).result.isFree, false);
    assert.equal(run('a@gmial.com').result.isFree, false);
  });

  it('isRoleBased', () => {
    for (const local of ['info', 'Admin', 'support', 'sales', 'noreply', 'no-reply', 'No.Reply', 'do_not_reply', 'postmaster', 'info+x', 'kontakt']) {
      assert.equal(run(`${local}@example.com`).result.isRoleBased, true, local);
    }
    for (const local of ['jane', 'information.desk.jane', 'salesman', 'adminson']) assert.equal(run(`${local}@example.com`).result.isRoleBased, false, local);
    assert.equal(roleKey('No-Reply+tag'), 'noreply');
  });

  it('isEducational: swot domains, academic suffixes and subdomains; not excluded names', () => {
    for (const d of ['stanford.edu', 'cs.stanford.edu', 'ox.ac.uk', 'tum.de', 'uni-muenchen.de', 'u-tokyo.ac.jp', 'anything.ac.uk', 'cqut.edu.cn']) {
      assert.equal(run(`a@${d}`).result.isEducational, true, d);
    }
    for (const d of ['gmail.com', 'example.com', '2011.cqut.edu.cn', 'edu.example.com']) assert.equal(run(`a@${d}`).result.isEducational, false, d);
  });

  it('isGibberish looks at the local part without its tag', () => {
    assert.equal(run('jane+xkqzvbwp@example.com').result.isGibberish, false);
    assert.equal(run('xkqzvbwp+news@example.com').result.isGibberish, true);
  });

  it('copies the domain facts into the domain block', () => {
    const { result } = run('a@example.com', { lists: { is_dangerous: true }, network: NEW });
    assert.deepEqual(result.domain, { name: 'example.com', is_dangerous: true, is_spf: true, is_dmarc: true, is_dkim: false, is_mx: true, is_bimi: false, created_at: '2025-05-01T00:00:00Z', is_new: true });
  });
});

describe('fakeNetworkFacts', () => {
  it('is deterministic and makes major providers look like providers', () => {
    assert.deepEqual(fakeNetworkFacts('example.org', false), fakeNetworkFacts('example.org', false));
    for (const d of ['gmail.com', 'yahoo.com', 'outlook.com']) {
      const f = fakeNetworkFacts(d, true);
      assert.equal(f.is_mx, true);
      assert.equal(f.is_new, false);
      assert.ok(f.created_at !== null && f.created_at < '2005');
    }
  });
});
