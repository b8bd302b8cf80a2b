import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeDomainFacts } from './fake.ts';

const NOW = new Date('2025-06-21T12:00:00Z');

describe('fakeDomainFacts (test mode)', () => {
  it('is the same for the same domain and differs between domains', () => {
    assert.deepEqual(fakeDomainFacts('example.com', NOW), fakeDomainFacts('example.com', NOW));
    const distinct = new Set(Array.from({ length: 50 }, (_, i) => JSON.stringify(fakeDomainFacts(`d${i}.com`, NOW))));
    assert.ok(distinct.size > 40);
  });

  it('has realistic proportions and consistent facts', () => {
    const all = Array.from({ length: 4000 }, (_, i) => fakeDomainFacts(`domain-${i}.example`, NOW));
    const share = (f: (x: (typeof all)[number]) => boolean | null): number => all.filter((x) => f(x) === true).length / all.length;
    assert.ok(share((x) => x.is_mx) > 0.85 && share((x) => x.is_mx) < 0.97);
    assert.ok(share((x) => x.is_spf) > 0.6 && share((x) => x.is_spf) < 0.9);
    assert.ok(share((x) => x.is_bimi) < 0.08);
    assert.ok(share((x) => x.is_new) > 0.02 && share((x) => x.is_new) < 0.09);
    for (const x of all) {
      if (x.is_dmarc === true) assert.equal(x.is_spf, true);
      if (x.is_bimi === true) assert.equal(x.is_dmarc, true);
      const created = Date.parse(x.created_at ?? '');
      assert.ok(created >= Date.UTC(1995, 0, 1) && created <= NOW.getTime());
    }
  });
});
