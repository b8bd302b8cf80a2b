import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import { formatNetwork, formatV6, parseNetwork, readAddress } from './ip-parse.ts';

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random IPv6 texts in many spellings, then random one-character mutations. */
function candidates(count: number, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const g = Array.from({ length: 8 }, () => (r() < 0.4 ? 0 : Math.floor(r() * 65536)));
    let parts = g.map((x) => {
      const h = x.toString(16);
      return r() < 0.2 ? h.padStart(4, '0') : r() < 0.2 ? h.toUpperCase() : h;
    });
    if (r() < 0.2) parts = [...parts.slice(0, 6), `${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}`];
    let text = parts.join(':');
    if (r() < 0.6) {
      const start = Math.floor(r() * parts.length);
      const len = Math.floor(r() * (parts.length - start + 1));
      text = `${parts.slice(0, start).join(':')}::${parts.slice(start + len).join(':')}`;
    }
    if (r() < 0.5) {
      const at = Math.floor(r() * (text.length + 1));
      const op = pick(['insert', 'delete', 'replace']);
      const ch = pick([':', '.', '0', 'f', 'g', '1', ':', ' ', '9', 'F']);
      text = op === 'insert' ? text.slice(0, at) + ch + text.slice(at) : op === 'delete' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + ch + text.slice(at + 1);
    }
    out.push(text);
  }
  return out;
}

describe('readAddress', () => {
  it('accepts exactly what node:net accepts (20,000 generated and mutated IPv6 texts)', () => {
    const words = new Uint32Array(4);
    let valid = 0;
    for (const text of candidates(20000, 7)) {
      const ours = readAddress(text, words) !== 0;
      assert.equal(ours, isIP(text) !== 0, text);
      if (ours) valid++;
    }
    assert.ok(valid > 5000, `only ${valid} valid candidates: the generator is too destructive`);
  });

  it('reads the same 128 bits as the WHATWG URL parser (canonical text compared)', () => {
    const words = new Uint32Array(4);
    for (const text of candidates(5000, 11)) {
      if (isIP(text) !== 6) continue;
      const family = readAddress(text, words);
      const whatwg = new URL(`http://[${text}]/`).hostname.slice(1, -1);
      if (family === 6) assert.equal(formatV6(Array.from(words)), whatwg, text);
      else assert.match(whatwg, /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/, text);
    }
  });

  const table: Array<[string, 0 | 4 | 6]> = [
    ['1.2.3.4', 4],
    ['0.0.0.0', 4],
    ['255.255.255.255', 4],
    ['256.1.1.1', 0],
    ['01.2.3.4', 0],
    ['1.2.3', 0],
    ['1.2.3.4.5', 0],
    ['1.2.3.4 ', 0],
    ['::ffff:1.2.3.4', 4],
    ['::FFFF:102:304', 4],
    ['0:0:0:0:0:ffff:1.2.3.4', 4],
    ['::1.2.3.4', 6],
    ['::', 6],
    ['::1', 6],
    ['1::', 6],
    ['1:2:3:4:5:6:7::', 6],
    ['1:2:3:4:5:6:7::8', 0],
    ['1:2:3:4:5:6:7:8:9', 0],
    [':1::', 0],
    ['1:', 0],
    ['12345::', 0],
    ['fe80::1%eth0', 0],
    ['1.2.3.4/32', 0],
    ['', 0],
    ['localhost', 0],
  ];
  for (const [text, family] of table) {
    it(`${JSON.stringify(text)} -> ${family}`, () => {
      assert.equal(readAddress(text, new Uint32Array(4)), family);
    });
  }
});

describe('parseNetwork + formatNetwork', () => {
  const table: Array<[string, string | null]> = [
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['1.2.3.4/32', '1.2.3.4'],
    ['1.2.3.4/0', '0.0.0.0/0'],
    ['1.2.3.4/31', '1.2.3.4/31'],
    ['1.2.3.5/31', '1.2.3.4/31'],
    ['1.2.3.4/33', null],
    ['1.2.3.4/', null],
    ['1.2.3.4/-1', null],
    ['1.2.3.4/ 8', null],
    ['1.2.3.4/8/8', null],
    ['/8', null],
    ['2001:DB8::1/128', '2001:db8::1'],
    ['2001:db8:ffff::1/32', '2001:db8::/32'],
    ['2001:db8::1/129', null],
    ['::1/0', '::/0'],
    ['2001:db8::1/127', '2001:db8::/127'],
    ['::ffff:1.2.3.4/128', '1.2.3.4'],
    ['::ffff:1.2.3.4/120', '1.2.3.0/24'],
    ['::ffff:1.2.3.4/96', '0.0.0.0/0'],
    ['::ffff:1.2.3.4/95', '::fffe:0:0/95'],
    ['::ffff:1.2.3.4/80', '::/80'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:db8:0:0:1:0:0:0', '2001:db8:0:0:1::'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:0:2:3:4:5:6:7', '1:0:2:3:4:5:6:7'],
  ];
  for (const [text, canonical] of table) {
    it(`${text} -> ${canonical ?? 'invalid'}`, () => {
      const net = parseNetwork(text);
      assert.equal(net ? formatNetwork(net) : null, canonical);
    });
  }
});
