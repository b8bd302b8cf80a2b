import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import creditCardType from 'credit-card-type';
import { prng } from '../text/train.ts';
import { globalScheme } from './schemes.ts';

/** What the engine took from the package before the compiled table: the strongest match, first on ties. */
function reference(leading: string): string | undefined {
  let best: ReturnType<typeof creditCardType>[number] | undefined;
  for (const c of creditCardType(leading)) if (best === undefined || (c.matchStrength ?? 0) > (best.matchStrength ?? 0)) best = c;
  return best?.type;
}

describe('globalScheme', () => {
  it('agrees with creditCardType() on 30,000 prefixes of 6 to 8 digits in every scheme area', () => {
    const rnd = prng(11);
    for (let i = 0; i < 30_000; i++) {
      const len = 6 + (i % 3);
      const first = String(i % 10);
      let s = first;
      while (s.length < len) s += String(Math.floor(rnd() * 10));
      assert.equal(globalScheme(s)?.type, reference(s), s);
    }
  });
  it('agrees on every 4-digit start padded to 6 and 8 digits', () => {
    for (let i = 1000; i <= 9999; i++) {
      for (const s of [`${i}00`, `${i}99`, `${i}5000`, `${i}0000`]) assert.equal(globalScheme(s)?.type, reference(s), s);
    }
  });
  it('lengths are the package\'s, plus 13 for Visa', () => {
    assert.deepEqual(globalScheme('411111')?.lengths, [13, 16, 18, 19]);
    for (const type of Object.values(creditCardType.types)) {
      if (type === 'visa') continue;
      const info = creditCardType.getTypeInfo(type);
      const p = info.patterns[0];
      const prefix = String(Array.isArray(p) ? p[0] : p).padEnd(8, '0');
      const scheme = globalScheme(prefix);
      if (scheme?.type === type) assert.deepEqual(scheme.lengths, info.lengths, type);
    }
  });
});
