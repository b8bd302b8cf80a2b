import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { paths as geolite2Paths } from 'geolite2';
import { Reader, type AsnResponse } from 'maxmind';
import { buildAsnPrefixIndex, MmdbFormatError, walkNetworks, type AsnPrefixIndex } from './mmdb-networks.ts';

const ASN_DB = geolite2Paths.asn ?? geolite2Paths['GeoLite2-ASN'] ?? assert.fail('the geolite2 package ships no ASN database');

/*
 * A minimal MaxMind DB writer, enough to hand-build small databases whose exact network list is
 * known: the data-section types the metadata and an ASN record need, and a trie builder.
 */
type Value = string | number | bigint | Value[] | { [key: string]: Value };

function ctrl(type: number, size: number): Buffer {
  assert.ok(size < 29 + 256, 'test encoder: sizes up to 284 only');
  // Sizes 29-284 write 29 and then size - 29 in a byte after any type byte. Types above 7 are
  // "extended": type bits 0, then a byte holding type - 7.
  const low = Math.min(size, 29);
  const head = type <= 7 ? [(type << 5) | low] : [low, type - 7];
  return Buffer.from(size >= 29 ? [...head, size - 29] : head);
}

function uintBytes(v: bigint): Buffer {
  const out: number[] = [];
  for (let x = v; x > 0n; x >>= 8n) out.unshift(Number(x & 0xffn));
  return Buffer.from(out);
}

function encode(v: Value): Buffer {
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return Buffer.concat([ctrl(2, b.length), b]);
  }
  if (typeof v === 'bigint') {
    const b = uintBytes(v);
    return Buffer.concat([ctrl(9, b.length), b]); // uint64
  }
  if (typeof v === 'number') {
    const b = uintBytes(BigInt(v));
    return Buffer.concat([ctrl(v <= 0xffff ? 5 : 6, b.length), b]); // uint16 / uint32
  }
  if (Array.isArray(v)) return Buffer.concat([ctrl(11, v.length), ...v.map(encode)]);
  const keys = Object.keys(v);
  return Buffer.concat([ctrl(7, keys.length), ...keys.flatMap((k) => [encode(k), encode(v[k]!)])]);
}

type Target = { data: number } | { node: string } | null;

/** Bits of an address prefix, most significant first. */
function bitsOf(address: string, prefix: number): number[] {
  const bytes: number[] = [];
  if (address.includes(':')) {
    const [head, tail] = address.split('::') as [string, string | undefined];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    // An embedded dotted quad (::1.2.3.4) stands for the last two groups.
    const last = t[t.length - 1];
    if (last?.includes('.')) {
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
      t.splice(t.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
    for (const g of groups) bytes.push(parseInt(g, 16) >> 8, parseInt(g, 16) & 255);
  } else {
    for (const o of address.split('.')) bytes.push(Number(o));
  }
  return Array.from({ length: prefix }, (_, i) => (bytes[i >> 3]! >> (7 - (i & 7))) & 1);
}

/**
 * Builds a database: `records` are ASN data records; `networks` map a prefix to a record index;
 * `aliases` make a prefix point at the node reached by another prefix (as writers do for the
 * IPv4 subtree). Node numbering is creation order, so the root is node 0.
 */
function buildDb(opts: {
  ipVersion: 4 | 6;
  recordSize: 24 | 28 | 32;
  records: Array<{ autonomous_system_number: number; autonomous_system_organization: string }>;
  networks: Array<[string, number, number]>;
  aliases?: Array<[string, number, string, number]>;
  /** Tamper with records after building: [node, side, raw value]. */
  patch?: Array<[number, 0 | 1, number]>;
}): { db: Buffer } {
  const nodes: Array<[Target, Target]> = [[null, null]];
  const named = new Map<string, number>();
  const walkTo = (bits: number[]): { node: number; side: 0 | 1 } => {
    let node = 0;
    for (let i = 0; i < bits.length - 1; i++) {
      const side = bits[i] as 0 | 1;
      const t = nodes[node]![side];
      if (t !== null && 'node' in t) {
        node = named.get(t.node)!;
        continue;
      }
      nodes.push([null, null]);
      const next = nodes.length - 1;
      named.set(`n${next}`, next);
      nodes[node]![side] = { node: `n${next}` };
      node = next;
    }
    return { node, side: bits[bits.length - 1] as 0 | 1 };
  };
  // Make sure an aliased target node exists (the prefix's own node).
  const nodeAt = (address: string, prefix: number): string => {
    const { node, side } = walkTo(bitsOf(address, prefix));
    const t = nodes[node]![side];
    if (t !== null && 'node' in t) return t.node;
    nodes.push([null, null]);
    const next = nodes.length - 1;
    named.set(`n${next}`, next);
    nodes[node]![side] = { node: `n${next}` };
    return `n${next}`;
  };
  for (const [address, prefix, record] of opts.networks) {
    const { node, side } = walkTo(bitsOf(address, prefix));
    nodes[node]![side] = { data: record };
  }
  for (const [address, prefix, targetAddress, targetPrefix] of opts.aliases ?? []) {
    const target = nodeAt(targetAddress, targetPrefix);
    const { node, side } = walkTo(bitsOf(address, prefix));
    nodes[node]![side] = { node: target };
  }

  const data: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  for (const r of opts.records) {
    const b = encode(r);
    offsets.push(size);
    data.push(b);
    size += b.length;
  }
  const nodeCount = nodes.length;
  const value = (t: Target): number => (t === null ? nodeCount : 'data' in t ? nodeCount + 16 + offsets[t.data]! : named.get(t.node)!);
  const nodeBytes = opts.recordSize / 4;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  const write = (n: number, side: 0 | 1, v: number): void => {
    const at = n * nodeBytes;
    if (opts.recordSize === 24) tree.writeUIntBE(v, at + side * 3, 3);
    else if (opts.recordSize === 32) tree.writeUInt32BE(v, at + side * 4);
    else if (side === 0) {
      tree.writeUIntBE(v & 0xffffff, at, 3);
      tree[at + 3] = (tree[at + 3]! & 0x0f) | ((v >>> 24) << 4);
    } else {
      tree.writeUIntBE(v & 0xffffff, at + 4, 3);
      tree[at + 3] = (tree[at + 3]! & 0xf0) | (v >>> 24);
    }
  };
  nodes.forEach(([l, r], n) => {
    write(n, 0, value(l));
    write(n, 1, value(r));
  });
  for (const [n, side, v] of opts.patch ?? []) write(n, side, v);
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_700_000_000n,
    database_type: 'Test-ASN',
    description: { en: 'hand-built' },
    ip_version: opts.ipVersion,
    languages: ['en'],
    node_count: nodeCount,
    record_size: opts.recordSize,
  });
  const marker = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
  return { db: Buffer.concat([tree, Buffer.alloc(16), ...data, marker, metadata]) };
}

function listed(db: Buffer): string[] {
  const out: string[] = [];
  walkNetworks(db, (n) => out.push(n));
  return out;
}

const RECORDS = [
  { autonomous_system_number: 64500, autonomous_system_organization: 'Example A' },
  { autonomous_system_number: 64501, autonomous_system_organization: 'Example B' },
  { autonomous_system_number: 4_200_000_001, autonomous_system_organization: 'Example 32-bit' },
];

describe('walkNetworks on hand-built databases', () => {
  for (const recordSize of [24, 28, 32] as const) {
    it(`IPv4 tree, ${recordSize}-bit records: every network once, in address order, matching the Reader`, () => {
      const { db } = buildDb({
        ipVersion: 4,
        recordSize,
        records: RECORDS,
        networks: [
          ['10.0.0.0', 8, 0],
          ['192.0.2.0', 25, 1],
          ['192.0.2.128', 32, 2],
          ['128.0.0.0', 2, 1],
        ],
      });
      const nets = listed(db);
      assert.deepEqual(nets, ['10.0.0.0/8', '128.0.0.0/2', '192.0.2.0/25', '192.0.2.128/32']);
      const reader = new Reader<AsnResponse>(db);
      for (const n of nets) {
        const [addr, len] = n.split('/') as [string, string];
        const [rec, prefix] = reader.getWithPrefixLength(addr);
        assert.equal(prefix, Number(len), n);
        assert.ok(rec, n);
      }
    });
  }

  it('IPv6 tree: IPv4 networks listed once from ::/96 as a.b.c.d/n; ::ffff:0:0/96 and 2002::/16 aliases skipped', () => {
    const { db } = buildDb({
      ipVersion: 6,
      recordSize: 28,
      records: RECORDS,
      networks: [
        ['::1.0.0.0', 104, 0],
        ['::128.0.0.0', 97, 1],
        ['2001:db8::', 32, 2],
        ['2600::', 12, 1],
      ],
      aliases: [
        ['::ffff:0:0', 96, '::', 96],
        ['2002::', 16, '::', 96],
      ],
    });
    assert.deepEqual(listed(db), ['1.0.0.0/8', '128.0.0.0/1', '2001:db8::/32', '2600::/12']);
    // The aliases do work for the Reader: the same record answers through them.
    const reader = new Reader<AsnResponse>(db);
    assert.equal(reader.get('::ffff:1.2.3.4')?.autonomous_system_number, 64500);
    assert.equal(reader.get('2002:102:304::')?.autonomous_system_number, 64500);
  });

  it('equal data offsets for networks sharing a record', () => {
    const { db } = buildDb({ ipVersion: 4, recordSize: 24, records: RECORDS, networks: [['10.0.0.0', 8, 0], ['11.0.0.0', 8, 1], ['12.0.0.0', 8, 0]] });
    const offsets: number[] = [];
    walkNetworks(db, (_n, off) => offsets.push(off));
    assert.equal(offsets.length, 3);
    assert.equal(offsets[0], offsets[2]);
    assert.notEqual(offsets[0], offsets[1]);
    assert.equal(offsets[0], 0);
  });

  it('buildAsnPrefixIndex groups by ASN, including 32-bit ASNs', () => {
    const { db } = buildDb({
      ipVersion: 6,
      recordSize: 24,
      records: RECORDS,
      networks: [['::10.0.0.0', 104, 0], ['::12.0.0.0', 104, 0], ['::11.0.0.0', 104, 2], ['2001:db8::', 32, 2]],
    });
    const idx = buildAsnPrefixIndex(db);
    assert.deepEqual(idx.prefixes(64500), { ipv4: ['10.0.0.0/8', '12.0.0.0/8'], ipv6: [] });
    assert.deepEqual(idx.prefixes(4_200_000_001), { ipv4: ['11.0.0.0/8'], ipv6: ['2001:db8::/32'] });
    assert.deepEqual(idx.prefixes(64501), { ipv4: [], ipv6: [] });
    assert.deepEqual(idx.prefixes(-1), { ipv4: [], ipv6: [] });
    assert.equal(idx.asns, 2);
    assert.equal(idx.networks, 4);
  });
});

describe('walkNetworks on broken input', () => {
  it('a tiny buffer is refused with a clear error', () => {
    assert.throws(() => walkNetworks(Buffer.from('hello'), () => {}), (e: unknown) => e instanceof MmdbFormatError && /metadata marker/.test(e.message));
    assert.throws(() => buildAsnPrefixIndex(Buffer.alloc(0)), MmdbFormatError);
  });

  it('a truncated database (head only) is refused', () => {
    const real = readFileSync(ASN_DB);
    assert.throws(() => walkNetworks(real.subarray(0, 1_000_000), () => {}), /metadata marker/);
  });

  it('a database whose tree does not fit before its metadata is refused', () => {
    const real = readFileSync(ASN_DB);
    // Head and the real metadata tail: the metadata promises 1.5 M nodes the buffer does not hold.
    const spliced = Buffer.concat([real.subarray(0, 4096), real.subarray(real.length - 4096)]);
    assert.throws(() => walkNetworks(spliced, () => {}), /does not fit/);
  });

  it('a cycle in the tree ends with an error instead of looping', () => {
    const { db } = buildDb({ ipVersion: 4, recordSize: 24, records: RECORDS, networks: [['10.0.0.0', 8, 0]], patch: [[1, 1, 0]] });
    assert.throws(() => walkNetworks(db, () => {}), /cycle/);
  });

  it('a record pointing past the data section is refused', () => {
    const { db } = buildDb({ ipVersion: 4, recordSize: 32, records: RECORDS, networks: [['10.0.0.0', 8, 0]], patch: [[0, 1, 0x7fffffff]] });
    assert.throws(() => walkNetworks(db, () => {}), /outside the data section/);
  });
});

describe('GeoLite2-ASN', () => {
  let db: Buffer;
  let index: AsnPrefixIndex;
  let reader: Reader<AsnResponse>;
  before(() => {
    db = readFileSync(ASN_DB);
    index = buildAsnPrefixIndex(db);
    reader = new Reader<AsnResponse>(db);
  });

  it('AS13335 (Cloudflare) holds 1.1.1.0/24; AS15169 (Google) holds 8.8.8.0/24 and IPv6 prefixes', () => {
    const cf = index.prefixes(13335);
    assert.ok(cf.ipv4.includes('1.1.1.0/24'), 'AS13335 1.1.1.0/24');
    const g = index.prefixes(15169);
    assert.ok(g.ipv4.includes('8.8.8.0/24'), 'AS15169 8.8.8.0/24');
    assert.ok(g.ipv6.length > 0);
    assert.ok(g.ipv6.every((n) => n.includes(':')) && g.ipv4.every((n) => !n.includes(':')));
  });

  it('every listed network of AS15169 and AS13335 resolves to that ASN with that prefix length', () => {
    for (const asn of [15169, 13335]) {
      const { ipv4, ipv6 } = index.prefixes(asn);
      for (const net of [...ipv4, ...ipv6]) {
        const [addr, len] = net.split('/') as [string, string];
        const [rec, prefix] = reader.getWithPrefixLength(addr);
        assert.equal(rec?.autonomous_system_number, asn, net);
        // The Reader counts IPv4 lookups from the IPv4 subtree, so lengths compare directly.
        assert.equal(prefix, Number(len), net);
      }
    }
  });

  it('counts are sane and no network is listed twice or through an alias', () => {
    assert.ok(index.networks > 500_000 && index.networks < 5_000_000, `networks ${index.networks}`);
    assert.ok(index.asns > 50_000 && index.asns < 200_000, `asns ${index.asns}`);
    const seen = new Set<string>();
    let aliased = 0;
    walkNetworks(db, (n) => {
      seen.add(n);
      if (n.startsWith('::ffff:') || n.startsWith('2002:') || n.startsWith('::')) aliased++;
    });
    assert.equal(aliased, 0);
    assert.equal(seen.size, index.networks);
  });

  it('unknown and invalid ASNs give empty lists', () => {
    assert.deepEqual(index.prefixes(64511), { ipv4: [], ipv6: [] });
    assert.deepEqual(index.prefixes(1.5), { ipv4: [], ipv6: [] });
    assert.deepEqual(index.prefixes(2 ** 33), { ipv4: [], ipv6: [] });
  });
});
