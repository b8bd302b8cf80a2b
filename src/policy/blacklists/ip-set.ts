/**
 * Membership of an address in a set of IP addresses and CIDR ranges, both families.
 *
 * Every entry, exact or range, becomes an inclusive [start, end] interval, and the intervals are
 * merged (overlapping or adjacent) into one sorted, disjoint list per family held in typed arrays.
 * A lookup is then one binary search: no separate exact set is needed, an exact address is just a
 * one-address interval, and 1,000,000 entries cost 8 bytes (IPv4) or 32 bytes (IPv6) each instead
 * of a Set's per-entry objects. See bench/blacklist-index.ts for figures.
 *
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is IPv4 on both sides. An IPv6 range wider than
 * ::ffff:0:0/96 (`::/0`) does not catch IPv4 addresses: an operator writing an IPv6 range means
 * IPv6 clients.
 */
import { networkEnd, parseNetwork, readAddress } from './ip-parse.ts';

const scratch = new Uint32Array(4);

/** Compares the 4-word values at a[ai..] and b[bi..]. */
function cmp6(a: Uint32Array, ai: number, b: ArrayLike<number>, bi: number): number {
  for (let k = 0; k < 4; k++) {
    const x = a[ai + k]!;
    const y = b[bi + k]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** True when a[ai..] <= b[bi..] + 1, i.e. an interval starting at a touches one ending at b. */
function touches6(a: Uint32Array, ai: number, b: Uint32Array, bi: number): boolean {
  if (cmp6(a, ai, b, bi) <= 0) return true;
  // a > b here, so b is not all ones and b + 1 does not overflow.
  const next = [b[bi]!, b[bi + 1]!, b[bi + 2]!, b[bi + 3]!];
  for (let k = 3; k >= 0; k--) {
    next[k] = (next[k]! + 1) >>> 0;
    if (next[k] !== 0) break;
  }
  return cmp6(a, ai, next, 0) === 0;
}

/** Sorted 4-word values: an index sort, since typed arrays cannot sort 128-bit keys natively. */
function sort6(words: Uint32Array): Uint32Array {
  const n = words.length / 4;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((x, y) => cmp6(words, x * 4, words, y * 4));
  const out = new Uint32Array(words.length);
  for (let i = 0; i < n; i++) out.set(words.subarray(order[i]! * 4, order[i]! * 4 + 4), i * 4);
  return out;
}

/*
 * Union of intervals from independently sorted starts and ends: the union depends only on the two
 * multisets (coverage at x = starts <= x minus ends < x), so each side can use a native sort.
 * A start that touches the current end (start <= end + 1) opens before that end closes, which
 * merges adjacent intervals as well as overlapping ones.
 */
function union4(starts: Uint32Array, ends: Uint32Array): [Uint32Array, Uint32Array] {
  starts.sort();
  ends.sort();
  const outStart: number[] = [];
  const outEnd: number[] = [];
  let i = 0;
  let depth = 0;
  let open = 0;
  for (let j = 0; j < ends.length; ) {
    if (i < starts.length && starts[i]! <= ends[j]! + 1) {
      if (depth++ === 0) open = starts[i]!;
      i++;
    } else {
      if (--depth === 0) {
        outStart.push(open);
        outEnd.push(ends[j]!);
      }
      j++;
    }
  }
  return [Uint32Array.from(outStart), Uint32Array.from(outEnd)];
}

function union6(rawStarts: Uint32Array, rawEnds: Uint32Array): [Uint32Array, Uint32Array] {
  const starts = sort6(rawStarts);
  const ends = sort6(rawEnds);
  const n = starts.length / 4;
  const outStart: number[] = [];
  const outEnd: number[] = [];
  let i = 0;
  let depth = 0;
  let open = 0;
  for (let j = 0; j < n; ) {
    if (i < n && touches6(starts, i * 4, ends, j * 4)) {
      if (depth++ === 0) open = i;
      i++;
    } else {
      if (--depth === 0) {
        outStart.push(...starts.subarray(open * 4, open * 4 + 4));
        outEnd.push(...ends.subarray(j * 4, j * 4 + 4));
      }
      j++;
    }
  }
  return [Uint32Array.from(outStart), Uint32Array.from(outEnd)];
}

/** Interval count from which the IPv4 bucket table pays for its 256 KB. */
const BUCKETS_FROM = 16_384;

function bucketsOf(starts: Uint32Array): Uint32Array {
  const bucket = new Uint32Array(65537);
  let i = 0;
  for (let b = 0; b <= 65536; b++) {
    while (i < starts.length && starts[i]! >>> 16 < b) i++;
    bucket[b] = i;
  }
  return bucket;
}

export class IpSet {
  static readonly EMPTY = new IpSet(new Uint32Array(0), new Uint32Array(0), null, new Uint32Array(0), new Uint32Array(0), 0);

  private constructor(
    private readonly v4Start: Uint32Array,
    private readonly v4End: Uint32Array,
    /**
     * v4Bucket[b]: index of the first interval whose start is at or above b << 16. A lookup
     * searches one bucket (about 11 intervals at 700k) instead of the whole array: a million
     * entries are several MB, and the cache misses of 20 halving steps were most of a lookup.
     * The table is 256 KB, so small sets (most accounts) go without: null below BUCKETS_FROM.
     */
    private readonly v4Bucket: Uint32Array | null,
    /** 4 words per interval. */
    private readonly v6Start: Uint32Array,
    private readonly v6End: Uint32Array,
    /** Values accepted by build (the store keeps them unique, so this is the entry count). */
    readonly size: number,
  ) {}

  /**
   * Builds the set from addresses and CIDR ranges (canonical text from normaliseEntry, though any
   * valid spelling works). Values that do not parse are skipped: one bad stored row must not
   * take every lookup of the account down with it.
   */
  static build(values: Iterable<string>): IpSet {
    const s4: number[] = [];
    const e4: number[] = [];
    const s6: number[] = [];
    const e6: number[] = [];
    let size = 0;
    for (const value of values) {
      const net = parseNetwork(value);
      if (!net) continue;
      size++;
      if (net.family === 4) {
        s4.push(net.words[0]);
        e4.push(net.prefix === 32 ? net.words[0] : networkEnd(net)[0]!);
      } else {
        s6.push(...net.words);
        e6.push(...(net.prefix === 128 ? net.words : networkEnd(net)));
      }
    }
    if (size === 0) return IpSet.EMPTY;
    const [v4Start, v4End] = union4(Uint32Array.from(s4), Uint32Array.from(e4));
    const [v6Start, v6End] = union6(Uint32Array.from(s6), Uint32Array.from(e6));
    return new IpSet(v4Start, v4End, v4Start.length >= BUCKETS_FROM ? bucketsOf(v4Start) : null, v6Start, v6End, size);
  }

  /** Merged intervals held, for diagnostics and benchmarks. */
  get intervals(): { v4: number; v6: number } {
    return { v4: this.v4Start.length, v6: this.v6Start.length / 4 };
  }

  /** True when the address (any textual form, surrounding spaces ignored) is listed. False for non-addresses. */
  has(ip: string): boolean {
    if (this.size === 0 || typeof ip !== 'string' || ip.length > 64) return false;
    const family = readAddress(ip.trim(), scratch);
    if (family === 4) return this.has4(scratch[0]!);
    if (family === 6) return this.has6(scratch);
    return false;
  }

  private has4(x: number): boolean {
    // The last interval starting at or before x is the only one that can hold it: either in x's
    // bucket or, when none there starts early enough, the last one before the bucket.
    const buckets = this.v4Bucket;
    let lo = buckets ? buckets[x >>> 16]! : 0;
    let hi = buckets ? buckets[(x >>> 16) + 1]! : this.v4Start.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.v4Start[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.v4End[lo - 1]! >= x;
  }

  private has6(x: Uint32Array): boolean {
    let lo = 0;
    let hi = this.v6Start.length / 4;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp6(this.v6Start, mid * 4, x, 0) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && cmp6(this.v6End, (lo - 1) * 4, x, 0) >= 0;
  }
}
